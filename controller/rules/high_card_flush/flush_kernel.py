"""Compiled (numba) exact counting for High Card Flush's Ante and Raise.

A hand's value is its best suit's flush value (``controller.rules.evaluators.high_card_flush``):
``length << 28`` then the ranks from the top, a rank ``r`` being bit ``r - 2``
of a 13-bit suit mask. Because the value is the best of four suits, "the
dealer's hand is below ``y``" means "every suit of the dealer's hand is below
``y``", and the dealer hands below ``y`` that avoid the player's cards are
counted suit by suit: in a suit where the player holds ``m``, the dealer's
``b`` cards come from the other ranks, and ``[w^7] prod over suits of
(sum over b of w^b * count(b))`` is the number of dealer hands. Within one suit
the ``b``-card subsets below ``y`` are all of them when ``b`` is shorter than
``y``'s flush, none when longer, and for equal length they are counted in
lexicographic order of their ranks from the top.

Player hands are enumerated once per class of suit permutations (four suit
masks sorted by size, then by mask), weighted by the class's size.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

DEALER_HANDS = 45_379_620
"""C(45, 7): the dealer's seven cards from the 45 the player does not hold."""


@njit(cache=True)
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _binom() -> np.ndarray:
    table = np.zeros((14, 14), np.int64)
    for i in range(14):
        table[i, 0] = 1
        for j in range(1, i + 1):
            table[i, j] = table[i - 1, j - 1] + table[i - 1, j]
    return table


@njit(cache=True)
def flush_value(mask: int) -> int:
    """The value of the flush whose ranks are the bits of ``mask`` (as the shared evaluator values it)."""
    value = _popcount(mask)
    n = 0
    for bit in range(12, -1, -1):
        if (mask >> bit) & 1:
            value = (value << 4) | (bit + 2)
            n += 1
    for _ in range(n, 7):
        value <<= 4
    return value


@njit(cache=True)
def _count_below(avail: int, size: int, y: int, inclusive: bool, binom: np.ndarray) -> int:
    """``size``-subsets of the ranks in ``avail`` whose flush value is below ``y`` (or equal, if ``inclusive``)."""
    length = y >> 28
    if size < length:
        return int(binom[_popcount(avail), size])
    if size > length:
        return 0
    total = 0
    matched = True
    for i in range(length):
        top = ((y >> (24 - 4 * i)) & 0xF) - 2
        for bit in range(top):
            if (avail >> bit) & 1:
                total += binom[_popcount(avail & ((1 << bit) - 1)), length - 1 - i]
        if not (avail >> top) & 1:
            matched = False
            break
    if inclusive and matched:
        total += 1
    return total


@njit(cache=True)
def dealer_below(masks: np.ndarray, ys: np.ndarray, inclusive: np.ndarray, binom: np.ndarray,
                 poly: np.ndarray, ways: np.ndarray, out: np.ndarray) -> None:
    """``out[t]``: dealer hands of seven unseen cards valued below ``ys[t]`` (at most, if ``inclusive[t]``).

    ``poly`` (thresholds x 8) and ``ways`` (8) are scratch space: the counting loop allocates nothing.
    """
    n = ys.shape[0]
    poly[:, :] = 0
    poly[:, 0] = 1
    for s in range(4):
        avail = 0x1FFF & ~masks[s]
        size = _popcount(avail)
        for t in range(n):
            length = ys[t] >> 28
            for b in range(8):
                ways[b] = binom[size, b] if b < length else 0
            if length < 8:
                ways[length] = _count_below(avail, length, ys[t], inclusive[t], binom)
            for total in range(7, -1, -1):
                acc = 0
                for b in range(total + 1):
                    acc += poly[t, total - b] * ways[b]
                poly[t, total] = acc
    for t in range(n):
        out[t] = poly[t, 7]


@njit(cache=True)
def hand_counts(masks: np.ndarray, qualify_at: int) -> np.ndarray:
    """For a player's four suit masks: ``[value, dealer unqualified, dealer below, dealer at most]``."""
    out = np.empty(4, np.int64)
    _hand_counts(masks, qualify_at, _binom(), np.empty((3, 8), np.int64), np.empty(8, np.int64),
                 np.empty(3, np.int64), np.empty(3, np.bool_), out)
    return out


