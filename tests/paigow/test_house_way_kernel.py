"""The compiled House Way sets every hand as the chart's Python setter does (same front and back values)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from controller.cards import JOKER, Card, Rank, deck_with_joker, parse_cards
from controller.rules.evaluators.encoding import encode
from controller.rules.pai_gow_poker.hands import WHEELS, back_value, front_value
from controller.rules.pai_gow_poker.house_way import load_house_way
from controller.rules.pai_gow_poker.house_way_kernel import chart_table, set_values, wheel_number

WAY = load_house_way()
TABLE = chart_table(WAY)


def both(cards: list[Card], wheel: str) -> tuple[tuple[int, int], tuple[int, int]]:
    setting = WAY.set(cards, wheel).hand
    python = (front_value(setting.front), back_value(setting.back, wheel))
    compiled = set_values(encode(cards).astype(np.int64), TABLE, wheel_number(wheel))
    return python, (int(compiled[0]), int(compiled[1]))


def crowded_hands(count: int, seed: int) -> list[list[Card]]:
    """Hands drawn from a few ranks (and suits): full houses, fours, two sets, five aces, flushes, straights."""
    rng = random.Random(seed)
    deck = deck_with_joker()
    hands = []
    while len(hands) < count:
        ranks = set(rng.sample(list(Rank)[:13], rng.randint(2, 5)))
        suits = rng.sample("SHDC", rng.randint(1, 4))
        pool = [c for c in deck if c is JOKER or (c.rank in ranks and c.suit.value in suits)]
        pool += rng.sample(deck, 4)
        pool = list(dict.fromkeys(pool))
        if len(pool) >= 7:
            hands.append(rng.sample(pool, 7))
    return hands


@pytest.mark.parametrize("wheel", WHEELS)
def test_random_hands_are_set_as_the_chart_sets_them(wheel: str) -> None:
    rng = random.Random(45)
    for _ in range(400):
        python, compiled = both(rng.sample(deck_with_joker(), 7), wheel)
        assert python == compiled


@pytest.mark.parametrize("wheel", WHEELS)
def test_crowded_hands_are_set_as_the_chart_sets_them(wheel: str) -> None:
    for hand in crowded_hands(400, seed=7):
        python, compiled = both(hand, wheel)
        assert python == compiled, " ".join(c.code for c in hand)


@pytest.mark.parametrize("hand", ["AS AH AD 5C 3S 2H JK", "AS AH AD JK KD QD TD", "JK AH AD AC AS 2D 3C",
                                  "KH KD 7S 7C KS 7D 2C", "QS QH QD QC AS KH 4D", "8S 7S 6S 5S 4S 3S 3H"])
def test_the_chart_examples_and_the_rare_kinds(hand: str) -> None:
    python, compiled = both(parse_cards(hand), "lowest")
    assert python == compiled


@pytest.mark.exhaustive
def test_ten_thousand_more_hands_of_every_kind_are_set_alike() -> None:
    rng = random.Random(4545)
    hands = crowded_hands(5_000, seed=11) + [rng.sample(deck_with_joker(), 7) for _ in range(5_000)]
    for hand in hands:
        python, compiled = both(hand, "lowest")
        assert python == compiled, " ".join(c.code for c in hand)
