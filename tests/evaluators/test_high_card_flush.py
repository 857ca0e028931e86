"""High Card Flush (seed 002, 58 Pa. Code § 678a.6) flush values, tie-break and straight-flush length."""

from __future__ import annotations

import pytest
from hypothesis import given

from controller.cards import Card, parse_cards
from controller.rules.evaluators.encoding import InvalidHand
from controller.rules.evaluators.high_card_flush import (
    compare,
    flush_cards,
    flush_length,
    flush_ranks,
    flush_value,
    straight_flush_length,
)

from .strategies import hands


def test_longer_flush_wins_whatever_its_cards_678a_6_b() -> None:
    four_low = parse_cards("2S 3S 4S 6S 8D 9C TH")
    three_high = parse_cards("AH KH QH 8S 9D 7C 2D")
    assert compare(four_low, three_high) == 1


def test_equal_lengths_go_to_the_highest_card_the_other_lacks_678a_6_c() -> None:
    first = parse_cards("KH 9H 5H 2C 3D 4S 6C")
    second = parse_cards("KS 9S 4S 2H 3C AD 6H")
    assert compare(first, second) == 1
    assert compare(second, first) == -1


def test_identical_flushes_tie_678a_6_c() -> None:
    assert compare(parse_cards("KH 9H 5H 2C 3D 4S 6C"), parse_cards("KS 9S 5S 2H 3C 4D 7H")) == 0


def test_two_flushes_of_equal_length_count_the_better_one() -> None:
    # rules-notes: a hand with two flushes of equal length counts the better one
    hand = parse_cards("QS 7S 2S KD 3D 4D 5C")
    assert [c.code for c in flush_cards(hand)] == ["KD", "4D", "3D"]
    assert flush_length(flush_value(hand)) == 3


@pytest.mark.parametrize(
    ("hand", "length"),
    [
        ("AH 2H 3H 9C 8D 7S 5C", 3),  # ace low (rules-notes)
        ("QH KH AH 9C 8D 7S 5C", 3),  # ace high
        ("KH AH 2H 9C 8D 7S 5C", 2),  # no wrap-around
        ("4S 5S 6S 7S 8S 9S TS", 7),  # § 678a.6(d)(1)
        ("4S 5S 6S 8S 9S TD TH", 3),
    ],
)
def test_straight_flush_length_678a_6_d(hand: str, length: int) -> None:
    assert straight_flush_length(parse_cards(hand)) == length


@given(hands(7))
def test_value_does_not_depend_on_card_order(cards: list[Card]) -> None:
    assert flush_value(cards) == flush_value(cards[::-1])
    assert straight_flush_length(cards) == straight_flush_length(cards[::-1])


@given(hands(7))
def test_seven_cards_always_hold_at_least_a_two_card_flush(cards: list[Card]) -> None:
    assert 2 <= flush_length(flush_value(cards)) <= 7
    assert flush_length(flush_value(cards)) >= straight_flush_length(cards)


@given(hands(7))
def test_flush_ranks_read_back_the_counted_flush(cards: list[Card]) -> None:
    ranks = flush_ranks(flush_value(cards))
    assert ranks == tuple(int(c.rank) for c in flush_cards(cards))


def test_dealer_qualifier_three_card_flush_nine_high_reads_from_the_value() -> None:
    # rules-notes: the dealer qualifies with a three-card flush, nine-high or better
    def qualifies(hand: str) -> bool:
        value = flush_value(parse_cards(hand))
        return flush_length(value) > 3 or (flush_length(value) == 3 and flush_ranks(value)[0] >= 9)

    assert qualifies("9S 5S 2S KD 3D 4C 6H")
    assert not qualifies("8S 5S 2S KD 3D 4C 6H")
    assert qualifies("6S 5S 3S 2S KD 4C 7H")


@pytest.mark.parametrize(
    ("hand", "length"),
    [
        ("4H 5H 6H JK 8H 9H TH", 7),  # seed 003 Fortune Pai Gow: "4-5-Joker-7-8-9-10 of hearts"
        ("JK 2H 3H 4H 5H 6H KD", 6),  # the joker extends the run (as the ace or the seven)
        ("JK QS KS 2D 3C 8H 9H", 3),
        ("JK 2S 7D 9C QH 4H KD", 2),
    ],
)
def test_straight_flush_length_with_the_joker(hand: str, length: int) -> None:
    assert straight_flush_length(parse_cards(hand), joker=True) == length


def test_the_joker_is_refused_in_high_card_flush() -> None:
    with pytest.raises(InvalidHand, match="no joker"):
        straight_flush_length(parse_cards("JK 2S 3S 4S 5S 6S 7S"))
