"""The round engine's hooks for California games: spot refusals, chance decisions, reports and misdeals."""

from __future__ import annotations

import random

import pytest

from controller.cards import Card
from controller.engine.players import SimulatedPlayers
from controller.engine.round import Limits, Round
from controller.errors import IllegalAction
from controller.events import CardDealt, DecisionTaken, IrregularityRefusal, RoundHeld
from controller.rules.base import Irregularity
from controller.rules.registry import make_game
from tests.helpers import MemoryLog, top_card_round
from tests.paigow.roundkit import new_round, stacked_deck


def test_a_game_without_rules_for_reports_refuses_them_and_logs_it() -> None:
    round = top_card_round()
    round.start()
    round.place_wager(1, "home", 500)
    round.close_betting()
    with pytest.raises(ValueError, match="has no rule for a boxed report"):
        round.report(Irregularity("boxed", Card.parse("AS")))
    assert round.log.named(IrregularityRefusal.EVENT)[0]["kind"] == "boxed"


def test_reports_are_refused_when_nothing_is_being_dealt() -> None:
    round = top_card_round()
    round.start()
    with pytest.raises(IllegalAction, match="nothing is dealt while betting"):
        round.report(Irregularity("exposed", Card.parse("AS")))


def test_the_simulated_dice_and_pile_come_from_the_shuffle_and_are_logged() -> None:
    round = new_round()
    for card in stacked_deck({}):
        round.card(card, "test")
    players = SimulatedPlayers(random.Random(4))
    players.decide(round)
    players.decide(round)
    chance = round.log.named(DecisionTaken.EVENT)
    assert [d["action"] for d in chance] == ["first-pile", "dice"]
    assert 1 <= chance[0]["values"][0] <= 7 and len(chance[1]["values"]) == 3
    again = new_round()
    for card in stacked_deck({}):
        again.card(card, "test")
    pending = again.pending_decision()
    assert again.game.strategy(again.hand, pending, again.wagers).values == tuple(chance[0]["values"])


def test_simulated_players_post_the_bank_on_the_player_dealers_seat_and_bet_elsewhere() -> None:
    round = Round("T1-R9", make_game("double-hand-poker"), MemoryLog(), spots=7,
                  limits=Limits({"bet": (1000, 50000), "bank": (1000, 100000)}))
    round.start()
    SimulatedPlayers(random.Random(1), sit_probability=1.0).place_wagers(round)
    assert {w for s, w in round.wagers if s == 1} == {"bank"}
    assert {w for s, w in round.wagers if s != 1} == {"bet"}


def test_a_card_witness_doubt_holds_the_round_with_the_card_placed_and_release_carries_on() -> None:
    round = top_card_round()
    looked: list[int] = []

    def camera(r: Round) -> str | None:
        looked.append(len(r.cards))
        return "camera: home looks like 2S" if len(r.cards) == 1 else None

    round.card_witness = camera
    round.start()
    round.place_wager(1, "home", 500)
    round.close_betting()
    assert round.card(Card.parse("KD")) == "home"
    assert round.state == "hold" and round.hold_reason == "camera: home looks like 2S"
    assert round.cards[0][1] == Card.parse("KD")  # kept where the shoe put it
    round.release(by="supervisor")
    round.card(Card.parse("3C"))
    assert round.state == "complete" and looked == [1, 2]
    held = round.log.named(RoundHeld.EVENT)[0]
    assert held["seq"] > round.log.named(CardDealt.EVENT)[0]["seq"]
