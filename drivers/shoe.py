"""The dealing shoe as the round engine sees it: a source of card events.

The table asks the shoe to shuffle and then takes events from it one by one:
each card drawn (with the running count), the cut card coming out, and the shoe
running empty. A shoe driving real hardware also reports burn cards, device
faults (the round goes to ``hold``) and the recovery from them. Anything that
implements ``Shoe`` can stand behind a table: the in-process simulator below,
or a driver speaking a wire protocol to real hardware (or to a simulator on a
pseudo-terminal, see ``drivers.reference.shoe``).
"""

from __future__ import annotations

import abc
import random
from dataclasses import dataclass

from controller.cards import Card, shoe as make_shoe
from drivers.errors import DeviceTimeout
from drivers.notices import DeviceFault, DeviceRecovered, DeviceWarning
from drivers.shuffles import ShuffleModel

__all__ = ["CardBurned", "CardDrawn", "CardUnreadable", "CutCardReached", "DeviceFault", "DeviceRecovered",
           "DeviceWarning", "InProcessShoe", "Shoe", "ShoeEmpty", "ShoeEvent"]


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A card left the shoe. ``count`` is the number of cards drawn since the shuffle."""

    card: Card
    count: int


@dataclass(frozen=True, slots=True)
class CutCardReached:
    """The cut card came out: finish the round in progress, then reshuffle."""

    count: int


@dataclass(frozen=True, slots=True)
class ShoeEmpty:
    """No card is left in the shoe."""

    count: int


@dataclass(frozen=True, slots=True)
class CardBurned:
    """A card left the shoe face down to the discard rack: it counts but is dealt to no one."""

    card: Card
    count: int


@dataclass(frozen=True, slots=True)
class CardUnreadable:
    """A card left the shoe but could not be read (docs/protocol.md 5.3): one card, counted, dealt to no one
    until the supervisor identifies it. ``why`` says more when the shoe sent bytes that are not a card code."""

    count: int
    why: str = ""


ShoeEvent = (
    CardDrawn | CardBurned | CardUnreadable | CutCardReached | ShoeEmpty | DeviceFault | DeviceRecovered | DeviceWarning
)


class Shoe(abc.ABC):
    """A dealing shoe. ``shuffle`` starts a new shoe; ``next_event`` blocks for the next event."""

    @abc.abstractmethod
    def shuffle(self) -> None: ...

    @abc.abstractmethod
    def next_event(self, timeout: float | None = None, *, want_card: bool = True) -> ShoeEvent:
        """The next event, waiting at most ``timeout`` seconds (``DeviceTimeout`` after that).

        ``want_card``: the round needs a card, so a shoe with a gate may open it; ``False`` only listens (waiting
        for a fault to be cleared must never let a card out).
        """

    def counted(self) -> int | None:
        """How many cards the shoe counted at its last shuffle, if it tells (checked against the deck's size)."""
        return None

    def waiting_events(self) -> list[ShoeEvent]:
        """The events the shoe has already reported and not yet delivered, without waiting or opening the gate.

        Lets the table notice a fault between rounds. A shoe that makes its
        events only when asked (the in-process simulation) has none waiting.
        """
        return []

    def close_gate(self) -> None:  # noqa: B027 - optional: a shoe without a gate lets cards out at will
        """Let no further card out of the shoe."""

    def close(self) -> None:  # noqa: B027 - optional for shoes that hold nothing
        """Release the device."""


class InProcessShoe(Shoe):
    """A shoe simulated in this process: shuffles with a seeded RNG, places the cut card.

    ``cut_from_end`` is how many cards stay behind the cut card (one deck by default).
    ``shuffle`` names how it shuffles (``drivers.shuffles``): ``random``, or a bad shuffler such as ``riffles:2``.
    """

    def __init__(
        self,
        decks: int = 8,
        *,
        seed: int | None = None,
        cut_from_end: int = 52,
        jokers_per_deck: int = 0,
        kind: str = "standard",
        shuffle: str = "random",
    ) -> None:
        self._cards = make_shoe(decks, jokers_per_deck=jokers_per_deck, kind=kind)
        self._model = None if shuffle == "random" else ShuffleModel.parse(shuffle, self._cards, seed)
        self._shuffles = 0
        if not 0 <= cut_from_end < len(self._cards):
            raise ValueError(f"cut card position {cut_from_end} is outside a shoe of {len(self._cards)} cards")
        self._cut_from_end = cut_from_end
        self._rng = random.Random(seed)
        self._order: list[Card] = []
        self._drawn = 0
        self._cut_reported = False

    @property
    def size(self) -> int:
        return len(self._cards)

    def shuffle(self) -> None:
        self._shuffles += 1
        if self._model is None:
            self._order = list(self._cards)
            self._rng.shuffle(self._order)
        else:
            self._order = [card for card in self._model.order(self._shuffles) if isinstance(card, Card)]
        self._drawn = 0
        self._cut_reported = False

    def counted(self) -> int | None:
        return len(self._order) if self._order else None

    def next_event(self, timeout: float | None = None, *, want_card: bool = True) -> ShoeEvent:
        if not want_card:  # this shoe makes its events only when a card is wanted
            raise DeviceTimeout("the in-process shoe reports nothing on its own")
        cut_at = len(self._order) - self._cut_from_end
        if self._drawn >= cut_at and not self._cut_reported and self._order:
            self._cut_reported = True
            return CutCardReached(self._drawn)
        if self._drawn >= len(self._order):
            return ShoeEmpty(self._drawn)
        card = self._order[self._drawn]
        self._drawn += 1
        return CardDrawn(card, self._drawn)
