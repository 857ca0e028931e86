"""High Card Flush's exact edges (seed 002 rankings, rules-notes game).

* Ante and Raise: every one of the C(52, 7) player hands against every one of
  the C(45, 7) dealer hands, counted exactly (``controller.rules.high_card_flush.flush_kernel``),
  with the optimal decision for each player hand; the published (Mousseau)
  strategy's figure is given in the assumptions.
* Flush Bonus, Straight Flush Bonus, Progressive: the player's seven cards
  alone, counted by how many cards fall in each suit and, for straight
  flushes, by the longest run in each suit's ranks (ace high or low).

"Pay table" ``table-1`` pairs the first Flush Bonus and Straight Flush Bonus
tables of rules-notes, ``table-2`` the second; the Ante and the Progressive are
the same in both.
"""

from __future__ import annotations

import functools
import os
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from itertools import product
from math import comb
from typing import Any

from controller.money import format_cents
from controller.rules.edges import WagerEdge
from controller.rules.evaluators.high_card_flush import mask_straight_length
from controller.rules.high_card_flush.game import HighCardFlush
from controller.rules.high_card_flush.progressive import ProgressiveMeter
from controller.rules.high_card_flush.strategy import QUALIFY_AT, THREE_CARD_MINIMUM
from controller.rules.high_card_flush.tables import ProgressiveRow

TABLES = {
    "table-1": ("300-100-10-1", "500-200-100-50-9"),
    "table-2": ("100-20-10-2", "8000-1000-100-60-7"),
}
HANDS = comb(52, 7)
PROGRESSIVE_STAKE = 100


def paytables() -> list[str]:
    return list(TABLES)


def paytable_options() -> dict[str, dict[str, Any]]:
    """Each pay table as a table's options name it (``edges.paytable_for``)."""
    return {name: {"flush_bonus": flush, "straight_flush_bonus": straight} for name, (flush, straight) in TABLES.items()}


def _suit_splits() -> list[tuple[int, int, int, int]]:
    return [(a, b, c, d) for a, b, c, d in product(range(8), repeat=4) if a + b + c + d == 7]


def flush_lengths() -> Counter[int]:
    """Seven-card hands by the length of their longest flush."""
    counts: Counter[int] = Counter()
    for split in _suit_splits():
        counts[max(split)] += comb(13, split[0]) * comb(13, split[1]) * comb(13, split[2]) * comb(13, split[3])
    return counts


def straight_flush_lengths() -> Counter[int]:
    """Seven-card hands by the length of their longest straight flush (§ 678a.6(d); ace high or low)."""
    runs: list[Counter[int]] = [Counter() for _ in range(14)]
    for mask in range(1 << 13):
        runs[mask.bit_count()][mask_straight_length(mask)] += 1
    at_most = [[sum(n for run, n in runs[size].items() if run <= k) for k in range(8)] for size in range(14)]
    counts: Counter[int] = Counter()
    for k in range(8):
        below = sum(at_most[a][k] * at_most[b][k] * at_most[c][k] * at_most[d][k] for a, b, c, d in _suit_splits())
        counts[k] = below
    return Counter({k: counts[k] - (counts[k - 1] if k else 0) for k in range(8) if counts[k] - (counts[k - 1] if k else 0)})


@functools.cache
def ante_totals() -> tuple[int, ...]:
    """The kernel's sums over every player hand, computed on one thread per core (the kernel releases the GIL)."""
    from controller.rules.high_card_flush.flush_kernel import totals

    minimum = (THREE_CARD_MINIMUM[0] << 8) | (THREE_CARD_MINIMUM[1] << 4) | THREE_CARD_MINIMUM[2]
    parts = os.cpu_count() or 1
    with ThreadPoolExecutor(parts) as pool:
        sums = list(pool.map(lambda part: totals(QUALIFY_AT, minimum, part, parts), range(parts)))
    return tuple(int(sum(int(s[i]) for s in sums)) for i in range(5))


def ante_edge() -> WagerEdge:
    from controller.rules.high_card_flush.flush_kernel import DEALER_HANDS

    best, folds, max_raises, published, hands = ante_totals()
    if hands != HANDS:
        raise AssertionError(f"the player hands enumerated weigh {hands}, not C(52,7) = {HANDS}")
    deals = HANDS * DEALER_HANDS
    return WagerEdge(Fraction(best, deals), "exact", (
        "Ante and Raise together, per unit of Ante: every player hand against all C(45,7) dealer hands; the player "
        "folds, raises 1x or raises the most allowed (1x for a flush of four or fewer, 2x for five, 3x for six or "
        f"seven), whichever returns more: he folds {folds / HANDS:.4%} of hands and raises more than 1x "
        f"{max_raises / HANDS:.4%}; dealer qualifies with a three-card flush nine high; equal hands push. "
        f"The published strategy (Mousseau: raise the most with four cards or more, raise T-8-6 or better three-card "
        f"flushes, fold the rest) gives a house edge of {-published / deals:.4%}"))


def length_ev(table: dict[int, Fraction], counts: Counter[int]) -> Fraction:
    return sum((n * table.get(length, Fraction(-1)) for length, n in counts.items()), Fraction(0)) / HANDS


def progressive_ev(game: HighCardFlush, meter: int, stake: int = PROGRESSIVE_STAKE) -> Fraction:
    """The Progressive's expected value per unit staked with the meter at ``meter`` cents."""
    odds = {length: _progressive_odds(row, Fraction(meter, stake)) for length, row in game.progressive_rows.items()}
    return length_ev(odds, straight_flush_lengths())


def _progressive_odds(row: ProgressiveRow, meter_per_stake: Fraction) -> Fraction:
    """What a row returns per unit staked: its fixed odds, or its share of the meter, exactly."""
    if row.odds is not None:
        return row.odds.odds
    if row.share is None:
        raise ValueError("a Progressive row pays fixed odds or a share of the meter")
    return row.share * meter_per_stake


def edges(paytable: str) -> dict[str, WagerEdge]:
    flush_name, straight_name = TABLES[paytable]
    game = HighCardFlush({"flush_bonus": flush_name, "straight_flush_bonus": straight_name})
    flush_odds = {n: p.odds for n, p in game.flush_bonus.rows.items()}
    straight_odds = {n: p.odds for n, p in game.straight_flush_bonus.rows.items()}
    assert isinstance(game.progressive, ProgressiveMeter)  # the game made without a linked jackpot
    reset = game.progressive.reset
    return {
        "ante": ante_edge(),
        "flush_bonus": WagerEdge(length_ev(flush_odds, flush_lengths()), "exact",
                                 f"Flush Bonus table {flush_name}: the player's seven cards by longest flush, win, lose or fold"),
        "straight_flush_bonus": WagerEdge(
            length_ev(straight_odds, straight_flush_lengths()), "exact",
            f"Straight Flush Bonus table {straight_name}: longest straight flush in the player's seven cards, "
            "ace high or low, no wrap-around"),
        "progressive": WagerEdge(
            progressive_ev(game, reset), "exact",
            f"Progressive 'standard' table, a {format_cents(PROGRESSIVE_STAKE)} wager with the meter at its reset amount "
            f"({format_cents(reset)}); the return grows with the meter (shares of the meter are paid from it)"),
    }
