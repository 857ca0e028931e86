"""What the pages are told: cards with their source and the camera's word, settlement lines in the game's order."""

from __future__ import annotations

import time

from controller.engine.commands import CloseBetting, OpenRound, PlaceWager
from controller.engine.loop import TableLoop
from controller.engine.view import settlement_view, table_view
from controller.events import CameraAgreed, CameraDisagreed
from controller.money import Rounding
from controller.odds import parse_payout
from controller.settlement import settle
from tests.console.tables import table_loop


def played_round(loop: TableLoop) -> str:
    for command in (OpenRound(), PlaceWager(1, "home", 1000), PlaceWager(2, "tie", 500), CloseBetting()):
        loop.submit(command).result(5)
    deadline = time.monotonic() + 5
    while loop.snapshot()["round"]["state"] != "complete":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return str(loop.snapshot()["round"]["id"])


def test_each_card_names_its_source_and_a_camera_disagreement_is_shown_on_the_card() -> None:
    loop, log = table_loop("top-card")
    loop.start()
    try:
        round_id = played_round(loop)
        cards = {c["target"]: c for c in table_view(loop)["round"]["cards"]}
        assert {c["source"] for c in cards.values()} == {"shoe"}
        log.emit(CameraDisagreed(round=round_id, kind="misread", zone="away", dealt=cards["away"]["card"], seen="2C"))
        cards = {c["target"]: c for c in table_view(loop)["round"]["cards"]}
        assert cards["away"]["disagreement"] == "camera saw 2C (misread)"
        assert cards["home"]["disagreement"] is None
        log.emit(CameraAgreed(round=round_id, cards=2))
        assert table_view(loop)["round"]["cards"][1]["source"] == "shoe+camera"
        assert table_view(loop)["round"]["cards"][0]["source"] == "shoe"  # the burn card is not filmed
    finally:
        loop.stop()


def test_settlement_lines_tell_the_dealer_what_to_pay_or_collect() -> None:
    # Top Card § 651b.1(g): 1 to 1 wins, 11 to 1 tie, half returned to Home/Away on a tie
    assert settlement_view(settle(1, "home", 1000, parse_payout("1 to 1"), Rounding.PLAYER))["instruction"] == "pay $10.00"
    assert settlement_view(settle(1, "tie", 500, parse_payout("11 to 1"), Rounding.PLAYER))["instruction"] == "pay $55.00"
    assert settlement_view(settle(1, "away", 1000, parse_payout("lose"), Rounding.PLAYER))["instruction"] == "collect $10.00"
    half = settlement_view(settle(1, "away", 1025, parse_payout("half returned"), Rounding.PLAYER))
    assert half["instruction"] == "collect $5.12, return $5.13"
    assert settlement_view(settle(1, "away", 1000, parse_payout("push"), Rounding.PLAYER))["instruction"] == "push: return the wager"
