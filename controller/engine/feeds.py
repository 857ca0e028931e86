"""Where a round's cards come from: a dealing shoe, or a shuffler's stacks.

A feed wraps a device and adds the table's procedure around it: when to
shuffle, how many cards to burn after a shuffle, what to do when the cut card
comes out. Table-level happenings (a shuffle, the cut card) are logged here.
"""

from __future__ import annotations

import abc
import random
import time
from collections.abc import Sequence
from typing import Any

from controller.cards import Card
from controller.engine.log import EventLog
from controller.engine.shuffle.watch import ShuffleWatch
from drivers.errors import DeviceTimeout
from drivers.shoe import CardBurned, CardDrawn, CutCardReached, DeviceFault, DeviceRecovered, Shoe, ShoeEmpty
from drivers.shuffler import Shuffler, ShufflerError


class FeedError(RuntimeError):
    """The device cannot give the card the round needs (shoe empty, shuffler fault)."""


class ShuffleHeld(FeedError):
    """The shoe or deck must not be dealt from: a shuffle test's hold, or its count is wrong (the reasons joined)."""


class NoCardYet(FeedError):
    """The shoe gave no card within the wait: at a real table, the dealer has not drawn it yet."""


class PieceRefused(ValueError):
    """A piece the dealer keyed in that the set does not hold, or holds no copy of left this round."""


class DeviceFaulted(FeedError):
    """The device reported a fault; ``code`` names it (``jam``, ``door-open``, ``link-lost``, ...)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


class CardFeed(abc.ABC):
    source: str

    @abc.abstractmethod
    def prepare_round(self, round_id: str) -> int:
        """Get ready for a round (shuffle if due); return how many cards the round must burn first."""

    @abc.abstractmethod
    def next_card(self, round_id: str) -> Any:
        """The next card (or tile) for the round."""

    def end_round(self, round_id: str) -> None:  # noqa: B027 - optional hook
        """The round is over."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the device behind the feed."""

    def wait_recovered(self, round_id: str, timeout: float) -> bool:
        """After ``DeviceFaulted``: wait until the device reports every open fault cleared. False if it does not."""
        return False

    def current_fault(self) -> str | None:
        """The fault the device reports now (after ``poll`` read what it sent), or ``None`` when it is ready:
        what a held table shows while it waits for a supervisor."""
        return None

    def poll(self, round_id: str | None) -> str | None:
        """A fault the device reported on its own (between rounds), without waiting or dealing; ``None`` if none."""
        return None

    def doubt(self) -> str | None:
        """Why the round must be held now (a shuffle test's hold since the last ask), once; ``None`` if nothing."""
        return None


class ShoeFeed(CardFeed):
    """An eight-deck shoe: shuffle at start and after the cut card, burn after each shuffle."""

    source = "shoe"

    def __init__(self, shoe: Shoe, log: EventLog, *, burn_after_shuffle: int = 1, timeout: float = 5.0,
                 watch: ShuffleWatch | None = None) -> None:
        self.shoe = shoe
        self.log = log
        self.watch = watch
        self.burn_after_shuffle = burn_after_shuffle
        self.timeout = timeout
        self.shuffle_due = True
        self.shuffles = 0
        self.open_faults: set[str] = set()
        self._held_back: list[Card] = []

    def close(self) -> None:
        if self.watch is not None:
            self.watch.shoe_ended(None)
        self.shoe.close()

    def wait_recovered(self, round_id: str, timeout: float) -> bool:
        """Read the shoe until each fault it reported is recovered; cards drawn meanwhile are kept, in order."""
        deadline = time.monotonic() + timeout
        while self.open_faults:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                card = self._handle(self.shoe.next_event(min(left, self.timeout)), round_id)
            except DeviceTimeout:
                continue
            except DeviceFaulted:
                continue
            if card is not None:
                self._held_back.append(card)
        return True

    def current_fault(self) -> str | None:
        return ", ".join(f"shoe fault ({code})" for code in sorted(self.open_faults)) or None

    def poll(self, round_id: str | None) -> str | None:
        """Read what the shoe already sent: a card drawn is kept for the round, the first fault is returned (and
        stays open until the shoe reports it recovered)."""
        fault = None
        for event in self.shoe.waiting_events():
            try:
                card = self._handle(event, round_id)
            except FeedError as exc:
                fault = fault or str(exc)
                continue
            if card is not None:
                self._held_back.append(card)
        return fault

    def prepare_round(self, round_id: str) -> int:
        if self.watch is not None and self.watch.reshuffle_due:
            self.shuffle_due = True
        if not self.shuffle_due:
            return 0
        held = self.watch.shoe_ended(round_id) if self.watch is not None else []
        self.shoe.shuffle()
        self.shuffles += 1
        self.shuffle_due = False
        self.log.emit("shoe_shuffled", round_id, shuffle=self.shuffles, burn=self.burn_after_shuffle)
        if self.watch is not None:
            held += self.watch.shoe_started(round_id, self.shoe.counted())
        if held:
            raise ShuffleHeld("; ".join(held))
        return self.burn_after_shuffle

    def doubt(self) -> str | None:
        return self.watch.doubt() if self.watch is not None else None

    def next_card(self, round_id: str) -> Card:
        if self._held_back:
            return self._held_back.pop(0)
        while True:
            try:
                event = self.shoe.next_event(self.timeout)
            except DeviceTimeout as exc:
                raise NoCardYet(f"the shoe gave no card: {exc}") from exc
            card = self._handle(event, round_id)
            if card is not None:
                return card

    def _handle(self, event: object, round_id: str | None) -> Card | None:
        """Log a shoe event; the card when it is one. Faults raise ``DeviceFaulted`` and stay open until recovered."""
        if isinstance(event, CardDrawn | CardBurned) and self.watch is not None:
            self.watch.card(event.card, round_id)
        if isinstance(event, CardDrawn):
            return event.card
        if isinstance(event, CutCardReached):
            self.shuffle_due = True
            self.log.emit("cut_card_reached", round_id, count=event.count)
        elif isinstance(event, ShoeEmpty):
            self.log.emit("shoe_empty", round_id, count=event.count)
            self.shuffle_due = True
            raise FeedError(f"the shoe is empty after {event.count} cards")
        elif isinstance(event, CardBurned):
            self.log.emit("shoe_card_burned", round_id, card=event.card.code, count=event.count)
        elif isinstance(event, DeviceFault):
            if event.code == "unrecognised-card" and self.watch is not None:
                self.watch.card(None, round_id)
            self.open_faults.add(event.code)
            self.log.emit("shoe_fault", round_id, code=event.code, message=event.message)
            raise DeviceFaulted(event.code, f"shoe fault ({event.code}): {event.message}")
        elif isinstance(event, DeviceRecovered):
            self.open_faults.discard(event.code)
            self.log.emit("shoe_recovered", round_id, code=event.code, message=event.message)
        else:
            raise FeedError(f"unexpected shoe event {event!r}")
        return None


