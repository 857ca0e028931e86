"""Two Cards High (seed 004): the three-card qualifier, the two-card hand, and the five-card side wager.

Aces count one everywhere, twos to tens their face value (seed 004 rule 4b;
the deck has no face cards, rule 1).

* Qualifier (rule 4a, 4c): three of the five cards whose sum is a multiple of
  ten; the other two cards are the two-card hand (rule 4d).
* Two-card hand (rule 5): any pair beats any point total; the pair of tens is
  the highest hand and the pair of aces the lowest pair; otherwise the hand is
  worth the sum of its two cards modulo ten, 0 to 9. Value: the points 0..9,
  or ``10 + rank`` for a pair (11 for aces up to 20 for tens).
* The side wager ranks the five cards dealt as poker with the ace only low:
  A-2-3-4-5 is a straight and nothing ranks above the ten (rules-notes), so
  6-7-8-9-10 suited is the best straight flush. Values are those of
  :mod:`controller.rules.evaluators.five_card` with ace = 1.

>>> from controller.cards import parse_cards
>>> hand = parse_cards("5S 3H 2D 7C 8S")
>>> [' '.join(map(str, s)) for s in qualifying_sets(hand)]
['5S 3H 2D', '5S 7C 8S']
>>> two_card_value(parse_cards("7C 8S")), two_card_value(parse_cards("3H 2D"))
(5, 5)
>>> best_split(hand)
(5, (Card('5S'), Card('3H'), Card('2D')), (Card('7C'), Card('8S')))
>>> best_split(parse_cards("AS AH 2D 3C 3S")) is None
True
>>> describe_two_card(two_card_value(parse_cards("TS TD")))
'pair of tens'
>>> from controller.rules.evaluators.five_card import describe
>>> describe(side_wager_value(parse_cards("AS 2S 3S 4S 5S")))
'straight flush, five high'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from controller.cards import Card, Rank
from controller.rules.evaluators.encoding import check_hand
from controller.rules.evaluators.five_card import value_of_ranks

__all__ = [
    "points",
    "qualifying_sets",
    "two_card_value",
    "describe_two_card",
    "best_split",
    "side_wager_value",
    "PAIR_BASE",
]

PAIR_BASE = 10
_DECK_RANKS = (Rank.ACE, *(Rank(r) for r in range(2, 11)))
_GAME = "two cards high"


def points(card: Card) -> int:
    """A card's count: ace 1, two to ten face value."""
    return 1 if card.rank is Rank.ACE else int(card.rank)


def _check(cards: Sequence[Card], size: int) -> None:
    check_hand(cards, sizes=(size,), game=_GAME, ranks=_DECK_RANKS)


def qualifying_sets(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every three-card set of the five whose count is a multiple of ten, in dealt order."""
    _check(cards, 5)
    return [trio for trio in combinations(cards, 3) if sum(points(c) for c in trio) % 10 == 0]


def two_card_value(cards: Sequence[Card]) -> int:
    """The two-card hand's value: points 0..9, or ``PAIR_BASE + count`` (11 aces .. 20 tens) for a pair."""
    _check(cards, 2)
    first, second = (points(c) for c in cards)
    if first == second:
        return PAIR_BASE + first
    return (first + second) % 10


def describe_two_card(value: int) -> str:
    """``'pair of sevens'`` or ``'7 points'``."""
    if value > PAIR_BASE:
        count = value - PAIR_BASE
        name = "aces" if count == 1 else "sixes" if count == 6 else Rank(count).name.lower() + "s"
        return f"pair of {name}"
    return f"{value} point" + ("" if value == 1 else "s")


def best_split(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...], tuple[Card, ...]] | None:
    """The best two-card hand over all qualifying sets: (value, three-card set, two-card hand).

    ``None`` when no three cards qualify. The first best set in dealt order is returned.
    """
    best: tuple[int, tuple[Card, ...], tuple[Card, ...]] | None = None
    for trio in qualifying_sets(cards):
        pair = tuple(c for c in cards if c not in trio)
        value = two_card_value(pair)
        if best is None or value > best[0]:
            best = (value, trio, pair)
    return best


def side_wager_value(cards: Sequence[Card]) -> int:
    """The five-card side wager's poker value, aces low only (a ``five_card`` value)."""
    _check(cards, 5)
    return value_of_ranks([points(c) for c in cards], flush=len({c.suit for c in cards}) == 1, ace_low=True)
