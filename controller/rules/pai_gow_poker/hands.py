"""Pai gow poker hands: the two-card front, the five-card back, foul hands and comparison (seed 003).

Seed 003, Double-Hand Poker, "Rank of Hands": "Out of the seven cards two
hands are made, one two-card hand and one five-card hand. The five-card hand
(the back hand) must rank higher than the two-card hand (the front hand)."

* The back hand is ranked by the shared five-card evaluator
  (``controller.rules.evaluators.evaluate5``): five aces above the royal flush, the
  joker as an ace or to complete a straight or a flush. The seed's note ranks
  A-2-3-4-5 as the *low* straight ("5-4-3-2-A = Low straight"), which is the
  default here; many California rooms rank it second only to A-K-Q-J-T, and
  ``wheel="second-highest"`` selects that.
* The front hand is a pair or two single cards; the joker in front is an ace.
* A hand is foul (seed "A player has a foul hand if") when (a) the front is
  stronger than the back, (b) the front does not hold exactly two cards, or
  (c) the back does not hold exactly five.
* Front is compared with front and back with back; an identical hand is a
  copy, and "the player/banker wins all copies".

Front and back values share one integer scale (the evaluator's packed
category and ranks), so "the front is stronger than the back" is a plain
comparison: a front pair of eights is below any back pair of eights, whose
kickers make it larger.

>>> from controller.cards import parse_cards
>>> hand = set_hand(parse_cards("AS TH 8D 7C 2S KH QD"), parse_cards("KH QD"))
>>> str(hand)
'KH QD / AS TH 8D 7C 2S'
>>> foul_reason(parse_cards("KH KD"), parse_cards("AS QH 8D 7C 2S"))
'the front hand (pair of kings) ranks above the back hand (ace high, A Q 8 7 2)'
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from controller.cards import Card
from controller.rules.evaluators import InvalidHand, evaluate5
from controller.rules.evaluators.five_card import Category, category, describe, pack, unpack_ranks

__all__ = [
    "WHEELS",
    "FoulHand",
    "SetHand",
    "Outcome",
    "Comparison",
    "front_value",
    "back_value",
    "describe_front",
    "describe_back",
    "foul_reason",
    "set_hand",
    "settings",
    "legal_settings",
    "compare",
]

ACE = 14
WHEELS = ("lowest", "second-highest")
_WHEEL_SECOND = (13, 15)
"""Where A-2-3-4-5 sits when it is the second-highest straight: above K-high (13), below A-high (14)."""


class FoulHand(ValueError):
    """A set hand the rules call foul; the message gives the seed's reason."""


@dataclass(frozen=True, slots=True)
class SetHand:
    """Seven cards set as a two-card front hand and a five-card back hand."""

    front: tuple[Card, ...]
    back: tuple[Card, ...]

    def __str__(self) -> str:
        return " ".join(c.code for c in self.front) + " / " + " ".join(c.code for c in self.back)

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.front + self.back

    def same_as(self, other: SetHand) -> bool:
        """The same cards in front (and so in back), in whatever order."""
        return set(self.front) == set(other.front) and set(self.back) == set(other.back)

    def as_event(self) -> dict[str, list[str]]:
        return {"front": [c.code for c in self.front], "back": [c.code for c in self.back]}


def _rank(card: Card) -> int:
    return ACE if card.is_joker else int(card.rank)


def front_value(cards: Sequence[Card]) -> int:
    """The value of a two-card front hand: pairs above high cards, the joker an ace."""
    if len(cards) != 2:
        raise InvalidHand(f"a front hand has two cards, not {len(cards)}")
    if cards[0] == cards[1]:
        raise InvalidHand(f"card {cards[0]} appears twice in the front hand")
    high, low = sorted((_rank(c) for c in cards), reverse=True)
    if high == low:
        return pack(Category.ONE_PAIR, [high])
    return pack(Category.HIGH_CARD, [high, low])


