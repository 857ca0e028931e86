"""The shuffle tests' arithmetic, compiled with numba: pure functions of integer arrays.

A shoe is an array of card *types* (``0 .. K-1``, an index into the deck's
composition ``counts``; ``-1`` for a card that could not be read or does not
belong to the deck), in the order dealt. A *reference* is an earlier order of
types: the factory order, or the order the previous shoe was dealt in.

**Guessers.** Each per-shoe test is a guessing rule in the manner of Diaconis,
Fulman and Holmes: before each card it names a set of card types from what it
has seen, and scores a hit when the card is one of them. Under a truly random
shuffle the chance of a hit is known exactly from the cards still in the shoe
(``p = sum of their counts / cards left``), so a guesser returns, per card,
``hit`` and ``p`` (``p = 0``: no guess for that card). A card that is unknown
(``-1``) or foreign to the deck changes no count: given what was seen, the
next card is still drawn from the same remaining counts.

**Martingales.** ``mixture_log_e`` turns hits into a test martingale: for each
stream and each leak ``eps`` in a grid, the likelihood ratio of "the guess is
right with probability ``p + eps (1 - p)``" against "``p``". Under a random
shuffle each of these, and so their average, is a martingale of mean 1, and by
Ville's inequality the chance that it ever reaches ``1/alpha`` in a shoe is at
most ``alpha``: a threshold with an exact false-alarm bound, at every card.

**Distribution statistics.** ``adjacency_z`` and ``serial_z`` are z-scores of a
shoe's runs (same category side by side) and lag-1 serial correlation, with
the exact mean and variance of a random order of the cards actually seen;
``position_log_lr`` scores a shoe against a per-device position bias learned
from earlier shoes (an exact likelihood ratio again).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

I64 = np.int64
F64 = np.float64
Array = np.ndarray[Any, Any]


@njit(cache=True)
def _positions_by_type(ref: Array, k: int) -> tuple[Array, Array]:
    """CSR lists: the positions of type ``y`` in ``ref`` are ``pos[start[y]:start[y + 1]]``, ascending."""
    start = np.zeros(k + 1, dtype=np.int64)
    for y in ref:
        if 0 <= y < k:
            start[y + 1] += 1
    for y in range(k):
        start[y + 1] += start[y]
    fill = start[:-1].copy()
    pos = np.empty(start[k], dtype=np.int64)
    for j in range(ref.shape[0]):
        y = ref[j]
        if 0 <= y < k:
            pos[fill[y]] = j
            fill[y] += 1
    return start, pos


@njit(cache=True)
def _known(y: int, r: Array) -> bool:
    return bool(0 <= y < r.shape[0] and r[y] > 0)


@njit(cache=True)
def follow(dealt: Array, counts: Array, ref: Array) -> tuple[Array, Array]:
    """Adjacent pairs kept from ``ref``: guess that the next card follows the last one as it did in ``ref``.

    The guesser keeps the places in ``ref`` where the run of kept pairs so far
    could be (every copy of the last card when no run is going on) and guesses
    the cards that came next there.
    """
    k = counts.shape[0]
    t_len = dealt.shape[0]
    start, pos = _positions_by_type(ref, k)
    r = counts.copy()
    left = r.sum()
    hit = np.zeros(t_len, dtype=np.bool_)
    p = np.zeros(t_len, dtype=np.float64)
    active = np.empty(ref.shape[0] + 1, dtype=np.int64)
    n_active = 0
    fresh = np.empty(ref.shape[0] + 1, dtype=np.int64)
    guessed = np.zeros(k, dtype=np.bool_)
    for t in range(t_len):
        y = dealt[t]
        # the guess made after the previous card
        mass = 0
        for a in range(n_active):
            j = active[a] + 1
            if j < ref.shape[0]:
                g = ref[j]
                if not guessed[g]:
                    guessed[g] = True
                    mass += r[g]
        if 0 < mass < left:
            p[t] = mass / left
            hit[t] = 0 <= y < k and guessed[y]
        for a in range(n_active):
            j = active[a] + 1
            if j < ref.shape[0]:
                guessed[ref[j]] = False
        if not _known(y, r):
            n_active = 0
            continue
        n_fresh = 0
        for a in range(n_active):
            j = active[a] + 1
            if j < ref.shape[0] and ref[j] == y:
                fresh[n_fresh] = j
                n_fresh += 1
        if n_fresh == 0:
            for i in range(start[y], start[y + 1]):
                fresh[n_fresh] = pos[i]
                n_fresh += 1
        active[:n_fresh] = fresh[:n_fresh]
        n_active = n_fresh
        r[y] -= 1
        left -= 1
    return hit, p


@njit(cache=True)
def rising(dealt: Array, counts: Array, ref: Array, window: int) -> tuple[Array, Array]:
    """Bayer and Diaconis's rising sequences, card by card: a hit is a card whose predecessor in ``ref`` is out.

    After ``k`` riffles the cards come from ``2**k`` packets, each in its old
    order, so nearly every card continues a rising sequence: it is the card
    after one dealt a little earlier. The guess is every card that follows in
    ``ref`` one of the last ``window`` cards dealt (``0``: any card dealt so
    far); each card is matched to such a copy of it if there is one, else to
    its first copy still in. The misses are the rising sequences of the cards seen.
    """
    k = counts.shape[0]
    n_ref = ref.shape[0]
    t_len = dealt.shape[0]
    start, pos = _positions_by_type(ref, k)
    r = counts.copy()
    left = r.sum()
    out = np.zeros(n_ref + 1, dtype=np.bool_)
    when = np.full(n_ref + 1, -1, dtype=np.int64)  # the card number each place went out at
    mark = np.zeros(k, dtype=np.bool_)
    hit = np.zeros(t_len, dtype=np.bool_)
    p = np.zeros(t_len, dtype=np.float64)
    recent = np.full(max(window, 1), -1, dtype=np.int64)  # ring of the places of the last cards
    for t in range(t_len):
        y = dealt[t]
        mass = 0
        if window > 0:
            for i in range(window):
                j = recent[i] + 1
                if recent[i] >= 0 and j < n_ref and not out[j] and not mark[ref[j]]:
                    mark[ref[j]] = True
                    mass += r[ref[j]]
        else:
            for z in range(k):
                for i in range(start[z], start[z + 1]):
                    j = pos[i]
                    if j > 0 and out[j - 1] and not out[j]:
                        mark[z] = True
                        mass += r[z]
                        break
        if 0 < mass < left:
            p[t] = mass / left
            hit[t] = 0 <= y < k and mark[y]
        if window > 0:
            for i in range(window):
                j = recent[i] + 1
                if recent[i] >= 0 and j < n_ref:
                    mark[ref[j]] = False
        else:
            mark[:] = False
        if not _known(y, r):
            continue
        # the copy whose predecessor went out most recently, else the first copy still in
        chosen = -1
        newest = -2
        for i in range(start[y], start[y + 1]):
            j = pos[i]
            if out[j]:
                continue
            if chosen < 0:
                chosen = j
            if j > 0 and out[j - 1] and when[j - 1] > newest:
                chosen = j
                newest = when[j - 1]
        r[y] -= 1
        left -= 1
        if chosen >= 0:
            out[chosen] = True
            when[chosen] = t
            if window > 0:
                recent[t % window] = chosen
    return hit, p


@njit(cache=True)
def valley(dealt: Array, counts: Array, ref: Array) -> tuple[Array, Array]:
    """Shelf shuffler valleys: guess that the next card goes on the way the last one went in ``ref`` (up or down).

    A one-pass shelf shuffler's shelves each read as a valley of the old
    order, falling then rising, so a peak (up, then down) comes only where one
    shelf ends and the next begins: a handful per deck, against a third of the
    cards for a random order. Each card is matched to its copy still in nearest
    the last card's place.
    """
    k = counts.shape[0]
    n_ref = ref.shape[0]
    t_len = dealt.shape[0]
    start, pos = _positions_by_type(ref, k)
    r = counts.copy()
    left = r.sum()
    out = np.zeros(n_ref, dtype=np.bool_)
    hit = np.zeros(t_len, dtype=np.bool_)
    p = np.zeros(t_len, dtype=np.float64)
    last = -1
    way = 0  # +1 the last card rose, -1 it fell, 0 not known
    for t in range(t_len):
        y = dealt[t]
        if way != 0:
            mass = 0
            for z in range(k):
                if r[z] > 0 and (_nearest(out, pos, start[z], start[z + 1], last) - last) * way > 0:
                    mass += r[z]
            if 0 < mass < left:
                p[t] = mass / left
                hit[t] = 0 <= y < k and r[y] > 0 and (_nearest(out, pos, start[y], start[y + 1], last) - last) * way > 0
        if not _known(y, r):
            last, way = -1, 0
            continue
        chosen = _nearest(out, pos, start[y], start[y + 1], last)
        r[y] -= 1
        left -= 1
        if chosen < 0:
            last, way = -1, 0
            continue
        way = 0 if last < 0 else (1 if chosen > last else -1)
        out[chosen] = True
        last = chosen
    return hit, p


@njit(cache=True)
def _nearest(out: Array, pos: Array, lo: int, hi: int, j: int) -> int:
    """Of the places ``pos[lo:hi]`` still in, the one nearest ``j`` (-1 if none)."""
    best = -1
    for i in range(lo, hi):
        q = pos[i]
        if not out[q] and (best < 0 or abs(q - j) < abs(best - j)):
            best = q
    return best


@njit(cache=True)
def _next_in(out: Array, j: int, step: int) -> int:
    """The nearest place past ``j`` (going ``step``) whose card is still in; -1 if none."""
    j += step
    while 0 <= j < out.shape[0]:
        if not out[j]:
            return j
        j += step
    return -1


@njit(cache=True)
def next_card(dealt: Array, counts: Array, ref: Array, both_ways: bool) -> tuple[Array, Array]:
    """The card-guessing test of Diaconis, Fulman and Holmes.

    Guess that the next card is the next one still in, above the last card in
    ``ref`` (and, with ``both_ways``, the next one below: a shelf of a shelf
    shuffler reads as a valley, falling then rising). At the start of a shoe
    the guess is the first card of ``ref`` still in.
    """
    k = counts.shape[0]
    n_ref = ref.shape[0]
    t_len = dealt.shape[0]
    start, pos = _positions_by_type(ref, k)
    r = counts.copy()
    left = r.sum()
    out = np.zeros(n_ref, dtype=np.bool_)
    hit = np.zeros(t_len, dtype=np.bool_)
    p = np.zeros(t_len, dtype=np.float64)
    last = -1
    known_last = True
    for t in range(t_len):
        y = dealt[t]
        g1, g2 = -1, -1
        if known_last and n_ref > 0:
            up = _next_in(out, last, 1)
            if up >= 0:
                g1 = ref[up]
            if both_ways and last >= 0:
                down = _next_in(out, last, -1)
                if down >= 0 and ref[down] != g1:
                    g2 = ref[down]
        mass = (r[g1] if g1 >= 0 else 0) + (r[g2] if g2 >= 0 else 0)
        if 0 < mass < left:
            p[t] = mass / left
            hit[t] = y >= 0 and (y == g1 or y == g2)
        if not _known(y, r):
            known_last = False
            continue
        # the copy of y still in nearest above the last card, else the first one still in
        chosen = -1
        for i in range(start[y], start[y + 1]):
            j = pos[i]
            if out[j]:
                continue
            if chosen < 0:
                chosen = j
            if j > last:
                chosen = j
                break
        r[y] -= 1
        left -= 1
        if chosen >= 0:
            out[chosen] = True
            last = chosen
            known_last = True
        else:
            known_last = False
    return hit, p


@njit(cache=True)
def in_place(dealt: Array, counts: Array, ref: Array, width: int) -> tuple[Array, Array]:
    """Positions moved: a hit is a card found within ``width`` places of where a copy of it lay in ``ref``."""
    k = counts.shape[0]
    n_ref = ref.shape[0]
    t_len = dealt.shape[0]
    r = counts.copy()
    left = r.sum()
    out = np.zeros(n_ref, dtype=np.bool_)
    mark = np.zeros(k, dtype=np.bool_)
    hit = np.zeros(t_len, dtype=np.bool_)
    p = np.zeros(t_len, dtype=np.float64)
    for t in range(t_len):
        y = dealt[t]
        lo, hi = max(0, t - width), min(n_ref - 1, t + width)
        mass = 0
        for j in range(lo, hi + 1):
            g = ref[j]
            if not out[j] and not mark[g]:
                mark[g] = True
                mass += r[g]
        if 0 < mass < left:
            p[t] = mass / left
            hit[t] = 0 <= y < k and mark[y]
        chosen = -1
        for j in range(lo, hi + 1):
            g = ref[j]
            mark[g] = False
            if g == y and not out[j] and (chosen < 0 or abs(j - t) < abs(chosen - t)):
                chosen = j
        if not _known(y, r):
            continue
        r[y] -= 1
        left -= 1
        if chosen >= 0:
            out[chosen] = True
    return hit, p


@njit(cache=True)
def mixture_log_e(hits: Array, ps: Array, eps: Array) -> Array:
    """ln of the test martingale after each card: the mean over streams (rows) and leaks ``eps`` of the likelihood ratios.

    ``hits`` and ``ps`` are ``(streams, cards)``; ``p = 0`` is a card with no guess.
    """
    n_s, t_len = hits.shape
    n_e = eps.shape[0]
    comp = np.zeros((n_s, n_e), dtype=np.float64)
    log_fail = np.log1p(-eps)
    out = np.empty(t_len, dtype=np.float64)
    norm = math.log(n_s * n_e)
    for t in range(t_len):
        top = -np.inf
        for s in range(n_s):
            q = ps[s, t]
            if q > 0.0:
                if hits[s, t]:
                    for e in range(n_e):
                        comp[s, e] += math.log1p(eps[e] * (1.0 - q) / q)
                else:
                    for e in range(n_e):
                        comp[s, e] += log_fail[e]
            for e in range(n_e):
                top = max(top, comp[s, e])
        total = 0.0
        for s in range(n_s):
            for e in range(n_e):
                total += math.exp(comp[s, e] - top)
        out[t] = top + math.log(total) - norm
    return out


@njit(cache=True)
def stream_log_e(hit: Array, p: Array, eps: float) -> float:
    """ln of one stream's likelihood ratio at leak ``eps`` over the whole shoe (the per-device evidence)."""
    total = 0.0
    for t in range(hit.shape[0]):
        q = p[t]
        if q > 0.0:
            total += math.log1p(eps * (1.0 - q) / q) if hit[t] else math.log1p(-eps)
    return total


