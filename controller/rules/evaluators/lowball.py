"""Ace-to-five low: lowball (seed 003, "LOW-BALL") and the low half of Omaha hi-lo.

The lowest hand wins. Aces are low (count one), straights and flushes do not
count, so 5-4-3-2-A is the best hand; five unpaired cards beat any pair, a
pair beats two pair, and so on up to four of a kind, the worst. Between hands
of one kind the highest differing rank decides, lower winning.

The joker, where the game uses one, is "the lowest card not already in the
hand" (seed 003 line 5): with A-2-3-5 it is the four.

To keep one convention across evaluators, a low value is an ``int`` where a
LARGER value is a BETTER low hand: ``LOW_TOP`` minus the hand's "badness",
which uses the ``five_card`` layout with aces as 1.

The eight-or-better qualifier (Omaha hi-lo, seed 003 rule 9): five unpaired
cards, none above an eight.

>>> from controller.cards import parse_cards
>>> wheel = low_value(parse_cards("5S 4H 3D 2C AS"))
>>> describe_low(wheel), qualifies(wheel)
('5-4-3-2-A', True)
>>> low_value(parse_cards("JK 4H 3D 2C AS")) == wheel
True
>>> describe_low(low_value(parse_cards("9S 7H 5D 3C 2S"))), qualifies(low_value(parse_cards("9S 7H 5D 3C 2S")))
('9-7-5-3-2', False)
>>> describe_low(low_value(parse_cards("KS KH 5D 3C 2S")))
'pair of kings, 5-3-2'
>>> low_value(parse_cards("6S 4H 3D 2C AS")) > low_value(parse_cards("6S 5H 3D 2C AS"))
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from controller.cards import Card, Rank
from controller.rules.evaluators.encoding import check_hand
from controller.rules.evaluators.five_card import CATEGORY_SHIFT, Category, pack, unpack_ranks

__all__ = ["LOW_TOP", "low_value_of_ranks", "low_value", "best_low", "describe_low", "qualifies", "joker_low_rank"]

LOW_TOP = 1 << 24
_SHAPES = {
    (1, 1, 1, 1, 1): Category.HIGH_CARD,
    (2, 1, 1, 1): Category.ONE_PAIR,
    (2, 2, 1): Category.TWO_PAIR,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (4, 1): Category.FOUR_OF_A_KIND,
}


def low_value_of_ranks(ranks: Sequence[int]) -> int:
    """The low value of five ranks counted 1 (ace) .. 13 (king)."""
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    return LOW_TOP - pack(_SHAPES[shape], [r for r, _ in groups])


def joker_low_rank(ranks: Sequence[int]) -> int:
    """The rank (1..13) the joker takes in a low hand: the lowest not already among ``ranks``."""
    return min(set(range(1, 14)) - set(ranks))


def _low_count(card: Card) -> int:
    return 1 if card.rank is Rank.ACE else int(card.rank)


def low_value(cards: Sequence[Card]) -> int:
    """The ace-to-five low value of exactly five cards (at most one joker)."""
    check_hand(cards, sizes=(5,), game="ace-to-five low", jokers=1)
    ranks = [_low_count(c) for c in cards if not c.is_joker]
    if len(ranks) == 4:
        ranks.append(joker_low_rank(ranks))
    return low_value_of_ranks(ranks)


def best_low(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """The best low five of five to nine cards: its value and cards (highest first, joker first)."""
    check_hand(cards, sizes=range(5, 10), game="ace-to-five low", jokers=1)
    best_value = -1
    best_cards: tuple[Card, ...] = ()
    for five in combinations(cards, 5):
        value = low_value(five)
        if value > best_value:
            best_value, best_cards = value, five
    return best_value, tuple(sorted(best_cards, key=lambda c: 15 if c.is_joker else _low_count(c), reverse=True))


def _badness(value: int) -> int:
    if not 0 < value <= LOW_TOP:
        raise ValueError(f"{value} is not a low value")
    return LOW_TOP - value


def qualifies(value: int, limit: int = 8) -> bool:
    """Whether a low value is five unpaired cards none above ``limit`` (eight or better by default)."""
    badness = _badness(value)
    return Category(badness >> CATEGORY_SHIFT) is Category.HIGH_CARD and unpack_ranks(badness)[0] <= limit


def describe_low(value: int) -> str:
    """``'7-5-4-3-2'`` for unpaired hands; the pairs named first otherwise."""
    badness = _badness(value)
    cat = Category(badness >> CATEGORY_SHIFT)
    ranks = unpack_ranks(badness)
    chars = ["A" if r == 1 else Rank(r).char for r in ranks]
    if cat is Category.HIGH_CARD:
        return "-".join(chars)
    if cat is Category.ONE_PAIR:
        name = "aces" if ranks[0] == 1 else "sixes" if ranks[0] == 6 else Rank(ranks[0]).name.lower() + "s"
        return f"pair of {name}, {'-'.join(chars[1:])}"
    return f"{cat.label}, {'-'.join(chars)}"
