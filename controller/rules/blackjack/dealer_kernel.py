"""Compiled (numba) kernels: the player-dealer's final hands from what is left in the shoe.

The player-dealer's draws from a given up card are a fixed list (its rule
does not look at the players). They are grouped by the multiset of cards
drawn: group ``g`` draws ``count[e]`` cards of class ``cls[e]`` for the
entries ``e`` in ``start[g]:start[g + 1]``, ``length[g]`` cards in all, can be
drawn in ``ways[g]`` orders and ends in ``outcome[g]``. Given the cards
still in the shoe (``avail`` by class, ``left`` in all) its chance is::

    ways[g] * prod_e falling(avail[cls[e]], count[e]) / falling(left, length[g])

Each chance is also weighted, once per row ``w`` of a weight set, by a function
of what the shoe holds after the player-dealer has drawn (the split analysis
needs this; the plain weight set has one row, one term, coefficient one)::

    weight_w(a, n) = sum_t coef[w, t] * falling(a, m[t]) * falling(n - a, k[t]) / falling(n, m[t] + k[t])

with ``a`` the cards of class ``weight_class`` left and ``n`` all cards left.
The kernels return the weighted chances summed per outcome, ``out[w, outcome]``.

Two arithmetics: ``float64`` (:func:`dealer_float`) and residues modulo primes
below 2**50 (:func:`dealer_mod`, ``out[w, outcome, lane]``), from which the
analysis rebuilds exact fractions.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(cache=True)
def dealer_float(avail: np.ndarray, left: int, start: np.ndarray, cls: np.ndarray, count: np.ndarray,
                 length: np.ndarray, ways: np.ndarray, outcome: np.ndarray, outcomes: int, m: np.ndarray,
                 k: np.ndarray, coef: np.ndarray, weight_class: int) -> np.ndarray:
    groups = length.shape[0]
    rows, terms = coef.shape
    most = 0
    for g in range(groups):
        most = max(most, length[g])
    classes = avail.shape[0]
    falling = np.ones((classes, most + 1))
    for c in range(classes):
        for j in range(most):
            falling[c, j + 1] = falling[c, j] * max(avail[c] - j, 0)
    below = np.ones(most + 1)
    for j in range(most):
        below[j + 1] = below[j] * (left - j)
    plain = terms == 1 and m[0] == 0 and k[0] == 0
    term = np.empty(terms)
    out = np.zeros((rows, outcomes))
    for g in range(groups):
        p = ways[g]
        for e in range(start[g], start[g + 1]):
            p *= falling[cls[e], count[e]]
        if p == 0.0:
            continue
        p /= below[length[g]]
        if plain:
            for w in range(rows):
                out[w, outcome[g]] += p * coef[w, 0]
            continue
        a = avail[weight_class]
        for e in range(start[g], start[g + 1]):
            if cls[e] == weight_class:
                a -= count[e]
        n = left - length[g]
        for t in range(terms):
            v = 1.0
            for j in range(m[t]):
                v *= (a - j) / (n - j)
            for j in range(k[t]):
                v *= (n - a - j) / (n - m[t] - j)
            term[t] = v
        for w in range(rows):
            s = 0.0
            for t in range(terms):
                s += coef[w, t] * term[t]
            out[w, outcome[g]] += p * s
    return out


@njit(cache=True, inline="always")
def mulmod(a: int, b: int, p: int, p_inverse: float) -> int:
    """``a * b % p`` for residues below 2**50: the quotient from floating point (off by at most one),
    the remainder in wrapping 64-bit arithmetic (exact, being small), one correction either way."""
    q = np.int64(float(a) * float(b) * p_inverse)
    r = np.int64(np.uint64(a) * np.uint64(b) - np.uint64(q) * np.uint64(p))
    if r < 0:
        r += p
    elif r >= p:
        r -= p
    return int(r)


@njit(cache=True, inline="always")
def addmod(a: int, b: int, p: int) -> int:
    """``(a + b) % p`` for residues ``a, b < p``: one subtraction, no division."""
    s = a + b
    return s - p if s >= p else s


@njit(cache=True)
def _dealer_mod_into(out: np.ndarray, avail: np.ndarray, left: int, start: np.ndarray, cls: np.ndarray,
                     count: np.ndarray, length: np.ndarray, ways: np.ndarray, outcome: np.ndarray, m: np.ndarray,
                     k: np.ndarray, coef: np.ndarray, weight_class: int, primes: np.ndarray,
                     inverse: np.ndarray) -> None:
    """:func:`dealer_mod`'s sums, added into ``out[w, outcome, lane]``."""
    groups = length.shape[0]
    rows, terms, lanes = coef.shape
    most = 0
    for g in range(groups):
        most = max(most, length[g])
    classes = avail.shape[0]
    plain = terms == 1 and m[0] == 0 and k[0] == 0
    falling = np.ones((classes, most + 1), np.int64)
    below = np.ones(most + 1, np.int64)
    term = np.empty(terms, np.int64)
    # a row's weight depends on the group only through its length and how many weight-class cards it draws
    weight = np.zeros((most + 1, most + 1, rows), np.int64)
    known = np.zeros((most + 1, most + 1), np.bool_)
    for lane in range(lanes):
        p_mod = primes[lane]
        p_inv = 1.0 / p_mod
        known[:, :] = False
        for c in range(classes):
            for j in range(most):
                falling[c, j + 1] = mulmod(falling[c, j], max(avail[c] - j, 0), p_mod, p_inv)
        for j in range(most):
            below[j + 1] = mulmod(below[j], inverse[lane, left - j], p_mod, p_inv)
        for g in range(groups):
            p = ways[g] % p_mod
            for e in range(start[g], start[g + 1]):
                p = mulmod(p, falling[cls[e], count[e]], p_mod, p_inv)
            if p == 0:
                continue
            p = mulmod(p, below[length[g]], p_mod, p_inv)
            o = outcome[g]
            if plain:
                for w in range(rows):
                    out[w, o, lane] = addmod(out[w, o, lane], mulmod(p, coef[w, 0, lane], p_mod, p_inv), p_mod)
                continue
            drawn = 0
            for e in range(start[g], start[g + 1]):
                if cls[e] == weight_class:
                    drawn += count[e]
            size = length[g]
            if not known[size, drawn]:
                a = avail[weight_class] - drawn
                n = left - size
                for t in range(terms):
                    v = 1
                    for j in range(m[t]):
                        v = mulmod(mulmod(v, max(a - j, 0), p_mod, p_inv), inverse[lane, n - j], p_mod, p_inv)
                    for j in range(k[t]):
                        v = mulmod(mulmod(v, max(n - a - j, 0), p_mod, p_inv), inverse[lane, n - m[t] - j], p_mod,
                                   p_inv)
                    term[t] = v
                for w in range(rows):
                    s = 0
                    for t in range(terms):
                        s = addmod(s, mulmod(coef[w, t, lane], term[t], p_mod, p_inv), p_mod)
                    weight[size, drawn, w] = s
                known[size, drawn] = True
            for w in range(rows):
                out[w, o, lane] = addmod(out[w, o, lane], mulmod(p, weight[size, drawn, w], p_mod, p_inv), p_mod)


