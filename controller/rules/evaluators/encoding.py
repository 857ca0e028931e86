"""Checking evaluator input, and the integer card codes the batch (numpy) evaluators use.

Every evaluator takes ``Card`` objects from :mod:`controller.cards`. The batch
evaluators take numpy arrays of card codes instead, one row per hand:

* a natural card's code is ``4 * (rank - 2) + suit``, suits in the order
  spades, hearts, diamonds, clubs, so the deuce of spades is 0 and the ace of
  clubs is 51;
* the joker is 52.

>>> from controller.cards import parse_cards
>>> encode(parse_cards("2S AC JK")).tolist()
[0, 51, 52]
>>> [c.code for c in decode([0, 51, 52])]
['2S', 'AC', 'JK']
>>> check_hand(parse_cards("AS AS KD"), sizes=(3,), game="three card poker")
Traceback (most recent call last):
...
controller.rules.evaluators.encoding.InvalidHand: three card poker: card AS appears twice in AS AS KD
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from controller.cards import JOKER, NATURAL_SUITS, Card, Rank, Suit

__all__ = [
    "InvalidHand",
    "JOKER_CODE",
    "check_hand",
    "encode",
    "decode",
    "code_of",
    "card_of",
]

JOKER_CODE = 52
_SUIT_INDEX: dict[Suit, int] = {s: i for i, s in enumerate(NATURAL_SUITS)}


class InvalidHand(ValueError):
    """A hand an evaluator cannot rank: wrong size, a repeated card, a joker or card the game does not use."""


def code_of(card: Card) -> int:
    """The batch code of one card (see module doc)."""
    if card.is_joker:
        return JOKER_CODE
    try:
        return 4 * (int(card.rank) - 2) + _SUIT_INDEX[card.suit]
    except KeyError:
        raise InvalidHand(f"card {card} has no batch code: only the 52 natural cards and the joker") from None


_CARDS_BY_CODE: tuple[Card, ...] = tuple(
    Card(Rank(2 + code // 4), NATURAL_SUITS[code % 4]) for code in range(52)
) + (JOKER,)


def card_of(code: int) -> Card:
    """The card a batch code stands for."""
    if not 0 <= code <= JOKER_CODE:
        raise InvalidHand(f"card code {code} is outside 0..{JOKER_CODE}")
    return _CARDS_BY_CODE[code]


def encode(cards: Iterable[Card]) -> npt.NDArray[np.uint8]:
    """Batch codes of a hand, as a ``uint8`` array (stack rows of these for a batch)."""
    return np.array([code_of(c) for c in cards], dtype=np.uint8)


def decode(codes: Iterable[int]) -> tuple[Card, ...]:
    """The cards of a row of batch codes."""
    return tuple(card_of(int(c)) for c in codes)


def check_hand(
    cards: Sequence[Card],
    *,
    sizes: Iterable[int],
    game: str,
    jokers: int = 0,
    ranks: Iterable[Rank] | None = None,
) -> None:
    """Raise ``InvalidHand`` naming what is wrong unless ``cards`` is a hand the game can rank.

    ``sizes`` are the allowed hand sizes, ``jokers`` the most jokers allowed, and
    ``ranks`` (if given) the natural ranks the game's deck holds.
    """
    shown = " ".join(str(c) for c in cards)
    allowed = tuple(sizes)
    if len(cards) not in allowed:
        want = " or ".join(str(n) for n in allowed)
        raise InvalidHand(f"{game}: a hand has {want} cards, not {len(cards)} ({shown})")
    seen: set[Card] = set()
    joker_count = 0
    allowed_ranks = None if ranks is None else frozenset(ranks)
    for card in cards:
        if not isinstance(card, Card):
            raise InvalidHand(f"{game}: {card!r} is not a Card")
        if card.is_joker:
            joker_count += 1
            continue
        if card.suit not in _SUIT_INDEX:
            raise InvalidHand(f"{game}: card {card} is not a card of a standard deck")
        if allowed_ranks is not None and card.rank not in allowed_ranks:
            raise InvalidHand(f"{game}: card {card} is not in this game's deck")
        if card in seen:
            raise InvalidHand(f"{game}: card {card} appears twice in {shown}")
        seen.add(card)
    if joker_count > jokers:
        limit = "no joker" if jokers == 0 else f"at most {jokers} joker"
        raise InvalidHand(f"{game}: {limit} allowed, got {joker_count} in {shown}")