@njit(cache=True)
def adjacency_z(dealt: Array, category: Array) -> float:
    """z-score of the pairs of neighbours in one category (colour, suit): too many is clumping, too few alternation.

    Moments are exact for a random order of the cards seen (unknown cards leave a gap: the pair across it is not counted).
    """
    n_cat = category.max() + 1
    sizes = np.zeros(n_cat, dtype=np.float64)
    same = 0.0
    pairs = 0.0
    chained = 0.0  # pairs that share a card with the pair before
    prev = -1
    last_paired = False
    for t in range(dealt.shape[0]):
        y = dealt[t]
        c = category[y] if 0 <= y < category.shape[0] else -1
        paired = False
        if c >= 0:
            sizes[c] += 1
            if prev >= 0:
                pairs += 1
                same += prev == c
                paired = True
                chained += last_paired
        prev = c
        last_paired = paired
    n = sizes.sum()
    if n < 4 or pairs < 2:
        return 0.0
    f2 = (sizes * (sizes - 1)).sum()
    f3 = (sizes * (sizes - 1) * (sizes - 2)).sum()
    a = f2 / (n * (n - 1))
    b = f3 / (n * (n - 1) * (n - 2))
    # both of two disjoint pairs alike: (sum_i f2_i)^2 less the tuples that reuse a card, over n falling 4
    c4 = (f2 * f2 - (sizes * (sizes - 1) * (4 * sizes - 6)).sum()) / (n * (n - 1) * (n - 2) * (n - 3))
    mean = pairs * a
    overlapping = 2.0 * chained
    disjoint = pairs * (pairs - 1) - overlapping
    var = pairs * a + overlapping * b + disjoint * c4 - mean * mean
    if var <= 0:
        return 0.0
    return float((same - mean) / math.sqrt(var))


