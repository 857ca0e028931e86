"""Ace-to-five low with the joker (seed 003 LOW-BALL), eight-or-better, and Omaha's two-plus-three rule."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given

from controller.cards import JOKER, Card, parse_cards
from controller.rules.evaluators.five_card import evaluate5
from controller.rules.evaluators.lowball import best_low, describe_low, low_value, qualifies
from controller.rules.evaluators.omaha import omaha_high, omaha_low

from .strategies import STANDARD, WITH_JOKER, hands


def test_best_low_is_5_4_3_2_a_and_straights_and_flushes_do_not_count() -> None:
    # seed 003 Omaha Hi-Low rule 11: "A, 2, 3, 4, 5 is the lowest possible hand"
    wheel = low_value(parse_cards("5S 4S 3S 2S AS"))
    assert describe_low(wheel) == "5-4-3-2-A"
    assert wheel > low_value(parse_cards("6D 4H 3C 2S AS"))


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("6S 4H 3D 2C AS", "6S 5H 3D 2C AS"),
        ("8S 7H 6D 5C 4S", "9S 4H 3D 2C AS"),
        ("KS QH JD TC 8S", "AS AH 2D 3C 4S"),  # any unpaired hand beats a pair
        ("AS AH 2D 3C 4S", "2S 2H 3D 4C 5S"),  # aces are the lowest pair
        ("KS KH QD JC TS", "2S 2H 3D 3C 4S"),  # a pair beats two pair
    ],
)
def test_lower_hands_win(better: str, worse: str) -> None:
    assert low_value(parse_cards(better)) > low_value(parse_cards(worse))


@pytest.mark.parametrize(
    ("hand", "as_if"),
    [
        ("JK 4H 3D 2C AS", "5S 4H 3D 2C AS"),
        ("JK 8H 7D 6C 5S", "AS 8H 7D 6C 5S"),
        ("JK AH 2D 3C 7S", "4S AH 2D 3C 7S"),
        ("JK KH KD QC QS", "AS KH KD QC QS"),
    ],
)
def test_the_joker_is_the_lowest_card_not_already_in_the_hand(hand: str, as_if: str) -> None:
    # seed 003 LOW-BALL: "the joker ... must be used as the lowest card not already in the hand"
    assert low_value(parse_cards(hand)) == low_value(parse_cards(as_if))


def test_eight_or_better_qualifier_omaha_rule_9() -> None:
    assert qualifies(low_value(parse_cards("8S 7H 6D 5C 4S")))
    assert not qualifies(low_value(parse_cards("9S 4H 3D 2C AS")))
    assert not qualifies(low_value(parse_cards("8S 8H 3D 2C AS")))


def test_omaha_uses_exactly_two_hole_cards_for_each_half_rule_6() -> None:
    hole = parse_cards("AH KH 2D JD")
    board = parse_cards("2H 3H 4H 8C 9S")
    value, cards = omaha_high(hole, board)
    assert sum(c in hole for c in cards) == 2
    assert value == evaluate5(parse_cards("AH KH 2H 3H 4H"))  # flush, not the board's 4-card draw
    assert omaha_low(hole, board) is not None
    low, low_cards = omaha_low(hole, board) or (0, ())
    assert describe_low(low) == "8-4-3-2-A" and sum(c in hole for c in low_cards) == 2


def test_omaha_halves_may_use_different_hole_cards_rules_7_8() -> None:
    hole = parse_cards("AS 2D KC KD")
    board = parse_cards("KH 3S 5C 9D 7H")
    high, high_cards = omaha_high(hole, board)
    low = omaha_low(hole, board)
    assert {c.code for c in high_cards} >= {"KC", "KD", "KH"}
    assert low is not None and {c.code for c in low[1]} >= {"AS", "2D"}


def test_omaha_with_the_joker_on_the_board_plays_it_for_both_halves() -> None:
    hole = parse_cards("AS 2D KC KD")
    board = [JOKER, *parse_cards("KH 4S 9D")]
    assert omaha_high(hole, board)[0] == evaluate5(parse_cards("KC KD KH AH 9D"))  # joker as an ace
    assert omaha_low(hole, board) is None  # 9-4-3-2-A, the joker as the three: no eight-or-better
    low = omaha_low(hole, board, qualifier=None)
    assert low is not None and describe_low(low[0]) == "9-4-3-2-A"


@given(hands(7, WITH_JOKER))
def test_low_does_not_depend_on_order_and_more_cards_never_hurt(cards: list[Card]) -> None:
    assert low_value(cards[:5]) == low_value(cards[4::-1])
    assert best_low(cards[:5])[0] <= best_low(cards[:6])[0] <= best_low(cards)[0]


@given(hands(4, STANDARD))
def test_the_low_joker_is_as_good_as_any_natural_card(naturals: list[Card]) -> None:
    with_joker = low_value([*naturals, JOKER])
    assert all(low_value([*naturals, c]) <= with_joker for c in STANDARD if c not in naturals)


def test_omaha_high_is_the_max_over_all_sixty_two_plus_three_hands() -> None:
    hole, board = parse_cards("9S 8S 2C 2D"), parse_cards("7S 6S 2H QD KD")
    brute = max(evaluate5(two + three) for two in combinations(hole, 2) for three in combinations(board, 3))
    assert omaha_high(hole, board)[0] == brute
