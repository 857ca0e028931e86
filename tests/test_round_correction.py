"""Correcting a card already placed (the supervisor's correction after a misread): the hand is dealt again."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cards import Card, parse_cards
from controller.engine.log import EventLog
from controller.engine.recovery import rebuild, recover
from controller.engine.round import Limits
from controller.errors import IllegalAction
from controller.events import CardCorrected, Revealed
from controller.records.journal import Journal
from controller.rules.top_card.game import TopCard
from tests.games.rounds import deal, decide, new_round
from tests.helpers import TOP_CARD_LIMITS, MemoryLog, new_journal, top_card_round


def top_card(log: EventLog | None = None, *cards: str):
    round = top_card_round(log)  # type: ignore[arg-type]
    round.start()
    round.place_wager(1, "home", 1000)
    round.place_wager(3, "tie", 250)
    round.close_betting()
    for code in cards:
        round.card(Card.parse(code))
    return round


def test_a_misread_card_is_replaced_and_the_round_settles_on_the_card_really_dealt() -> None:
    log = MemoryLog()
    round = top_card(log, "9H")
    round.correct_card(0, Card.parse("KD"), "camera saw KD")
    assert round.cards[0] == ("home", Card.parse("KD"), "supervisor")
    corrected = log.named(CardCorrected.EVENT)[-1]
    assert (corrected["index"], corrected["target"], corrected["card"], corrected["previous"]) == (0, "home", "KD", "9H")
    round.card(Card.parse("KH"))
    # Top Card § 651b.1(g): equal ranks are a tie: the Tie pays 11 to 1, Home loses half
    assert {s.wager: s.returned for s in round.settlements} == {"home": 500, "tie": 250 * 12}


def test_a_round_held_at_the_reveal_is_corrected_and_revealed_again() -> None:
    log = MemoryLog()
    round = top_card_round(log)
    round.witness = lambda r: None if r.cards[1][1] == Card.parse("2S") else "camera: away looks like 2S"
    round.start()
    round.place_wager(1, "home", 1000)
    round.close_betting()
    round.card(Card.parse("5H"))
    round.card(Card.parse("7S"))
    assert round.state == "hold"
    round.correct_card(1, Card.parse("2S"), "camera was right")
    assert [(r["away"], r["result"]) for r in log.named(Revealed.EVENT)] == [("7S", "away"), ("2S", "home")]
    round.release(by="supervisor")
    assert round.state == "complete"
    assert {s.wager: s.returned for s in round.settlements} == {"home": 2000}  # 5 beats 2: Home wins 1 to 1


def test_corrections_the_engine_cannot_make_are_refused_and_change_nothing() -> None:
    round = top_card(None, "9H")
    with pytest.raises(IllegalAction, match="there is no card 2"):
        round.correct_card(1, Card.parse("2C"), "no such card")
    # High Card Flush is dealt from one deck: a card cannot be in two hands
    hcf = deal(new_round("high-card-flush"), {(1, "ante"): 500, (2, "ante"): 500},
               "AH KH 7H 2H 3S 5D 4C AS KS 7S 2S 3D 6C 9D 9C 5C 2C TD 8S QD KC")
    with pytest.raises(IllegalAction, match="KH was already dealt this round"):
        hcf.correct_card(0, Card.parse("KH"), "misread")
    assert hcf.cards[0][1] == Card.parse("AH") and hcf.hand.cards[1][0] == Card.parse("AH")
    decide(hcf, 1, "raise", amount=500)
    with pytest.raises(IllegalAction, match="only before the first decision"):
        hcf.correct_card(0, Card.parse("AS"), "too late")
    complete = top_card(None, "9H", "2C")
    with pytest.raises(IllegalAction, match="no card can be corrected while complete"):
        complete.correct_card(0, Card.parse("AS"), "too late")


def test_a_correction_is_reenacted_after_a_restart_and_on_replay(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        round = top_card(EventLog("T1", journal=journal), "9H")  # type: ignore[arg-type]
        round.correct_card(0, Card.parse("KD"), "camera saw KD")
    with Journal(path, table_id="T1") as journal:
        [recovered] = recover(journal, EventLog("T1", journal=journal), TopCard(), Limits(TOP_CARD_LIMITS))
        assert recovered.round is not None and recovered.round.hand.home == Card.parse("KD")
        recovered.round.card(Card.parse("KH"))
        assert {s.wager: s.returned for s in recovered.round.settlements} == {"home": 500, "tie": 250 * 12}
        replayed = rebuild(journal.round_records("T1-R1"), None)
    assert [c.code for _, c, _ in replayed.cards] == [c.code for c in parse_cards("KD KH")]
