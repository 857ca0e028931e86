"""How a simulated device orders its cards: a true shuffle, or one of the bad shufflers met in the field.

Each order generator is a pure function of the order before it and of a
seeded ``random.Random``; ``ShuffleModel`` chains them shoe after shoe for a
simulator, so that shoe ``k`` of a device with seed ``s`` is always the same.
A model is named in a simulator's options by a short text:

==================  ===========================================================
``random``          a uniformly random order (the default)
``factory``         the deck's factory order, every time (pre-shuffled decks that were not)
``previous``        the previous shoe's order again (the discards loaded unshuffled)
``shelf:N``         one pass of an N-shelf shelf shuffler over the previous order
``riffles:K``       K Gilbert-Shannon-Reeds riffles of the previous order (K = 1..7 and more)
``clump:M``         a true shuffle except M consecutive cards of the previous order left in place
``removed``         a true shuffle of the deck with one card missing
``added``           a true shuffle of the deck with one card too many (a second copy of one card)
``repeat:R``        a true shuffle, but the device restarts every R shoes and deals the same orders again
==================  ===========================================================

The first shoe's "previous order" is the factory order, as for a new deck.

>>> model = ShuffleModel.parse("riffles:1", tuple(range(10)), seed=4)
>>> first = model.order(1)
>>> sorted(first) == list(range(10))
True
>>> rising_sequences(first, tuple(range(10))) <= 2
True
>>> ShuffleModel.parse("shelves:3", (1, 2), seed=1)
Traceback (most recent call last):
...
ValueError: unknown shuffle 'shelves:3': expected one of random, factory, previous, shelf:N, riffles:K, clump:M, removed, added, repeat:R
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")

KINDS: dict[str, bool] = {  # name -> takes a number
    "random": False,
    "factory": False,
    "previous": False,
    "shelf": True,
    "riffles": True,
    "clump": True,
    "removed": False,
    "added": False,
    "repeat": True,
}


def usage() -> str:
    """The model names, as a person types them."""
    names = {"shelf": "shelf:N", "riffles": "riffles:K", "clump": "clump:M", "repeat": "repeat:R"}
    return ", ".join(names.get(k, k) for k in KINDS)


def true_shuffle(cards: Sequence[T], rng: random.Random) -> list[T]:
    """A uniformly random order of ``cards``."""
    out = list(cards)
    rng.shuffle(out)
    return out


def riffle(cards: Sequence[T], rng: random.Random) -> list[T]:
    """One Gilbert-Shannon-Reeds riffle: a binomial cut, then cards drop from each packet in proportion to its size."""
    n = len(cards)
    cut = sum(rng.random() < 0.5 for _ in range(n))
    left, right = list(cards[:cut]), list(cards[cut:])
    out: list[T] = []
    i = j = 0
    while i < len(left) or j < len(right):
        a, b = len(left) - i, len(right) - j
        if rng.random() * (a + b) < a:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out


def riffles(cards: Sequence[T], k: int, rng: random.Random) -> list[T]:
    """``k`` GSR riffles in a row."""
    out = list(cards)
    for _ in range(k):
        out = riffle(out, rng)
    return out


def shelf_shuffle(cards: Sequence[T], shelves: int, rng: random.Random) -> list[T]:
    """One pass of a shelf shuffler (Diaconis, Fulman and Holmes 2013).

    Each card in turn goes to a random shelf, on top of or under the cards
    already there (even chances); the shelves are then unloaded one after the
    other. Every shelf reads as a valley of the input order: falling, then rising.
    """
    stacks: list[list[T]] = [[] for _ in range(shelves)]
    for card in cards:
        stack = stacks[rng.randrange(shelves)]
        if rng.random() < 0.5:
            stack.insert(0, card)
        else:
            stack.append(card)
    return [card for stack in stacks for card in stack]


def clump_left(previous: Sequence[T], m: int, rng: random.Random) -> list[T]:
    """A true shuffle, except that ``m`` consecutive cards of ``previous`` keep their places."""
    m = min(m, len(previous))
    start = rng.randrange(len(previous) - m + 1)
    rest = list(previous[:start]) + list(previous[start + m :])
    rng.shuffle(rest)
    return rest[:start] + list(previous[start : start + m]) + rest[start:]


def rising_sequences(order: Sequence[T], reference: Sequence[T]) -> int:
    """Bayer and Diaconis's rising sequences of ``order`` read against ``reference`` (distinct cards).

    >>> rising_sequences([1, 2, 3], [1, 2, 3]), rising_sequences([3, 2, 1], [1, 2, 3])
    (1, 3)
    """
    where = {card: i for i, card in enumerate(order)}
    return 1 + sum(where[reference[i + 1]] < where[reference[i]] for i in range(len(reference) - 1))


@dataclass
class ShuffleModel:
    """The orders one simulated device deals, shoe after shoe: ``order(k)`` for shuffle ``k`` (1, 2, ...).

    Pure in ``(kind, value, cards, seed, k)``: asking again for an earlier shoe replays the chain from the start.
    """

    kind: str
    value: int
    cards: tuple[object, ...]
    seed: int | None = None
    _last: tuple[int, list[object]] = field(default=(0, []), repr=False)

    @classmethod
    def parse(cls, text: str, cards: Sequence[object], seed: int | None = None) -> ShuffleModel:
        kind, _, number = text.strip().partition(":")
        takes = KINDS.get(kind)
        if takes is None or takes != bool(number):
            raise ValueError(f"unknown shuffle {text!r}: expected one of {usage()}")
        try:
            value = int(number) if number else 0
        except ValueError:
            raise ValueError(f"shuffle {text!r}: {number!r} is not a whole number") from None
        if takes and value < 1:
            raise ValueError(f"shuffle {text!r}: the number must be at least 1")
        return cls(kind, value, tuple(cards), seed)

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.value}" if KINDS[self.kind] else self.kind

    def _rng(self, k: int) -> random.Random:
        return random.Random(None if self.seed is None else f"{self.seed}:{k}")

    def order(self, k: int) -> list[object]:
        """The order dealt after shuffle ``k``."""
        if k < 1:
            raise ValueError(f"shuffles are numbered from 1, not {k}")
        if self.kind == "repeat":
            k = (k - 1) % self.value + 1
            return true_shuffle(self.cards, self._rng(k))
        done, order = self._last
        if done > k:
            done, order = 0, []
        while done < k:
            done += 1
            order = self._next(order if done > 1 else list(self.cards), self._rng(done))
        self._last = (done, order)
        return list(order)

    def _next(self, previous: list[object], rng: random.Random) -> list[object]:
        steps: dict[str, Callable[[], list[object]]] = {
            "random": lambda: true_shuffle(self.cards, rng),
            "factory": lambda: list(self.cards),
            "previous": lambda: list(previous),
            "shelf": lambda: shelf_shuffle(previous, self.value, rng),
            "riffles": lambda: riffles(previous, self.value, rng),
            "clump": lambda: clump_left(previous, self.value, rng),
            "removed": lambda: true_shuffle(self._changed_deck(), rng),
            "added": lambda: true_shuffle(self._changed_deck(), rng),
        }
        return steps[self.kind]()

    def _changed_deck(self) -> list[object]:
        """The deck with one card taken out (``removed``) or one card's second copy put in (``added``)."""
        deck = list(self.cards)
        which = random.Random(None if self.seed is None else f"{self.seed}:deck").randrange(len(deck))
        if self.kind == "removed":
            del deck[which]
        else:
            deck.insert(which, deck[which])
        return deck
