"""The card vocabulary every part of tablectl speaks.

A card is written as two characters: its rank (``A K Q J T 9 8 7 6 5 4 3 2``)
then its suit (``S H D C``), so ``AS`` is the ace of spades and ``TD`` the ten
of diamonds. The joker is ``JK``. Pure 21.5 Blackjack's Bonus cards are suited
``B``: ``KB``, ``QB``, ``JB`` and ``TB``.

Cards are interned: every ``Card`` for a given code is the same object, so
they are cheap to compare, hash and keep in sets.

>>> Card.parse("AS")
Card('AS')
>>> Card.parse("as") is Card.parse("AS")
True
>>> Card.parse("JK").is_joker
True
>>> len(standard_deck()), len(deck_with_joker()), len(no_face_deck())
(52, 53, 40)
>>> len(shoe(8)), len(shoe(2, jokers_per_deck=1))
(416, 106)
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from typing import ClassVar

__all__ = [
    "Rank",
    "Suit",
    "Card",
    "UnknownCard",
    "JOKER",
    "card_named",
    "parse_cards",
    "standard_deck",
    "deck_with_joker",
    "no_face_deck",
    "pure_21_5_deck",
    "shoe",
    "DECKS",
    "deck_by_name",
]


class UnknownCard(ValueError):
    """A card code that names no card of the vocabulary."""


class Rank(enum.IntEnum):
    """Card ranks, aces high. ``JOKER`` sorts above every natural rank."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    JOKER = 15

    @property
    def char(self) -> str:
        return _RANK_CHARS[self]

    @property
    def is_face(self) -> bool:
        """Jack, queen or king (the seeds' "face cards"; an ace is not one)."""
        return self in (Rank.JACK, Rank.QUEEN, Rank.KING)

    @classmethod
    def from_char(cls, char: str) -> Rank:
        try:
            return _CHAR_RANKS[char.upper()]
        except KeyError:
            raise UnknownCard(f"unknown rank {char!r}: expected one of {''.join(_CHAR_RANKS)}") from None


_RANK_CHARS = {
    Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5", Rank.SIX: "6",
    Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "T", Rank.JACK: "J",
    Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A", Rank.JOKER: "JK",
}
_CHAR_RANKS = {c: r for r, c in _RANK_CHARS.items() if r is not Rank.JOKER}


class Suit(enum.Enum):
    """The four suits, plus the Bonus marking of Pure 21.5 and the joker's none."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    BONUS = "B"
    NONE = "-"

    @property
    def char(self) -> str:
        return self.value


NATURAL_SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
NATURAL_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)


class Card:
    """One playing card. Immutable, hashable and interned (see module doc)."""

    __slots__ = ("rank", "suit", "code", "index")
    _interned: ClassVar[dict[str, Card]] = {}

    rank: Rank
    suit: Suit
    code: str
    index: int

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        code = _code(rank, suit)
        card = cls._interned.get(code)
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "code", code)
            object.__setattr__(card, "index", len(cls._interned))
            cls._interned[code] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return (self.rank, self.suit.value) < (other.rank, other.suit.value)

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @property
    def is_bonus(self) -> bool:
        return self.suit is Suit.BONUS

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card a two-character code names; ``UnknownCard`` names what is wrong."""
        if not isinstance(code, str):
            raise UnknownCard(f"card code must be a string, not {type(code).__name__}")
        text = code.strip().upper()
        card = cls._interned.get(text)
        if card is not None:
            return card
        if len(text) != 2:
            raise UnknownCard(f"unknown card {code!r}: a card is two characters, e.g. AS, TD or JK")
        rank = Rank.from_char(text[0])
        try:
            suit = Suit(text[1])
        except ValueError:
            raise UnknownCard(f"unknown card {code!r}: suit must be one of S H D C (or B for Bonus)") from None
        if suit is Suit.NONE:
            raise UnknownCard(f"unknown card {code!r}: suit must be one of S H D C (or B for Bonus)")
        if suit is Suit.BONUS and rank not in BONUS_RANKS:
            raise UnknownCard(f"unknown card {code!r}: Bonus cards are KB, QB, JB and TB")
        return cls(rank, suit)


def _code(rank: Rank, suit: Suit) -> str:
    if rank is Rank.JOKER:
        return "JK"
    return rank.char + suit.char


