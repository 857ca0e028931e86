"""Three Card Poker's ranking of three-card hands (seed 003, "Ranking of Hands", lines 2280-2313).

From highest to lowest: mini royal flush (A-K-Q suited), straight flush, three
of a kind, straight, flush, one pair, high card. A straight ranks above a
flush. Aces are high except in A-2-3, the lowest straight. No jokers.

The seed calls 4-3-2 the lowest straight flush but A-2-3 the lowest straight;
by default A-2-3 suited is the lowest straight flush (the usual rule, which
gives the published 48 straight flushes out of 22,100 hands). With
``a23_suited_is_straight_flush=False`` it ranks as an ace-high flush instead.

A value is an ``int``, larger is better, laid out as
``category << 12 | r1 << 8 | r2 << 4 | r3``.

>>> from controller.cards import parse_cards
>>> describe3(evaluate3(parse_cards("AS KS QS")))
'mini royal flush'
>>> describe3(evaluate3(parse_cards("AH 2S 3D")))
'straight, three high'
>>> evaluate3(parse_cards("2H 3S 4D")) > evaluate3(parse_cards("AH 2S 3D"))
True
>>> evaluate3(parse_cards("2H 3H 9H")) < evaluate3(parse_cards("AH 2S 3D"))
True
>>> category3(evaluate3(parse_cards("AH 2H 3H"), a23_suited_is_straight_flush=False)).label
'flush'
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from controller.cards import Card, Rank
from controller.rules.evaluators.encoding import check_hand

__all__ = ["Category3", "evaluate3", "category3", "describe3", "value_of_ranks3"]

_SHIFT = 12
_ACE = 14


class Category3(enum.IntEnum):
    """Three Card Poker hand categories, lowest first, as the seed names them."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    STRAIGHT_FLUSH = 5
    MINI_ROYAL_FLUSH = 6

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").lower()


def _pack(cat: Category3, ranks: Sequence[int]) -> int:
    value = int(cat)
    for i in range(3):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def value_of_ranks3(ranks: Sequence[int], *, flush: bool, a23_suited_is_straight_flush: bool = True) -> int:
    """The value of three cards from their ranks (2..14) and whether they share a suit."""
    hi, mid, lo = sorted(ranks, reverse=True)
    if hi == lo:
        return _pack(Category3.THREE_OF_A_KIND, [hi])
    if hi == mid or mid == lo:
        pair, kicker = (hi, lo) if hi == mid else (lo, hi)
        return _pack(Category3.ONE_PAIR, [pair, kicker])
    top = hi if hi - lo == 2 else 3 if (hi, mid, lo) == (_ACE, 3, 2) else 0
    if flush and top and (top != 3 or a23_suited_is_straight_flush):
        return _pack(Category3.MINI_ROYAL_FLUSH if top == _ACE else Category3.STRAIGHT_FLUSH, [top])
    if flush:
        return _pack(Category3.FLUSH, [hi, mid, lo])
    if top:
        return _pack(Category3.STRAIGHT, [top])
    return _pack(Category3.HIGH_CARD, [hi, mid, lo])


def evaluate3(cards: Sequence[Card], *, a23_suited_is_straight_flush: bool = True) -> int:
    """The value of a three-card hand (no jokers)."""
    check_hand(cards, sizes=(3,), game="three card poker")
    return value_of_ranks3(
        [int(c.rank) for c in cards],
        flush=len({c.suit for c in cards}) == 1,
        a23_suited_is_straight_flush=a23_suited_is_straight_flush,
    )


def category3(value: int) -> Category3:
    """The category of a three-card value."""
    return Category3(value >> _SHIFT)


def describe3(value: int) -> str:
    """A readable description, e.g. ``'pair of queens, nine kicker'``."""
    cat = category3(value)
    ranks = [(value >> s) & 0xF for s in (8, 4, 0)]
    names = [Rank(r).name.lower() for r in ranks if r]
    match cat:
        case Category3.ONE_PAIR:
            return f"pair of {names[0]}s, {names[1]} kicker".replace("sixs", "sixes")
        case Category3.THREE_OF_A_KIND:
            return f"three {names[0]}s".replace("sixs", "sixes")
        case Category3.STRAIGHT | Category3.STRAIGHT_FLUSH:
            return f"{cat.label}, {names[0]} high"
        case Category3.FLUSH | Category3.HIGH_CARD:
            return f"{cat.label}, " + "-".join(Rank(r).char for r in ranks)
        case _:
            return cat.label
