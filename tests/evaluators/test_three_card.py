"""Three Card Poker ranking (seed 003 "Ranking of Hands", lines 2280-2313) and its 22,100 hands."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given

from controller.cards import Card, parse_cards
from controller.rules.evaluators.encoding import InvalidHand
from controller.rules.evaluators.three_card import Category3, category3, describe3, evaluate3

from .strategies import STANDARD, hands


def test_seed_order_mini_royal_straight_flush_trips_straight_flush_pair_high_card() -> None:
    ladder = ["5S 3D 2H", "AS KD 9H",  # high card: lowest and highest per the seed
              "2S 2D 3H", "AS AD KH",  # pair
              "5S 3S 2S", "AS KS JS",  # flush
              "AS 2D 3H", "AS KD QH",  # straight: A-2-3 lowest, A-K-Q highest
              "2S 2D 2H", "AS AD AH",  # three of a kind
              "AS 2S 3S", "KS QS JS",  # straight flush (A-2-3 suited lowest by default)
              "AS KS QS"]  # mini royal flush
    values = [evaluate3(parse_cards(h)) for h in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert list(dict.fromkeys(category3(v) for v in values)) == list(Category3)


def test_a23_suited_may_be_ranked_as_a_flush_instead() -> None:
    # seed 003 line 2299 calls 4-3-2 the lowest straight flush
    value = evaluate3(parse_cards("AH 2H 3H"), a23_suited_is_straight_flush=False)
    assert describe3(value) == "flush, A-3-2"


def test_all_22100_hands_fall_into_the_published_categories() -> None:
    counts = Counter(category3(evaluate3(h)) for h in combinations(STANDARD, 3))
    assert counts == {
        Category3.MINI_ROYAL_FLUSH: 4,
        Category3.STRAIGHT_FLUSH: 44,
        Category3.THREE_OF_A_KIND: 52,
        Category3.STRAIGHT: 720,
        Category3.FLUSH: 1_096,
        Category3.ONE_PAIR: 3_744,
        Category3.HIGH_CARD: 16_440,
    }


def test_jokers_are_refused() -> None:
    with pytest.raises(InvalidHand, match="no joker"):
        evaluate3(parse_cards("JK AS KS"))


@given(hands(3))
def test_rank_does_not_depend_on_card_order(cards: list[Card]) -> None:
    assert evaluate3(cards) == evaluate3(cards[::-1]) == evaluate3(cards[1:] + cards[:1])
