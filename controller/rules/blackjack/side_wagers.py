"""The Blackjack Bonus Bet and the Buster Blackjack Bonus Bet (seed 003, Casino Marysville), as data.

Both are settled by the player-dealer after the seat's base wager, win or lose
the base hand. The Bonus Bet is judged on the player's first two cards (and, for
its top row, on the player-dealer's first two); the Buster Bet on the number of
cards in the player-dealer's busted hand.

>>> from controller.cards import parse_cards
>>> bonus_bet_row(parse_cards("KS KS"), dealer_blackjack=True)
'pair of kings of spades beaten by a blackjack'
>>> bonus_bet_row(parse_cards("QH 9C"), dealer_blackjack=False)
'first card a picture'
>>> str(BUSTER_PAYTABLES["seed"].payout(9))
'100 to 1'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.cards import NATURAL_SUITS, Card, Rank
from controller.odds import LOSE, OddsError, Payout, parse_payout
from controller.rules.blackjack.totals import count_total

BONUS_ROWS: tuple[str, ...] = (
    "pair of kings of spades beaten by a blackjack",
    "pair of kings of spades",
    "two cards of the same rank and suit",
    "any two card suited 20",
    "any two card 20",
    "first card a picture",
)
"""Best first: a hand is paid on the first row it qualifies for, never on two."""

TWENTY_ONLY = "a 20 only"
ANY_IDENTICAL_PAIR = "any identical pair"
IDENTICAL_PAIR_READINGS: dict[str, str] = {
    TWENTY_ONLY: "'two cards of the same rank and suit' is a grade of a two-card 20 (the seed's example, "
                 "two tens of spades, is one): an identical pair of another total is not paid on that row",
    ANY_IDENTICAL_PAIR: "'two cards of the same rank and suit' pays any identical pair (two 7S, two AH, ...), "
                        "a 20 or not",
}
"""The two readings of the pay scale's "Any two cards of the same Rank & Suit" row (rules reading in docs/blackjack.md)."""


@dataclass(frozen=True, slots=True)
class BonusPaytable:
    """A Bonus Bet pay scale: a payout per row, and how it reads the same-rank-and-suit row."""

    name: str
    payouts: Mapping[str, Payout]
    identical_pair: str = TWENTY_ONLY

    @property
    def reading(self) -> str:
        return IDENTICAL_PAIR_READINGS[self.identical_pair]

    def row(self, first_two: Sequence[Card], *, dealer_blackjack: bool) -> str | None:
        return bonus_bet_row(first_two, dealer_blackjack=dealer_blackjack,
                             any_identical_pair=self.identical_pair == ANY_IDENTICAL_PAIR)


_SEED_SCALE: dict[str, Payout] = {
    # seed 003 "Blackjack Bonus Bet" item 7, the pay scale
    "pair of kings of spades beaten by a blackjack": parse_payout("500 to 1"),
    "pair of kings of spades": parse_payout("50 to 1"),
    "two cards of the same rank and suit": parse_payout("8 to 1"),
    "any two card suited 20": parse_payout("6 to 1"),
    "any two card 20": parse_payout("4 to 1"),
    "first card a picture": parse_payout("1 to 1"),
}

BONUS_PAYTABLES: dict[str, BonusPaytable] = {
    "seed": BonusPaytable("seed", _SEED_SCALE, TWENTY_ONLY),
    "seed-any-identical-pair": BonusPaytable("seed-any-identical-pair", _SEED_SCALE, ANY_IDENTICAL_PAIR),
}


KING_OF_SPADES = Card.parse("KS")


def _is_picture(card: Card) -> bool:
    """Jack, queen or king, Bonus pictures included (a ten is no picture)."""
    return card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING)


def _suited(cards: Sequence[Card]) -> bool:
    """Of one natural suit: Bonus cards are marked, not suited, so never count as suited."""
    return cards[0].suit in NATURAL_SUITS and all(c.suit is cards[0].suit for c in cards)


def bonus_bet_row(first_two: Sequence[Card], *, dealer_blackjack: bool, any_identical_pair: bool = False) -> str | None:
    """The pay-scale row the player's first two cards qualify for, or ``None``.

    The rows "suited 20" and "any two card 20" are grades of a two-card 20
    (ace-nine counts); a joker makes no 20. The "same rank and suit" row reads
    either way (:data:`IDENTICAL_PAIR_READINGS`): by default as a grade of a 20
    (the seed's example of it is "two 10's of Spades"), with
    ``any_identical_pair`` for any two identical cards.
    """
    if len(first_two) != 2:
        raise ValueError(f"the Bonus Bet is judged on two cards, not {len(first_two)}")
    a, b = first_two
    twenty = not a.is_joker and not b.is_joker and count_total(first_two).points == 20
    if twenty and a is KING_OF_SPADES and b is KING_OF_SPADES:
        return BONUS_ROWS[0] if dealer_blackjack else BONUS_ROWS[1]
    if a is b and not a.is_joker and _suited(first_two) and (twenty or any_identical_pair):
        return BONUS_ROWS[2]
    if twenty and _suited(first_two):
        return BONUS_ROWS[3]
    if twenty:
        return BONUS_ROWS[4]
    if _is_picture(a):
        return BONUS_ROWS[5]
    return None


def bonus_bet_payout(paytable: BonusPaytable, row: str | None) -> Payout:
    return LOSE if row is None else paytable.payouts[row]


@dataclass(frozen=True, slots=True)
class BusterPaytable:
    """Payouts by the number of cards in the player-dealer's busted hand; the top count means "or more"."""

    name: str
    by_cards: Mapping[int, Payout]

    def payout(self, cards: int) -> Payout:
        top = max(self.by_cards)
        return self.by_cards.get(min(cards, top), LOSE)

    def rows(self) -> dict[str, str]:
        top = max(self.by_cards)
        return {f"{n}{' or more' if n == top else ''} cards": p.text for n, p in sorted(self.by_cards.items())}


def buster_paytable(name: str, rows: Mapping[Any, Any]) -> BusterPaytable:
    """A Buster pay table from ``{cards: "N to 1"}``; raises ``ValueError`` naming a bad row."""
    by_cards = {}
    for key, wording in rows.items():
        try:
            cards = int(key)
        except (TypeError, ValueError):
            raise ValueError(f"Buster pay table {name!r}: {key!r} is not a number of cards") from None
        if cards < 3:
            raise ValueError(f"Buster pay table {name!r}: a busted hand has at least 3 cards, not {cards}")
        try:
            by_cards[cards] = parse_payout(str(wording))
        except OddsError as exc:
            raise ValueError(f"Buster pay table {name!r}, {cards} cards: {exc}") from None
    if not by_cards:
        raise ValueError(f"Buster pay table {name!r} has no rows")
    return BusterPaytable(name, by_cards)


BUSTER_PAYTABLES: dict[str, BusterPaytable] = {
    # seed 003 "Buster Blackjack Bonus Bet Pay Table" (all payouts "to 1")
    "seed": buster_paytable("seed", {3: "1 to 1", 4: "2 to 1", 5: "4 to 1", 6: "10 to 1", 7: "40 to 1",
                                     8: "100 to 1"}),
}
