"""Compiled (numba) kernels for Top 5 Poker's exact Ante/Bet edge.

The numbers are too many for Python: for each of the 13 ranks of the
Community Card (its suit fixed, the other suits weighted by symmetry), every
player hand of five of the other 51 cards meets every dealer hand of five of
the 46 cards left. Both hands are valued the same way, as the best five of
their five cards plus the Community Card, so one array of values serves as
both player values and dealer values.

The dealer hands that avoid a player hand ``P`` are counted by inclusion and
exclusion over the subsets ``S`` of ``P``: the hands disjoint from ``P`` are
``sum over S of (-1)^|S| * (hands containing S)``. Hands containing a set of
0, 1 or 2 cards are counted from cumulative tables indexed by hand value;
hands containing 3 or 4 cards are kept as sorted value lists (1128 and 47 long)
and searched. Cards are numbered ``4 * rank + suit`` (rank 0 is the deuce);
the Community Card's suit is 0.

Hand values here are internal integers that order hands as poker does
(``category << 20`` then five 4-bit ranks); they are never shown to anyone.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

HANDS_OF_51 = 2_349_060
DEALER_HANDS = 1_370_754
"""Five-card dealer hands from the 46 cards neither the player nor the Community Card holds."""


@njit(cache=True)
def _top_straight(mask: int) -> int:
    """The top rank index of the highest five-card straight in a rank bitmask, or -1 (wheel: 3)."""
    for top in range(12, 3, -1):
        need = 0x1F << (top - 4)
        if mask & need == need:
            return top
    if mask & 0x100F == 0x100F:
        return 3
    return -1


@njit(cache=True)
def _pack(cat: int, r1: int, r2: int, r3: int, r4: int, r5: int) -> int:
    return (cat << 20) | (r1 << 16) | (r2 << 12) | (r3 << 8) | (r4 << 4) | r5


@njit(cache=True)
def _top_ranks(mask: int, out: np.ndarray, skip: int) -> None:
    """Fill ``out`` with the highest ranks of ``mask`` other than ``skip`` (rank index + 1, 0 when absent)."""
    n = 0
    for r in range(12, -1, -1):
        if n == out.shape[0]:
            return
        if r != skip and (mask >> r) & 1:
            out[n] = r + 1
            n += 1
    while n < out.shape[0]:
        out[n] = 0
        n += 1


@njit(cache=True)
def best_value(cards: np.ndarray) -> int:
    """The best five-card poker value of five to seven cards (numbered ``4 * rank + suit``)."""
    return _best_value(cards, np.zeros(13, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(5, np.int64))


@njit(cache=True)
def _best_value(cards: np.ndarray, counts: np.ndarray, suit_count: np.ndarray, suit_mask: np.ndarray,
                kick: np.ndarray) -> int:
    """:func:`best_value` on scratch arrays (a hot loop must not allocate)."""
    counts[:] = 0
    suit_count[:] = 0
    suit_mask[:] = 0
    mask = 0
    for c in cards:
        r, s = c // 4, c % 4
        counts[r] += 1
        suit_count[s] += 1
        suit_mask[s] |= 1 << r
        mask |= 1 << r
    flush = -1
    for s in range(4):
        if suit_count[s] >= 5:
            flush = s
    if flush >= 0:
        sf = _top_straight(suit_mask[flush])
        if sf >= 0:
            return _pack(8, sf + 1, 0, 0, 0, 0)
    quad = trip = trip2 = -1
    pair1 = pair2 = pair3 = -1
    for r in range(12, -1, -1):
        if counts[r] == 4:
            quad = r
        elif counts[r] == 3:
            if trip < 0:
                trip = r
            elif trip2 < 0:
                trip2 = r
        elif counts[r] == 2:
            if pair1 < 0:
                pair1 = r
            elif pair2 < 0:
                pair2 = r
            elif pair3 < 0:
                pair3 = r
    if quad >= 0:
        _top_ranks(mask, kick[:1], quad)
        return _pack(7, quad + 1, kick[0], 0, 0, 0)
    if trip >= 0 and (trip2 >= 0 or pair1 >= 0):
        other = max(trip2, pair1)
        return _pack(6, trip + 1, other + 1, 0, 0, 0)
    if flush >= 0:
        _top_ranks(suit_mask[flush], kick, -1)
        return _pack(5, kick[0], kick[1], kick[2], kick[3], kick[4])
    st = _top_straight(mask)
    if st >= 0:
        return _pack(4, st + 1, 0, 0, 0, 0)
    if trip >= 0:
        _top_ranks(mask, kick[:2], trip)
        return _pack(3, trip + 1, kick[0], kick[1], 0, 0)
    if pair2 >= 0:
        rest = mask & ~(1 << pair1) & ~(1 << pair2)
        _top_ranks(rest, kick[:1], -1)
        return _pack(2, pair1 + 1, pair2 + 1, kick[0], 0, 0)
    if pair1 >= 0:
        _top_ranks(mask, kick[:3], pair1)
        return _pack(1, pair1 + 1, kick[0], kick[1], kick[2], 0)
    _top_ranks(mask, kick, -1)
    return _pack(0, kick[0], kick[1], kick[2], kick[3], kick[4])


@njit(cache=True)
def binom_table(n: int, k: int) -> np.ndarray:
    """``table[i, j]`` = C(i, j) for i <= n, j <= k."""
    table = np.zeros((n + 1, k + 1), np.int64)
    for i in range(n + 1):
        table[i, 0] = 1
        for j in range(1, min(i, k) + 1):
            table[i, j] = table[i - 1, j - 1] + (table[i - 1, j] if j <= i - 1 else 0)
    return table


@njit(cache=True)
def _others(community: int) -> np.ndarray:
    others = np.empty(51, np.int64)
    n = 0
    for c in range(52):
        if c != community:
            others[n] = c
            n += 1
    return others


@njit(cache=True, nogil=True)
def hands_with_community(community: int) -> tuple[np.ndarray, np.ndarray]:
    """Every five-card hand of the 51 other cards in colex order: its cards and its best-of-six value."""
    others = _others(community)
    hands = np.empty((HANDS_OF_51, 5), np.int8)
    values = np.empty(HANDS_OF_51, np.int64)
    six = np.empty(6, np.int64)
    counts, suit_count, suit_mask, kick = np.zeros(13, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(5, np.int64)
    six[5] = community
    i = 0
    for e in range(4, 51):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4] = a, b, c, d, e
                        six[0], six[1], six[2], six[3], six[4] = others[a], others[b], others[c], others[d], others[e]
                        values[i] = _best_value(six, counts, suit_count, suit_mask, kick)
                        i += 1
    return hands, values


@njit(cache=True)
def _lower(row: np.ndarray, x: int) -> int:
    lo, hi = 0, row.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if row[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _order_by_value(q: np.ndarray, levels: int) -> np.ndarray:
    """The hand indices sorted by value index (a counting sort: values are dense and few)."""
    start = np.zeros(levels + 1, np.int64)
    for v in q:
        start[v + 1] += 1
    for v in range(levels):
        start[v + 1] += start[v]
    order = np.empty(q.shape[0], np.int64)
    for h in range(q.shape[0]):
        order[start[q[h]]] = h
        start[q[h]] += 1
    return order


@njit(cache=True, nogil=True)
def dealer_tables(hands: np.ndarray, q: np.ndarray, levels: int, qualify_at: int) -> tuple[Any, ...]:
    """Counts of hands containing each set of 0-2 cards by value, and sorted value lists for sets of 3-4."""
    binom = binom_table(51, 5)
    cum0 = np.zeros(levels + 1, np.int64)
    cum1 = np.zeros((51, levels + 1), np.int32)
    cum2 = np.zeros((binom[51, 2], levels + 1), np.int32)
    seg3 = np.empty((binom[51, 3], binom[48, 2]), np.int16)
    seg4 = np.empty((binom[51, 4], 47), np.int16)
    fill3 = np.zeros(binom[51, 3], np.int64)
    fill4 = np.zeros(binom[51, 4], np.int64)
    for h in _order_by_value(q, levels):
        v = q[h]
        a = hands[h]
        cum0[v + 1] += 1
        for i in range(5):
            cum1[a[i], v + 1] += 1
            for j in range(i + 1, 5):
                cum2[binom[a[i], 1] + binom[a[j], 2], v + 1] += 1
                for k in range(j + 1, 5):
                    t = binom[a[i], 1] + binom[a[j], 2] + binom[a[k], 3]
                    seg3[t, fill3[t]] = v
                    fill3[t] += 1
                    for m in range(k + 1, 5):
                        f = t + binom[a[m], 4]
                        seg4[f, fill4[f]] = v
                        fill4[f] += 1
    for v in range(levels):
        cum0[v + 1] += cum0[v]
    for x in range(cum1.shape[0]):
        for v in range(levels):
            cum1[x, v + 1] += cum1[x, v]
    for p in range(cum2.shape[0]):
        for v in range(levels):
            cum2[p, v + 1] += cum2[p, v]
    unq3 = np.empty(seg3.shape[0], np.int64)
    for t in range(seg3.shape[0]):
        unq3[t] = _lower(seg3[t], qualify_at)
    unq4 = np.empty(seg4.shape[0], np.int64)
    for f in range(seg4.shape[0]):
        unq4[f] = _lower(seg4[f], qualify_at)
    return cum0, cum1, cum2, seg3, seg4, unq3, unq4, qualify_at


@njit(cache=True)
def _disjoint_counts(tables: tuple[Any, ...], binom: np.ndarray, a: np.ndarray, own: int, out: np.ndarray) -> None:
    """Dealer hands disjoint from the player's hand ``a``: ``out`` = [unqualified, value below ``own``, value at most ``own``]."""
    cum0, cum1, cum2, seg3, seg4, unq3, unq4, qualify_at = tables
    sign_total(out, 1, cum0[qualify_at], cum0[own], cum0[own + 1])
    if own < qualify_at:
        out[0] -= 1
    out[2] -= 1
    for i in range(5):
        row1 = cum1[a[i]]
        sign_total(out, -1, row1[qualify_at], row1[own], row1[own + 1])
        for j in range(i + 1, 5):
            p = binom[a[i], 1] + binom[a[j], 2]
            row2 = cum2[p]
            sign_total(out, 1, row2[qualify_at], row2[own], row2[own + 1])
            for k in range(j + 1, 5):
                t = p + binom[a[k], 3]
                lo, hi = _bounds(seg3[t], own)
                sign_total(out, -1, unq3[t], lo, hi)
                for m in range(k + 1, 5):
                    f = t + binom[a[m], 4]
                    lo, hi = _bounds(seg4[f], own)
                    sign_total(out, 1, unq4[f], lo, hi)