BONUS_RANKS: tuple[Rank, ...] = (Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)
JOKER = Card(Rank.JOKER, Suit.NONE)
for _suit in NATURAL_SUITS:
    for _rank in NATURAL_RANKS:
        Card(_rank, _suit)
for _rank in BONUS_RANKS:
    Card(_rank, Suit.BONUS)


_RANK_WORDS = {"ace": "A", "king": "K", "queen": "Q", "jack": "J", "ten": "T", "10": "T", "nine": "9", "eight": "8",
               "seven": "7", "six": "6", "five": "5", "four": "4", "three": "3", "two": "2", "deuce": "2"}
_SUIT_WORDS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}


def card_named(name: str) -> Card:
    """The card a file or a label names, as people and image sets name cards: its code (``AS``, ``td``), ``10`` for
    the ten (``10S``), or in words (``ace_of_spades``, ``10_of_hearts``, ``Queen of Clubs``, ``joker``,
    ``red_joker``); ``UnknownCard`` says what is wrong."""
    text = name.strip()
    words = text.lower().replace("-", "_").replace(" ", "_").split("_")
    if words and words[-1] == "joker" and len(words) <= 2:
        return JOKER
    if len(words) == 3 and words[1] == "of" and words[0] in _RANK_WORDS and words[2] in _SUIT_WORDS:
        return Card.parse(_RANK_WORDS[words[0]] + _SUIT_WORDS[words[2]])
    if len(text) == 3 and text.startswith("10"):
        text = "T" + text[2]
    try:
        return Card.parse(text)
    except UnknownCard:
        raise UnknownCard(f"unknown card {name!r}: name a card by its code (AS, TD, JK), with 10 for the ten (10D), "
                          "or in words (ace_of_spades, 10_of_hearts, joker)") from None


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from ``"AS KD JK"`` (spaces or commas) or from an iterable of codes."""
    codes = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(c) for c in codes]


def standard_deck() -> tuple[Card, ...]:
    """The 52-card deck, spades then hearts, diamonds, clubs; aces high within each."""
    return tuple(Card(r, s) for s in NATURAL_SUITS for r in NATURAL_RANKS)


def deck_with_joker() -> tuple[Card, ...]:
    """52 cards and one joker (pai gow poker, lowball, Omaha with joker)."""
    return standard_deck() + (JOKER,)


def no_face_deck() -> tuple[Card, ...]:
    """Two Cards High: one deck with all face cards removed, 40 cards."""
    return tuple(c for c in standard_deck() if not c.rank.is_face)


def pure_21_5_deck() -> tuple[Card, ...]:
    """Pure 21.5 Blackjack: aces through nines of each suit and sixteen Bonus cards."""
    low = tuple(c for c in standard_deck() if c.rank is Rank.ACE or c.rank <= Rank.NINE)
    bonus = tuple(Card(r, Suit.BONUS) for r in BONUS_RANKS for _ in range(4))
    return low + bonus


_SINGLE_DECKS = {
    "standard": standard_deck,
    "standard+joker": deck_with_joker,
    "no-face": no_face_deck,
    "pure-21.5": pure_21_5_deck,
}


def shoe(decks: int, *, jokers_per_deck: int = 0, kind: str = "standard") -> tuple[Card, ...]:
    """``decks`` copies of a deck kind, with ``jokers_per_deck`` jokers added per deck."""
    if not 1 <= decks <= 8:
        raise ValueError(f"a shoe holds 1 to 8 decks, not {decks}")
    if jokers_per_deck not in (0, 1):
        raise ValueError(f"jokers per deck must be 0 or 1, not {jokers_per_deck}")
    one = deck_by_name(kind)
    return (one + (JOKER,) * jokers_per_deck) * decks


DECKS: tuple[str, ...] = tuple(_SINGLE_DECKS)


def deck_by_name(name: str) -> tuple[Card, ...]:
    """One deck by its config name: ``standard``, ``standard+joker``, ``no-face``, ``pure-21.5``."""
    try:
        return _SINGLE_DECKS[name]()
    except KeyError:
        raise UnknownCard(f"unknown deck {name!r}: expected one of {', '.join(_SINGLE_DECKS)}") from None


def composition(cards: Iterable[Card]) -> Counter[Card]:
    """How many of each card: the multiset a shoe's math is computed from."""
    return Counter(cards)
