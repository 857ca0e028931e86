"""Decisions that carry something, entered through the console's queue: a raise amount, dice, a hand set, a tile keyed."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from controller.cards import Card
from controller.engine.commands import (
    CloseBetting,
    CommandRefused,
    CorrectPlacedCard,
    Decide,
    EnterPiece,
    OpenRound,
    PlaceWager,
    Sit,
)
from controller.engine.feeds import PieceRefused
from controller.engine.loop import TableLoop
from controller.errors import DecisionRefused, IllegalAction
from controller.events import PieceRefusal, SupervisorActed
from controller.money import format_cents
from controller.rules.pai_gow_poker.hands import foul_reason, settings
from controller.rules.pai_gow_tiles.ranking import hand_value
from controller.tiles import TILE_SET, Tile, UnknownTile
from tests.console.tables import do, table_loop


@pytest.fixture
def running(request: pytest.FixtureRequest) -> Iterator[TableLoop]:
    loop, _ = table_loop(request.param)
    loop.start()
    yield loop
    loop.stop()


def start(loop: TableLoop, wagers: list[tuple[int, str, int]]) -> None:
    do(loop, OpenRound())
    for spot, name, cents in wagers:
        do(loop, PlaceWager(spot, name, cents))
    do(loop, CloseBetting())


@pytest.mark.parametrize("running", ["high-card-flush"], indirect=True)
def test_a_raise_offers_each_allowed_multiple_and_refuses_more(running: TableLoop) -> None:
    # rules-notes (High Card Flush): up to 1x, 2x or 3x the Ante by the flush's length
    start(running, [(2, "ante", 1000)])
    pending = running.snapshot()["round"]["pending"]
    offered = [a["amount"] for a in pending["amounts"]]
    assert offered == [1000 * m for m in range(1, len(offered) + 1)] and 1 <= len(offered) <= 3
    assert pending["amounts"][0] == {"action": "raise", "amount": 1000, "text": "$10.00", "entry": "10.00"}
    with pytest.raises(DecisionRefused, match=re.escape(f"may raise $10.00 to {format_cents(offered[-1])}")):
        do(running, Decide(2, "raise", amount=offered[-1] + 1000))
    assert running.snapshot()["message"].endswith(f"not {format_cents(offered[-1] + 1000)}")  # the engine's reason, for the page
    do(running, Decide(2, "raise", amount=offered[-1]))
    round = running.snapshot()["round"]
    assert round["state"] == "complete"
    assert [d["amount"] for d in round["decisions"]] == [offered[-1]]


@pytest.mark.parametrize("running", ["double-hand-poker"], indirect=True)
def test_the_dealer_enters_pile_dice_and_a_hand_setting_and_a_foul_one_is_refused(running: TableLoop) -> None:
    # seed 003 "Game Description": the player-dealer picks a pile, throws three dice; each hand set 2 / 5, never foul
    start(running, [(1, "bank", 50000), (3, "bet", 2000)])
    assert running.snapshot()["round"]["pending"]["values"] == [[1, 7]]
    do(running, Decide(1, "first-pile", values=(3,)))
    with pytest.raises(DecisionRefused, match="dice"):
        do(running, Decide(1, "dice", values=(7, 1, 1)))
    do(running, Decide(1, "dice", values=(2, 3, 3)))
    pending = running.snapshot()["round"]["pending"]
    setting = pending["setting"]
    assert (pending["spot"], setting["count"], setting["named"], setting["rest"]) == (3, 2, "front hand", "back hand")
    hand = running.round.hand.hands[3]  # type: ignore[union-attr]
    # the hand lies face down: the page gets its size and the whole deck to tap the named cards from, never the hand
    assert "cards" not in setting and setting["size"] == 7 and len(setting["choices"]) == 53
    assert not {c.code for c in hand} & {c["card"] for c in running.snapshot()["round"]["cards"]}
    foul = next((s for s in settings(hand) if foul_reason(s.front, s.back, "lowest")), None)
    if foul is not None:
        with pytest.raises(DecisionRefused, match="foul hand"):
            do(running, Decide(3, "set", cards=tuple(c.code for c in foul.front)))
        assert "foul hand" in running.snapshot()["message"]
    legal = next(s for s in settings(hand) if not foul_reason(s.front, s.back, "lowest"))
    do(running, Decide(3, "set", cards=tuple(c.code for c in legal.front)))
    assert running.round.hand.set_hands[3].same_as(legal)  # type: ignore[union-attr]
    do(running, Decide(1, "house-way"))
    assert running.snapshot()["round"]["state"] == "complete"


@pytest.mark.parametrize("running", ["pai-gow-tiles"], indirect=True)
def test_the_dealer_keys_each_tile_and_an_unknown_or_used_one_is_refused(running: TableLoop) -> None:
    # seed 003 "PAI GOW TILES": 32 dominoes, four to each of eight positions; no device deals them
    start(running, [(1, "bank", 100000), (4, "main", 2000)])
    entry = running.snapshot()["round"]["entry"]
    assert len(entry) == 21 and {"code": "6-6", "name": "teen"} in entry  # no copies-left count: it would tell the tiles out
    with pytest.raises(UnknownTile, match="unknown tile '7-7'"):
        do(running, EnterPiece("7-7"))
    do(running, EnterPiece("2-4"))
    with pytest.raises(PieceRefused, match="the tile keyed, 2-4, is already dealt this round: the set holds 1 and it is out"):
        do(running, EnterPiece("2-4"))
    # the page's copy of the refusal names no tile lying face down
    assert running.snapshot()["message"] == "the tile keyed, ??, is already dealt this round: the set holds 1 and it is out"
    refused = running.log.named(PieceRefusal.EVENT)  # type: ignore[attr-defined]
    assert [(r["code"], r["target"]) for r in refused] == [("7-7", "stack1"), ("2-4", "stack1")]
    do(running, EnterPiece("6-6"))
    do(running, EnterPiece("6-6"))
    with pytest.raises(PieceRefused, match="all 2 are out"):
        do(running, EnterPiece("6-6"))
    rest = list(TILE_SET)
    for code in ("2-4", "6-6", "6-6"):
        rest.remove(Tile.parse(code))
    for tile in rest:
        do(running, EnterPiece(tile.code))
    round = running.snapshot()["round"]
    assert round["entry"] is None and [c["source"] for c in round["cards"]] == ["dealer"] * 32
    with pytest.raises(CommandRefused, match="no piece is due"):
        do(running, EnterPiece("1-1"))
    with pytest.raises(PieceRefused, match="the tile keyed, 6-6, is already dealt this round: the set holds 2 and all 2 are out"):
        do(running, CorrectPlacedCard(0, "6-6", "a correction may not make a third teen"))
    do(running, Decide(1, "dice", values=(1, 1, 1)))
    pending = running.snapshot()["round"]["pending"]
    assert (pending["spot"], pending["setting"]["named"]) == (4, "high hand")
    tiles = running.round.hand.hands[4]  # type: ignore[union-attr]
    high = max(((a, b) for i, a in enumerate(tiles) for b in tiles[i + 1:]), key=hand_value)  # never foul
    do(running, Decide(4, "set", cards=tuple(t.code for t in high)))
    do(running, Decide(1, "house-way"))
    assert running.snapshot()["round"]["state"] == "complete"


@pytest.mark.parametrize("running", ["top-card"], indirect=True)
def test_a_table_dealt_by_a_device_takes_no_keyed_pieces(running: TableLoop) -> None:
    do(running, OpenRound())
    with pytest.raises(CommandRefused, match="the shoe deals this table's cards"):
        do(running, EnterPiece("AS"))


@pytest.mark.parametrize("running", ["high-card-flush"], indirect=True)
def test_the_supervisor_corrects_a_placed_card_before_the_first_decision(running: TableLoop) -> None:
    start(running, [(2, "ante", 1000), (4, "ante", 1000)])
    round = running.round
    assert round is not None
    dealt = {c for _, c, _ in round.cards}
    spare = next(c for c in round.game.deck() if c not in dealt)
    do(running, CorrectPlacedCard(0, spare.code.lower(), "camera saw it"))
    cards = running.snapshot()["round"]["cards"]
    assert (cards[0]["card"], cards[0]["face_down"], cards[0]["source"]) == (None, True, "supervisor")  # still face down
    assert round.cards[0][1] is spare and round.hand.cards[2][0] is spare
    action = running.log.named(SupervisorActed.EVENT)[-1]  # type: ignore[attr-defined]
    assert (action["action"], action["index"], action["card"]) == ("correct_placed_card", 0, spare.code)
    with pytest.raises(IllegalAction, match="already dealt this round"):
        do(running, CorrectPlacedCard(1, round.cards[7][1].code, "a card of spot 4"))
    do(running, Decide(2, "fold"))
    with pytest.raises(IllegalAction, match="only before the first decision"):
        do(running, CorrectPlacedCard(0, round.cards[1][1].code, "too late"))


@pytest.mark.parametrize("running", ["lowball"], indirect=True)
def test_poker_seats_are_dealt_in_and_bets_raises_and_draws_carry_what_the_page_offers(running: TableLoop) -> None:
    # seed 003 Low-ball: blinds, a spread-limit "2 to 6" betting round, one draw, a second betting round
    do(running, OpenRound())
    for spot in (2, 4, 6):
        do(running, Sit(spot))
    with pytest.raises(CommandRefused, match="spot 4 is already dealt in"):
        do(running, Sit(4))
    assert [s["seated"] for s in running.snapshot()["round"]["layout"]][1:6] == [True, False, True, False, True]
    do(running, CloseBetting())
    while (pending := running.snapshot()["round"]["pending"])["actions"] == ["post"]:
        do(running, Decide(pending["spot"], "post"))
    raises = [a["amount"] for a in pending["amounts"] if a["action"] == "raise"]
    assert len(raises) == 2 and raises[0] < raises[1]  # the spread: smallest and largest raise
    with pytest.raises(DecisionRefused, match="spread-limit raise puts in"):
        do(running, Decide(pending["spot"], "raise", amount=raises[1] + 100))
    do(running, Decide(pending["spot"], "raise", amount=raises[1]))
    while "draw" not in (pending := running.snapshot()["round"]["pending"])["actions"]:
        do(running, Decide(pending["spot"], "call" if "call" in pending["actions"] else "check"))
    setting = pending["setting"]
    assert (setting["action"], setting["named"], setting["size"]) == ("draw", "discard", 5)
    hole = [c.code for c in running.round.hand.holes[pending["spot"]]]  # type: ignore[union-attr]
    do(running, Decide(pending["spot"], "draw", cards=tuple(hole[:2])))
    assert running.round.hand.discards == [Card.parse(c) for c in hole[:2]]  # type: ignore[union-attr]


@pytest.mark.parametrize("running", ["high-card-flush"], indirect=True)
def test_the_dealers_cards_stay_face_down_on_the_pages_until_the_reveal(running: TableLoop) -> None:
    # rules-notes (High Card Flush): the players decide against a dealer hand they cannot see
    from controller.engine.view import table_view

    start(running, [(2, "ante", 1000), (4, "ante", 1000)])
    view = table_view(running)
    assert len(view["round"]["cards"]) == 21 and all(c["card"] is None and c["face_down"] for c in view["round"]["cards"])
    assert not any(e["detail"].get("card") or e["detail"].get("cards") for e in view["events"])
    do(running, Decide(2, "fold"))
    do(running, Decide(4, "raise", amount=1000))
    cards = table_view(running)["round"]["cards"]
    # the reveal turns the dealer's hand and the hand that raised; the folded hand is never shown
    assert all(c["card"] and not c["face_down"] for c in cards if c["target"] in ("dealer", "spot 4"))
    assert all(c["card"] is None and c["face_down"] for c in cards if c["target"] == "spot 2")