@njit(cache=True)
def serial_z(dealt: Array, value: Array) -> float:
    """z-score of the lag-1 serial sum ``sum v_t v_{t+1}`` of the card values, exact moments for the cards seen."""
    s1 = s2 = s3 = s4 = 0.0
    q = 0.0
    pairs = 0.0
    chained = 0.0
    last_paired = False
    n = 0.0
    prev = -1.0
    have_prev = False
    for t in range(dealt.shape[0]):
        y = dealt[t]
        if 0 <= y < value.shape[0]:
            v = value[y]
            n += 1
            s1 += v
            s2 += v * v
            s3 += v * v * v
            s4 += v * v * v * v
            paired = False
            if have_prev:
                q += prev * v
                pairs += 1
                paired = True
                chained += last_paired
            last_paired = paired
            prev = v
            have_prev = True
        else:
            have_prev = False
            last_paired = False
    if n < 5 or pairs < 2:
        return 0.0
    m2 = (s1 * s1 - s2) / (n * (n - 1))
    m_sq = (s2 * s2 - s4) / (n * (n - 1))
    m_ov = (s2 * (s1 * s1 - s2) - 2 * s1 * s3 + 2 * s4) / (n * (n - 1) * (n - 2))
    m4 = (s1**4 - 6 * s1 * s1 * s2 + 3 * s2 * s2 + 8 * s1 * s3 - 6 * s4) / (n * (n - 1) * (n - 2) * (n - 3))
    overlapping = 2.0 * chained
    disjoint = pairs * (pairs - 1) - overlapping
    mean = pairs * m2
    var = pairs * m_sq + overlapping * m_ov + disjoint * m4 - mean * mean
    if var <= 0:
        return 0.0
    return (q - mean) / math.sqrt(var)


