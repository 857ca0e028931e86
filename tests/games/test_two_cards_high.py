"""Two Cards High, rule by rule of seed 004 and rules-notes.md."""

from __future__ import annotations

import pytest

from controller.cards import Rank
from controller.errors import DecisionRefused, WagerRefused
from controller.events import DecisionRefusal, Revealed
from controller.rules.base import OptionError
from controller.rules.two_cards_high.game import TwoCardsHigh
from tests.games.rounds import deal, decide, new_round, returned
from tests.helpers import MemoryLog

DEALER_SEVEN = "5S 3H 2D 3C 4S"        # sets 5-3-2, leaves 3-4: seven points
DEALER_PAIR_OF_TWOS = "5C 3D 2S 2H 2C"  # sets 5-3-2, leaves a pair of twos
DEALER_NO_QUALIFIER = "AS AH 3H 3C 9D"  # no three cards sum to a multiple of ten


def tch(wagers: dict, cards: str, options: dict | None = None, log: MemoryLog | None = None):
    return deal(new_round("two-cards-high", options, log=log), wagers, cards)


def test_rule_1_forty_cards_no_faces() -> None:
    deck = TwoCardsHigh().deck()
    assert len(deck) == 40 and not any(c.rank in (Rank.JACK, Rank.QUEEN, Rank.KING) for c in deck)


def test_rule_3_five_cards_to_each_spot_then_five_to_the_dealer() -> None:
    round = tch({(2, "main"): 500}, "TS TH 5D 3D 2C " + DEALER_SEVEN)
    assert [t for t, _, _ in round.cards] == ["spot 2"] * 5 + ["dealer"] * 5
    assert round.pending_decision().actions == ("set",)
    setting = round.pending_decision().setting  # rule 4: three of the five cards qualify, two make the hand
    assert setting is not None and (setting.count, setting.named) == (3, "qualifier")
    assert [c.code for c in setting.cards] == ["TS", "TH", "5D", "3D", "2C"]


def test_rule_4c_either_qualifying_set_may_be_chosen() -> None:
    # 4c: 5-3-2-7-8 sets as 5-3-2 (leaving 7-8, five points) or 5-7-8 (leaving 3-2, five points)
    for chosen in ("5H 3H 2H", "5H 7D 8C"):
        round = tch({(1, "main"): 500}, "5H 3H 2H 7D 8C 6S 3C 2D 9D 4S")
        decide(round, 1, "set", chosen)
        assert round.hand.sets[1] is not None


@pytest.mark.parametrize(("cards", "reason"), [
    ("5H 3H 7D", "not a multiple of 10"),
    ("5H 3H 2S", "not in this hand"),
    ("5H 3H", "three different cards"),
    ("5H 3H 2H 7D", "three different cards"),
])
def test_rule_4a_a_set_that_does_not_qualify_or_is_not_held_is_refused(cards, reason) -> None:
    log = MemoryLog()
    round = tch({(1, "main"): 500}, "5H 3H 2H 7D 8C 6S 3C 2D 9D 4S", log=log)
    with pytest.raises(DecisionRefused, match=reason):
        decide(round, 1, "set", cards)
    assert log.named(DecisionRefusal.EVENT) and round.state == "decisions"


def test_a_player_who_cannot_qualify_is_not_asked_and_loses() -> None:
    # rules-notes: a player who cannot qualify loses his wager
    round = tch({(1, "main"): 500}, "AC AD 3D 3S 9C " + DEALER_SEVEN)
    assert round.state == "complete"
    assert returned(round) == {(1, "main"): 0}


def test_rule_6a_a_winning_pair_is_paid_3_to_2() -> None:
    round = tch({(1, "main"): 500}, "TS TH 5D 3D 2C " + DEALER_SEVEN)
    decide(round, 1, "set", "5D 3D 2C")
    assert returned(round) == {(1, "main"): 1250}


def test_rule_6b_a_higher_point_total_is_paid_even_money() -> None:
    # the player sets 7-A-2 and keeps 4-5, nine points; the dealer has seven
    round = tch({(1, "main"): 500}, "7H AD 2H 4D 5C " + DEALER_SEVEN)
    decide(round, 1, "set", "7H AD 2H")
    assert returned(round) == {(1, "main"): 1000}


