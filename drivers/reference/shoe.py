"""The dealing shoe over the reference protocol, as a ``drivers.shoe.Shoe``.

Every event the shoe logs carries a number (1, 2, 3, ... since power-on).
The driver delivers each number exactly once and in order: a number already
seen is dropped, a gap makes it ask the shoe to replay from the first missing
one, and after a reconnection it asks for everything after the last number
delivered. The heartbeat's status answer carries the shoe's last number too,
so even a lost final event is fetched.

``deal_on_demand`` (the default) opens the shoe's gate for one card whenever
the round engine asks for an event and none is waiting, so a simulated dealer
draws exactly the cards the game needs; a shoe without a gate acknowledges the
command and the dealer draws at will.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from drivers.errors import DeviceError, DeviceLost, DeviceTimeout
from drivers.protocol import messages as m
from drivers.protocol.link import ACK_TIMEOUT, RETRIES
from drivers.reference.session import HEARTBEAT, REPLY_TIMEOUT, DeviceIdentity, Expected, Session, Timing
from drivers.shoe import (
    CardBurned,
    CardDrawn,
    CutCardReached,
    DeviceFault,
    DeviceRecovered,
    Shoe,
    ShoeEmpty,
    ShoeEvent,
)
from drivers.transport import Transport
from drivers.transport.serial import SerialTransport

SHUFFLE_TIMEOUT = 30.0


class ShoeRefused(DeviceError):
    """The shoe answered a command with an error code (its message is for the dealer)."""


class ReferenceShoe(Shoe):
    """A shoe speaking the reference protocol over any transport."""

    def __init__(
        self,
        open_transport: Callable[[], Transport],
        *,
        expected: Expected = Expected(),
        deal_on_demand: bool = True,
        timing: Timing = Timing(),
    ) -> None:
        self._events: queue.Queue[ShoeEvent] = queue.Queue()
        self._lock = threading.Lock()
        self._last = 0
        self._replaying = False
        self._credit = 0
        self._deal_on_demand = deal_on_demand
        self._boot = -1
        self._restart_open = False
        self.duplicates_dropped = 0
        self.session = Session(
            open_transport, m.DeviceKind.SHOE, expected=expected,
            on_event=self._on_event, on_status=self._on_status,
            on_down=self._on_down, on_up=self._on_up, timing=timing,
        )
        ident = self.session.open()
        self._boot = ident.boot
        try:
            status = self.session.status()
        except DeviceError:
            self.session.close()
            raise
        self._last = status.last_event
        if status.state is m.State.FAULT:
            self._events.put(DeviceFault(status.fault.slug, status.fault.dealer_message))

    @classmethod
    def over_serial(
        cls,
        port: str,
        *,
        baudrate: int = 115200,
        expected_model: str | None = None,
        expected_serial: str | None = None,
        expected_firmware: str | None = None,
        deal_on_demand: bool = True,
        heartbeat: float = HEARTBEAT,
        ack_timeout: float = ACK_TIMEOUT,
        retries: int = RETRIES,
        reply_timeout: float = REPLY_TIMEOUT,
    ) -> ReferenceShoe:
        """The shoe at ``port`` (a device path, ``/dev/serial/by-id/...``, ``socket://host:port``)."""
        return cls(
            lambda: SerialTransport(port, baudrate=baudrate),
            expected=Expected(expected_model, expected_serial, expected_firmware),
            deal_on_demand=deal_on_demand, timing=Timing(heartbeat, ack_timeout, retries, reply_timeout),
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
        deal_on_demand: bool = True,
        heartbeat: float = HEARTBEAT,
        ack_timeout: float = ACK_TIMEOUT,
        retries: int = RETRIES,
        reply_timeout: float = REPLY_TIMEOUT,
    ) -> ReferenceShoe:
        """The USB shoe with these ids (and serial number, which is then also checked in its identity)."""
        from drivers.transport.usb import UsbTransport

        return cls(
            lambda: UsbTransport(vendor_id, product_id, serial, backend=backend),
            expected=Expected(expected_model, serial, expected_firmware),
            deal_on_demand=deal_on_demand, timing=Timing(heartbeat, ack_timeout, retries, reply_timeout),
        )

    @property
    def identity(self) -> DeviceIdentity:
        assert self.session.identity is not None
        return self.session.identity

    @property
    def last_event_number(self) -> int:
        return self._last

    def status(self) -> m.Status:
        return self.session.status()

    def shuffle(self) -> None:
        """Start a new shoe; events of the old one already queued stay queued."""
        self._check(self.session.request(m.Shuffle(), SHUFFLE_TIMEOUT), "shuffle")
        self._credit = 0
        if self._restart_open:
            self._restart_open = False
            self._events.put(DeviceRecovered("device-restarted", "a new shoe is shuffled"))

    def deal(self, cards: int) -> None:
        """Open the gate for ``cards`` cards (replacing any earlier allowance)."""
        with self._lock:
            self._credit = cards
        try:
            self._check(self.session.request(m.Deal(cards)), "deal")
        except DeviceError:
            with self._lock:
                self._credit = 0
            raise

    def next_event(self, timeout: float | None = None) -> ShoeEvent:
        if self._deal_on_demand and self._events.empty() and self._credit == 0 and self.session.connected:
            try:
                self.deal(1)
            except (DeviceLost, DeviceTimeout):
                pass
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            raise DeviceTimeout(f"no event from the shoe within {timeout} s") from None

    def waiting_events(self) -> list[ShoeEvent]:
        events = []
        while True:
            try:
                events.append(self._events.get_nowait())
            except queue.Empty:
                return events

    def close(self) -> None:
        self.session.close()

    def _check(self, reply: m.Message, what: str) -> None:
        if not isinstance(reply, m.Result):
            raise DeviceError(f"shoe answered {what} with {type(reply).__name__}")
        if reply.code is not m.Code.OK:
            raise ShoeRefused(f"shoe refused to {what}: {reply.code.dealer_message}")

    def _on_event(self, ev: m.Event) -> None:
        with self._lock:
            if ev.number <= self._last:
                self.duplicates_dropped += 1
                return
            if ev.number > self._last + 1:
                self._request_replay()
                return
            self._last = ev.number
            out = self._translate(ev)
        if out is not None:
            self._events.put(out)

    def _translate(self, ev: m.Event) -> ShoeEvent | None:
        match ev.type:
            case m.EventType.CARD_DRAWN if ev.card is not None:
                self._credit = max(0, self._credit - 1)
                return CardDrawn(ev.card, ev.count)
            case m.EventType.CARD_BURNED if ev.card is not None:
                return CardBurned(ev.card, ev.count)
            case m.EventType.CUT_CARD:
                return CutCardReached(ev.count)
            case m.EventType.SHOE_EMPTY:
                self._credit = 0
                return ShoeEmpty(ev.count)
            case m.EventType.FAULT:
                if ev.code is m.Code.UNRECOGNISED_CARD:
                    self._credit = max(0, self._credit - 1)
                    return DeviceFault(ev.code.slug, f"card {ev.count} of the shoe: {ev.code.dealer_message}")
                return DeviceFault(ev.code.slug, ev.code.dealer_message)
            case m.EventType.FAULT_CLEARED:
                return DeviceRecovered(ev.code.slug, f"cleared: {ev.code.dealer_message}")
            case m.EventType.SHUFFLED:
                return None
        return DeviceFault("protocol-error", f"shoe sent {ev.type.name} event {ev.number} without a card")

    def _request_replay(self) -> None:
        if not self._replaying:
            self._replaying = True
            self.session.schedule(self._replay)

    def _replay(self) -> None:
        try:
            self.session.request(m.Replay(self._last + 1))
        finally:
            self._replaying = False

    def _on_status(self, status: m.Status) -> None:
        if status.last_event > self._last:
            with self._lock:
                self._request_replay()

    def _on_down(self, code: str, message: str) -> None:
        self._events.put(DeviceFault(code, message))

    def _on_up(self, ident: DeviceIdentity, codes: list[str]) -> None:
        """Back after a loss: ask what happened meanwhile. A new ``boot`` means the shoe's memory is gone."""
        restarted = ident.boot != self._boot
        with self._lock:
            self._credit = 0
            if restarted:
                self._boot, self._last, self._restart_open = ident.boot, 0, True
        if restarted:
            self._events.put(DeviceFault(
                "device-restarted",
                "the shoe restarted while disconnected: the cards left in it are unknown; shuffle a new shoe",
            ))
        self._replay()
        for code in codes:
            self._events.put(DeviceRecovered(code, f"the shoe is back ({code} is over)"))
