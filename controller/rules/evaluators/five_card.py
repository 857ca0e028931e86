"""Five-card high poker, with the joker as the "bug", and the best five of six or seven cards.

A hand value is an ``int``; a larger value is a better hand and equal values
tie. Its layout is ``category << 20`` followed by five 4-bit ranks in order of
significance (pair rank before kickers, a straight by its top card), so
:func:`category` and :func:`describe` can read it back::

    value = Category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

Ranks are 2..14 (ace high); A-2-3-4-5 (the wheel) is the lowest straight and
straight flush. The joker (at most one) plays as the seeds' pai gow and Omaha
rule says: as an ace, or as any card that completes a straight, a flush or a
straight flush; in a flush it is the highest card the flush lacks. With four
aces it makes five aces, ranked above the royal flush.

>>> from controller.cards import parse_cards
>>> describe(evaluate5(parse_cards("KH KD 7S 7C KS")))
'full house, kings full of sevens'
>>> describe(evaluate5(parse_cards("AS 2D 3H 4C 5S")))
'straight, five high'
>>> describe(evaluate5(parse_cards("JK QH JH TH 9H")))
'straight flush, king high'
>>> describe(evaluate5(parse_cards("JK 2H 7H TH 9H")))
'flush, A T 9 7 2'
>>> describe(evaluate5(parse_cards("JK AH AS AD AC")))
'five aces'
>>> value, cards = best_five(parse_cards("AS KS QS JS TS 2D 2C"))
>>> category(value), ' '.join(map(str, cards))
(<Category.ROYAL_FLUSH: 9>, 'AS KS QS JS TS')
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from controller.cards import Card, Rank
from controller.rules.evaluators.encoding import check_hand

__all__ = [
    "Category",
    "CATEGORY_SHIFT",
    "pack",
    "unpack_ranks",
    "category",
    "describe",
    "value_of_ranks",
    "evaluate5",
    "best_five",
    "evaluate",
]

CATEGORY_SHIFT = 20
_ACE = 14


class Category(enum.IntEnum):
    """Hand categories, lowest first, named as the rulebooks name them."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    FIVE_ACES = 10

    @property
    def label(self) -> str:
        """The rulebook's words, e.g. ``'three of a kind'``."""
        return self.name.replace("_", " ").lower()


def pack(cat: Category | int, ranks: Sequence[int] = ()) -> int:
    """A hand value from its category and up to five ranks in order of significance."""
    value = int(cat)
    for rank in ranks:
        value = (value << 4) | rank
    return value << 4 * (5 - len(ranks))


def unpack_ranks(value: int) -> tuple[int, ...]:
    """The significant ranks stored in a value, zeros dropped."""
    ranks = tuple((value >> shift) & 0xF for shift in (16, 12, 8, 4, 0))
    return tuple(r for r in ranks if r)


def category(value: int) -> Category:
    """The category of a hand value."""
    return Category(value >> CATEGORY_SHIFT)


_SINGULAR = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
             9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"}


def _plural(rank: int) -> str:
    return "sixes" if rank == 6 else _SINGULAR[rank] + "s"


def _short(ranks: Sequence[int]) -> str:
    return " ".join(Rank(r).char if r >= 2 else "A" for r in ranks)


def describe(value: int) -> str:
    """A readable description, e.g. ``'two pair, kings and sevens, ace kicker'``."""
    cat = category(value)
    r = unpack_ranks(value)
    match cat:
        case Category.HIGH_CARD:
            return f"{_SINGULAR[r[0]]} high, {_short(r)}"
        case Category.ONE_PAIR:
            return f"pair of {_plural(r[0])}, {_short(r[1:])} kickers"
        case Category.TWO_PAIR:
            return f"two pair, {_plural(r[0])} and {_plural(r[1])}, {_SINGULAR[r[2]]} kicker"
        case Category.THREE_OF_A_KIND:
            return f"three of a kind, {_plural(r[0])}, {_short(r[1:])} kickers"
        case Category.STRAIGHT | Category.STRAIGHT_FLUSH:
            return f"{cat.label}, {_SINGULAR[r[0]]} high"
        case Category.FLUSH:
            return f"flush, {_short(r)}"
        case Category.FULL_HOUSE:
            return f"full house, {_plural(r[0])} full of {_plural(r[1])}"
        case Category.FOUR_OF_A_KIND:
            return f"four of a kind, {_plural(r[0])}, {_SINGULAR[r[1]]} kicker"
        case _:
            return cat.label


