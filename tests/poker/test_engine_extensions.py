"""The round engine's extensions for games the house does not bank: seats without a wager, the drop from the pot,
the pot balance check, reports while a round is held, and meters that keep pot action apart from house action."""

import pytest

from controller.cards import Card
from controller.engine.round import Limits, Round
from controller.errors import IllegalAction, WagerRefused
from controller.events import PlayerSeated
from controller.records.meters import Meters
from controller.rules.base import Fee, Irregularity
from controller.rules.poker.holdem import Holdem
from tests.helpers import MemoryLog, top_card_round
from tests.poker.tables import act, check_down, deal, poker_round, post_blinds


def test_a_seat_is_dealt_in_without_a_wager_and_only_while_betting() -> None:
    round = Round("S-1", Holdem(), MemoryLog(), spots=10, limits=Limits({}))
    round.start()
    with pytest.raises(WagerRefused, match="no such spot"):
        round.sit(11)
    round.sit(4)
    round.sit(9)
    assert round.log.named(PlayerSeated.EVENT)[0]["spot"] == 4
    round.close_betting()
    assert round.hand.seats == (9, 4)
    with pytest.raises(IllegalAction, match="cannot seat"):
        round.sit(5)


class LeakyHoldem(Holdem):
    """A broken game whose drop does not match what its pot kept back."""

    def drop(self, state):  # type: ignore[no-untyped-def]
        return (*state.drop, Fee(0, 100, "a fee nobody posted"))


def test_a_pot_that_does_not_balance_stops_the_round() -> None:
    round = poker_round(LeakyHoldem(), 1, 2)
    post_blinds(round)
    deal(round, "AS AD KS KD")
    with pytest.raises(AssertionError, match="the pot does not balance"):
        act(round, (1, "fold"))


def test_meters_count_pot_action_apart_from_house_action() -> None:
    round = poker_round("holdem", 1, 2, 3)
    post_blinds(round)
    deal(round, "AS AD KS KD QS QD")
    check_down(round)
    deal(round, "2C 3H 7D 9C")
    act(round, (2, "check"), (3, "check"), (1, "bet"), (2, "fold"), (3, "fold"))
    meters = Meters()
    meters.add_round(round.settlements, sum(f.amount for f in round.fees))
    assert meters.between_players.wagered == 1200 and meters.between_players.paid == 1000
    assert meters.total.wagered == 0 and meters.total.house_win == 200


def test_house_banked_games_are_unchanged() -> None:
    round = top_card_round()
    round.start()
    round.place_wager(1, "home", 500)
    round.close_betting()
    with pytest.raises(ValueError, match="no rule for a premature report"):
        round.report(Irregularity("premature", Card.parse("AS")))
    assert round.game.drop(round.hand) == () and round.game.banker == "house"
