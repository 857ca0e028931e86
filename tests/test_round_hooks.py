"""The round engine's hooks for California games: spot refusals, chance decisions, reports and misdeals."""

from __future__ import annotations

import random

import pytest

from controller.cards import Card
from controller.errors import IllegalAction
from controller.games import make_game
from controller.games.base import Irregularity
from controller.players import SimulatedPlayers
from controller.round import Limits, Round
from tests.helpers import MemoryLog, top_card_round
from tests.paigow.roundkit import new_round, stacked_deck


def test_a_game_without_rules_for_reports_refuses_them_and_logs_it() -> None:
    round = top_card_round()
    round.start()
    round.place_wager(1, "home", 500)
    round.close_betting()
    with pytest.raises(ValueError, match="has no rule for a boxed report"):
        round.report(Irregularity("boxed", Card.parse("AS")))
    assert round.log.named("irregularity_refused")[0]["kind"] == "boxed"


def test_reports_are_refused_when_nothing_is_being_dealt() -> None:
    round = top_card_round()
    round.start()
    with pytest.raises(IllegalAction, match="nothing is dealt while betting"):
        round.report(Irregularity("exposed", Card.parse("AS")))


def test_simulated_players_roll_chance_decisions_and_log_the_values() -> None:
    round = new_round()
    for card in stacked_deck({}):
        round.card(card, "test")
    players = SimulatedPlayers(random.Random(4))
    players.decide(round)
    players.decide(round)
    chance = round.log.named("decision")
    assert [d["action"] for d in chance] == ["first-pile", "dice"]
    assert 1 <= chance[0]["values"][0] <= 7 and len(chance[1]["values"]) == 3


def test_simulated_players_keep_off_a_spot_the_game_refuses() -> None:
    # the player-dealer (seat 1 here) posts a bank, not a wager
    round = Round("T1-R9", make_game("double-hand-poker"), MemoryLog(), spots=7, limits=Limits({"bet": (1000, 50000)}))
    round.start()
    SimulatedPlayers(random.Random(1), sit_probability=1.0).place_wagers(round)
    assert {s for s, _ in round.wagers} == {2, 3, 4, 5, 6, 7}
