"""The House Way compiled (numba): the same setting as ``house_way.HouseWay.set``, a million hands a few seconds.

The edge of the base bet is House Way against House Way over hands dealt at
random, so the setter runs millions of times; ``HouseWay.set`` (Python,
about a millisecond a hand) cannot. This module sets a hand of seven batch
card codes (:mod:`controller.rules.evaluators.encoding`) and returns the values of
its front and back hands (``hands.front_value``, ``hands.back_value``). The
chart stays data: :func:`chart_table` turns a loaded ``HouseWay`` into a
table of rule numbers by kind of hand and rank, so a card room's own chart
is set the same way. The rules below are those of ``house_way.RULES``, one
for one, with the same card order and tie-breaks; the tests compare both
setters hand by hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from controller.cards import Rank
from controller.rules.evaluators import per_hand
from controller.rules.evaluators.encoding import JOKER_CODE
from controller.rules.pai_gow_poker.hands import WHEELS
from controller.rules.pai_gow_poker.house_way import HAND_KINDS, RANKED_KINDS, RULES, HouseWay

__all__ = ["chart_table", "set_values", "deal_ties"]

RULE_NUMBER = {name: i for i, name in enumerate(RULES)}
KIND_NUMBER = {name: i for i, name in enumerate(HAND_KINDS)}
NEEDS_PAIR = 0
NO_NEED = -1

_HIGHEST_BACK, _PAIR_BACK, _SPLIT, _TOGETHER, _TOGETHER_IF = (RULE_NUMBER[n] for n in (
    "highest-back-next-two-front", "pair-back-two-highest-front", "split", "together", "together-if-front"))
_HIGHEST_PAIR, _TRIPS_BACK, _ACE_NEXT, _HIGHER_SET, _PAIR_ACES = (RULE_NUMBER[n] for n in (
    "highest-pair-front", "trips-back-two-highest-front", "ace-and-next-front", "higher-set-pair-front",
    "pair-of-aces-front"))
_COMPLETE_HIGHEST, _COMPLETE_PAIR, _AS_TWO_PAIR = (RULE_NUMBER[n] for n in (
    "complete-back-highest-front", "complete-back-pair-front", "as-two-pair"))
_K = {name: KIND_NUMBER[name] for name in HAND_KINDS}
_NO_PAIR, _ONE_PAIR, _TWO_PAIR, _THREE_PAIR, _TRIPS = (_K[n] for n in (
    "no-pair", "one-pair", "two-pair", "three-pair", "three-of-a-kind"))
_TWO_SETS, _FULL_HOUSE, _FOUR, _FIVE_ACES = (_K[n] for n in ("two-sets", "full-house", "four-of-a-kind", "five-aces"))
_SF_NO_PAIR, _SF_ONE_PAIR, _SF_TWO_PAIR, _SF_TRIPS = (_K[n] for n in (
    "straight-or-flush-no-pair", "straight-or-flush-one-pair", "straight-or-flush-two-pair",
    "straight-or-flush-three-of-a-kind"))

ACE = 14
_WHEEL_SECOND_RANKS = (13 << 16) | (15 << 12)


def chart_table(way: HouseWay) -> np.ndarray:
    """``table[kind, rank] = (rule number, front needed)``: the chart's row for every kind and rank.

    ``front needed`` is the rank a ``together-if-front`` front must reach, 0 for "pair", -1 otherwise.
    """
    table = np.full((len(HAND_KINDS), 15, 2), -1, np.int64)
    for kind in HAND_KINDS:
        for rank in RANKED_KINDS.get(kind, [None]):
            row = way.row_for(kind, rank)
            needed = NO_NEED
            if row.front_at_least == "pair":
                needed = NEEDS_PAIR
            elif row.front_at_least is not None:
                needed = int(Rank.from_char(row.front_at_least))
            table[KIND_NUMBER[kind], rank or 0] = (RULE_NUMBER[row.rule], needed)
    return table


def wheel_number(wheel: str) -> int:
    """0 for A-2-3-4-5 the lowest straight, 1 for the second-highest (``hands.WHEELS``)."""
    return WHEELS.index(wheel)


@njit(cache=True)
def _front_value(a: int, b: int) -> int:
    ra = 14 if a == JOKER_CODE else (a >> 2) + 2
    rb = 14 if b == JOKER_CODE else (b >> 2) + 2
    if ra == rb:
        return (1 << 20) | (ra << 16)
    if ra < rb:
        ra, rb = rb, ra
    return (ra << 16) | (rb << 12)


@njit(cache=True)
def _back_value(five: np.ndarray, wheel: int) -> int:
    value = per_hand._value(five, 5)
    if wheel == 1:
        cat = value >> 20
        if (cat == 4 or cat == 8) and value & 0xFFFFF == 5 << 16:
            return (cat << 20) | _WHEEL_SECOND_RANKS
    return value


@njit(cache=True)
def _is_complete(value: int) -> bool:
    cat = value >> 20
    return cat == 4 or cat == 5 or cat == 8 or cat == 9


@njit(cache=True)
def set_values(cards: np.ndarray, table: np.ndarray, wheel: int) -> tuple[int, int]:
    """The front and back values of seven card codes set House Way by ``table`` (see :func:`chart_table`)."""
    # the 21 settings, in the order of itertools.combinations over the seven positions
    pair_i = np.empty(21, np.int64)
    pair_j = np.empty(21, np.int64)
    fv = np.empty(21, np.int64)
    bv = np.empty(21, np.int64)
    index = np.full((7, 7), -1, np.int64)
    five = np.empty(14, np.int64)
    k = 0
    complete = False
    for i in range(7):
        for j in range(i + 1, 7):
            pair_i[k], pair_j[k] = i, j
            index[i, j] = index[j, i] = k
            fv[k] = _front_value(cards[i], cards[j])
            n = 0
            for m in range(7):
                if m != i and m != j:
                    five[n] = cards[m]
                    n += 1
            bv[k] = _back_value(five, wheel)
            complete = complete or _is_complete(bv[k])
            k += 1
    # the cards in the chart's order: highest rank first (the joker with the aces, after them), then by code
    rank = np.empty(7, np.int64)
    key = np.empty(7, np.int64)
    for i in range(7):
        c = cards[i]
        joker = c == JOKER_CODE
        rank[i] = 14 if joker else (c >> 2) + 2
        key[i] = (14 - rank[i]) * 16 + (8 if joker else 3 - (c & 3))
    order = np.argsort(key, kind="mergesort")
    count = np.zeros(15, np.int64)
    for i in range(7):
        count[rank[i]] += 1
    most = 0
    second = 0
    for r in range(2, 15):
        if count[r] > most:
            second = most
            most = count[r]
        elif count[r] > second:
            second = count[r]
    pairs = np.empty(3, np.int64)
    n_pairs = 0
    trips = np.empty(2, np.int64)
    n_trips = 0
    four = -1
    for r in range(14, 1, -1):
        if count[r] == 2:
            pairs[n_pairs] = r
            n_pairs += 1
        elif count[r] == 3:
            trips[n_trips] = r
            n_trips += 1
        elif count[r] == 4 and four < 0:
            four = r
    # the kind of hand (house_way.hand_kind)
    kind_rank = 0
    if most == 5:
        kind = _FIVE_ACES
    elif most == 4:
        kind, kind_rank = _FOUR, four
    elif most == 3 and second == 3:
        kind = _TWO_SETS
    elif most == 3 and second == 2:
        kind = _FULL_HOUSE
    elif most == 3:
        if complete:
            kind = _SF_TRIPS
        else:
            kind, kind_rank = _TRIPS, trips[0]
    elif n_pairs == 3:
        kind = _THREE_PAIR
    elif n_pairs == 2:
        if complete:
            kind = _SF_TWO_PAIR
        else:
            kind, kind_rank = _TWO_PAIR, pairs[0]
    elif n_pairs == 1:
        kind = _SF_ONE_PAIR if complete else _ONE_PAIR
    else:
        kind = _SF_NO_PAIR if complete else _NO_PAIR
    rule, needed = table[kind, kind_rank, 0], table[kind, kind_rank, 1]
    if rule == _AS_TWO_PAIR:
        rule, needed = table[_TWO_PAIR, pairs[0], 0], table[_TWO_PAIR, pairs[0], 1]
    chosen = _front(rule, needed, order, rank, count, pairs, n_pairs, trips, four, index, fv, bv, complete)
    if chosen >= 0 and fv[chosen] <= bv[chosen]:
        return fv[chosen], bv[chosen]
    best = -1  # reset "the most logical way": the highest back with a legal front, then the highest front
    for s in range(21):
        if fv[s] <= bv[s] and (best < 0 or bv[s] > bv[best] or (bv[s] == bv[best] and fv[s] > fv[best])):
            best = s
    return fv[best], bv[best]


@njit(cache=True)
def _group(order: np.ndarray, rank: np.ndarray, r: int, out: np.ndarray) -> int:
    """The positions of the cards of rank ``r`` in the chart's order; how many."""
    n = 0
    for p in order:
        if rank[p] == r:
            out[n] = p
            n += 1
    return n


