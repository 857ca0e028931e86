"""High Card Flush's exact counts: flush and straight-flush lengths, and the dealer counts behind the Ante."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from numba import njit

from controller.rules.evaluators.high_card_flush import mask_flush_value
from controller.rules.high_card_flush import flush_kernel as kernel
from controller.rules.high_card_flush.edge import HANDS, ante_totals, edges, flush_lengths, length_ev, straight_flush_lengths
from controller.rules.high_card_flush.strategy import QUALIFY_AT


def test_flush_lengths_count_every_seven_card_hand() -> None:
    # § 678a.6(b) lengths: seven of a suit 4 x C(13,7); six of a suit 4 x C(13,6) x 39
    counts = flush_lengths()
    assert sum(counts.values()) == comb(52, 7)
    assert counts[7] == 4 * comb(13, 7) and counts[6] == 4 * comb(13, 6) * 39
    assert min(counts) == 2  # seven cards in four suits always hold a two-card flush


def test_straight_flush_lengths_with_the_ace_high_or_low() -> None:
    # § 678a.6(d); rules-notes: A-2-3 and Q-K-A count, no wrap-around: eight seven-card runs A-7 .. 8-A per suit
    counts = straight_flush_lengths()
    assert sum(counts.values()) == comb(52, 7)
    assert counts[7] == 4 * 8


def test_kernel_flush_values_are_the_shared_evaluators() -> None:
    assert all(kernel.flush_value(m) == mask_flush_value(m) for m in range(1 << 13) if m.bit_count() <= 7)


def test_flush_bonus_300_100_10_1_pays_by_length_and_loses_below_four() -> None:
    # rules-notes Flush Bonus table 7-card 300, 6-card 100, 5-card 10, 4-card 1
    counts = flush_lengths()
    odds = {7: Fraction(300), 6: Fraction(100), 5: Fraction(10), 4: Fraction(1)}
    expected = (300 * counts[7] + 100 * counts[6] + 10 * counts[5] + counts[4] - counts[3] - counts[2]) / Fraction(HANDS)
    assert length_ev(odds, counts) == expected
    assert f"{-float(expected):.2%}" == "7.81%"


@njit(cache=True)
def _brute(player: np.ndarray, qualify_at: int, value: int) -> np.ndarray:
    """Every dealer hand of the 45 unseen cards, one by one: [unqualified, below, at most]."""
    used = np.zeros(52, np.bool_)
    for c in player:
        used[c] = True
    rest = np.array([c for c in range(52) if not used[c]])
    out = np.zeros(3, np.int64)
    idx = np.arange(7)
    masks = np.zeros(4, np.int64)
    while True:
        masks[:] = 0
        for i in range(7):
            masks[rest[idx[i]] % 4] |= 1 << (rest[idx[i]] // 4)
        v = max(kernel.flush_value(masks[0]), kernel.flush_value(masks[1]), kernel.flush_value(masks[2]),
                kernel.flush_value(masks[3]))
        out[0] += v < qualify_at
        out[1] += v < value
        out[2] += v <= value
        i = 6
        while i >= 0 and idx[i] == 38 + i:
            i -= 1
        if i < 0:
            return out
        idx[i] += 1
        for j in range(i + 1, 7):
            idx[j] = idx[j - 1] + 1


@pytest.mark.parametrize("cards", [(40, 32, 24, 29, 50, 43, 37), (0, 4, 8, 13, 17, 22, 51)])
def test_dealer_counts_by_suits_equal_the_enumeration_of_all_dealer_hands(cards) -> None:
    player = np.array(cards, np.int64)
    masks = np.zeros(4, np.int64)
    for c in cards:
        masks[c % 4] |= 1 << (c // 4)
    counts = kernel.hand_counts(masks, QUALIFY_AT)
    assert list(_brute(player, QUALIFY_AT, counts[0])) == list(counts[1:])


def test_ante_edge_weighs_every_hand_and_optimal_beats_published() -> None:
    best, folds, raises, published, hands = ante_totals()
    assert hands == comb(52, 7)
    assert published < best < 0
    assert 0.02 < -edges("table-1")["ante"].ev < 0.03
