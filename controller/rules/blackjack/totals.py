"""Card values, hand totals, the players' charts and the player-dealer's drawing rule.

Values (seed 003, No Bust "Value of cards", Pure 21.5 "Value of the cards"):
an ace is 1 or 11, two to nine their face value, tens, pictures and Bonus cards 10.
Special hands outrank every counted total:

- No Bust: two jokers as the first two cards are a Natural 22; a joker with any
  other card is a hard 21 that takes no card (game rules 1, 2, 13).
- Pure 21.5: a Bonus card and an ace on the initial deal are a Pure 21.5
  Blackjack (Bonus card worth 10.5).

>>> from controller.cards import parse_cards
>>> str(count_total(parse_cards("AS 6H")))
'soft 17'
>>> str(no_bust_total(parse_cards("JK JK"), initial=True))
'Natural 22'
>>> str(no_bust_total(parse_cards("9S 5H JK"), initial=False))
'joker 21'
>>> str(pure_total(parse_cards("AS QB"), initial=True))
'Pure 21.5 Blackjack'
>>> str(pure_total(parse_cards("AS QB"), initial=False))
'soft 21'
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from controller.cards import Card, Rank


class Kind(enum.Enum):
    COUNT = "count"
    JOKER_21 = "joker 21"
    NATURAL_22 = "Natural 22"
    PURE_21_5 = "Pure 21.5 Blackjack"


@dataclass(frozen=True, slots=True)
class Total:
    """A hand's value: its best count (aces as 11 while that keeps it to 21 or less) and its kind."""

    points: int
    soft: bool = False
    kind: Kind = Kind.COUNT

    @property
    def special(self) -> bool:
        return self.kind is not Kind.COUNT

    def __str__(self) -> str:
        if self.special:
            return self.kind.value
        return f"{'soft' if self.soft else 'hard'} {self.points}"


@functools.cache
def points(card: Card) -> int:
    """A card's count, the ace as 1; the joker counts nothing (it makes a joker hand instead)."""
    if card.is_joker:
        return 0
    if card.rank is Rank.ACE:
        return 1
    if card.is_bonus or card.rank >= Rank.TEN:
        return 10
    return int(card.rank)


def count_total(cards: Sequence[Card]) -> Total:
    """The plain count: soft when an ace counts 11."""
    hard = sum(points(c) for c in cards)
    if any(c.rank is Rank.ACE for c in cards) and hard + 10 <= 21:
        return Total(hard + 10, soft=True)
    return Total(hard)


def no_bust_total(cards: Sequence[Card], *, initial: bool) -> Total:
    """No Bust: ``initial`` is true for a hand's first two cards as dealt (not after a split)."""
    jokers = sum(c.is_joker for c in cards)
    if initial and len(cards) == 2 and jokers == 2:
        return Total(22, kind=Kind.NATURAL_22)
    if jokers and len(cards) >= 2:
        return Total(21, kind=Kind.JOKER_21)
    return count_total(cards)


def pure_total(cards: Sequence[Card], *, initial: bool) -> Total:
    """Pure 21.5: ``initial`` is true for a hand's first two cards as dealt (not after a split)."""
    if initial and len(cards) == 2 and {c.is_bonus for c in cards} == {True, False} \
            and any(c.rank is Rank.ACE for c in cards):
        return Total(21, kind=Kind.PURE_21_5)
    return count_total(cards)


class Rule(enum.Enum):
    MUST_HIT = "must hit"
    MUST_STAND = "must stand"
    OPTION = "option"

    @property
    def may_hit(self) -> bool:
        return self is not Rule.MUST_STAND

    @property
    def may_stand(self) -> bool:
        return self is not Rule.MUST_HIT


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One row of a players' chart: which totals it covers, what it rules, and where it is written."""

    name: str
    rule: Rule
    cite: str
    applies: Callable[[Total], bool]

    def __str__(self) -> str:
        return f"{self.name} ({self.cite})"


def chart_row(chart: Sequence[ChartRow], total: Total) -> ChartRow:
    """The first row of ``chart`` that covers ``total``."""
    for row in chart:
        if row.applies(total):
            return row
    raise ValueError(f"no chart row covers {total}")


def dealer_draws(total: Total) -> bool:
    """The player-dealer hits soft 17 or less and stands on hard 17 or more (No Bust rule 16, Pure chart 1B).

    A soft 18 or more is "17 or higher" and stands; a special hand takes no card.
    """
    if total.special:
        return False
    return total.points <= 17 if total.soft else total.points <= 16