def test_lower_hand_loses() -> None:
    round = tch({(1, "main"): 500}, "7H AD 2H 4D 8C " + DEALER_SEVEN)  # keeps 4-8: two points
    decide(round, 1, "set", "7H AD 2H")
    assert returned(round) == {(1, "main"): 0}


@pytest.mark.parametrize(("option", "paid"), [({}, 1000), ({"pair_without_win": "3 to 2"}, 1250)])
def test_rule_6c_a_tie_wins_even_money_a_tied_pair_3_to_2_only_by_option(option, paid) -> None:
    # both keep a pair of twos: the player sets 5-5-10, the dealer 4-6-10
    tie = tch({(1, "main"): 500}, "2H 2D 5H 5S TD 2S 2C 4C 6C TC", option)
    decide(tie, 1, "set", "5H 5S TD")
    assert returned(tie) == {(1, "main"): paid}
    points = tch({(1, "main"): 500}, "7H AD 2H 3D 4C " + DEALER_SEVEN.replace("2D", "2S"), option)  # seven each
    decide(points, 1, "set", "7H AD 2H")
    assert returned(points) == {(1, "main"): 1000}


@pytest.mark.parametrize(("option", "pair_paid"), [({}, 1000), ({"pair_without_win": "3 to 2"}, 1250)])
def test_rule_6d_dealer_not_qualifying_pays_a_qualified_player_even_money(option, pair_paid) -> None:
    round = tch({(1, "main"): 500}, "7H AD 2H 4D 8C " + DEALER_NO_QUALIFIER, option)
    decide(round, 1, "set", "7H AD 2H")
    assert returned(round) == {(1, "main"): 1000}  # two points still win even money
    round = tch({(1, "main"): 500}, "TS TH 5D 3D 2C " + DEALER_NO_QUALIFIER, option)
    decide(round, 1, "set", "5D 3D 2C")
    assert returned(round) == {(1, "main"): pair_paid}


def test_the_dealers_hand_is_set_to_its_best_two_card_hand() -> None:
    log = MemoryLog()
    round = tch({(1, "main"): 500}, "7H AD 2H 4D 8C 5S 3H 2D 7C 8S", log=log)
    decide(round, 1, "set", "7H AD 2H")
    reveal = log.named(Revealed.EVENT)[0]
    assert reveal["dealer_hand"] == "5 points"  # 5-3-2 leaves 7-8, 5-7-8 leaves 3-2: five points either way


@pytest.mark.parametrize(("hand", "paid"), [
    ("6S 7S 8S 9S TS", 10100),   # straight flush 100 to 1
    ("AS 2H 3D 4C 5S", 600),     # ace low straight 5 to 1 (rules-notes)
    ("7S 7H 3D 4C 5S", 200),     # pair of 7's or better 1 to 1
    ("6S 6H 3D 4C 9S", 0),       # pair of sixes loses
    ("AS AH 3D 4C 9S", 0),       # aces are the lowest pair
    ("TS TH TD 4C 4S", 2100),    # full house 20 to 1
])
def test_five_card_side_wager_pays_the_seed_table_on_the_cards_dealt(hand, paid) -> None:
    round = tch({(1, "main"): 500, (1, "five_card"): 100}, f"{hand} 5D 3H 2D 3C 4D")
    pending = round.pending_decision()
    if pending is not None:
        round.decide(round.game.strategy(round.hand, pending, round.wagers))
    assert returned(round)[(1, "five_card")] == paid


def test_side_wager_needs_the_main_wager() -> None:
    round = new_round("two-cards-high")
    round.start()
    round.place_wager(1, "five_card", 100)
    with pytest.raises(WagerRefused, match="only with the main wager"):
        round.close_betting()


def test_options_are_validated() -> None:
    with pytest.raises(OptionError, match="pair_without_win"):
        TwoCardsHigh({"pair_without_win": "2 to 1"})
