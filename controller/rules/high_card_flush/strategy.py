"""The best High Card Flush decision: fold, raise 1x, or raise the most the flush allows.

The optimal decision is computed exactly for each hand: the dealer hands of
the 45 unseen cards that do not qualify, that the player's flush beats, and
that tie it are counted suit by suit (``controller.rules.high_card_flush.flush_kernel``, a few
microseconds a hand), and the decision with the highest return is taken. The
return is linear in the Raise, so the best Raise is either 1x or the most
allowed.

The published strategy (Charles Mousseau: raise the most with four cards or
more in a suit, raise with a three-card flush of T-8-6 or better, else fold) is
kept for comparison; ``tablectl edge high-card-flush`` reports both.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from controller.cards import Card
from controller.rules.evaluators.high_card_flush import flush_length, flush_value

THREE_CARD_MINIMUM = (10, 8, 6)
QUALIFY_AT = flush_value([Card.parse(c) for c in ("9S", "3S", "2S", "4H", "6D", "8C", "TH")])
"""The lowest qualifying dealer hand: a three-card flush 9-3-2 (the other cards make no longer flush)."""


def most_allowed(length: int) -> int:
    """The largest Raise, in Antes, a flush of ``length`` cards allows (rules-notes)."""
    return 3 if length >= 6 else 2 if length == 5 else 1


def three_card_ranks(value: int) -> tuple[int, int, int]:
    """The ranks of a three-card flush value, highest first."""
    return ((value >> 24) & 0xF, (value >> 20) & 0xF, (value >> 16) & 0xF)


def published_raise(cards: Sequence[Card]) -> int:
    """Mousseau's Raise in Antes (0: fold)."""
    value = flush_value(cards)
    length = flush_length(value)
    if length >= 4:
        return most_allowed(length)
    return 1 if length == 3 and three_card_ranks(value) >= THREE_CARD_MINIMUM else 0


def suit_masks(cards: Sequence[Card]) -> np.ndarray:
    masks = np.zeros(4, np.int64)
    for card in cards:
        masks["SHDC".index(card.suit.value)] |= 1 << (int(card.rank) - 2)
    return masks


def returns(cards: Sequence[Card]) -> dict[int, int]:
    """Exact return of each choice (0 = fold, else the Raise in Antes), summed over all dealer hands, per Ante."""
    from controller.rules.high_card_flush.flush_kernel import DEALER_HANDS, hand_counts, raise_returns

    counts = hand_counts(suit_masks(cards), QUALIFY_AT)
    most = most_allowed(flush_length(int(counts[0])))
    result = {0: -DEALER_HANDS}
    for multiple in sorted({1, most}):
        result[multiple] = int(raise_returns(counts, QUALIFY_AT, multiple))
    return result


def best_raise(cards: Sequence[Card]) -> int:
    """The optimal Raise in Antes for seven cards (0 means fold)."""
    options = returns(cards)
    return max(options, key=lambda multiple: (options[multiple], -multiple))
