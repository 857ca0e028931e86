"""The published High Card Flush strategy (Charles Mousseau), for simulated players and the math.

Raise the most allowed with a flush of four cards or more; raise with a
three-card flush of T-8-6 or better; fold everything else. It ignores the cards
outside the flush and gives up about 0.06 % against the optimal strategy
(as published with it).
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.cards import Card
from controller.evaluators.high_card_flush import flush_length, flush_value

THREE_CARD_MINIMUM = (10, 8, 6)


def three_card_ranks(value: int) -> tuple[int, int, int]:
    """The ranks of a three-card flush value, highest first."""
    return ((value >> 24) & 0xF, (value >> 20) & 0xF, (value >> 16) & 0xF)


def raise_for_value(value: int) -> int:
    """The Raise in Antes (0: fold) for a hand's flush value."""
    length = flush_length(value)
    if length >= 4:
        return 3 if length >= 6 else 2 if length == 5 else 1
    if length == 3 and three_card_ranks(value) >= THREE_CARD_MINIMUM:
        return 1
    return 0


def raises(cards: Sequence[Card]) -> int:
    """The Raise in Antes for seven cards (0 means fold)."""
    return raise_for_value(flush_value(cards))
