"""What a screen may get of a round is decided once, in the engine, from the game's rules; the record keeps all."""

from __future__ import annotations

import io
import json
import random

from controller.engine.log import EventLog
from controller.engine.round import Limits, Round
from controller.engine.visibility import Audience, blank, hands, sight
from controller.events import CardDealt, DecisionTaken, ShuffleTested, StackDispensed, SupervisorActed
from controller.rules.base import Decision, Face
from controller.rules.evaluators.three_card import describe3, evaluate3
from controller.rules.registry import make_game


def three_card_poker_round(log: EventLog) -> Round:
    round = Round("R1", make_game("three-card-poker"), log, spots=8, limits=Limits({}))
    round.start()
    round.place_wager(1, "bank", 50000)
    round.place_wager(2, "ante", 1000)
    round.place_wager(3, "ante", 1000)
    round.close_betting()
    return round


def test_the_terminal_and_the_screens_get_no_face_down_card_and_the_record_gets_every_one() -> None:
    record, terminal = io.StringIO(), io.StringIO()
    log = EventLog("T1", json_stream=record, console_stream=terminal)
    round = three_card_poker_round(log)
    deck = list(round.game.deck())
    random.Random(3).shuffle(deck)
    log.emit(StackDispensed(round=round.id, cards=[c.code for c in deck[:3]]))
    for card in deck[:9]:
        round.card(card, "shuffler")
    # Dealing procedures 3: the player-dealer's bottom card is turned up; every other card lies face down
    faces = round.faces()
    player_dealer_up = round.cards.index(next(c for c in round.cards if c[0] == "seat1"))
    assert [i for i, f in enumerate(faces) if f is Face.UP] == [player_dealer_up]
    seen = sight(round, Audience.DEALER)
    hidden = {c.code for i, (_, c, _) in enumerate(round.cards) if not seen.shown[i]}
    assert len(hidden) == 8 and sight(round, Audience.RECORD).shown == (True,) * 9
    written = terminal.getvalue()
    assert not any(code in written.split() or f"card={code}" in written for code in hidden)
    assert "cards=None count=3" in written  # the stack is counted, never named
    recorded = [json.loads(line) for line in record.getvalue().splitlines()]
    assert {r["card"] for r in recorded if r["event"] == CardDealt.EVENT} == {c.code for c in deck[:9]}
    assert next(r for r in recorded if r["event"] == StackDispensed.EVENT)["cards"] == [c.code for c in deck[:3]]
    # seat 2 folds: its cards are never shown; seat 3 plays: its hand is turned at the reveal with the player-dealer's
    round.decide(Decision(2, "fold"))
    round.decide(Decision(3, "play"))
    assert round.state == "complete"
    after = sight(round, Audience.PIT)
    shown = {t for (t, _, _), ok in zip(round.cards, after.shown, strict=True) if ok}
    assert shown == {"seat1", "seat3"}
    folded = [c.code for t, c, _ in round.cards if t == "seat2"]
    assert not set(folded) & after.shown_codes and after.scrub(" ".join(folded)) == "?? ?? ??"
    # what the dealer reads beside each hand comes from its face-up cards only: the folded hand has no label
    labels = {h["target"]: (h["spot"], h["label"]) for h in hands(round, after)}
    assert labels["seat2"] == (2, None)
    assert labels["seat3"][0] == 3 and labels["seat3"][1] == describe3(evaluate3([c for t, c, _ in round.cards if t == "seat3"]))


def test_before_the_reveal_a_hand_label_reads_only_the_face_up_card() -> None:
    log = EventLog("T1")
    round = three_card_poker_round(log)
    for card in list(round.game.deck())[:9]:
        round.card(card, "shuffler")
    labels = {h["target"]: h["label"] for h in hands(round, sight(round, Audience.DEALER))}
    assert labels == {"seat2": None, "seat3": None, "seat1": None}  # one card of three face up: no rank to read


def test_an_event_of_a_round_no_longer_known_is_blanked_never_guessed_open() -> None:
    event = {"event": CardDealt.EVENT, "round": "gone", "card": "AS", "target": "seat3"}
    assert blank(event, None)["card"] is None
    decision = {"event": DecisionTaken.EVENT, "round": "gone", "cards": ["AS", "KD"], "action": "set"}
    assert blank(decision, None) | {"cards": None} == blank(decision, None)
    assert blank(decision, None)["cards_count"] == 2


def test_a_decks_order_at_its_end_reaches_no_screen_a_folded_hand_in_it_stays_hidden() -> None:
    # A shuffler's deck ends when the next round's deck is shuffled: its `shuffle_tested` names every card dealt from
    # it in order, the folded hand and the burns too, which console.md says are never shown.
    record, terminal = io.StringIO(), io.StringIO()
    log = EventLog("T1", json_stream=record, console_stream=terminal)
    round = three_card_poker_round(log)
    for card in list(round.game.deck())[:9]:
        round.card(card, "shuffler")
    round.decide(Decision(2, "fold"))
    round.decide(Decision(3, "play"))
    folded = [c.code for t, c, _ in round.cards if t == "seat2"]
    order = [c.code for _, c, _ in round.cards]
    log.emit(ShuffleTested(round=None, device="T1/shuffler", shoe=1, cards=9, order=order, results=[]))
    following = Round("R2", make_game("three-card-poker"), log, spots=8, limits=Limits({}))
    following.start()
    log.emit(ShuffleTested(round=following.id, device="T1/shuffler", shoe=1, cards=9, order=order, results=[]))
    tested = [line for line in terminal.getvalue().splitlines() if ShuffleTested.EVENT in line]
    assert len(tested) == 2 and not any(code in line for line in tested for code in folded)
    recorded = [json.loads(line) for line in record.getvalue().splitlines() if ShuffleTested.EVENT in line]
    assert [r["order"] for r in recorded] == [order, order]  # the record keeps it whole (docs/shuffle.md's report)


def test_a_card_the_supervisor_enters_for_a_face_down_place_is_not_shown_before_it_is_placed() -> None:
    # the supervisor's entry is journaled before the card is placed (controller/engine/loop.py, holds.py): at that
    # moment its code is no hidden card of the round yet, so neither the scrub nor (target, code) blanked it
    record, terminal = io.StringIO(), io.StringIO()
    log = EventLog("T1", json_stream=record, console_stream=terminal)
    round = three_card_poker_round(log)
    deck = list(round.game.deck())
    for card in deck[:8]:
        round.card(card, "shuffler")
    entered = deck[8]  # the ninth card: seat 3's third, face down
    log.emit(SupervisorActed(round=round.id, action="correct_card", reason="unreadable card", by="pat", card=entered.code))
    round.card(entered, "supervisor")
    assert not sight(round, Audience.DEALER).shown[8]
    acted = [line for line in terminal.getvalue().splitlines() if SupervisorActed.EVENT in line]
    assert len(acted) == 1 and entered.code not in acted[0].split("card=")[1]
    kept = [json.loads(line) for line in record.getvalue().splitlines() if SupervisorActed.EVENT in line]
    assert kept[0]["card"] == entered.code
    # once the round reveals it, the screens may name it
    round.decide(Decision(2, "fold"))
    round.decide(Decision(3, "play"))
    assert blank(kept[0], sight(round, Audience.PIT))["card"] == entered.code
