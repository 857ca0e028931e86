"""Top 5 Poker's pay tables (seed 001, after rule 11), as data.

The card room picks one of three columns for the Ace or Face Community Card
wager and one of three for the 10's or Better wager (rules-notes: all six must
be selectable); a column is named by the house advantage the seed prints over
it. The Winning Bet payouts have one column.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.cards import Card, Rank
from controller.odds import LOSE, Payout, parse_payout
from controller.rules.evaluators import Category, category
from controller.rules.evaluators.five_card import unpack_ranks


@dataclass(frozen=True, slots=True)
class AceOrFaceColumn:
    """One column of the "Ace or Face Payouts": payout by the Community Card's rank."""

    name: str
    rows: dict[Rank, Payout]

    def payout(self, community: Card) -> Payout:
        return self.rows.get(community.rank, LOSE)


def _aof(name: str, queen: str, jack: str) -> AceOrFaceColumn:
    return AceOrFaceColumn(name, {Rank.ACE: parse_payout("4 to 1"), Rank.KING: parse_payout("2 to 1"),
                                  Rank.QUEEN: parse_payout(queen), Rank.JACK: parse_payout(jack)})


ACE_OR_FACE: dict[str, AceOrFaceColumn] = {
    "1.54%": _aof("1.54%", "8 to 5", "6 to 5"),
    "3.08%": _aof("3.08%", "8 to 5", "1 to 1"),
    "3.85%": _aof("3.85%", "3 to 2", "1 to 1"),
}

TENS_ROWS = ("royal flush", "straight flush", "four of a kind", "full house", "flush", "straight",
             "two pair or 3 of a kind", "pair 10's or better")
"""The rows of the "10's or Better Payouts", best first, as the seed words them."""


def tens_row(value: int) -> str | None:
    """The 10's or Better row a five-card hand value reaches, or ``None`` below a pair of tens."""
    cat = category(value)
    if cat in (Category.TWO_PAIR, Category.THREE_OF_A_KIND):
        return "two pair or 3 of a kind"
    if cat is Category.ONE_PAIR:
        return "pair 10's or better" if unpack_ranks(value)[0] >= Rank.TEN else None
    if cat is Category.HIGH_CARD:
        return None
    return cat.label


@dataclass(frozen=True, slots=True)
class TensColumn:
    """One column of the "10's or Better Payouts" (only the highest payout achieved is paid)."""

    name: str
    rows: dict[str, Payout]

    def payout(self, value: int) -> Payout:
        row = tens_row(value)
        return LOSE if row is None else self.rows[row]


def _tens(name: str, full_house: str, flush: str, straight: str) -> TensColumn:
    odds = ("250 to 1", "75 to 1", "25 to 1", full_house, flush, straight, "1 to 1", "1 to 1")
    return TensColumn(name, {row: parse_payout(text) for row, text in zip(TENS_ROWS, odds, strict=True)})


TENS_OR_BETTER: dict[str, TensColumn] = {
    "2.17%": _tens("2.17%", "15 to 1", "5 to 1", "3 to 1"),
    "3.18%": _tens("3.18%", "15 to 1", "4 to 1", "3 to 1"),
    "4.47%": _tens("4.47%", "10 to 1", "5 to 1", "4 to 1"),
}

WINNING_BET: dict[Category, Payout] = {
    Category.ROYAL_FLUSH: parse_payout("100 to 1"),
    Category.STRAIGHT_FLUSH: parse_payout("25 to 1"),
    Category.FOUR_OF_A_KIND: parse_payout("12 to 1"),
    Category.FULL_HOUSE: parse_payout("5 to 1"),
    Category.FLUSH: parse_payout("4 to 1"),
    Category.STRAIGHT: parse_payout("3 to 1"),
}
"""The "Winning Bet Payouts" (house advantage 3.02%); any other winning hand is paid 1 to 1."""

WINNING_HAND = parse_payout("1 to 1")


def winning_bet(value: int) -> Payout:
    """What a winning Bet is paid for the player's hand (only the highest payout achieved)."""
    return WINNING_BET.get(category(value), WINNING_HAND)
