"""The shared round machine: its states, its refusals, hold and void."""

import pytest

from controller.cards import Card
from controller.errors import IllegalAction, WagerRefused
from controller.events import CardFaulted, RoundHeld, RoundVoided, StateChanged, WagerChanged, WagerPlaced, WagerRefusal
from tests.helpers import MemoryLog, top_card_round


def cards(round, *codes: str) -> None:
    for code in codes:
        round.card(Card.parse(code))


def test_a_round_walks_every_state_in_order() -> None:
    log = MemoryLog()
    round = top_card_round(log, burns=1)
    round.start()
    round.place_wager(1, "home", 1000)
    round.close_betting()
    cards(round, "2C", "KH", "3D")
    assert round.state == "complete"
    states = [r["state"] for r in log.named(StateChanged.EVENT)]
    assert states == ["betting", "no_more_bets", "dealing", "reveal", "settling", "complete"]


def test_every_event_has_table_round_and_increasing_sequence() -> None:
    log = MemoryLog()
    round = top_card_round(log)
    round.start()
    round.place_wager(2, "tie", 100)
    round.close_betting()
    cards(round, "AS", "AD")
    records = log.records()
    assert all(r["table"] == "T1" and r["round"] == "T1-R1" for r in records)
    seqs = [r["seq"] for r in records]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


def test_wager_after_no_more_bets_is_refused_and_logged() -> None:
    log = MemoryLog()
    round = top_card_round(log)
    round.start()
    round.place_wager(1, "home", 1000)
    round.close_betting()
    with pytest.raises(WagerRefused, match="no more bets"):
        round.place_wager(2, "away", 1000)
    assert log.named(WagerRefusal.EVENT)[-1]["reason"] == "no more bets"
    assert round.wagers == {(1, "home"): 1000}


@pytest.mark.parametrize(
    ("spot", "wager", "amount", "reason"),
    [(1, "home", 499, "outside the table limits"), (1, "tie", 10001, "outside the table limits"),
     (8, "home", 1000, "no such spot"), (1, "banker", 1000, "takes no 'banker' wager"),
     (1, "home", -5, "whole number of cents"), (1, "home", 10.5, "whole number of cents")],
)
def test_wagers_outside_the_rules_are_refused_with_the_reason(spot, wager, amount, reason) -> None:
    round = top_card_round()
    round.start()
    with pytest.raises(WagerRefused, match=reason):
        round.place_wager(spot, wager, amount)
    assert round.wagers == {}


def test_a_wager_can_be_corrected_or_taken_back_while_betting_is_open() -> None:
    log = MemoryLog()
    round = top_card_round(log)
    round.start()
    round.place_wager(1, "home", 1000)
    round.place_wager(1, "home", 2000)
    round.place_wager(1, "away", 500)
    round.place_wager(1, "away", 0)
    assert round.wagers == {(1, "home"): 2000}
    assert [r["event"] for r in log.records() if r["event"].startswith("wager")] == [
        WagerPlaced.EVENT, WagerChanged.EVENT, WagerPlaced.EVENT, WagerChanged.EVENT]


def test_invalid_triggers_raise() -> None:
    round = top_card_round()
    with pytest.raises(IllegalAction, match="while idle"):
        round.close_betting()
    round.start()
    with pytest.raises(IllegalAction):
        round.start()
    with pytest.raises(IllegalAction, match="cannot resume while betting"):
        round.release()


def test_a_card_in_the_wrong_state_is_kept_logged_and_holds_the_round() -> None:
    log = MemoryLog()
    round = top_card_round(log)
    round.start()
    round.place_wager(1, "home", 1000)
    assert round.card(Card.parse("9S")) == "stray"
    assert round.state == "hold"
    assert round.stray_cards[0][0] == Card.parse("9S")
    assert log.named(CardFaulted.EVENT)[0]["card"] == "9S"
    assert log.named(RoundHeld.EVENT)[0]["held_from"] == "betting"


def test_a_held_round_resumes_where_it_stopped() -> None:
    round = top_card_round()
    round.start()
    round.place_wager(1, "away", 1000)
    round.close_betting()
    round.card(Card.parse("4H"))
    round.put_on_hold("shoe door open")
    assert round.card_target() is None
    round.release()
    assert round.state == "dealing"
    round.card(Card.parse("5H"))
    assert round.state == "complete"
    assert round.settlements[0].returned == 2000


def test_a_void_round_returns_every_wager_whole() -> None:
    log = MemoryLog()
    round = top_card_round(log)
    round.start()
    round.place_wager(1, "home", 1000)
    round.place_wager(3, "tie", 125)
    round.close_betting()
    round.card(Card.parse("4H"))
    round.void_round("card exposed")
    assert round.state == "void"
    assert {(s.spot, s.wager): s.returned for s in round.settlements} == {(1, "home"): 1000, (3, "tie"): 125}
    assert round.totals()["house_win"] == 0
    assert log.named(RoundVoided.EVENT)[0]["reason"] == "card exposed"
    with pytest.raises(IllegalAction):
        round.card(Card.parse("4D")) if round.card_target() else round.release()


def test_completed_round_refuses_everything() -> None:
    round = top_card_round()
    round.start()
    round.close_betting()
    cards(round, "2C", "3C")
    assert round.state == "complete"
    with pytest.raises(IllegalAction):
        round.void_round("too late")
    assert round.card(Card.parse("4C")) == "stray"
    assert round.state == "complete"


def test_library_logging_is_routed_as_structlog_json() -> None:
    import io
    import json
    import logging

    from controller.engine.log import route_stdlib_logging

    stream = io.StringIO()
    handler = route_stdlib_logging(stream)
    try:
        logging.getLogger("drivers.session").warning("link lost on %s", "/dev/pts/3")
    finally:
        logging.getLogger().removeHandler(handler)
    record = json.loads(stream.getvalue())
    assert record["event"] == "link lost on /dev/pts/3"
    assert record["logger"] == "drivers.session" and record["level"] == "warning"
