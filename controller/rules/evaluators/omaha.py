"""Omaha showdowns: exactly two hole cards and three board cards for each half (seed 003, Omaha Hi-Low rule 6).

The high hand and the low hand are chosen independently (rules 7 and 8): they
may use different hole and board cards. High hands are ``five_card`` values
(the joker plays as the bug: an ace, or completing a straight or flush); low
hands are ``lowball`` values (the joker is the lowest rank not already in that
five-card hand), and only hands passing the qualifier (eight or better by
default; ``None`` for no qualifier) count.

>>> from controller.cards import parse_cards
>>> hole, board = parse_cards("AS 2S KD KH"), parse_cards("3S 4S 9C KC QD")
>>> from controller.rules.evaluators.five_card import describe
>>> value, cards = omaha_high(hole, board)
>>> describe(value), ' '.join(map(str, cards))
('three of a kind, kings, Q 9 kickers', 'KD KH 9C KC QD')
>>> from controller.rules.evaluators.lowball import describe_low
>>> describe_low(omaha_low(hole, board, qualifier=None)[0])
'9-4-3-2-A'
>>> omaha_low(hole, board, qualifier=8) is None
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from controller.cards import Card
from controller.rules.evaluators.encoding import check_hand
from controller.rules.evaluators.five_card import evaluate5
from controller.rules.evaluators.lowball import low_value, qualifies

__all__ = ["omaha_hands", "omaha_high", "omaha_low"]


def omaha_hands(hole: Sequence[Card], board: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every five-card hand of exactly two hole cards and three board cards."""
    check_hand([*hole, *board], sizes=range(5, 15), game="omaha", jokers=1)
    if len(hole) < 2 or len(board) < 3:
        raise ValueError(f"omaha: need at least two hole cards and three board cards, got {len(hole)} and {len(board)}")
    for two in combinations(hole, 2):
        for three in combinations(board, 3):
            yield two + three


def omaha_high(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """The best high hand: its ``five_card`` value and its cards (two hole cards first)."""
    return max(((evaluate5(hand), hand) for hand in omaha_hands(hole, board)), key=lambda vh: vh[0])


def omaha_low(
    hole: Sequence[Card], board: Sequence[Card], *, qualifier: int | None = 8
) -> tuple[int, tuple[Card, ...]] | None:
    """The best qualifying low hand, or ``None`` when there is none."""
    best: tuple[int, tuple[Card, ...]] | None = None
    for hand in omaha_hands(hole, board):
        value = low_value(hand)
        if qualifier is not None and not qualifies(value, qualifier):
            continue
        if best is None or value > best[0]:
            best = (value, hand)
    return best