@njit(cache=True)
def dealer_mod(avail: np.ndarray, left: int, start: np.ndarray, cls: np.ndarray, count: np.ndarray,
               length: np.ndarray, ways: np.ndarray, outcome: np.ndarray, outcomes: int, m: np.ndarray,
               k: np.ndarray, coef: np.ndarray, weight_class: int, primes: np.ndarray,
               inverse: np.ndarray) -> np.ndarray:
    """As :func:`dealer_float`, modulo ``primes[lane]`` (below 2**50): ``out[w, outcome, lane]``.

    ``inverse[lane, v]`` is ``v``'s inverse modulo the lane's prime; ``coef[w, t, lane]`` are residues.
    """
    rows, _, lanes = coef.shape
    out = np.zeros((rows, outcomes, lanes), np.int64)
    _dealer_mod_into(out, avail, left, start, cls, count, length, ways, outcome, m, k, coef, weight_class, primes,
                     inverse)
    return out


@njit(cache=True, parallel=True)
def dealer_mod_many(avail: np.ndarray, left: np.ndarray, start: np.ndarray, cls: np.ndarray, count: np.ndarray,
                    length: np.ndarray, ways: np.ndarray, outcome: np.ndarray, outcomes: int, m: np.ndarray,
                    k: np.ndarray, coef: np.ndarray, weight_class: int, primes: np.ndarray,
                    inverse: np.ndarray) -> np.ndarray:
    """:func:`dealer_mod` for many sets of cards out at once (``avail[i]``, ``left[i]``), one thread per core.

    One long parallel loop: calling the parallel kernel once per set of cards out ran ten times slower on a
    shared machine (every call waits for its slowest thread).
    """
    rows, _, lanes = coef.shape
    out = np.zeros((avail.shape[0], rows, outcomes, lanes), np.int64)
    for i in prange(avail.shape[0]):
        _dealer_mod_into(out[i], avail[i], left[i], start, cls, count, length, ways, outcome, m, k, coef,
                         weight_class, primes, inverse)
    return out


@njit(cache=True)
def scale_mod(value: np.ndarray, factor: np.ndarray, primes: np.ndarray) -> np.ndarray:
    """``value * factor`` lane by lane: ``value`` is ``(rows, lanes)``, ``factor`` ``(lanes,)``."""
    out = np.empty_like(value)
    for lane in range(primes.shape[0]):
        p = primes[lane]
        p_inv = 1.0 / p
        for w in range(value.shape[0]):
            out[w, lane] = mulmod(value[w, lane], factor[lane], p, p_inv)
    return out


@njit(cache=True)
def payoff_mod(chances: np.ndarray, wins: np.ndarray, primes: np.ndarray) -> np.ndarray:
    """``sum over outcomes of chances[w, outcome, lane] * wins[outcome, lane]``, per row and lane."""
    rows, outcomes, lanes = chances.shape
    out = np.zeros((rows, lanes), np.int64)
    for lane in range(lanes):
        p = primes[lane]
        p_inv = 1.0 / p
        for w in range(rows):
            s = 0
            for o in range(outcomes):
                s = addmod(s, mulmod(chances[w, o, lane], wins[o, lane], p, p_inv), p)
            out[w, lane] = s
    return out