def _straight_top(distinct: Sequence[int], ace_low: bool) -> int:
    """The top rank if five distinct ranks are consecutive, else 0 (the wheel's top is 5)."""
    hi, lo = max(distinct), min(distinct)
    if hi - lo == 4:
        return hi
    if not ace_low and set(distinct) == {_ACE, 2, 3, 4, 5}:
        return 5
    return 0


_BY_SHAPE = {(3, 1, 1): Category.THREE_OF_A_KIND, (2, 2, 1): Category.TWO_PAIR,
             (2, 1, 1, 1): Category.ONE_PAIR, (1, 1, 1, 1, 1): Category.HIGH_CARD}


def _by_count_then_rank(rank_count: tuple[int, int]) -> tuple[int, int]:
    return rank_count[1], rank_count[0]


def value_of_ranks(ranks: Sequence[int], *, flush: bool, ace_low: bool = False) -> int:
    """The value of five cards given their ranks and whether they are all one suit.

    With ``ace_low`` the ranks are 1..10 (Two Cards High, aces counted as one):
    no wheel rule is needed and nothing is a royal flush.

    >>> describe(value_of_ranks([9, 9, 4, 4, 13], flush=False))
    'two pair, nines and fours, king kicker'
    """
    groups = sorted(Counter(ranks).items(), key=_by_count_then_rank, reverse=True)
    shape = tuple(c for _, c in groups)
    order = [r for r, _ in groups]
    if shape == (5,):
        if order[0] != _ACE or ace_low:
            raise ValueError(f"five of a kind other than five aces: {list(ranks)}")
        return pack(Category.FIVE_ACES)
    if shape == (4, 1):
        return pack(Category.FOUR_OF_A_KIND, order)
    if shape == (3, 2):
        return pack(Category.FULL_HOUSE, order)
    top = _straight_top(order, ace_low) if len(order) == 5 else 0
    if flush and top:
        royal = top == _ACE and not ace_low
        return pack(Category.ROYAL_FLUSH if royal else Category.STRAIGHT_FLUSH, [top])
    if flush:
        return pack(Category.FLUSH, order)
    if top:
        return pack(Category.STRAIGHT, [top])
    return pack(_BY_SHAPE[shape], order)


def _could_straighten(ranks: Sequence[int]) -> bool:
    """Whether one more rank can make a straight of four distinct ranks (the ace high or low)."""
    if len(set(ranks)) != 4:
        return False
    low_aces = [1 if r == _ACE else r for r in ranks]
    return max(ranks) - min(ranks) <= 4 or max(low_aces) - min(low_aces) <= 4


def _bug_value(naturals: Sequence[Card]) -> int:
    """The best value of four natural cards and the joker under the bug rule."""
    ranks = [int(c.rank) for c in naturals]
    best = value_of_ranks(ranks + [_ACE], flush=False)
    straight = _could_straighten(ranks)
    suited = len({c.suit for c in naturals}) == 1
    if not (straight or suited):
        return best
    for extra in range(2, _ACE + 1):
        if extra in ranks:
            continue
        five = ranks + [extra]
        value = value_of_ranks(five, flush=suited)
        if suited or category(value) is Category.STRAIGHT:
            best = max(best, value)
    return best


def _value5(cards: Sequence[Card]) -> int:
    naturals = [c for c in cards if not c.is_joker]
    if len(naturals) == 4:
        return _bug_value(naturals)
    return value_of_ranks([int(c.rank) for c in cards], flush=len({c.suit for c in cards}) == 1)


def evaluate5(cards: Sequence[Card]) -> int:
    """The value of exactly five cards (at most one joker, played as the bug)."""
    check_hand(cards, sizes=(5,), game="five-card poker", jokers=1)
    return _value5(cards)


def best_five(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """The best five-card hand from five to nine cards: its value and its cards (best first found).

    The five cards are listed from the highest rank down, the joker first.
    """
    check_hand(cards, sizes=range(5, 10), game="best five-card hand", jokers=1)
    best_value = -1
    best_cards: tuple[Card, ...] = ()
    for five in combinations(cards, 5):
        value = _value5(five)
        if value > best_value:
            best_value, best_cards = value, five
    return best_value, tuple(sorted(best_cards, key=lambda c: c.rank, reverse=True))


def evaluate(cards: Sequence[Card]) -> int:
    """The value of the best five-card hand from five to nine cards."""
    return best_five(cards)[0]
