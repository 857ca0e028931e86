"""Two Cards High (seed 004): qualifier sets, two-card values and the ace-low five-card side wager."""

from __future__ import annotations

import pytest
from hypothesis import given

from controller.cards import Card, parse_cards
from controller.rules.evaluators.encoding import InvalidHand
from controller.rules.evaluators.five_card import Category, category
from controller.rules.evaluators.two_cards_high import (
    best_split,
    describe_two_card,
    qualifying_sets,
    side_wager_value,
    two_card_value,
)

from .strategies import NO_FACE, hands


def test_seed_example_5_3_2_7_8_qualifies_two_ways_rule_4c() -> None:
    sets = qualifying_sets(parse_cards("5S 3H 2D 7C 8S"))
    assert [{c.code for c in s} for s in sets] == [{"5S", "3H", "2D"}, {"5S", "7C", "8S"}]


def test_pairs_beat_points_tens_highest_aces_lowest_pair_rule_5() -> None:
    order = ["TS 8D", "4S 5D", "AS AD", "2S 2D", "9S 9D", "TS TD"]
    values = [two_card_value(parse_cards(h)) for h in order]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert describe_two_card(values[0]) == "8 points"
    assert describe_two_card(values[-1]) == "pair of tens"


def test_points_are_the_sum_modulo_ten_aces_one_rule_4b_and_5() -> None:
    assert two_card_value(parse_cards("AS 8D")) == 9
    assert two_card_value(parse_cards("7S 6D")) == 3
    assert two_card_value(parse_cards("TS TD")) > two_card_value(parse_cards("9S 9D"))


def test_best_split_takes_the_best_two_cards_over_all_qualifying_sets() -> None:
    split = best_split(parse_cards("5S 5H TD 4C 6S"))  # T-4-6 qualifies and leaves the pair
    assert split is not None
    value, trio, pair = split
    assert describe_two_card(value) == "pair of fives"
    assert {c.code for c in trio} == {"TD", "4C", "6S"}


def test_no_face_cards_allowed_rule_1() -> None:
    with pytest.raises(InvalidHand, match="not in this game's deck"):
        qualifying_sets(parse_cards("KS 2D 3H 4C 5S"))


def test_side_wager_aces_low_only_nothing_above_the_ten() -> None:
    # rules-notes: A-2-3-4-5 is a straight, 10-J-Q-K-A does not exist; pair of aces is the lowest pair
    assert category(side_wager_value(parse_cards("AS 2D 3H 4C 5S"))) is Category.STRAIGHT
    assert side_wager_value(parse_cards("6S 7S 8S 9S TS")) > side_wager_value(parse_cards("AH 2H 3H 4H 5H"))
    assert side_wager_value(parse_cards("AS AD 9H 8C 6S")) < side_wager_value(parse_cards("2S 2D 3H 4C 6S"))


@given(hands(5, NO_FACE))
def test_every_qualifying_set_sums_to_a_multiple_of_ten_and_best_split_is_the_max(cards: list[Card]) -> None:
    sets = qualifying_sets(cards)
    split = best_split(cards)
    assert (split is None) == (not sets)
    for trio in sets:
        rest = [c for c in cards if c not in trio]
        assert split is not None and two_card_value(rest) <= split[0]
