"""One hand at a time, compiled: the five-card high value of five, six or seven card codes.

The batch API (:func:`controller.rules.evaluators.batch.high_values`) is fast over
arrays but pays numpy's set-up on every call; a caller holding one hand (the
console, a strategy, a library user) calls these instead. They are numba
functions over the batch lookup tables themselves (frozen into the compiled
code), so each returns exactly the batch value of the same cards: the rank
multiset's index into the rank table (the bug table when the joker is there),
then the flush table of the suit holding five cards (four and the joker).

Arguments are batch codes (:mod:`controller.rules.evaluators.encoding`: 0..51,
the joker 52); the cards must be distinct and at most one may be the joker.
Nothing is checked there (that is what makes them fast); :func:`evaluate`
takes ``Card`` objects, checks them and calls them. The rules engine's
:func:`controller.rules.evaluators.five_card.evaluate` stays the independent
reference the tables are tested against.

>>> from controller.cards import parse_cards
>>> from controller.rules.evaluators.encoding import encode
>>> from controller.rules.evaluators.five_card import describe
>>> describe(value7(*encode(parse_cards("AS AD KC KH 2S 7D 9C")).tolist()))
'two pair, aces and kings, nine kicker'
>>> describe(high_value(encode(parse_cards("JK QH JH TH 9H")).tolist()))
'straight flush, king high'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numba import njit

from controller.cards import Card
from controller.rules.evaluators import tables
from controller.rules.evaluators.encoding import JOKER_CODE, InvalidHand, card_of, check_hand

__all__ = ["value5", "value6", "value7", "high_value", "evaluate"]

_BINOMIAL = np.array(tables.binomial_columns(7), dtype=np.int32)
"""``_BINOMIAL[i, s]``: the multiset-index term of symbol ``s`` at sorted position ``i``."""
_HIGH5, _HIGH6, _HIGH7 = tables.high_table(5), tables.high_table(6), tables.high_table(7)
_BUG4, _BUG5, _BUG6 = tables.bug_table(4), tables.bug_table(5), tables.bug_table(6)
_FLUSH, _BUG_FLUSH = tables.flush_table(), tables.bug_flush_table()
_JOKER = JOKER_CODE


@njit(cache=True, inline="always")
def _sorted_index(symbols: np.ndarray, n: int) -> tuple[int, int]:
    """Sort ``symbols[:n]`` in place; the index of the first ``n - 1`` and of all ``n`` (tables' layout)."""
    for i in range(1, n):
        s = symbols[i]
        j = i - 1
        while j >= 0 and symbols[j] > s:
            symbols[j + 1] = symbols[j]
            j -= 1
        symbols[j + 1] = s
    naturals = 0
    for i in range(n - 1):
        naturals += _BINOMIAL[i, symbols[i]]
    return naturals, naturals + _BINOMIAL[n - 1, symbols[n - 1]]


@njit(cache=True, inline="always")
def _flush(codes: np.ndarray, n: int, joker: bool) -> int:
    """The best flush or straight flush (0 if none): five suited naturals, or four and the joker."""
    counts = 0
    for i in range(n):
        c = codes[i]
        if c != _JOKER:
            counts += 1 << ((c & 3) << 3)
    need = 4 if joker else 5
    for suit in range(4):
        if (counts >> (suit << 3)) & 0xFF >= need:
            mask = 0
            for i in range(n):
                c = codes[i]
                if c != _JOKER and c & 3 == suit:
                    mask |= 1 << (c >> 2)
            return int(_BUG_FLUSH[mask] if joker else _FLUSH[mask])
    return 0


@njit(cache=True, inline="always")
def _value(codes: np.ndarray, n: int) -> int:
    """``codes[:n]`` the hand; ``codes[7:7 + n]`` scratch for its rank symbols."""
    symbols = codes[7:]
    for i in range(n):
        symbols[i] = 13 if codes[i] == _JOKER else codes[i] >> 2
    naturals, index = _sorted_index(symbols, n)
    joker = symbols[n - 1] == 13
    if joker:
        value = _BUG4[naturals] if n == 5 else (_BUG5[naturals] if n == 6 else _BUG6[naturals])
    else:
        value = _HIGH5[index] if n == 5 else (_HIGH6[index] if n == 6 else _HIGH7[index])
    flush = _flush(codes, n, joker)
    return int(max(value, flush))


@njit(cache=True)
def value5(a: int, b: int, c: int, d: int, e: int) -> int:
    """The value of five card codes."""
    codes = np.empty(14, np.int64)
    codes[0], codes[1], codes[2], codes[3], codes[4] = a, b, c, d, e
    return _value(codes, 5)


@njit(cache=True)
def value6(a: int, b: int, c: int, d: int, e: int, f: int) -> int:
    """The value of the best five of six card codes."""
    codes = np.empty(14, np.int64)
    codes[0], codes[1], codes[2], codes[3], codes[4], codes[5] = a, b, c, d, e, f
    return _value(codes, 6)


@njit(cache=True)
def value7(a: int, b: int, c: int, d: int, e: int, f: int, g: int) -> int:
    """The value of the best five of seven card codes."""
    codes = np.empty(14, np.int64)
    codes[0], codes[1], codes[2], codes[3], codes[4], codes[5], codes[6] = a, b, c, d, e, f, g
    return _value(codes, 7)


_BY_SIZE: dict[int, Callable[..., int]] = {5: value5, 6: value6, 7: value7}


def high_value(codes: Sequence[int]) -> int:
    """The value of a hand of 5, 6 or 7 card codes (a list or tuple of ``int``)."""
    try:
        return int(_BY_SIZE[len(codes)](*codes))
    except KeyError:
        raise InvalidHand(f"five-card poker: a hand of card codes has 5, 6 or 7 cards, not {len(codes)}") from None


_CODES: dict[Card, int] = {card_of(code): code for code in range(JOKER_CODE + 1)}


def evaluate(cards: Sequence[Card]) -> int:
    """The value of the best five of 5, 6 or 7 ``Card`` objects, checked (``InvalidHand`` names a bad hand)."""
    try:
        codes = [_CODES[card] for card in cards]
    except (KeyError, TypeError):
        codes = []
    if len(codes) != len(cards) or len(set(codes)) != len(codes) or len(codes) not in _BY_SIZE:
        check_hand(cards, sizes=(5, 6, 7), game="five-card poker", jokers=1)
        raise InvalidHand(f"five-card poker: {' '.join(map(str, cards))} has no batch code for every card")
    return int(_BY_SIZE[len(codes)](*codes))