@njit(cache=True)
def position_log_lr(dealt: Array, counts: Array, weight: Array, bins: int, size: int) -> float:
    """ln likelihood ratio of a shoe under a learned position bias ``weight[type, bin]`` against a random shuffle.

    Card by card: random gives type ``y`` the chance ``r_y / left``; the bias
    gives ``r_y w[y, b] / sum_z r_z w[z, b]`` in the position's bin ``b``. The
    weights come from earlier shoes only, so the ratio is exact.
    """
    k = counts.shape[0]
    r = counts.astype(np.float64)
    left = r.sum()
    mass = np.zeros(bins, dtype=np.float64)
    for b in range(bins):
        for y in range(k):
            mass[b] += r[y] * weight[y, b]
    total = 0.0
    for t in range(dealt.shape[0]):
        y = dealt[t]
        if not (0 <= y < k and r[y] > 0):
            continue
        b = min(t * bins // size, bins - 1)
        total += math.log(weight[y, b] * left / mass[b])
        r[y] -= 1
        left -= 1
        for c in range(bins):
            mass[c] -= weight[y, c]
    return total


@njit(cache=True)
def position_counts(dealt: Array, k: int, bins: int, size: int, table: Array, expected: Array, counts: Array) -> None:
    """Add a shoe to a device's position table: observed ``table[type, bin]`` and its expectation under random."""
    n = counts.sum()
    for t in range(dealt.shape[0]):
        b = min(t * bins // size, bins - 1)
        y = dealt[t]
        if 0 <= y < k:
            table[y, b] += 1
        for z in range(k):
            expected[z, b] += counts[z] / n


@njit(cache=True)
def relative_ranks(dealt: Array, ref: Array, k: int) -> Array:
    """The seen cards' places in ``ref`` in the order dealt, for a deck of distinct cards (each type once in ``ref``).

    Cards not in ``ref`` (or unknown) are left out: given which cards were
    seen, a random shuffle deals them in each order equally often.
    """
    where = np.full(k, -1, dtype=np.int64)
    for j in range(ref.shape[0]):
        where[ref[j]] = j
    out = np.empty(dealt.shape[0], dtype=np.int64)
    n = 0
    for t in range(dealt.shape[0]):
        y = dealt[t]
        if 0 <= y < k and where[y] >= 0:
            out[n] = where[y]
            n += 1
    return out[:n]


@njit(cache=True)
def _log_factorial(n: int) -> float:
    return math.lgamma(n + 1.0)


@njit(cache=True)
def riffle_log_e(places: Array, max_riffles: int) -> float:
    """ln of Bayer and Diaconis's likelihood ratio for ``1..max_riffles`` GSR riffles (their average) against random.

    After ``k`` riffles an order with ``r`` rising sequences has chance
    ``C(2**k + n - r, n) / 2**(k n)``; against ``1 / n!`` that is an exact e-value.
    """
    n = places.shape[0]
    if n < 2:
        return 0.0
    order = np.argsort(places)  # the dealt index of each card, in the old order
    r = 1
    for i in range(n - 1):
        if order[i + 1] < order[i]:
            r += 1
    total = -np.inf
    for kk in range(1, max_riffles + 1):
        a = 2.0**kk
        if a + n - r < n:
            continue
        lq = math.lgamma(a + n - r + 1) - math.lgamma(n + 1.0) - math.lgamma(a - r + 1) - kk * n * math.log(2.0)
        total = max(total, lq) + math.log1p(math.exp(-abs(total - lq))) if total > -np.inf else lq
    return total - math.log(max_riffles) + _log_factorial(n)


@njit(cache=True)
def shelf_log_e(places: Array, shelves: Array) -> float:
    """ln of the likelihood ratio of a one-pass shelf shuffler (average over the shelf counts given) against random.

    Under an ``m``-shelf machine an order is a run of at most ``m`` valleys of
    the old order; its chance is ``sum_j C(m, j) 2**j N_j / (2m)**n`` with
    ``N_j`` the ways to cut it into ``j`` valleys (dynamic programming over the peaks).
    """
    n = places.shape[0]
    if n < 3:
        return 0.0
    # a segment [a, b] is a valley when no peak lies strictly inside; floor[b] = the last peak at or before b-1
    floor = np.zeros(n, dtype=np.int64)
    last_peak = 0
    for b in range(n):
        floor[b] = last_peak
        if 0 < b < n - 1 and places[b - 1] < places[b] > places[b + 1]:
            last_peak = b
    # ways[j, b + 1]: ways to cut the first b + 1 cards into j valleys, scaled per row to stay finite
    m_max = int(shelves.max())
    ways = np.zeros((m_max + 1, n + 1))
    scale = np.zeros(m_max + 1)
    ways[0, 0] = 1.0
    for j in range(1, m_max + 1):
        prefix = np.zeros(n + 2)
        for b in range(n + 1):
            prefix[b + 1] = prefix[b] + ways[j - 1, b]
        for b in range(n):
            ways[j, b + 1] = prefix[b + 1] - prefix[floor[b]]
        top = ways[j].max()
        scale[j] = scale[j - 1]
        if top > 0:
            ways[j] /= top
            scale[j] += math.log(top)
        else:
            scale[j] = -np.inf
    total = -np.inf
    for m in shelves:
        acc = -np.inf
        for j in range(1, min(m, n) + 1):
            w = ways[j, n]
            if w <= 0:
                continue
            lj = math.lgamma(m + 1.0) - math.lgamma(j + 1.0) - math.lgamma(m - j + 1.0) + j * math.log(2.0) + math.log(w) + scale[j]
            acc = lj if acc == -np.inf else max(acc, lj) + math.log1p(math.exp(-abs(acc - lj)))
        lq = acc - n * math.log(2.0 * m)
        total = lq if total == -np.inf else max(total, lq) + math.log1p(math.exp(-abs(total - lq)))
    return total - math.log(shelves.shape[0]) + _log_factorial(n)
