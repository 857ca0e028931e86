"""High Card Flush's Ante edge certified by the test lab's own count (``tests/games/math_cert_hcf.py``).

The lab's count is written from seed 002 and rules-notes alone; it reproduces ``tablectl edge``'s
-1348050875653/50592437455560 (2.6645 %, optimal fold / raise 1x / raise the most) to the last digit.
The lab's count of the published (Mousseau) strategy, -2286257119043/84320729092600, is the 2.7114 % the
assumptions quote. Each count takes about 15 CPU seconds, so they run with ``-m exhaustive``; the default run
checks the lab's pieces against brute force and the longest flushes' share of the count.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from controller.rules.edges import compute
from tests.games.math_cert_hcf import DEALER, ante_total, below, dealer_count

CERTIFIED = Fraction(-1348050875653, 50592437455560)
PUBLISHED = Fraction(-2286257119043, 84320729092600)  # 2.7114 %: raise the most with 4+ suited, 1x T-8-6+, else fold


def test_the_subsets_below_a_flush_are_counted_as_brute_force_counts_them() -> None:
    avail = frozenset({0, 2, 3, 5, 7, 8, 11, 12})
    for ranks in [(12, 7, 1), (9, 8, 4, 0), (7, 1, 0), (11, 10)]:
        brute = sum(1 for s in itertools.combinations(sorted(avail, reverse=True), len(ranks)) if s < ranks)
        assert below(avail, ranks) == brute


def test_every_dealer_hand_is_below_a_seven_card_ace_high_flush_the_dealer_cannot_hold() -> None:
    # a key no dealer part can reach: c_s = every L-subset left, so the count is every dealer hand
    sizes = (7, 0, 0, 0)
    cs = [np.array(comb(13 - p, 7), np.int64) for p in sizes]
    assert int(dealer_count(sizes, 7, cs)) == DEALER


def test_the_six_and_seven_card_flushes_are_counted_once_each() -> None:
    _, hands = ante_total(range(6, 8))
    assert hands == 4 * comb(13, 7) + 4 * comb(13, 6) * 39


@pytest.mark.exhaustive
def test_the_lab_count_of_the_ante_equals_tablectl_edge() -> None:
    ev, hands = ante_total()
    assert hands == comb(52, 7)
    assert ev == CERTIFIED
    # the published (Mousseau) strategy the assumptions quote: the lab's count of it, to four places
    published, _ = ante_total(strategy="published")
    assert published == PUBLISHED
    for table in compute("high-card-flush"):
        assert Fraction(table["wagers"]["ante"]["exact"]) == CERTIFIED
        assert f"gives a house edge of {-float(PUBLISHED):.4%}" in table["wagers"]["ante"]["assumptions"]
