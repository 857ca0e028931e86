"""The card shuffler as the round engine sees it.

A Shuffle Master style machine shuffles a deck, verifies the card count, and
dispenses hands in stacks (three for Three Card Poker, seven for pai gow),
reading each card's identity as it goes. Some games alternate two decks: one
is dealt while the machine shuffles the other.

Errors, each with a message for the dealer, each mixing in the builtin it resembles::

    ShufflerError (drivers.errors.DeviceError, a RuntimeError)
    ├── ShufflerJam
    ├── DoorOpen
    ├── CountMismatch (ValueError)       the deck does not hold the game's number of cards
    ├── ShufflerEmpty (IndexError)       fewer cards left than the stack asked for
    ├── DuplicateCard (ValueError)       one card read twice since the shuffle
    ├── RecognitionFailure (ValueError)  a card the reader could not identify
    ├── ShufflerNotReady                 e.g. dispensing before any shuffle
    ├── ShufflerRestarted                the machine restarted and lost its decks (docs/protocol.md 8.4)
    ├── DeckSizeMismatch (ValueError)    it holds one deck where the table needs two, or the other way round
    ├── StackUnknown                     a stack may be in the tray but its cards never reached the host
    └── ShufflerOffline (DeviceLost)     the machine does not answer or was unplugged
"""

from __future__ import annotations

import abc
import random

from controller.cards import Card, deck_by_name
from drivers.errors import DeviceError, DeviceLost
from drivers.notices import DeviceFault, DeviceRecovered, DeviceWarning
from drivers.shuffles import ShuffleModel


class ShufflerError(DeviceError):
    """A fault the shuffler reports (jam, door open, count mismatch, empty, ...).

    ``code`` is a stable slug for logs and the round engine; ``str(error)`` is
    the message for the dealer.
    """

    code = "shuffler-error"
    reported = False
    """The machine refused with the code of a fault it reported itself (10.1: open now, or reported and cleared
    while the refusal was on its way, 9.2): it ends when the machine reports it cleared, perhaps already done, and
    the command is then asked again (6.4), no supervisor needed."""


class ShufflerJam(ShufflerError):
    code = "jam"


class DoorOpen(ShufflerError):
    code = "door-open"


class CountMismatch(ShufflerError, ValueError):
    code = "count-mismatch"


class ShufflerEmpty(ShufflerError, IndexError):
    code = "empty"


class DuplicateCard(ShufflerError, ValueError):
    code = "duplicate-card"


class RecognitionFailure(ShufflerError, ValueError):
    code = "unrecognised-card"


class ShufflerNotReady(ShufflerError):
    code = "not-ready"


class ShufflerRestarted(ShufflerError):
    code = "device-restarted"


class DeckSizeMismatch(ShufflerError, ValueError):
    code = "deck-size"


class StackUnknown(ShufflerError):
    """A Dispense whose answer was lost or not understood: a stack may be in the tray (docs/protocol.md 9.5).

    ``cards`` holds what the machine sent, if it sent a stack that answered no command (4.2).
    """

    code = "stack-unknown"

    def __init__(self, message: str, cards: tuple[Card | None, ...] = ()) -> None:
        super().__init__(message)
        self.cards = cards


class ShufflerOffline(ShufflerError, DeviceLost):
    code = "communication-lost"


class Shuffler(abc.ABC):
    """A card shuffler that dispenses stacks of cards with their identities."""

    @abc.abstractmethod
    def shuffle(self) -> None:
        """Shuffle the loaded deck (for two-deck machines: the deck not being dealt)."""

    @abc.abstractmethod
    def verify_count(self) -> int:
        """Count the loaded deck; raises ``ShufflerError`` when it is not the configured size."""

    @abc.abstractmethod
    def dispense(self, n: int) -> tuple[Card | None, ...]:
        """Deliver the next stack of ``n`` cards, in the order they are dealt; ``None`` for a card the machine
        could not read (docs/protocol.md 6.5)."""

    def alternate(self) -> None:
        """Two-deck machines: deal from the deck just shuffled and take the other back to shuffle."""
        raise ShufflerNotReady("this shuffler holds one deck: there is no other deck to alternate to")

    def next_deck(self) -> int:
        """Make a freshly shuffled, counted deck the one dealt (docs/protocol.md 6.3); returns its count.

        A one-deck machine shuffles and counts its deck. ``ShufflerError`` if a step is refused; calling
        again goes on from the step that failed.
        """
        self.shuffle()
        return self.verify_count()

    def decks_in_turn(self) -> int:
        """How many decks the machine deals in turn: 1, or 2 on a two-deck machine (docs/protocol.md 6.1), as far
        as it has said so (by its first ``next_deck``). Each deck is shuffled from the order it was itself last
        dealt in, which is what the shuffle tests take as its previous order."""
        return 1

    def notices(self) -> list[DeviceFault | DeviceRecovered | DeviceWarning]:
        """What the machine reported on its own since the last call (faults, their clearing), without waiting."""
        return []

    def wait_cleared(self, timeout: float) -> bool:
        """Wait until the machine reports no fault (cleared at the machine); ``False`` on timeout."""
        return self.reported_fault() is None

    def reported_fault(self) -> str | None:
        """The fault the machine reports now (from what it last sent: no command, no waiting), or ``None``.

        Lets the table notice a fault between rounds; a shuffler that reports
        nothing on its own (the in-process simulation) has none.
        """
        return None

    def close(self) -> None:  # noqa: B027 - optional for shufflers that hold nothing
        """Release the device."""


class InProcessShuffler(Shuffler):
    """A shuffler simulated in this process, for unit tests of games.

    ``shuffle`` names how it shuffles (``drivers.shuffles``): ``random``, or a bad shuffler such as ``shelf:10``.
    """

    def __init__(self, deck: tuple[Card, ...], *, seed: int | None = None, shuffle: str = "random") -> None:
        self._deck = deck
        self._rng = random.Random(seed)
        self._model = None if shuffle == "random" else ShuffleModel.parse(shuffle, deck, seed)
        self._shuffles = 0
        self._order: list[Card] = list(deck)
        self._next = 0

    @classmethod
    def from_options(cls, deck: str = "standard", seed: int | None = None, shuffle: str = "random") -> InProcessShuffler:
        """The in-process shuffler as config names it: a deck kind (see ``controller.cards.DECKS``)."""
        return cls(deck_by_name(deck), seed=seed, shuffle=shuffle)

    def shuffle(self) -> None:
        self._shuffles += 1
        if self._model is None:
            self._order = list(self._deck)
            self._rng.shuffle(self._order)
        else:
            self._order = [card for card in self._model.order(self._shuffles) if isinstance(card, Card)]
        self._next = 0

    def verify_count(self) -> int:
        return len(self._order)

    def dispense(self, n: int) -> tuple[Card, ...]:
        if n < 1:
            raise ValueError(f"a stack holds at least one card, not {n}")
        if self._next + n > len(self._order):
            raise ShufflerEmpty(f"empty: {len(self._order) - self._next} cards left, {n} asked for")
        stack = tuple(self._order[self._next : self._next + n])
        self._next += n
        return stack
