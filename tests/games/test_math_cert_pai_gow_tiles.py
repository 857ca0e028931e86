"""Pai Gow Tiles' wager and its commission certified by the test lab's deal-by-deal count (``math_cert_tiles.py``).

The lab scores all 736,281,000 ordered deals win, push or lose with its own hand values (seed 003 and rules-notes),
taking only the House Way's choice of the high hand from the controller, and gets ``tablectl edge``'s
-874592/92035125 (0.9503 %), which the controller counts from copies alone by exchangeability. The collection
fee read from the seed's schedule (Pai Gow Tiles and Pai Gow Poker, $10-$100: $1) then adds exactly 1/10 at a $10
wager and 1/100 at $100. The full count takes about 6 CPU seconds and runs with ``-m exhaustive``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from controller.rules.edges import compute
from controller.rules.fees import SCHEDULES
from tests.games.math_cert_tiles import value, wager_ev

CERTIFIED = Fraction(-874592, 92035125)


def test_the_lab_hand_values_follow_the_seed_and_the_standard_ranking() -> None:
    assert value("1-2", "2-4") > value("6-6", "6-6") > value("4-5", "3-6")  # Gee Joon pair; pairs by name
    assert value("4-5", "3-6") > value("6-6", "4-5") > value("1-1", "3-6") > value("6-6", "4-4")  # Wong over Gong
    assert value("6-6", "2-6") == value("6-6", "3-5") != value("1-1", "3-5")  # "only the highest domino is considered"
    assert value("1-1", "1-5") > value("6-6", "4-6")  # 8 points over 2 points
    assert value("6-6", "1-2") == value("6-6", "2-4")  # Gee Joon counts 3 or 6: 8 points with Teen both ways
    assert value("5-5", "3-3") > value("4-6", "1-5")  # 6 points each: Mooy is the higher single tile than Ping
    assert value("2-3", "1-3") > value("5-5", "3-3")  # 9 points over 6


def test_the_seeds_collection_fee_is_one_dollar_from_ten_to_a_hundred() -> None:
    # seed 003, California Collection Fees, Pai Gow Tiles and Pai Gow Poker: $10-100 $1, $101-200 $2 ... $401-500 $5
    schedule = SCHEDULES["pai-gow-player"]
    assert [schedule.fee(w) for w in (1000, 10000, 10100, 20000, 30000, 40000, 50000)] == [100, 100, 200, 200, 300,
                                                                                            400, 500]


@pytest.mark.exhaustive
def test_the_lab_count_of_every_deal_equals_tablectl_edge_with_and_without_the_fee() -> None:
    ev, deals = wager_ev()
    assert deals == 736_281_000 and ev == CERTIFIED
    [table] = compute("pai-gow-tiles")
    wagers = table["wagers"]
    assert Fraction(wagers["main"]["exact"]) == CERTIFIED
    assert Fraction(wagers["main with fee, $10 wager"]["exact"]) == CERTIFIED - Fraction(1, 10)
    assert Fraction(wagers["main with fee, $100 wager"]["exact"]) == CERTIFIED - Fraction(1, 100)
