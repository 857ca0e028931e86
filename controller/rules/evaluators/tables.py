"""Lookup tables for the batch evaluators, built lazily (each in well under a second) and cached.

A hand's ranks are sorted and the sorted multiset is numbered by the
combinatorial number system ("colex rank" of a multiset): ranks
``r0 <= r1 <= ... <= r(n-1)`` get the index ``sum(comb(r_i + i, i + 1))``.
These indices are dense (7-card hands need 77,520 slots, 5-card 8,568) so the
tables are small and stay in the CPU cache. Symbol 13 sorts the joker last.

Suits are looked up separately through 13-bit rank masks (bit ``r - 2`` for
rank ``r``) in 8,192-entry flush tables.

The high-poker tables (plain and with the joker) are computed here from rank
counts, by code independent of the per-hand evaluator in ``five_card``; the
small tables reuse the per-hand rank functions of their rankings. The tests
check every batch function against its per-hand twin on random hands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np
import numpy.typing as npt

from controller.rules.evaluators.five_card import Category, pack, value_of_ranks
from controller.rules.evaluators.high_card_flush import mask_flush_value, mask_straight_length
from controller.rules.evaluators.lowball import joker_low_rank, low_value_of_ranks
from controller.rules.evaluators.three_card import value_of_ranks3
from controller.rules.evaluators.two_cards_high import PAIR_BASE

__all__ = [
    "SYMBOLS",
    "multiset_index",
    "high_table",
    "bug_table",
    "flush_table",
    "bug_flush_table",
    "low_table",
    "three_card_table",
    "hcf_table",
    "straight_length_table",
    "binomial_columns",
    "two_card_table",
    "side_wager_table",
]

SYMBOLS = 14
_ACE = 14
Int32Array = npt.NDArray[np.int32]


def multiset_index(sorted_symbols: Sequence[int]) -> int:
    """The dense index of a sorted multiset of symbols 0..13."""
    return sum(comb(s + i, i + 1) for i, s in enumerate(sorted_symbols))


@cache
def binomial_columns(n: int) -> tuple[Int32Array, ...]:
    """Per sorted position ``i``, the term ``comb(s + i, i + 1)`` for every symbol ``s``."""
    return tuple(np.array([comb(s + i, i + 1) for s in range(SYMBOLS)], dtype=np.int32) for i in range(n))


def _multisets(size: int, max_count: int = 4) -> Iterator[tuple[int, ...]]:
    """Sorted multisets of natural symbols 0..12 with no symbol more than ``max_count`` times."""
    for ms in combinations_with_replacement(range(13), size):
        if all(ms[i] != ms[i + max_count] for i in range(size - max_count)):
            yield ms


def _table(size: int, value: Callable[[tuple[int, ...]], int], max_count: int = 4) -> Int32Array:
    table = np.zeros(comb(SYMBOLS - 1 + size, size), dtype=np.int32)
    for ms in _multisets(size, max_count):
        table[multiset_index(ms)] = value(ms)
    return table


def _best_of_subsets(size: int, part: int, part_table: Int32Array) -> Int32Array:
    """For every ``size``-multiset, the best ``part_table`` value over its sub-multisets of ``part`` cards."""
    sets = np.array(list(_multisets(size)), dtype=np.intp)
    terms = binomial_columns(part)
    best = np.zeros(len(sets), dtype=np.int32)
    for cols in combinations(range(size), part):
        index = sum(terms[i][sets[:, c]] for i, c in enumerate(cols))
        best = np.maximum(best, part_table[index])
    table = np.zeros(comb(SYMBOLS - 1 + size, size), dtype=np.int32)
    table[sum(binomial_columns(size)[i][sets[:, i]] for i in range(size))] = best
    return table


_WINDOWS = tuple((top, sum(1 << (r - 2) for r in range(top - 4, top + 1) if r >= 2) | (1 << 12 if top == 5 else 0))
                 for top in range(_ACE, 4, -1))


def _straight_top(mask: int, jokers: int = 0) -> int:
    """The top rank of the highest straight in a rank mask (the ace plays low too), 0 if none.

    With ``jokers`` one missing rank per joker may be filled in.
    """
    for top, window in _WINDOWS:
        if (window & ~mask).bit_count() <= jokers:
            return top
    return 0


def _best_without_suits(counts: dict[int, int]) -> int:
    """The best five-card value of a multiset of ranks (2..14), ignoring suits; five aces allowed."""
    if counts.get(_ACE, 0) >= 5:
        return pack(Category.FIVE_ACES)
    present = sorted(counts, reverse=True)
    pairs = [r for r in present if counts[r] >= 2]
    trips = [r for r in pairs if counts[r] >= 3]
    quads = [r for r in trips if counts[r] >= 4]

    def others(*used: int) -> list[int]:
        return [r for r in present if r not in used]

    if quads:
        return pack(Category.FOUR_OF_A_KIND, [quads[0], *others(quads[0])[:1]])
    if trips and len(pairs) >= 2:
        return pack(Category.FULL_HOUSE, [trips[0], next(r for r in pairs if r != trips[0])])
    top = _straight_top(sum(1 << (r - 2) for r in present))
    if top:
        return pack(Category.STRAIGHT, [top])
    if trips:
        return pack(Category.THREE_OF_A_KIND, [trips[0], *others(trips[0])[:2]])
    if len(pairs) >= 2:
        return pack(Category.TWO_PAIR, [pairs[0], pairs[1], *others(pairs[0], pairs[1])[:1]])
    if pairs:
        return pack(Category.ONE_PAIR, [pairs[0], *others(pairs[0])[:3]])
    return pack(Category.HIGH_CARD, present[:5])


def _counts(ms: tuple[int, ...]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for s in ms:
        counts[s + 2] = counts.get(s + 2, 0) + 1
    return counts


@cache
def high_table(size: int) -> Int32Array:
    """Best value ignoring suits, for ``size`` (5..7) natural cards."""
    if size == 5:
        return _table(5, lambda ms: _best_without_suits(_counts(ms)))
    return _best_of_subsets(size, 5, high_table(5))


def _bug_value(ms: tuple[int, ...]) -> int:
    counts = _counts(ms)
    as_ace = _best_without_suits({**counts, _ACE: counts.get(_ACE, 0) + 1})
    top = _straight_top(sum(1 << (r - 2) for r in counts), jokers=1)
    return max(as_ace, pack(Category.STRAIGHT, [top]) if top else 0)


@cache
def bug_table(naturals: int) -> Int32Array:
    """Best value ignoring suits for ``naturals`` (4..6) natural cards and the joker as the bug."""
    if naturals == 4:
        return _table(4, _bug_value)
    return np.maximum(_best_of_subsets(naturals, 5, high_table(5)), _best_of_subsets(naturals, 4, bug_table(4)))


def _mask_ranks(mask: int) -> list[int]:
    return [r for r in range(_ACE, 1, -1) if mask >> (r - 2) & 1]


def _flush_value(mask: int) -> int:
    ranks = _mask_ranks(mask)
    if len(ranks) < 5:
        return 0
    top = _straight_top(mask)
    if top == _ACE:
        return pack(Category.ROYAL_FLUSH, [top])
    if top:
        return pack(Category.STRAIGHT_FLUSH, [top])
    return pack(Category.FLUSH, ranks[:5])


@cache
def flush_table() -> Int32Array:
    """Best flush or straight flush of the suited ranks in a mask; 0 below five cards."""
    return np.array([_flush_value(m) for m in range(1 << 13)], dtype=np.int32)


@cache
def bug_flush_table() -> Int32Array:
    """Best flush or straight flush of a mask's ranks with the joker added; 0 below four cards."""
    plain = flush_table()
    table = np.zeros(1 << 13, dtype=np.int32)
    for mask in range(1 << 13):
        if mask.bit_count() >= 4:
            table[mask] = max(int(plain[mask | 1 << r]) for r in range(13))
    return table