@njit(cache=True)
def _others(order: np.ndarray, rank: np.ndarray, count: np.ndarray, ex1: int, ex2: int, singles: bool,
            out: np.ndarray) -> int:
    """Positions in the chart's order, leaving out ranks ``ex1`` and ``ex2`` (and, with ``singles``, grouped cards)."""
    n = 0
    for p in order:
        if rank[p] != ex1 and rank[p] != ex2 and (not singles or count[rank[p]] == 1):
            out[n] = p
            n += 1
    return n


@njit(cache=True)
def _best_of(candidates: np.ndarray, n: int, fv: np.ndarray, bv: np.ndarray) -> int:
    """The first candidate setting with the highest back, then the highest front."""
    best = -1
    for t in range(n):
        s = candidates[t]
        if best < 0 or bv[s] > bv[best] or (bv[s] == bv[best] and fv[s] > fv[best]):
            best = s
    return best


@njit(cache=True)
def _best_front(positions: np.ndarray, n: int, index: np.ndarray, fv: np.ndarray) -> int:
    """The first pair of ``positions`` (in combinations order) with the highest front value."""
    best = -1
    for a in range(n):
        for b in range(a + 1, n):
            s = index[positions[a], positions[b]]
            if best < 0 or fv[s] > fv[best]:
                best = s
    return best


