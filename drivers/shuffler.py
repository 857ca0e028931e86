"""The card shuffler as the round engine sees it.

A Shuffle Master style machine shuffles a deck, verifies the card count, and
dispenses hands in stacks (three for Three Card Poker, seven for pai gow),
reading each card's identity as it goes. Some games alternate two decks: one
is dealt while the machine shuffles the other.
"""

from __future__ import annotations

import abc
import random

from controller.cards import Card


class ShufflerError(RuntimeError):
    """A fault the shuffler reports (jam, door open, count mismatch, empty, ...)."""


class Shuffler(abc.ABC):
    """A card shuffler that dispenses stacks of cards with their identities."""

    @abc.abstractmethod
    def shuffle(self) -> None:
        """Shuffle the loaded deck (for two-deck machines: the deck not being dealt)."""

    @abc.abstractmethod
    def verify_count(self) -> int:
        """Count the loaded deck; raises ``ShufflerError`` when it is not the configured size."""

    @abc.abstractmethod
    def dispense(self, n: int) -> tuple[Card, ...]:
        """Deliver the next stack of ``n`` cards, in the order they are dealt."""

    def close(self) -> None:  # noqa: B027 - optional for shufflers that hold nothing
        """Release the device."""


class InProcessShuffler(Shuffler):
    """A shuffler simulated in this process, for unit tests of games."""

    def __init__(self, deck: tuple[Card, ...], *, seed: int | None = None) -> None:
        self._deck = deck
        self._rng = random.Random(seed)
        self._order: list[Card] = list(deck)
        self._next = 0

    def shuffle(self) -> None:
        self._order = list(self._deck)
        self._rng.shuffle(self._order)
        self._next = 0

    def verify_count(self) -> int:
        return len(self._order)

    def dispense(self, n: int) -> tuple[Card, ...]:
        if n < 1:
            raise ValueError(f"a stack holds at least one card, not {n}")
        if self._next + n > len(self._order):
            raise ShufflerError(f"empty: {len(self._order) - self._next} cards left, {n} asked for")
        stack = tuple(self._order[self._next : self._next + n])
        self._next += n
        return stack