@njit(cache=True)
def sign_total(out: np.ndarray, sign: int, unqualified: int, below: int, upto: int) -> None:
    out[0] += sign * unqualified
    out[1] += sign * below
    out[2] += sign * upto


@njit(cache=True)
def _bounds(row: np.ndarray, x: int) -> tuple[int, int]:
    """How many entries of the sorted ``row`` are below ``x`` and at most ``x``."""
    lo = _lower(row, x)
    hi = lo
    while hi < row.shape[0] and row[hi] == x:
        hi += 1
    return lo, hi


@njit(cache=True)
def _symmetry_weight(cards: np.ndarray, community_suit: int) -> int:
    """How many hands the suit permutations fixing the Community Card's suit map this one to, or 0 if not canonical."""
    m0 = m1 = m2 = m3 = 0
    for c in cards:
        bit = 1 << (c // 4)
        s = c % 4
        if s == 0:
            m0 |= bit
        elif s == 1:
            m1 |= bit
        elif s == 2:
            m2 |= bit
        else:
            m3 |= bit
    if community_suit == 0:
        a, b, c = m1, m2, m3
    elif community_suit == 1:
        a, b, c = m0, m2, m3
    elif community_suit == 2:
        a, b, c = m0, m1, m3
    else:
        a, b, c = m0, m1, m2
    if not (a >= b >= c):
        return 0
    if a == b == c:
        return 1
    if a == b or b == c:
        return 3
    return 6


@njit(cache=True)
def play_return(unqualified: int, beaten: int, tied: int, lost: int, win: int, tie_loses: bool) -> int:
    """The return of playing, in units of Ante summed over dealer hands: Ante and Bet settled per seed 001 rule 11."""
    return unqualified + beaten * (1 + win) - 2 * lost - (2 * tied if tie_loses else 0)


@njit(cache=True, nogil=True)
def ante_bet_totals(community: int, hands: np.ndarray, q: np.ndarray, values: np.ndarray,
                    bet_odds: np.ndarray, tie_loses: bool, tables: tuple[Any, ...]) -> np.ndarray:
    """Sum over the canonical player hands (weighted) of the best decision's return, in dealer-hand units.

    ``bet_odds[category]`` is the Winning Bet payout (index 9 is the royal flush). Returns
    ``[sum of max(fold, play), hands folded, folded hands with a pair or better,
    best folded value, hands whose best play uses the Community Card]``; each hand's
    return is summed over the :data:`DEALER_HANDS` dealer hands, per unit of Ante.
    """
    qualify_at = tables[7]
    binom = binom_table(51, 5)
    others = _others(community)
    real = np.empty(5, np.int64)
    counts = np.empty(3, np.int64)
    scratch = (np.zeros(13, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(5, np.int64))
    out = np.zeros(5, np.int64)
    out[3] = -1
    for h in range(hands.shape[0]):
        a = hands[h]
        for i in range(5):
            real[i] = others[a[i]]
        weight = _symmetry_weight(real, community % 4)
        if weight == 0:
            continue
        own = q[h]
        counts[:] = 0
        _disjoint_counts(tables, binom, a, own, counts)
        unqualified = counts[0]
        if own < qualify_at:
            play = play_return(unqualified, 0, 0, DEALER_HANDS - unqualified, 0, tie_loses)
        else:
            category = values[h] >> 20
            royal = category == 8 and (values[h] >> 16) & 0xF == 13
            win = bet_odds[9 if royal else category]
            play = play_return(unqualified, counts[1] - unqualified, counts[2] - counts[1],
                               DEALER_HANDS - counts[2], win, tie_loses)
        if play < -DEALER_HANDS:
            out[0] -= weight * DEALER_HANDS
            out[1] += weight
            if own >= qualify_at:
                out[2] += weight
            out[3] = max(out[3], values[h])
        else:
            out[0] += weight * play
            if _best_value(real, scratch[0], scratch[1], scratch[2], scratch[3]) < values[h]:
                out[4] += weight
    return out


@njit(cache=True)
def dealer_counts(player: np.ndarray, community: int, own_value: int) -> np.ndarray:
    """Over every dealer hand of the 46 cards left: ``[unqualified, qualified and below, tied]`` against ``own_value``."""
    used = np.zeros(52, np.bool_)
    used[community] = True
    for c in player:
        used[c] = True
    rest = np.empty(46, np.int64)
    n = 0
    for c in range(52):
        if not used[c]:
            rest[n] = c
            n += 1
    six = np.empty(6, np.int64)
    six[5] = community
    counts, suit_count, suit_mask, kick = np.zeros(13, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(5, np.int64)
    out = np.zeros(3, np.int64)
    qualify_at = 1 << 20
    for e in range(4, 46):
        six[4] = rest[e]
        for d in range(3, e):
            six[3] = rest[d]
            for c in range(2, d):
                six[2] = rest[c]
                for b in range(1, c):
                    six[1] = rest[b]
                    for a in range(b):
                        six[0] = rest[a]
                        v = _best_value(six, counts, suit_count, suit_mask, kick)
                        if v < qualify_at:
                            out[0] += 1
                        elif v < own_value:
                            out[1] += 1
                        elif v == own_value:
                            out[2] += 1
    return out


@njit(cache=True)
def internal_value(player: np.ndarray, community: int) -> int:
    """The kernel's value of the best five of a player's five cards and the Community Card."""
    six = np.empty(6, np.int64)
    six[:5] = player
    six[5] = community
    return best_value(six)


@njit(cache=True)
def unqualified_count(player: np.ndarray, community: int) -> int:
    """Dealer hands of the 46 unseen cards that make no pair, straight or flush with the Community Card.

    Counted by rank sets rather than by hands: five distinct ranks other than the
    Community Card's that make no straight with it, times the ways to pick their
    suits from the unseen cards, less the ways that make a flush.
    """
    seen = np.zeros(52, np.bool_)
    seen[community] = True
    for c in player:
        seen[c] = True
    c_rank, c_suit = community // 4, community % 4
    unseen = np.zeros(13, np.int64)
    for c in range(52):
        if not seen[c]:
            unseen[c // 4] += 1
    total = 0
    for mask in range(1 << 13):
        if _popcount(mask) != 5 or (mask >> c_rank) & 1 or _top_straight(mask | (1 << c_rank)) >= 0:
            continue
        ways = 1
        for r in range(13):
            if (mask >> r) & 1:
                ways *= unseen[r]
        for s in range(4):
            all_suited = 1
            for r in range(13):
                if (mask >> r) & 1 and seen[4 * r + s]:
                    all_suited = 0
            ways -= all_suited
        four_suited = 0
        for r in range(13):
            if not (mask >> r) & 1:
                continue
            others_suited = 1
            for r2 in range(13):
                if r2 != r and (mask >> r2) & 1 and seen[4 * r2 + c_suit]:
                    others_suited = 0
            off_suit = unseen[r] - (0 if seen[4 * r + c_suit] else 1)
            four_suited += others_suited * off_suit
        total += ways - four_suited
    return total


@njit(cache=True)
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def one_pair_counts(player: np.ndarray, community: int, own_value: int) -> np.ndarray:
    """Dealer hands whose best five is one pair no better than ``own_value`` (itself one pair): ``[below, tied]``.

    Such a dealer pairs a rank no higher than the player's pair, so only hands
    holding that pair are enumerated: one card of it when the Community Card
    has its rank, two otherwise, and the rest of the hand from other ranks.
    """
    seen = np.zeros(52, np.bool_)
    seen[community] = True
    for c in player:
        seen[c] = True
    top = ((own_value >> 16) & 0xF) - 1
    six = np.empty(6, np.int64)
    six[5] = community
    scratch = (np.zeros(13, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(5, np.int64))
    out = np.zeros(2, np.int64)
    qualify_at = 1 << 20
    for rank in range(top + 1):
        pair = np.array([4 * rank + s for s in range(4) if not seen[4 * rank + s]])
        rest = np.array([c for c in range(52) if not seen[c] and c // 4 != rank])
        need = 1 if community // 4 == rank else 2
        for first in range(pair.shape[0]):
            for second in range(first + 1 if need == 2 else 0, pair.shape[0] if need == 2 else 1):
                six[0] = pair[first]
                if need == 2:
                    six[1] = pair[second]
                _fill_rest(six, need, rest, own_value, qualify_at, scratch, out)
    return out


@njit(cache=True)
def _fill_rest(six: np.ndarray, start: int, rest: np.ndarray, own_value: int, qualify_at: int, scratch: tuple[Any, ...],
               out: np.ndarray) -> None:
    """Complete the dealer's five with every choice of the other cards from ``rest``, counting below and tied."""
    n = rest.shape[0]
    idx = np.arange(5 - start)
    k = idx.shape[0]
    while True:
        for i in range(k):
            six[start + i] = rest[idx[i]]
        v = _best_value(six, scratch[0], scratch[1], scratch[2], scratch[3])
        if qualify_at <= v < own_value:
            out[0] += 1
        elif v == own_value:
            out[1] += 1
        i = k - 1
        while i >= 0 and idx[i] == n - k + i:
            i -= 1
        if i < 0:
            return
        idx[i] += 1
        for j in range(i + 1, k):
            idx[j] = idx[j - 1] + 1