@njit(cache=True)
def _split_front(order: np.ndarray, rank: np.ndarray, pairs: np.ndarray, n_pairs: int, four: int,
                 index: np.ndarray, fv: np.ndarray, bv: np.ndarray) -> int:
    """Two pair: the small pair in front. Four of a kind: the two of the four the tie-break prefers."""
    group = np.empty(7, np.int64)
    if n_pairs >= 2:
        _group(order, rank, pairs[1], group)
        return int(index[group[0], group[1]])
    n = _group(order, rank, four, group)
    choices = np.empty(6, np.int64)
    m = 0
    for a in range(n):
        for b in range(a + 1, n):
            choices[m] = index[group[a], group[b]]
            m += 1
    return _best_of(choices, m, fv, bv)


@njit(cache=True)
def _front(rule: int, needed: int, order: np.ndarray, rank: np.ndarray, count: np.ndarray, pairs: np.ndarray,
           n_pairs: int, trips: np.ndarray, four: int, index: np.ndarray, fv: np.ndarray, bv: np.ndarray,
           complete: bool) -> int:
    """The setting (0..20) a chart rule puts in front, or -1 when the rule finds none."""
    buf = np.empty(7, np.int64)
    if rule == _HIGHEST_BACK:
        _others(order, rank, count, -1, -1, False, buf)
        return int(index[buf[1], buf[2]])
    if rule == _PAIR_BACK:
        _others(order, rank, count, -1, -1, True, buf)
        return int(index[buf[0], buf[1]])
    if rule == _SPLIT:
        return _split_front(order, rank, pairs, n_pairs, four, index, fv, bv)
    if rule == _TOGETHER or rule == _TOGETHER_IF:
        if four > 0:
            n = _others(order, rank, count, four, -1, False, buf)
        else:
            n = _others(order, rank, count, pairs[0], pairs[1], False, buf)
        front = _best_front(buf, n, index, fv)
        if rule == _TOGETHER:
            return front
        if fv[front] >> 20 == 1:
            return front
        top = fv[front] >> 16 & 0xF
        if needed != NEEDS_PAIR and top >= needed:
            return front
        return _split_front(order, rank, pairs, n_pairs, four, index, fv, bv)
    if rule == _HIGHEST_PAIR:
        _group(order, rank, pairs[0], buf)
        return int(index[buf[0], buf[1]])
    if rule == _TRIPS_BACK:
        _others(order, rank, count, trips[0], -1, False, buf)
        return int(index[buf[0], buf[1]])
    if rule == _ACE_NEXT:
        n = _group(order, rank, ACE, buf)
        last_ace = buf[n - 1]
        _others(order, rank, count, ACE, -1, False, buf)
        return int(index[last_ace, buf[0]])
    if rule == _HIGHER_SET:
        n = _group(order, rank, trips[0], buf)
        return int(index[buf[n - 2], buf[n - 1]])
    if rule == _PAIR_ACES:
        n = _group(order, rank, ACE, buf)
        return int(index[buf[n - 2], buf[n - 1]])
    if rule == _COMPLETE_HIGHEST or rule == _COMPLETE_PAIR:
        candidates = np.empty(21, np.int64)
        for want_pair in (True, False):
            if want_pair and rule != _COMPLETE_PAIR:
                continue
            n = 0
            top = -1
            for s in range(21):
                if _is_complete(bv[s]) and (not want_pair or fv[s] >> 20 == 1):
                    top = max(top, fv[s])
            for s in range(21):
                if _is_complete(bv[s]) and (not want_pair or fv[s] >> 20 == 1) and fv[s] == top:
                    candidates[n] = s
                    n += 1
            if n:
                return _best_of(candidates, n, fv, bv)
        return -1
    return -1


@njit(cache=True)
def deal_ties(rounds: int, seed: int, table: np.ndarray, wheel: int) -> np.ndarray:
    """Deal ``rounds`` pairs of seven-card hands from a shuffled 53-card deck and set both House Way.

    Returns counts: front copies, back copies, both copies, player wins (both hands higher), player
    losses (neither hand higher, copies to the player-dealer).
    """
    np.random.seed(seed)
    deck = np.arange(JOKER_CODE + 1)
    player = np.empty(7, np.int64)
    dealer = np.empty(7, np.int64)
    out = np.zeros(5, np.int64)
    for _ in range(rounds):
        for i in range(14):  # the first 14 cards of a Fisher-Yates shuffle
            j = i + np.random.randint(0, JOKER_CODE + 1 - i)
            deck[i], deck[j] = deck[j], deck[i]
        for i in range(7):
            player[i] = deck[i]
            dealer[i] = deck[7 + i]
        pf, pb = set_values(player, table, wheel)
        df, db = set_values(dealer, table, wheel)
        front_copy = pf == df
        back_copy = pb == db
        out[0] += front_copy
        out[1] += back_copy
        out[2] += front_copy and back_copy
        out[3] += pf > df and pb > db
        out[4] += pf <= df and pb <= db
    return out
