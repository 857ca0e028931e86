"""Exact category counts over every hand, against the published tables.

Five-card counts: the standard table of 2,598,960 hands. Seven-card counts:
the standard table of 133,784,560 hands. Six-card counts and seven-card counts
from 53 cards with the joker: Brian Alspach, "Pai Gow Poker Computations" and
"7-Card Poker Hands with Joker" (people.math.sfu.ca/~alspach/comp38, comp40).
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb

import numpy as np
import numpy.typing as npt
import pytest

from controller.cards import Card, deck_with_joker, no_face_deck, parse_cards, standard_deck
from controller.rules.evaluators import batch
from controller.rules.evaluators.combos import iter_combinations
from controller.rules.evaluators.encoding import encode
from controller.rules.evaluators.five_card import Category, category, evaluate
from controller.rules.evaluators.three_card import Category3

C = Category


def category_counts(deck: tuple[Card, ...], size: int, values: Callable[[npt.NDArray[np.uint8]], npt.NDArray[np.int32]],
                    shift: int = 20) -> dict[int, int]:
    """How many ``size``-card hands of ``deck`` fall in each category (``value >> shift``)."""
    codes = encode(deck)
    totals = np.zeros(16, dtype=np.int64)
    for chunk in iter_combinations(len(codes), size):
        totals += np.bincount(values(codes[chunk]) >> shift, minlength=16)
    return {c: int(n) for c, n in enumerate(totals) if n}


def test_all_2598960_five_card_hands_by_category() -> None:
    counts = category_counts(standard_deck(), 5, lambda h: batch.high_values(h, check=False))
    assert counts == {
        C.ROYAL_FLUSH: 4, C.STRAIGHT_FLUSH: 36, C.FOUR_OF_A_KIND: 624, C.FULL_HOUSE: 3_744,
        C.FLUSH: 5_108, C.STRAIGHT: 10_200, C.THREE_OF_A_KIND: 54_912, C.TWO_PAIR: 123_552,
        C.ONE_PAIR: 1_098_240, C.HIGH_CARD: 1_302_540,
    }
    assert sum(counts.values()) == comb(52, 5)


def test_all_22100_three_card_hands_by_category_batch() -> None:
    counts = category_counts(standard_deck(), 3, lambda h: batch.three_card_values(h, check=False), shift=12)
    assert counts == {
        Category3.MINI_ROYAL_FLUSH: 4, Category3.STRAIGHT_FLUSH: 44, Category3.THREE_OF_A_KIND: 52,
        Category3.STRAIGHT: 720, Category3.FLUSH: 1_096, Category3.ONE_PAIR: 3_744, Category3.HIGH_CARD: 16_440,
    }


def test_two_cards_high_side_wager_over_all_658008_hands() -> None:
    # seed 004 side-wager pay table rows; counts by direct combinatorics on the 40-card deck (10 ranks, aces low)
    counts = category_counts(no_face_deck(), 5, lambda h: batch.side_wager_values(h, check=False))
    assert counts == {
        C.STRAIGHT_FLUSH: 6 * 4, C.FOUR_OF_A_KIND: 10 * 36, C.FULL_HOUSE: 10 * 4 * 9 * 6,
        C.FLUSH: 4 * comb(10, 5) - 24, C.STRAIGHT: 6 * 4**5 - 24, C.THREE_OF_A_KIND: 10 * 4 * comb(9, 2) * 16,
        C.TWO_PAIR: comb(10, 2) * 36 * 8 * 4, C.ONE_PAIR: 10 * 6 * comb(9, 3) * 4**3,
        C.HIGH_CARD: (comb(10, 5) - 6) * (4**5 - 4),
    }


def test_eight_or_better_lows_among_all_five_card_hands() -> None:
    # five distinct ranks from A-8, any suits: comb(8, 5) * 4**5
    codes = encode(standard_deck())
    qualifying = sum(int(batch.low_qualifies(batch.low_values(codes[chunk], check=False)).sum())
                     for chunk in iter_combinations(52, 5))
    assert qualifying == comb(8, 5) * 4**5


def test_all_20358520_six_card_hands_by_category_alspach_table_2() -> None:
    counts = category_counts(standard_deck(), 6, lambda h: batch.high_values(h, check=False))
    assert counts[C.ROYAL_FLUSH] + counts[C.STRAIGHT_FLUSH] == 1_844
    assert counts == {
        C.ROYAL_FLUSH: 4 * 47, C.STRAIGHT_FLUSH: 1_844 - 4 * 47, C.FOUR_OF_A_KIND: 14_664,
        C.FULL_HOUSE: 165_984, C.FLUSH: 205_792, C.STRAIGHT: 361_620, C.THREE_OF_A_KIND: 732_160,
        C.TWO_PAIR: 2_532_816, C.ONE_PAIR: 9_730_740, C.HIGH_CARD: 6_612_900,
    }


@pytest.mark.exhaustive
def test_all_133784560_seven_card_hands_by_category() -> None:
    counts = category_counts(standard_deck(), 7, lambda h: batch.high_values(h, check=False))
    assert counts == {
        C.ROYAL_FLUSH: 4_324, C.STRAIGHT_FLUSH: 37_260, C.FOUR_OF_A_KIND: 224_848, C.FULL_HOUSE: 3_473_184,
        C.FLUSH: 4_047_644, C.STRAIGHT: 6_180_020, C.THREE_OF_A_KIND: 6_461_620, C.TWO_PAIR: 31_433_400,
        C.ONE_PAIR: 58_627_800, C.HIGH_CARD: 23_294_460,
    }


@pytest.mark.exhaustive
def test_all_154143080_pai_gow_seven_card_hands_with_the_joker_by_category() -> None:
    # seed 003 Double-Hand Poker / Fortune Pai Gow: 53 cards, the joker as an ace or to complete a straight or flush.
    # Alspach's royal flushes (26,124 of his 210,964 straight flushes) leave out the 8 hands of a natural royal
    # flush, the 8 or the 9 of its suit and the joker (seven-card straight flushes with the joker, a Fortune
    # bonus row of their own) and count them as straight flushes. Their best five cards are a royal flush,
    # as the standard 52-card table counts royal + 8 + 9 suited, so here they are royal flushes.
    moved = [parse_cards(f"T{s} J{s} Q{s} K{s} A{s} {r}{s} JK") for s in "SHDC" for r in "89"]
    assert {category(evaluate(hand)) for hand in moved} == {C.ROYAL_FLUSH}
    counts = category_counts(deck_with_joker(), 7, lambda h: batch.high_values(h, check=False))
    assert counts == {
        C.FIVE_ACES: 1_128, C.ROYAL_FLUSH: 26_124 + len(moved), C.STRAIGHT_FLUSH: 210_964 - 26_124 - len(moved),
        C.FOUR_OF_A_KIND: 307_472, C.FULL_HOUSE: 4_188_528, C.FLUSH: 6_172_088, C.STRAIGHT: 11_236_028,
        C.THREE_OF_A_KIND: 7_470_676, C.TWO_PAIR: 35_553_816, C.ONE_PAIR: 64_221_960, C.HIGH_CARD: 24_780_420,
    }
