"""Top 5 Poker's Ante edge certified by the test lab's own count (``tests/games/math_cert_top5.py``).

The lab's count is written from seed 001 and rules-notes alone; it reproduces ``tablectl edge``'s
-3846581/127549352 (3.0158 %, optimal fold, ties with a qualified dealer pushing) to the last digit, and the
seed's printed 3.02 %. The whole count takes about 30 CPU seconds, so it runs with ``-m exhaustive``; the
default run checks the lab's evaluator.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from controller.rules.edges import compute
from tests.games.math_cert_top5 import PAIR, ante_ev, best6, category_counts

CERTIFIED = Fraction(-3846581, 127549352)


def test_the_lab_evaluator_counts_every_five_card_hand_by_category() -> None:
    # high card, pair, two pair, trips, straight, flush, full house, quads, straight flush (royal included)
    assert list(category_counts()) == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]


def card(code: str) -> int:
    return "23456789TJQKA".index(code[0]) * 4 + "SHDC".index(code[1])


def best(codes: str) -> int:
    return int(best6(np.array([card(c) for c in codes.split()], np.int64)))


def test_the_lab_evaluator_ranks_the_seeds_hands() -> None:
    # the wheel is the lowest straight; a Community Card can make the dealer's pair (seed 9: best 5 of 6)
    assert best("AS 2H 3D 4C 5S KD") < best("2H 3D 4C 5S 6S KD")
    assert best("2S 7H 9D JC KS KD") >= PAIR > best("2S 7H 9D JC KS 4D")
    assert best("TS JS QS KS AS 2D") > best("9S TS JS QS KS 2D")  # royal over king-high straight flush


@pytest.mark.exhaustive
def test_the_lab_count_of_the_ante_equals_tablectl_edge() -> None:
    assert ante_ev() == CERTIFIED
    for table in compute("top-5-poker"):
        assert Fraction(table["wagers"]["ante"]["exact"]) == CERTIFIED
