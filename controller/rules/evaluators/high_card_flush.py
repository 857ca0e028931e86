"""High Card Flush hands (seed 002, 58 Pa. Code § 678a.6) and the straight-flush length.

A hand's value is its longest flush, § 678a.6(b): seven cards of one suit
beat six, six beat five, and so on down to a two-card flush. Between flushes
of equal length the hand holding the highest card the other lacks wins,
§ 678a.6(c); within a suit every rank is distinct, so that is a comparison of
the flush's ranks from the top down. A hand with two flushes of equal length
counts the better one (rules-notes). A hand with no two cards of a suit is
valued by its highest single card (a "one-card flush"), which (c) also orders.

A value is an ``int``, larger is better: ``length << 28`` then up to seven
4-bit ranks, highest first.

For the Straight Flush Bonus and the Progressive, § 678a.6(d): the length of
the longest run of consecutive ranks in one suit; an ace plays high or low
(A-2-3 and Q-K-A both count), with no wrap-around (rules-notes).

>>> from controller.cards import parse_cards
>>> hand = parse_cards("AS 9S 4S KD QD 2D 7C")
>>> flush_length(flush_value(hand)), ' '.join(map(str, flush_cards(hand)))
(3, 'AS 9S 4S')
>>> compare(parse_cards("KH 9H 5H 2C 3D 4S 6C"), parse_cards("KS 8S 7S 2H 3C 4D 6H"))
1
>>> straight_flush_length(parse_cards("AH 2H 3H 5D 6D 7D 8D"))
4
>>> straight_flush_length(parse_cards("KH AH 2H 9C 8D 7S 5C"))
2
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.cards import Card, Suit
from controller.rules.evaluators.encoding import check_hand

__all__ = [
    "flush_cards",
    "flush_value",
    "flush_length",
    "flush_ranks",
    "compare",
    "straight_flush_length",
    "mask_flush_value",
    "mask_straight_length",
]

_LENGTH_SHIFT = 28
_GAME = "high card flush"


def mask_flush_value(mask: int) -> int:
    """The value of the flush whose ranks are the bits of ``mask`` (bit ``r - 2`` for rank ``r``)."""
    ranks = [r for r in range(14, 1, -1) if mask >> (r - 2) & 1]
    value = len(ranks)
    for i in range(7):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def _longest_run(bits: int) -> int:
    best = run = 0
    for bit in range(14):
        run = run + 1 if bits >> bit & 1 else 0
        best = max(best, run)
    return best


def mask_straight_length(mask: int, jokers: int = 0) -> int:
    """The longest run of consecutive ranks in ``mask``, the ace counting high or low.

    With a joker (``jokers=1``) the run may have one missing rank filled in.

    >>> mask_straight_length(0b0000000011011), mask_straight_length(0b0000000011011, jokers=1)
    (2, 5)
    """
    with_low_ace = (mask << 1) | (mask >> 12 & 1)
    if jokers:
        return max(_longest_run(with_low_ace | 1 << position) for position in range(14))
    return _longest_run(with_low_ace)


def _suit_masks(cards: Sequence[Card]) -> dict[Suit, int]:
    masks: dict[Suit, int] = {}
    for card in cards:
        if card.is_joker:
            continue
        masks[card.suit] = masks.get(card.suit, 0) | 1 << (int(card.rank) - 2)
    return masks


def _check(cards: Sequence[Card]) -> None:
    check_hand(cards, sizes=range(1, 14), game=_GAME)


def flush_value(cards: Sequence[Card]) -> int:
    """The value of a hand by its best flush (see module doc)."""
    _check(cards)
    return max(mask_flush_value(m) for m in _suit_masks(cards).values())


def flush_length(value: int) -> int:
    """How many cards the counted flush has."""
    return value >> _LENGTH_SHIFT


def flush_ranks(value: int) -> tuple[int, ...]:
    """The ranks (2..14) of the counted flush, highest first.

    >>> flush_ranks(mask_flush_value(0b1000000100001))
    (14, 7, 2)
    """
    count = flush_length(value)
    return tuple((value >> (24 - 4 * i)) & 0xF for i in range(count))


def flush_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards of the counted flush, highest first."""
    _check(cards)
    masks = _suit_masks(cards)
    suit = max(masks, key=lambda s: mask_flush_value(masks[s]))
    return tuple(sorted((c for c in cards if c.suit is suit), key=lambda c: c.rank, reverse=True))


def compare(first: Sequence[Card], second: Sequence[Card]) -> int:
    """1 if the first hand ranks higher, -1 if the second does, 0 on a tie (§ 678a.6(b), (c))."""
    a, b = flush_value(first), flush_value(second)
    return (a > b) - (a < b)


def straight_flush_length(cards: Sequence[Card], *, joker: bool = False) -> int:
    """The longest straight flush in the hand, § 678a.6(d) (1 when no two suited cards are consecutive).

    With ``joker=True`` the hand may hold the joker, which fills one gap or extends a run in any suit
    (Fortune Pai Gow's seven-card straight flush with the joker).
    """
    check_hand(cards, sizes=range(1, 14), game="straight flush", jokers=1 if joker else 0)
    jokers = sum(c.is_joker for c in cards)
    return max((mask_straight_length(m, jokers) for m in _suit_masks(cards).values()), default=jokers)
