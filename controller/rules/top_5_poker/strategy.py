"""The best decision for a Top 5 Poker hand (seed 001 rule 6): fold, play five, or use the Community Card.

The hand to play is always the best five of the player's five and the
Community Card: the dealer hands the player can meet are the same whichever
five he plays, and a higher hand never wins less, so the best poker hand is
also the best-paying one (for the Ante and Bet and for 10's or Better alike).

Whether to play at all is decided exactly: the return of playing is counted
over all 1,370,754 dealer hands of the 46 unseen cards and compared with the
fold's loss of the Ante. A hand without a pair loses to every qualified
dealer, so only the unqualified dealer hands are counted (by rank sets); a
pair can only beat or tie a dealer holding a pair no higher, so only those
dealer hands are enumerated. That count is only needed for weak hands: the exact
enumeration of ``controller.rules.top_5_poker.edge`` shows that the best hand ever
folded is a pair of threes (with ties pushing or lost alike), so a pair of
fours or better is played without counting (``tests/games/test_top_5_poker_edge.py``
checks it). A spot with no Ante never folds: playing costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from controller.cards import Card, Rank
from controller.rules.base import Decision
from controller.rules.evaluators import Category, best_five, category
from controller.rules.evaluators.encoding import code_of, encode
from controller.rules.evaluators.five_card import unpack_ranks
from controller.rules.top_5_poker.tables import winning_bet

ALWAYS_PLAY_PAIR = Rank.FOUR
"""The lowest pair that is always played (the best hand ever folded is a pair of threes)."""

DEALER_HANDS = 1_370_754


def best_hand(cards: Sequence[Card], community: Card) -> tuple[int, Card | None]:
    """The best five of the player's five and the Community Card: its value and the discard (``None``: play five)."""
    value, five = best_five([*cards, community])
    if community not in five:
        return value, None
    return value, next(c for c in cards if c not in five)


def always_played(value: int) -> bool:
    cat = category(value)
    return cat > Category.ONE_PAIR or (cat is Category.ONE_PAIR and unpack_ranks(value)[0] >= ALWAYS_PLAY_PAIR)


def play_return(cards: Sequence[Card], community: Card, value: int, *, tie_loses: bool) -> int:
    """The Ante and Bet return of playing ``value``, summed over every dealer hand, per unit of Ante."""
    from controller.rules.top_5_poker.poker_kernel import dealer_counts, internal_value, one_pair_counts, unqualified_count

    player, board = encode(cards).astype(np.int64), code_of(community)
    cat = category(value)
    if cat is Category.HIGH_CARD:
        unqualified, beaten, tied = int(unqualified_count(player, board)), 0, 0
    elif cat is Category.ONE_PAIR:
        unqualified = int(unqualified_count(player, board))
        beaten, tied = (int(x) for x in one_pair_counts(player, board, internal_value(player, board)))
    else:
        unqualified, beaten, tied = (int(x) for x in dealer_counts(player, board, internal_value(player, board)))
    lost = DEALER_HANDS - unqualified - beaten - tied
    win = int(winning_bet(value).odds)
    return unqualified + beaten * (1 + win) - 2 * lost - (2 * tied if tie_loses else 0)


def best_decision(spot: int, cards: Sequence[Card], community: Card, *, has_ante: bool, tie_loses: bool = False) -> Decision:
    value, discard = best_hand(cards, community)
    if has_ante and not always_played(value) and play_return(cards, community, value, tie_loses=tie_loses) < -DEALER_HANDS:
        return Decision(spot, "fold")
    if discard is None:
        return Decision(spot, "play")
    return Decision(spot, "community", cards=(discard,))
