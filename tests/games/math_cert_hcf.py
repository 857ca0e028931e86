"""The test lab's own count of High Card Flush's Ante (Ante and Raise, per unit Ante), from the seed alone.

Written from seed 002 (58 Pa. Code § 678a.6) and rules-notes, without ``controller.rules``:

- Seven cards to the player and to the dealer from one 52-card deck. A hand's value is its longest flush
  (§ 678a.6(b)); between equal lengths the flush holding the highest rank the other lacks wins (§ (c)), which
  for two sets of distinct ranks of one length is the comparison of their ranks sorted high to low; a hand
  with two flushes of the longest length counts the better one.
- The player folds (loses the Ante) or raises up to 1x the Ante with a flush of four or fewer, 2x with five,
  3x with six or seven. The dealer qualifies with a three-card flush nine-high or better (9-3-2 is the least).
  Unqualified: Ante 1 to 1, Raise pushes. Qualified: the higher hand wins Ante and Raise 1 to 1, equal push.
- The raise's value is linear in its size, so the optimal decision is one of fold, raise 1x or raise the most.

The count. A player hand is its best flush (length L, ranks R, in suit 0 after relabelling the suits: times 4)
and the ranks it holds in the other three suits (each at most L cards; a suit of L cards ranking above R
would be the best flush instead, and one equal to R is a second, equal best flush: such hands are met once
per best suit, so each is weighted 1 / (number of best suits)). Every dealer hand is a choice of ranks in
each suit from those the player left; its value is below a key (L, R) exactly when every suit's part is, so
the number of dealer hands below it is the coefficient of x^7 in the product over the four suits of

    sum_{k < L} C(a_s, k) x^k  +  c_s x^L

(a_s ranks left in suit s, c_s of the L-subsets of them below R). Expanding the product over which suits
reach L cards gives each count as a few integer sums of products of the c_s, taken at once over every
combination of the other suits' holdings with numpy. The same count below 9-3-2 gives the unqualified
dealer hands. Integers throughout; the result is one ``Fraction``. About 15 CPU seconds:

    python -c "from tests.games.math_cert_hcf import ante_total; print(ante_total())"
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np

RANKS = 13
DEALER = comb(45, 7)
QUALIFY = (3, (7, 1, 0))  # a three-card flush 9-3-2 (ranks 0..12 are 2..A)


def below(avail: frozenset[int], ranks: tuple[int, ...]) -> int:
    """How many subsets of ``avail`` of len(ranks) sort (high to low) below ``ranks``."""
    size = len(ranks)
    total = 0
    for i, r in enumerate(ranks):
        # equal to ranks[:i], then a smaller rank at place i, then any smaller ones after it
        for x in avail:
            if x < r:
                total += comb(sum(1 for y in avail if y < x), size - 1 - i)
        if r not in avail:
            break
    return total


def coefficient(bases: list[list[int]], reach: int, chosen: tuple[int, ...]) -> int:
    """[x^(7 - reach*len(chosen))] of the product of the bases of the suits not chosen."""
    need = 7 - reach * len(chosen)
    if need < 0:
        return 0
    poly = [1]
    for s, base in enumerate(bases):
        if s in chosen:
            continue
        out = [0] * (len(poly) + len(base) - 1)
        for i, p in enumerate(poly):
            for j, b in enumerate(base):
                out[i + j] += p * b
        poly = out
    return poly[need] if need < len(poly) else 0


def dealer_count(sizes: tuple[int, ...], reach: int, cs: list[np.ndarray]) -> np.ndarray:
    """Dealer hands whose every suit part is below a key of length ``reach`` (c_s: the L-subsets below)."""
    bases = [[comb(RANKS - p, k) for k in range(reach)] for p in sizes]
    total = np.zeros(np.broadcast_shapes(*(c.shape for c in cs)), np.int64)
    for n in range(5):
        for chosen in itertools.combinations(range(4), n):
            k = coefficient(bases, reach, chosen)
            if k:
                term = np.full(total.shape, k, np.int64)
                for s in chosen:
                    term = term * cs[s]
                total += term
    return total


def holdings(length: int, ranks: tuple[int, ...], size: int) -> np.ndarray:
    """Every holding of ``size`` ranks in one other suit: rows (c_below, c_at_most, c_unqualified, weight6 key)."""
    rows = []
    for held in itertools.combinations(range(RANKS), size):
        key = tuple(sorted(held, reverse=True))
        equal = size == length and key == ranks
        if size == length and key > ranks:
            continue  # that suit would be the best flush
        avail = frozenset(range(RANKS)) - set(held)
        lt = below(avail, ranks)
        le = lt + (1 if set(ranks) <= avail else 0)
        low = sum(1 for y in avail if y < 7)  # ranks 2..8 left: a three-card flush of them does not qualify
        rows.append((lt, le, comb(low, 3), 1 if equal else 0))
    return np.array(rows, np.int64).reshape(-1, 4)


PUBLISHED_THREE = (8, 6, 4)  # T-8-6, the least three-card flush the published strategy raises


def ante_total(lengths: range = range(2, 8), strategy: str = "optimal") -> tuple[Fraction, int]:
    """The Ante's exact EV per unit Ante for the optimal decision, and the number of player hands counted.

    ``lengths`` limits the count to player hands whose longest flush has one of those lengths (their share
    of the EV, and their number). ``strategy="published"`` plays Mousseau's instead: raise the most with four
    cards or more in a suit, raise 1x with a three-card flush T-8-6 or better, else fold.
    """
    numerator = 0  # sum over player hands of 6 * (dealer-weighted EV numerator)
    weight6 = 0
    for length in lengths:
        most = 1 if length <= 4 else 2 if length == 5 else 3
        for combo in itertools.combinations(range(RANKS), length):
            ranks = tuple(sorted(combo, reverse=True))
            avail0 = frozenset(range(RANKS)) - set(ranks)
            lt0 = below(avail0, ranks)
            low0 = comb(sum(1 for y in avail0 if y < 7), 3)
            rest = 7 - length
            tables = {p: holdings(length, ranks, p) for p in range(min(length, rest) + 1)}
            for sizes in itertools.product(range(min(length, rest) + 1), repeat=3):
                if sum(sizes) != rest:
                    continue
                parts = [tables[p] for p in sizes]
                if any(len(t) == 0 for t in parts):
                    continue
                shaped = [parts[0][:, None, None, :], parts[1][None, :, None, :], parts[2][None, None, :, :]]
                full = (length, *sizes)
                c_lt = [np.array(lt0, np.int64), *(t[..., 0] for t in shaped)]
                c_le = [np.array(lt0, np.int64), *(t[..., 1] for t in shaped)]
                c_nq = [np.array(low0, np.int64), *(t[..., 2] for t in shaped)]
                n_lt = dealer_count(full, length, c_lt)
                n_le = dealer_count(full, length, c_le)
                n_nq = dealer_count(full, 3, c_nq)
                wins = np.maximum(n_lt - n_nq, 0)
                ties = (n_le - n_lt) if (length, ranks) >= QUALIFY else np.zeros_like(n_lt)
                losses = DEALER - np.maximum(n_le, n_nq)
                assert (losses + wins + ties + n_nq == DEALER).all()
                net = wins - losses
                if strategy == "optimal":
                    best = np.maximum(np.maximum(n_nq + 2 * net, n_nq + (1 + most) * net), -DEALER)
                elif length >= 4:
                    best = n_nq + (1 + most) * net
                elif length == 3 and ranks >= PUBLISHED_THREE:
                    best = n_nq + 2 * net
                else:
                    best = np.full(net.shape, -DEALER, np.int64)
                best_suits = 1 + shaped[0][..., 3] + shaped[1][..., 3] + shaped[2][..., 3]
                w = 6 // best_suits
                numerator += int((best * w).sum())
                weight6 += int(np.broadcast_to(w, best.shape).sum())
    # four choices of the best suit; weights are six times the true ones
    hands = 4 * weight6 // 6
    return Fraction(4 * numerator, 6 * comb(52, 7) * DEALER), hands