@njit(cache=True)
def _hand_counts(masks: np.ndarray, qualify_at: int, binom: np.ndarray, poly: np.ndarray, ways: np.ndarray,
                 ys: np.ndarray, inclusive: np.ndarray, out: np.ndarray) -> None:
    value = 0
    for s in range(4):
        value = max(value, flush_value(masks[s]))
    ys[0], ys[1], ys[2] = qualify_at, value, value
    inclusive[0], inclusive[1], inclusive[2] = False, False, True
    out[0] = value
    dealer_below(masks, ys, inclusive, binom, poly, ways, out[1:])


@njit(cache=True)
def raise_returns(counts: np.ndarray, qualify_at: int, multiple: int) -> int:
    """Ante plus a Raise of ``multiple`` Antes, summed over the dealer hands, per unit of Ante."""
    value, unqualified, below, upto = counts[0], counts[1], counts[2], counts[3]
    beaten = below - unqualified if value >= qualify_at else 0
    tied = upto - below if value >= qualify_at else 0
    lost = DEALER_HANDS - unqualified - beaten - tied
    return int(unqualified + (1 + multiple) * (beaten - lost))


@njit(cache=True)
def _masks_of_size(size: int) -> np.ndarray:
    out = np.empty(1 << 13, np.int64)
    n = 0
    for m in range((1 << 13) - 1, -1, -1):
        if _popcount(m) == size:
            out[n] = m
            n += 1
    return out[:n]


@njit(cache=True)
def _settle_class(masks: np.ndarray, weight: int, qualify_at: int, mousseau: np.ndarray, out: np.ndarray,
                  scratch: tuple[Any, ...]) -> None:
    binom, poly, ways, ys, inclusive, counts = scratch
    _hand_counts(masks, qualify_at, binom, poly, ways, ys, inclusive, counts)
    length = counts[0] >> 28
    most = 3 if length >= 6 else 2 if length == 5 else 1
    fold = -DEALER_HANDS
    one = raise_returns(counts, qualify_at, 1)
    top = raise_returns(counts, qualify_at, most)
    best = max(fold, one, top)
    out[0] += weight * best
    if best == fold:
        out[1] += weight
    elif best == top and most > 1:
        out[2] += weight
    ranks = (counts[0] >> 16) & 0xFFF
    published = 0
    if length >= 4:
        published = most
    elif length == 3 and ranks >= mousseau[0]:
        published = 1
    out[3] += weight * (fold if published == 0 else raise_returns(counts, qualify_at, published))
    out[4] += weight


@njit(cache=True, nogil=True)
def totals(qualify_at: int, mousseau_three: int, part: int = 0, parts: int = 1) -> np.ndarray:
    """Sum over every player hand of ``[optimal return, folds, raises above 1x, published-strategy return, hands]``.

    ``part`` of ``parts`` takes every ``parts``-th first suit mask, so that threads can share the work.
    """
    partitions = np.array([[7, 0, 0, 0], [6, 1, 0, 0], [5, 2, 0, 0], [5, 1, 1, 0], [4, 3, 0, 0], [4, 2, 1, 0],
                           [4, 1, 1, 1], [3, 3, 1, 0], [3, 2, 2, 0], [3, 2, 1, 1], [2, 2, 2, 1]], np.int64)
    by_size = [_masks_of_size(k) for k in range(8)]
    mousseau = np.array([mousseau_three], np.int64)
    out = np.zeros(5, np.int64)
    masks = np.zeros(4, np.int64)
    scratch = (_binom(), np.empty((3, 8), np.int64), np.empty(8, np.int64), np.empty(3, np.int64),
               np.empty(3, np.bool_), np.empty(4, np.int64))
    for p in range(partitions.shape[0]):
        a = partitions[p]
        l0, l1, l2, l3 = by_size[a[0]], by_size[a[1]], by_size[a[2]], by_size[a[3]]
        for i in range(part, l0.shape[0], parts):
            masks[0] = l0[i]
            for j in range(i if a[1] == a[0] else 0, l1.shape[0]):
                masks[1] = l1[j]
                for k in range(j if a[2] == a[1] else 0, l2.shape[0]):
                    masks[2] = l2[k]
                    for m in range(k if a[3] == a[2] else 0, l3.shape[0]):
                        masks[3] = l3[m]
                        _settle_class(masks, _weight(masks), qualify_at, mousseau, out, scratch)
    return out


@njit(cache=True)
def _weight(masks: np.ndarray) -> int:
    """How many suit assignments give this multiset of masks: 4! over the factorials of repeats."""
    weight = 24
    run = 1
    for s in range(1, 4):
        if masks[s] == masks[s - 1]:
            run += 1
            weight //= run
        else:
            run = 1
    return weight