def _low_value(ms: tuple[int, ...]) -> int:
    ranks = [s + 1 for s in ms]
    if len(ranks) == 4:
        ranks.append(joker_low_rank(ranks))
    return low_value_of_ranks(ranks)


@cache
def low_table(naturals: int) -> Int32Array:
    """Ace-to-five low values by low symbol (0 ace .. 12 king): five naturals, or four and the joker."""
    return _table(naturals, _low_value)


@cache
def three_card_table(a23_suited_is_straight_flush: bool = True) -> Int32Array:
    """Three Card Poker values, ``[flush, multiset index]`` flattened: offset ``comb(16, 3)`` when suited."""
    size = comb(SYMBOLS + 2, 3)
    table = np.zeros(2 * size, dtype=np.int32)
    for ms in _multisets(3, max_count=3):
        ranks = [s + 2 for s in ms]
        table[multiset_index(ms)] = value_of_ranks3(ranks, flush=False)
        if len(set(ms)) == 3:
            table[size + multiset_index(ms)] = value_of_ranks3(
                ranks, flush=True, a23_suited_is_straight_flush=a23_suited_is_straight_flush
            )
    return table


@cache
def hcf_table() -> npt.NDArray[np.int64]:
    """High Card Flush value of each 13-bit suit mask."""
    return np.array([mask_flush_value(m) for m in range(1 << 13)], dtype=np.int64)


@cache
def straight_length_table(jokers: int = 0) -> npt.NDArray[np.uint8]:
    """Longest straight-flush run of each 13-bit suit mask, ace high or low, with ``jokers`` (0 or 1) added."""
    return np.array([mask_straight_length(m, jokers) for m in range(1 << 13)], dtype=np.uint8)


@cache
def two_card_table() -> npt.NDArray[np.int8]:
    """Two Cards High value of two counts (1..10), indexed ``10 * first + second``."""
    table = np.zeros(121, dtype=np.int8)
    for a in range(1, 11):
        for b in range(1, 11):
            table[10 * a + b] = PAIR_BASE + a if a == b else (a + b) % 10
    return table


@cache
def side_wager_table() -> Int32Array:
    """Two Cards High side-wager values by count symbol (0 ace .. 9 ten); offset ``comb(18, 5)`` when suited."""
    size = comb(SYMBOLS + 4, 5)
    table = np.zeros(2 * size, dtype=np.int32)
    for ms in combinations_with_replacement(range(10), 5):
        if ms[0] == ms[4]:
            continue
        counts = [s + 1 for s in ms]
        table[multiset_index(ms)] = value_of_ranks(counts, flush=False, ace_low=True)
        if len(set(ms)) == 5:
            table[size + multiset_index(ms)] = value_of_ranks(counts, flush=True, ace_low=True)
    return table