class DealerEntryFeed(CardFeed):
    """Pieces the dealer enters by hand (Pai Gow Tiles: no tile shuffler or shoe exists).

    Simulated here by a seeded shuffle of the whole set each round; at a real
    table the dealer keys each tile in from the console (``keyed``).
    """

    source = "dealer"

    def __init__(self, pieces: tuple[Any, ...], log: EventLog, *, seed: int | None = None) -> None:
        self.pieces = pieces
        self.log = log
        self.rng = random.Random(seed)
        self._order: list[Any] = []

    def prepare_round(self, round_id: str) -> int:
        self._order = list(self.pieces)
        self.rng.shuffle(self._order)
        self.log.emit("pieces_washed", round_id, count=len(self._order))
        return 0

    def next_card(self, round_id: str) -> Any:
        if not self._order:
            raise FeedError("every piece of the set is already dealt")
        return self._order.pop(0)

    def keyed(self, code: str, dealt: Sequence[Any]) -> Any:
        """The piece the dealer keyed in as ``code``, checked against the set and the pieces already ``dealt``.

        Raises ``PieceRefused`` (or the piece type's own parse error) naming what is wrong.
        """
        piece = type(self.pieces[0]).parse(code)
        copies = sum(1 for p in self.pieces if p == piece)
        if not copies:
            raise PieceRefused(f"{piece} is not in this game's set")
        used = sum(1 for p in dealt if p == piece)
        if used >= copies:
            held = "it is" if copies == 1 else f"all {copies} are"
            raise PieceRefused(f"{piece} is already dealt this round: the set holds {copies} and {held} out")
        return piece

    def left(self, dealt: Sequence[Any]) -> list[tuple[Any, int]]:
        """Each distinct piece of the set, in set order, with the copies not yet ``dealt`` this round."""
        counts: dict[Any, int] = {}
        for piece in self.pieces:
            counts[piece] = counts.get(piece, 0) + 1
        for piece in dealt:
            if piece in counts:
                counts[piece] -= 1
        return list(counts.items())


class ShufflerFeed(CardFeed):
    """A shuffler dealing one freshly shuffled deck per round, in stacks of ``stack_size``."""

    source = "shuffler"

    def __init__(self, shuffler: Shuffler, log: EventLog, *, stack_size: int, watch: ShuffleWatch | None = None) -> None:
        self.shuffler = shuffler
        self.log = log
        self.watch = watch
        self.stack_size = stack_size
        self._stack: list[Card] = []

    def close(self) -> None:
        if self.watch is not None:
            self.watch.shoe_ended(None)
        self.shuffler.close()

    def poll(self, round_id: str | None) -> str | None:
        return self.shuffler.reported_fault()

    def current_fault(self) -> str | None:
        return self.shuffler.reported_fault()

    def prepare_round(self, round_id: str) -> int:
        held = self.watch.shoe_ended(round_id) if self.watch is not None else []
        self.shuffler.shuffle()
        count = self.shuffler.verify_count()
        self._stack = []
        self.log.emit("shuffler_shuffled", round_id, count=count)
        if self.watch is not None:
            held += self.watch.shoe_started(round_id, count)
        if held:
            raise ShuffleHeld("; ".join(held))
        return 0

    def doubt(self) -> str | None:
        return self.watch.doubt() if self.watch is not None else None

    def next_card(self, round_id: str) -> Card:
        if not self._stack:
            try:
                self._stack = list(self.shuffler.dispense(self.stack_size))
            except ShufflerError as exc:
                self.log.emit("shuffler_fault", round_id, code=exc.code, message=str(exc))
                raise FeedError(str(exc)) from exc
            self.log.emit("stack_dispensed", round_id, cards=[c.code for c in self._stack])
            if self.watch is not None:
                for card in self._stack:
                    self.watch.card(card, round_id)
        return self._stack.pop(0)
