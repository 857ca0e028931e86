"""The test lab's own count of Top 5 Poker's Ante (Ante and Bet, per unit Ante), from seed 001 alone.

Written from seed 001 and rules-notes, without ``controller.rules``:

- One 52-card deck; five cards to the player, five to the dealer, one Community Card face up. Each hand is the
  best five of its five cards and the Community Card (the player's choice of his five or four and the
  Community Card: the best is always his best choice, it both wins more and pays more).
- Seeing his five and the Community Card, the player folds (loses the Ante) or plays (a Bet equal to the
  Ante). The dealer qualifies with a pair or better. Unqualified: Ante 1 to 1, Bet pushes. Qualified and
  higher: Ante and Bet lost. Qualified and lower: Ante 1 to 1, Bet by the Winning Bet Payouts (royal flush
  100, straight flush 25, four of a kind 12, full house 5, flush 4, straight 3, any other winning hand 1).
  Equal hands against a qualified dealer push (rules-notes default). The player folds exactly when playing
  returns less than the lost Ante (the optimal decision).

The count. The Community Card is one of 13 ranks (times four suits). The 2,349,060 five-card sets of the other
51 cards are each a player hand and a dealer hand, valued the same way (best five of the six). Sorted by
value and swept upward, counters hold how many of the sets already passed contain each card, each pair,
triple and quadruple of cards; a player hand's dealer hands below his value, disjoint from his cards, are
then one inclusion-exclusion over the 32 subsets of his five cards. A first sweep up to a pair gives the
unqualified dealer hands. Integers throughout; the result is one ``Fraction``. About 30 CPU seconds:

    python -c "from tests.games.math_cert_top5 import ante_ev; print(ante_ev())"
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
from numba import njit

DEALER = comb(46, 5)
PAIR = 1 << 20  # the least qualifying value: category 1 (a pair) with no kickers
HANDS = comb(51, 5)


@njit(cache=True)
def value5(ranks: np.ndarray, suits: np.ndarray) -> int:
    """A five-card poker hand's value: category (0 high card .. 8 straight flush) << 20, then ranks by count."""
    counts = np.zeros(13, np.int64)
    for r in ranks:
        counts[r] += 1
    flush = suits[0] == suits[1] == suits[2] == suits[3] == suits[4]
    distinct = 0
    top = -1
    low = 13
    for r in range(13):
        if counts[r]:
            distinct += 1
            top = max(top, r)
            low = min(low, r)
    straight_high = -1
    if distinct == 5:
        if top - low == 4:
            straight_high = top
        elif top == 12 and counts[0] and counts[1] and counts[2] and counts[3]:
            straight_high = 3  # A-2-3-4-5, five high
    # ranks ordered by (count, rank), high first, four bits each
    kick = 0
    for n in range(4, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == n:
                for _ in range(n):
                    kick = kick * 16 + r
    shape = 0
    pairs = 0
    trips = 0
    for r in range(13):
        if counts[r] == 4:
            shape = 7
        elif counts[r] == 3:
            trips += 1
        elif counts[r] == 2:
            pairs += 1
    if straight_high >= 0 and flush:
        return (8 << 20) | straight_high
    if shape == 7:
        return (7 << 20) | kick
    if trips and pairs:
        return (6 << 20) | kick
    if flush:
        return (5 << 20) | kick
    if straight_high >= 0:
        return (4 << 20) | straight_high
    if trips:
        return (3 << 20) | kick
    if pairs == 2:
        return (2 << 20) | kick
    if pairs == 1:
        return (1 << 20) | kick
    return kick


@njit(cache=True)
def best6(cards: np.ndarray) -> int:
    """The best five of six cards (0..51, rank = card // 4)."""
    best = 0
    ranks = np.empty(5, np.int64)
    suits = np.empty(5, np.int64)
    for leave in range(6):
        j = 0
        for i in range(6):
            if i != leave:
                ranks[j] = cards[i] // 4
                suits[j] = cards[i] % 4
                j += 1
        best = max(best, value5(ranks, suits))
    return best


@njit(cache=True)
def _query(sets: np.ndarray, k: int, total: int, c1: np.ndarray, c2: np.ndarray, c3: np.ndarray,
           c4: np.ndarray) -> int:
    """Sets counted so far that share no card with set k (its own term left out: the caller's)."""
    s = sets[k]
    n = total
    for i in range(5):
        n -= c1[s[i]]
        for j in range(i + 1, 5):
            n += c2[s[i] * 51 + s[j]]
            for m in range(j + 1, 5):
                n -= c3[(s[i] * 51 + s[j]) * 51 + s[m]]
                for q in range(m + 1, 5):
                    n += c4[((s[i] * 51 + s[j]) * 51 + s[m]) * 51 + s[q]]
    return n


@njit(cache=True)
def _add(sets: np.ndarray, k: int, c1: np.ndarray, c2: np.ndarray, c3: np.ndarray, c4: np.ndarray) -> None:
    s = sets[k]
    for i in range(5):
        c1[s[i]] += 1
        for j in range(i + 1, 5):
            c2[s[i] * 51 + s[j]] += 1
            for m in range(j + 1, 5):
                c3[(s[i] * 51 + s[j]) * 51 + s[m]] += 1
                for q in range(m + 1, 5):
                    c4[((s[i] * 51 + s[j]) * 51 + s[m]) * 51 + s[q]] += 1


@njit(cache=True)
def community_total(community: int) -> tuple[int, int]:
    """Sum over player hands of max(fold, play) in dealer-hand units, with the Community Card given; and the
    number of player hands checked to see every disjoint dealer hand exactly once."""
    rest = np.array([c for c in range(52) if c != community], np.int64)
    sets = np.empty((2349060, 5), np.int64)
    values = np.empty(2349060, np.int64)
    six = np.empty(6, np.int64)
    six[5] = community
    k = 0
    for a in range(51):
        for b in range(a + 1, 51):
            for c in range(b + 1, 51):
                for d in range(c + 1, 51):
                    for e in range(d + 1, 51):
                        sets[k, 0] = a
                        sets[k, 1] = b
                        sets[k, 2] = c
                        sets[k, 3] = d
                        sets[k, 4] = e
                        six[0] = rest[a]
                        six[1] = rest[b]
                        six[2] = rest[c]
                        six[3] = rest[d]
                        six[4] = rest[e]
                        values[k] = best6(six)
                        k += 1
    order = np.argsort(values, kind="mergesort")
    c1 = np.zeros(51, np.int64)
    c2 = np.zeros(51 * 51, np.int64)
    c3 = np.zeros(51 ** 3, np.int64)
    c4 = np.zeros(51 ** 4, np.int32)
    # first sweep: every dealer hand below a pair (unqualified)
    unq = np.empty(2349060, np.int64)
    total = 0
    for k in range(2349060):
        if values[k] < PAIR:
            _add(sets, k, c1, c2, c3, c4)
            total += 1
    for k in range(2349060):
        unq[k] = _query(sets, k, total, c1, c2, c3, c4) - (1 if values[k] < PAIR else 0)
    c1[:] = 0
    c2[:] = 0
    c3[:] = 0
    c4[:] = 0
    total = 0
    result = 0
    whole = 0
    start = 0
    below = np.empty(2349060, np.int64)
    while start < 2349060:
        end = start
        v = values[order[start]]
        while end < 2349060 and values[order[end]] == v:
            end += 1
        for i in range(start, end):
            below[order[i]] = _query(sets, order[i], total, c1, c2, c3, c4)
        for i in range(start, end):
            _add(sets, order[i], c1, c2, c3, c4)
            total += 1
        for i in range(start, end):
            k = order[i]
            at_most = _query(sets, k, total, c1, c2, c3, c4) - 1
            nq = unq[k]
            wins = max(below[k] - nq, 0)  # qualified dealer hands below his (ties push, count nothing)
            losses = DEALER - max(at_most, nq)
            category = v >> 20
            if category == 8:
                pay = 100 if (v & 15) == 12 else 25
            elif category == 7:
                pay = 12
            elif category == 6:
                pay = 5
            elif category == 5:
                pay = 4
            elif category == 4:
                pay = 3
            else:
                pay = 1
            play = nq + wins * (1 + pay) - 2 * losses
            result += max(play, -DEALER)
        start = end
    # every set passed: each hand must now see exactly the C(46,5) dealer hands that share none of its cards
    for k in range(2349060):
        whole += _query(sets, k, total, c1, c2, c3, c4) - 1 == DEALER
    return result, whole


def ante_ev() -> Fraction:
    """The Ante's exact EV per unit Ante, optimal fold, over every Community Card, player and dealer hand."""
    total = 0
    for rank in range(13):
        result, whole = community_total(4 * rank)  # the spade of each rank; the other suits are alike
        assert whole == HANDS
        total += 4 * result
    return Fraction(total, 52 * HANDS * DEALER)


@njit(cache=True)
def category_counts() -> np.ndarray:
    """How many of the C(52,5) five-card hands fall in each category, for checking ``value5``."""
    out = np.zeros(9, np.int64)
    ranks = np.empty(5, np.int64)
    suits = np.empty(5, np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        for i, card in enumerate((a, b, c, d, e)):
                            ranks[i] = card // 4
                            suits[i] = card % 4
                        out[value5(ranks, suits) >> 20] += 1
    return out
