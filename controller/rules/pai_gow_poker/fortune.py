"""The Fortune Bonus and the Envy Bonus of Fortune Pai Gow Poker (seed 003, "BONUS BET PAYTABLE", FPG-04).

"The Fortune Bonus bet considers the best hand possible among the player's
seven cards" and pays by the posted table; a player who wagers at least the
Envy threshold ($5 in the betting scheme, $25 in the glossary; default $5)
also wins the Envy amount for every *other* player's hand of four of a kind or
better ("A player cannot win an Envy Bonus for their own or for the
player/dealer's hand").

A hand may hold two paying rows: three of a kind and a straight (the best
five cards are the straight, 2 to 1, but the three of a kind pays 3 to 1).
``overlap="higher-payout"`` (the default, rules-notes.md) pays the higher;
``overlap="best-hand"`` pays the row of the best five-card hand.

>>> from controller.cards import parse_cards
>>> PAYTABLES["FPG-04"].result(parse_cards("9S 9H 9D TC JS QH KD")).row
'three of a kind'
>>> PAYTABLES["FPG-04"].result(parse_cards("9S 9H 9D TC JS QH KD"), overlap="best-hand").row
'straight'
>>> PAYTABLES["FPG-04"].result(parse_cards("AS KS QS JS TS KH QH")).row
'royal flush + royal match'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from controller.cards import Card
from controller.money import Cents
from controller.odds import LOSE, Payout, parse_payout
from controller.rules.evaluators import evaluate, evaluate5
from controller.rules.evaluators.five_card import Category, category
from controller.rules.evaluators.high_card_flush import straight_flush_length

__all__ = ["ROWS", "OVERLAPS", "FortuneRow", "FortuneResult", "FortunePaytable", "PAYTABLES", "rows_held"]

SEVEN_SF = "7-card straight flush"
ROYAL_MATCH = "royal flush + royal match"
SEVEN_SF_JOKER = "7-card straight flush with joker"
THREE_PAIR = "three pair"
ROWS = (SEVEN_SF, ROYAL_MATCH, SEVEN_SF_JOKER, "five aces", "royal flush", "straight flush", "four of a kind",
        "full house", "flush", "straight", "three of a kind", THREE_PAIR)
"""The pay table's rows, best hand first (seed 003, Fortune Pai Gow Poker "hand rankings")."""
OVERLAPS = ("higher-payout", "best-hand")
_BY_CATEGORY = {Category.FIVE_ACES: "five aces", Category.ROYAL_FLUSH: "royal flush",
                Category.STRAIGHT_FLUSH: "straight flush", Category.FOUR_OF_A_KIND: "four of a kind",
                Category.FULL_HOUSE: "full house", Category.FLUSH: "flush", Category.STRAIGHT: "straight",
                Category.THREE_OF_A_KIND: "three of a kind"}
ACE = 14


def _rank(card: Card) -> int:
    return ACE if card.is_joker else int(card.rank)


def _seven_card_straight_flush(cards: Sequence[Card]) -> str | None:
    """Seven suited cards in a row, the ace high or low; the joker may fill a gap or extend the run."""
    if straight_flush_length(cards, joker=True) < 7:
        return None
    return SEVEN_SF_JOKER if any(c.is_joker for c in cards) else SEVEN_SF


def _royal_match(cards: Sequence[Card]) -> bool:
    """A royal flush in five cards and a suited king and queen in the other two."""
    for pair in combinations([c for c in cards if not c.is_joker], 2):
        if {int(c.rank) for c in pair} == {12, 13} and pair[0].suit is pair[1].suit:
            rest = [c for c in cards if c not in pair]
            if category(evaluate5(rest)) is Category.ROYAL_FLUSH:
                return True
    return False


def rows_held(cards: Sequence[Card]) -> set[str]:
    """Every pay-table row the seven cards make (the joker as an ace, or to complete a straight or flush)."""
    held = set()
    seven = _seven_card_straight_flush(cards)
    if seven:
        held.add(seven)
    if _royal_match(cards):
        held.add(ROYAL_MATCH)
    best = _BY_CATEGORY.get(category(evaluate(cards)))
    if best:
        held.add(best)
    counts = sorted(Counter(_rank(c) for c in cards).values(), reverse=True)
    if counts[0] >= 3:
        held.add("three of a kind")
    if counts[:4] == [2, 2, 2, 1]:
        held.add(THREE_PAIR)
    return held


@dataclass(frozen=True, slots=True)
class FortuneRow:
    name: str
    payout: Payout
    envy: Cents
    """The Envy amount per qualifying hand, in cents; 0 where the row pays no Envy."""


@dataclass(frozen=True, slots=True)
class FortuneResult:
    row: str | None
    payout: Payout
    envy: Cents
    """What this hand pays to every *other* player holding an Envy button."""


@dataclass(frozen=True)
class FortunePaytable:
    name: str
    rows: dict[str, FortuneRow]

    def result(self, cards: Sequence[Card], overlap: str = "higher-payout") -> FortuneResult:
        made = rows_held(cards)
        held = [self.rows[name] for name in ROWS if name in made and name in self.rows]
        if not held:
            return FortuneResult(None, LOSE, 0)
        if overlap == "higher-payout":
            paid = max(held, key=lambda r: r.payout.multiplier)
        elif overlap == "best-hand":
            paid = held[0]
        else:
            raise ValueError(f"unknown overlap rule {overlap!r}: expected one of {', '.join(OVERLAPS)}")
        return FortuneResult(paid.name, paid.payout, held[0].envy)


def _table(name: str, rows: Sequence[tuple[str, str, Cents]]) -> FortunePaytable:
    return FortunePaytable(name, {row: FortuneRow(row, parse_payout(pays), envy) for row, pays, envy in rows})


PAYTABLES: dict[str, FortunePaytable] = {
    "FPG-04": _table("FPG-04", [  # seed 003, "BONUS BET PAYTABLE", form FPG-04: Pays, Envy
        (SEVEN_SF, "5000 to 1", 100000),
        (ROYAL_MATCH, "1000 to 1", 25000),
        (SEVEN_SF_JOKER, "750 to 1", 10000),
        ("five aces", "250 to 1", 5000),
        ("royal flush", "100 to 1", 2500),
        ("straight flush", "50 to 1", 1000),
        ("four of a kind", "20 to 1", 500),
        ("full house", "5 to 1", 0),
        ("flush", "4 to 1", 0),
        ("three of a kind", "3 to 1", 0),
        ("straight", "2 to 1", 0),
        (THREE_PAIR, "push", 0),
    ]),
}