def back_value(cards: Sequence[Card], wheel: str = "lowest") -> int:
    """The value of a five-card back hand, with A-2-3-4-5 placed as ``wheel`` says."""
    value = evaluate5(cards)
    if wheel == "second-highest":
        cat = category(value)
        if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH) and unpack_ranks(value) == (5,):
            return pack(cat, _WHEEL_SECOND)
    elif wheel != "lowest":
        raise ValueError(f"unknown wheel rule {wheel!r}: expected one of {', '.join(WHEELS)}")
    return value


def describe_front(value: int) -> str:
    """``'pair of kings'`` or ``'K Q'``."""
    if category(value) is Category.ONE_PAIR:
        return describe(value).split(",")[0]
    return " ".join(_char(r) for r in unpack_ranks(value))


def _char(rank: int) -> str:
    return "TJQKA"[rank - 10] if rank >= 10 else str(rank)


def describe_back(value: int) -> str:
    """The evaluator's description, with the second-highest wheel named as such."""
    if unpack_ranks(value) == _WHEEL_SECOND:
        return f"{category(value).label}, A-2-3-4-5 (second-highest)"
    return describe(value)


def foul_reason(front: Sequence[Card], back: Sequence[Card], wheel: str = "lowest") -> str | None:
    """Why a setting is foul (seed 003 conditions (a)-(c)), or ``None`` when it is not."""
    if len(front) != 2:
        return f"the front hand must hold exactly two cards, not {len(front)}"  # (b)
    if len(back) != 5:
        return f"the back hand must hold exactly five cards, not {len(back)}"  # (c)
    fv, bv = front_value(front), back_value(back, wheel)
    if fv > bv:  # (a)
        return f"the front hand ({describe_front(fv)}) ranks above the back hand ({describe_back(bv)})"
    return None


def set_hand(cards: Sequence[Card], front: Sequence[Card], wheel: str = "lowest") -> SetHand:
    """Set seven cards with ``front`` in front; raise ``FoulHand`` (or ``InvalidHand``) with the reason."""
    if len(cards) != 7 or len(set(cards)) != 7:
        raise InvalidHand(f"a pai gow hand is seven different cards, not {' '.join(c.code for c in cards)}")
    missing = [c.code for c in front if c not in cards]
    if missing:
        raise InvalidHand(f"{' '.join(missing)} not in the hand {' '.join(c.code for c in cards)}")
    if len(set(front)) != len(front):
        raise InvalidHand(f"the front hand repeats a card: {' '.join(c.code for c in front)}")
    back = tuple(c for c in cards if c not in front)
    reason = foul_reason(tuple(front), back, wheel)
    if reason:
        raise FoulHand(f"foul hand: {reason}")
    return SetHand(tuple(front), back)


def settings(cards: Sequence[Card]) -> list[SetHand]:
    """All 21 ways to put two of seven cards in front, foul or not."""
    return [SetHand(pair, tuple(c for c in cards if c not in pair)) for pair in combinations(cards, 2)]


def legal_settings(cards: Sequence[Card], wheel: str = "lowest") -> list[SetHand]:
    """The settings that are not foul (there is always at least one)."""
    return [s for s in settings(cards) if foul_reason(s.front, s.back, wheel) is None]


class Outcome(enum.Enum):
    """A player's result against the player-dealer: win both, one each, or not."""

    WIN = "win"
    PUSH = "push"
    LOSE = "lose"


@dataclass(frozen=True, slots=True)
class Comparison:
    """Front against front and back against back: ``win``, ``lose`` or ``copy`` (the player-dealer's)."""

    front: str
    back: str

    @property
    def outcome(self) -> Outcome:
        """Seed "Object of the Game": both higher wins, one each pushes, copies go to the player-dealer."""
        wins = (self.front == "win") + (self.back == "win")
        return (Outcome.LOSE, Outcome.PUSH, Outcome.WIN)[wins]


def _one(player: int, dealer: int) -> str:
    return "win" if player > dealer else "lose" if player < dealer else "copy"


def compare(player: SetHand, dealer: SetHand, wheel: str = "lowest") -> Comparison:
    """Compare a player's set hand with the player-dealer's."""
    return Comparison(
        front=_one(front_value(player.front), front_value(dealer.front)),
        back=_one(back_value(player.back, wheel), back_value(dealer.back, wheel)),
    )
