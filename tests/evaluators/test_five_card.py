"""Five-card high poker: the rulebooks' order, the wheel, the joker as the bug, best of six and seven."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, strategies as st

from controller.cards import JOKER, Card, parse_cards
from controller.rules.evaluators.encoding import InvalidHand
from controller.rules.evaluators.five_card import Category, best_five, category, describe, evaluate, evaluate5

from .strategies import STANDARD, WITH_JOKER, hands

# One or two examples of every category, lowest first (seed 001 "10's or Better Payouts", seed 003 pai gow ranks).
ORDERED = [
    "7S 5H 4D 3C 2S",  # high card
    "AS KH QD JC 9S",
    "2S 2H 3D 4C 5S",  # one pair
    "AS AH KD QC JS",
    "3S 3H 2D 2C 4S",  # two pair
    "AS AH KD KC QS",
    "2S 2H 2D 3C 4S",  # three of a kind
    "AS AH AD KC QS",
    "AS 2H 3D 4C 5S",  # the wheel, lowest straight
    "2S 3H 4D 5C 6S",
    "AS KH QD JC TS",
    "2S 3S 4S 5S 7S",  # flush
    "AS KS QS JS 9S",
    "2S 2H 2D 3C 3S",  # full house
    "AS AH AD KC KS",
    "2S 2H 2D 2C 3S",  # four of a kind
    "AS AH AD AC KS",
    "AS 2S 3S 4S 5S",  # steel wheel, lowest straight flush
    "9S KS QS JS TS",
    "AS KS QS JS TS",  # royal flush
    "AS AH AD AC JK",  # five aces, above the royal flush (seed 003 Double-Hand Poker rank (a))
]


def test_the_rulebook_order_of_hands_holds_from_high_card_to_five_aces() -> None:
    values = [evaluate5(parse_cards(h)) for h in ORDERED]
    assert values == sorted(values)
    assert len(set(values)) == len(values)
    assert list(dict.fromkeys(category(v) for v in values)) == list(Category)


@pytest.mark.parametrize(
    ("hand", "text"),
    [
        ("KH KD 7S 7C KS", "full house, kings full of sevens"),
        ("AS 2D 3H 4C 5S", "straight, five high"),  # seed 003 "5-4-3-2-A = Low straight"
        ("AS KD QH JC TS", "straight, ace high"),  # seed 003 "A-K-Q-J-10 = High straight"
        ("6S 6D 9H 2C AS", "pair of sixes, A 9 2 kickers"),
        ("QS QD 4H 4C 9S", "two pair, queens and fours, nine kicker"),
        ("AS KS QS JS TS", "royal flush"),
    ],
)
def test_descriptions_read_like_the_dealer_announces_them(hand: str, text: str) -> None:
    assert describe(evaluate5(parse_cards(hand))) == text


@pytest.mark.parametrize(
    ("hand", "as_if"),
    [
        ("JK KS 7D 4C 2H", "AS KS 7D 4C 2H"),  # an ace by default
        ("JK AS 7D 4C 2H", "AS AH 7D 4C 2H"),  # pairs a natural ace
        ("JK 9S 8D 6C 5H", "9S 8D 7C 6C 5H"),  # completes a straight
        ("JK 5S 4D 3C 2H", "6S 5S 4D 3C 2H"),  # the highest straight it can complete
        ("JK AS 2D 3C 4H", "AS 2D 3C 4H 5H"),  # the wheel
        ("JK QS JD TC 9H", "KS QS JD TC 9H"),  # the top of a straight
        ("JK KS QD JC TH", "AS KS QD JC TH"),  # the ace of an ace-high straight
        ("JK 2H 7H TH 9H", "AH 2H 7H TH 9H"),  # seed 003: highest unmatched card in a flush
        ("JK AH 7H TH 9H", "KH AH 7H TH 9H"),
        ("JK 9H 7H 6H 5H", "8H 9H 7H 6H 5H"),  # straight flush
        ("JK KH QH JH TH", "AH KH QH JH TH"),  # royal flush
        ("JK KS KD 7C 7H", "AS KS KD 7C 7H"),  # not a full house: the bug is no wild card
    ],
)
def test_the_joker_plays_as_an_ace_or_completes_a_straight_or_flush(hand: str, as_if: str) -> None:
    # seed 003 Double-Hand Poker: "The Joker may be used as an Ace or as any card to complete a straight
    # or as the highest unmatched card in a flush."
    assert evaluate5(parse_cards(hand)) == evaluate5(parse_cards(as_if))


def test_best_five_of_seven_finds_the_flush_over_the_straight() -> None:
    value, cards = best_five(parse_cards("9H 8H 7S 6H 5D 2H KH"))
    assert describe(value) == "flush, K 9 8 6 2"
    assert {c.code for c in cards} == {"KH", "9H", "8H", "6H", "2H"}


def test_best_five_of_six_is_the_top_5_dealer_hand() -> None:
    # seed 001 rule 9: best five of the dealer's five cards and the Community Card
    assert category(evaluate(parse_cards("AS AD 9C 7H 3S 2D"))) is Category.ONE_PAIR


@pytest.mark.parametrize(
    ("hand", "fault"),
    [
        ("AS KS QS JS", "5 cards, not 4"),
        ("AS AS QS JS TS", "appears twice"),
        ("KB QS JS TS 9S", "not a card of a standard deck"),
    ],
)
def test_bad_hands_are_refused_naming_the_fault(hand: str, fault: str) -> None:
    with pytest.raises(InvalidHand, match=fault):
        evaluate5(parse_cards(hand))


def test_two_jokers_are_refused() -> None:
    with pytest.raises(InvalidHand, match="at most 1 joker"):
        evaluate5([JOKER, JOKER, *parse_cards("AS KS QS")])


@given(hands(7, WITH_JOKER), st.randoms(use_true_random=False))
def test_a_hands_value_does_not_depend_on_card_order(cards: list[Card], rnd: random.Random) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert evaluate5(cards[:5]) == evaluate5([c for c in shuffled if c in cards[:5]])
    assert evaluate(cards) == evaluate(shuffled)


@given(hands(7, WITH_JOKER))
def test_adding_a_card_never_lowers_the_best_hand(cards: list[Card]) -> None:
    assert evaluate(cards[:5]) <= evaluate(cards[:6]) <= evaluate(cards)


@given(hands(4, STANDARD))
def test_the_joker_is_never_worse_than_an_ace_or_a_card_completing_a_straight_or_flush(naturals: list[Card]) -> None:
    with_joker = evaluate5([*naturals, JOKER])
    for card in STANDARD:
        if card in naturals:
            continue
        value = evaluate5([*naturals, card])
        if card.rank == 14 or category(value) in (
            Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH
        ):
            assert value <= with_joker
