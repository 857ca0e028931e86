"""The card shuffler over the reference protocol, as a ``drivers.shuffler.Shuffler``.

Every error the machine reports becomes the matching ``ShufflerError``
subclass whose text tells the dealer what to do; a machine that stops
answering raises ``ShufflerOffline`` while the session reconnects behind it.
The driver also checks what the machine does not: the count against the
game's deck, and every dispensed card against the deck's composition (a card
dealt more often than the deck holds it is a ``DuplicateCard``).

Two-deck machines: ``shuffle()`` shuffles the deck not being dealt and
``alternate()`` swaps the decks, so a round goes ``dispense``... then
``alternate(); shuffle()`` while the next round is dealt. Before the first
round: ``shuffle(); alternate(); shuffle()``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from controller.cards import Card, deck_by_name
from drivers.errors import DeviceError, DeviceLost, DeviceTimeout
from drivers.protocol import messages as m
from drivers.protocol.link import ACK_TIMEOUT, RETRIES
from drivers.reference.session import HEARTBEAT, REPLY_TIMEOUT, DeviceIdentity, Expected, Session, Timing
from drivers.shuffler import (
    CountMismatch,
    DoorOpen,
    DuplicateCard,
    RecognitionFailure,
    Shuffler,
    ShufflerEmpty,
    ShufflerError,
    ShufflerJam,
    ShufflerNotReady,
    ShufflerOffline,
)
from drivers.transport import Transport
from drivers.transport.serial import SerialTransport

log = logging.getLogger("drivers.shuffler")

SHUFFLE_TIMEOUT = 60.0
ERRORS: dict[m.Code, type[ShufflerError]] = {
    m.Code.JAM: ShufflerJam,
    m.Code.DOOR_OPEN: DoorOpen,
    m.Code.COUNT_MISMATCH: CountMismatch,
    m.Code.EMPTY: ShufflerEmpty,
    m.Code.DUPLICATE_CARD: DuplicateCard,
    m.Code.UNRECOGNISED_CARD: RecognitionFailure,
    m.Code.NOT_READY: ShufflerNotReady,
}


def error_for(code: m.Code, doing: str) -> ShufflerError:
    """The exception for a code the machine answered ``doing`` with."""
    return ERRORS.get(code, ShufflerError)(f"shuffler could not {doing}: {code.dealer_message}")


class ReferenceShuffler(Shuffler):
    """A shuffler speaking the reference protocol over any transport."""

    def __init__(
        self,
        open_transport: Callable[[], Transport],
        *,
        deck: str | tuple[Card, ...] = "standard",
        decks: int = 1,
        expected: Expected = Expected(),
        timing: Timing = Timing(),
    ) -> None:
        self.deck = deck_by_name(deck) if isinstance(deck, str) else deck
        self.deck_name = deck if isinstance(deck, str) else f"{len(deck)}-card"
        self.decks = decks
        self._composition = Counter(self.deck)
        self._dealt: Counter[Card] = Counter()
        self._fault_lock = threading.Lock()
        self.fault: m.Code | None = None
        self.session = Session(
            open_transport, m.DeviceKind.SHUFFLER, expected=expected, on_event=self._on_event, timing=timing
        )
        self.session.open()
        try:
            status = self.status()
        except DeviceError:
            self.session.close()
            raise
        self.fault = status.fault if status.state is m.State.FAULT else None

    @classmethod
    def over_serial(
        cls,
        port: str,
        *,
        baudrate: int = 115200,
        expected_model: str | None = None,
        expected_serial: str | None = None,
        expected_firmware: str | None = None,
        deck: str | tuple[Card, ...] = "standard",
        decks: int = 1,
        heartbeat: float = HEARTBEAT,
        ack_timeout: float = ACK_TIMEOUT,
        retries: int = RETRIES,
        reply_timeout: float = REPLY_TIMEOUT,
    ) -> ReferenceShuffler:
        """The shuffler at ``port`` (a device path, ``/dev/serial/by-id/...``, ``socket://host:port``)."""
        return cls(
            lambda: SerialTransport(port, baudrate=baudrate),
            expected=Expected(expected_model, expected_serial, expected_firmware),
            deck=deck, decks=decks, timing=Timing(heartbeat, ack_timeout, retries, reply_timeout),
        )

    @classmethod
    def over_usb(
        cls,
        vendor_id: int,
        product_id: int,
        *,
        serial: str | None = None,
        backend: Any = None,
        expected_model: str | None = None,
        expected_firmware: str | None = None,
        deck: str | tuple[Card, ...] = "standard",
        decks: int = 1,
        heartbeat: float = HEARTBEAT,
        ack_timeout: float = ACK_TIMEOUT,
        retries: int = RETRIES,
        reply_timeout: float = REPLY_TIMEOUT,
    ) -> ReferenceShuffler:
        """The USB shuffler with these ids (and serial number, also checked in its identity)."""
        from drivers.transport.usb import UsbTransport

        return cls(
            lambda: UsbTransport(vendor_id, product_id, serial, backend=backend),
            expected=Expected(expected_model, serial, expected_firmware),
            deck=deck, decks=decks, timing=Timing(heartbeat, ack_timeout, retries, reply_timeout),
        )

    @property
    def identity(self) -> DeviceIdentity:
        assert self.session.identity is not None
        return self.session.identity

    def status(self) -> m.Status:
        try:
            return self.session.status()
        except (DeviceLost, DeviceTimeout) as exc:
            raise ShufflerOffline(f"shuffler is not answering ({exc}): check its cable and power") from exc

    def wait_ready(self, timeout: float) -> bool:
        """Wait until the machine reports no fault (the dealer cleared it); ``False`` on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if self.status().state is m.State.READY:
                    return True
            except ShufflerOffline:
                pass
            time.sleep(0.05)
        return False

    def shuffle(self) -> None:
        self._result(m.Shuffle(), "shuffle", SHUFFLE_TIMEOUT)
        if self.decks == 1:
            self._dealt.clear()

    def verify_count(self) -> int:
        counted = self._result(m.Verify(), "count the deck", None).value
        if counted != len(self.deck):
            raise CountMismatch(
                f"shuffler counted {counted} cards but a {self.deck_name} deck holds {len(self.deck)}: "
                f"{m.Code.COUNT_MISMATCH.dealer_message}"
            )
        return counted

    def alternate(self) -> None:
        self._result(m.Alternate(), "alternate the decks", None)
        self._dealt.clear()

    def dispense(self, n: int) -> tuple[Card, ...]:
        if not 1 <= n <= 99:
            raise ValueError(f"a stack holds 1 to 99 cards, not {n}")
        reply = self._request(m.Dispense(n), None)
        if isinstance(reply, m.Result):
            raise error_for(reply.code, f"dispense {n} cards")
        if not isinstance(reply, m.Stack) or len(reply.cards) != n:
            raise ShufflerError(f"shuffler answered a {n}-card dispense with {reply!r}: call technical support")
        if any(card is None for card in reply.cards):
            raise RecognitionFailure(f"shuffler dispensed a card it could not read: {m.Code.UNRECOGNISED_CARD.dealer_message}")
        cards: tuple[Card, ...] = reply.cards  # type: ignore[assignment]
        self._check_duplicates(cards)
        return cards

    def reported_fault(self) -> str | None:
        if not self.session.connected:
            return "shuffler is not answering: check its cable and power"
        with self._fault_lock:
            fault = self.fault
        return None if fault is None else f"shuffler fault ({fault.slug}): {fault.dealer_message}"

    def close(self) -> None:
        self.session.close()

    def _check_duplicates(self, cards: tuple[Card, ...]) -> None:
        self._dealt.update(cards)
        over = [c for c in set(cards) if self._dealt[c] > self._composition[c]]
        if over:
            names = ", ".join(sorted(c.code for c in over))
            raise DuplicateCard(f"shuffler dealt {names} more often than the deck holds: {m.Code.DUPLICATE_CARD.dealer_message}")

    def _request(self, command: m.Command, timeout: float | None) -> m.Message:
        try:
            return self.session.request(command, timeout)
        except (DeviceLost, DeviceTimeout) as exc:
            raise ShufflerOffline(f"shuffler is not answering ({exc}): check its cable and power") from exc

    def _result(self, command: m.Command, doing: str, timeout: float | None) -> m.Result:
        reply = self._request(command, timeout)
        if not isinstance(reply, m.Result):
            raise ShufflerError(f"shuffler answered {doing} with {type(reply).__name__}: call technical support")
        if reply.code is not m.Code.OK:
            raise error_for(reply.code, doing)
        return reply

    def _on_event(self, ev: m.Event) -> None:
        with self._fault_lock:
            if ev.type is m.EventType.FAULT:
                self.fault = ev.code
                log.warning("shuffler fault %s: %s", ev.code.slug, ev.code.dealer_message)
            elif ev.type is m.EventType.FAULT_CLEARED:
                self.fault = None
                log.info("shuffler fault %s cleared", ev.code.slug)
