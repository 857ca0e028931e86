"""The dealing shoe over the reference protocol, as a ``drivers.shoe.Shoe``.

Every event the shoe logs carries a number (1, 2, 3, ... since power-on).
The driver delivers each number exactly once and in order: a number already
seen is dropped, a gap makes it ask the shoe to replay from the first missing
one, and after a reconnection it asks for everything after the last number
delivered. The heartbeat's status answer carries the shoe's last number too,
so even a lost final event is fetched.

``deal_on_demand`` (the default) opens the shoe's gate for one card whenever
the round engine asks for an event, none is waiting, no card is already
allowed, and no fault is open (docs/protocol.md 5.1), so a simulated dealer
draws exactly the cards the game needs; a shoe without a gate acknowledges the
command and the dealer draws at will.

Every reading of the protocol a shoe may make is understood: burns the shoe
marks itself (5.2), an unreadable card sent as ``--`` with a FAULT or as a
FAULT alone (5.3: one card either way), Deal refused or accepted during a
fault (4.8), a restart shown by a new boot value, by event numbers going back
or by ``NOT_READY`` to Deal (8.4), events the shoe no longer keeps (7.5).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from drivers.errors import DeviceError, DeviceTimeout, ProtocolError
from drivers.protocol import messages as m
from drivers.protocol.link import ACK_TIMEOUT, RETRIES
from drivers.reference.delivery import Delivery
from drivers.reference.session import (
    CONNECT_WAIT,
    HEARTBEAT,
    REPLY_TIMEOUT,
    DeviceIdentity,
    Expected,
    Session,
    Timing,
)
from drivers.shoe import (
    CardBurned,
    CardDrawn,
    CardUnreadable,
    CutCardReached,
    DeviceFault,
    DeviceRecovered,
    DeviceWarning,
    Shoe,
    ShoeEmpty,
    ShoeEvent,
)
from drivers.transport import Transport
from drivers.transport.serial import SerialTransport

SHUFFLE_TIMEOUT = 30.0
REGRANT_AFTER = 0.5
"""After a fault is cleared or the shoe is back, a card allowed before and not come by then is allowed again (4.8)."""
PROBE_EVERY = 2.0
"""While the shoe does not answer Deal (``no-answer``), Deal is tried again this often."""
RESTARTED = ("the shoe restarted (power cut or reset): the cards left in it are unknown to it; "
             "a new shoe is shuffled before any card is dealt")


class ShoeRefused(DeviceError):
    """The shoe answered a command with an error code; ``code`` is its slug, the message is for the dealer."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


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
        self._lock = threading.RLock()
        self._credit = 0
        self._regrant_at: float | None = None
        self._last_probe = 0.0
        self._deal_on_demand = deal_on_demand
        self._boot = -1
        self._started = False
        self._restart_open = False
        self._open: set[m.Code] = set()
        self._count = 0
        self._unreadable_at: int | None = None
        self._counted: int | None = None
        self.session = Session(
            open_transport, m.DeviceKind.SHOE, expected=expected,
            on_event=self._on_event, on_status=self._on_status, delivered=self._delivered, on_down=self._on_down,
            on_up=self._on_up, on_over=self._on_over, on_replay_result=self._on_replay_result,
            on_protocol_error=self._on_protocol_error, timing=timing,
        )
        self._delivery = Delivery(self.session, self._restarted)
        ident = self.session.open()
        self._boot = ident.boot
        try:
            status = self.session.status()
        except DeviceError:
            self.session.close()
            raise
        self._delivery.last = status.last_event
        if status.state is m.State.FAULT:
            self._open.add(status.fault)
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
        connect_wait: float = CONNECT_WAIT,
    ) -> ReferenceShoe:
        """The shoe at ``port`` (a device path, ``/dev/serial/by-id/...``, ``socket://host:port``)."""
        return cls(
            lambda: SerialTransport(port, baudrate=baudrate),
            expected=Expected(expected_model, expected_serial, expected_firmware),
            deal_on_demand=deal_on_demand, timing=Timing(heartbeat, ack_timeout, retries, reply_timeout, connect_wait=connect_wait),
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
        connect_wait: float = CONNECT_WAIT,
    ) -> ReferenceShoe:
        """The USB shoe with these ids (and serial number, which is then also checked in its identity)."""
        from drivers.transport.usb import UsbTransport

        return cls(
            lambda: UsbTransport(vendor_id, product_id, serial, backend=backend),
            expected=Expected(expected_model, serial, expected_firmware),
            deal_on_demand=deal_on_demand, timing=Timing(heartbeat, ack_timeout, retries, reply_timeout, connect_wait=connect_wait),
        )

    @property
    def identity(self) -> DeviceIdentity:
        assert self.session.identity is not None
        return self.session.identity

    @property
    def last_event_number(self) -> int:
        return self._delivery.last

    @property
    def duplicates_dropped(self) -> int:
        return self._delivery.duplicates

    def status(self) -> m.Status:
        return self.session.status()

    def counted(self) -> int | None:
        """The cards in the shoe, as its last accepted Shuffle said (docs/protocol.md 5.5)."""
        return self._counted

    # -- commands -------------------------------------------------------

    def shuffle(self) -> None:
        """Start a new shoe (the session repeats it once if unanswered: harmless, 9.5); ``ShoeRefused`` names a
        refusal."""
        reply = self.session.request_when_ready(m.Shuffle(), SHUFFLE_TIMEOUT)
        self._check(reply, "shuffle a new shoe")
        assert isinstance(reply, m.Result)
        with self._lock:
            self._counted = reply.value
            self._credit, self._count, self._unreadable_at, self._started = 0, 0, None, True
            recovered, self._restart_open = self._restart_open, False
        if recovered:
            self._events.put(DeviceRecovered("device-restarted", "a new shoe is shuffled"))

    def deal(self, cards: int) -> None:
        """Open the gate for ``cards`` cards (replacing any earlier allowance, 4.8)."""
        with self._lock:
            self._credit, self._regrant_at, self._last_probe = cards, None, time.monotonic()
        try:
            reply = self.session.request(m.Deal(cards))
            self._check(reply, "open its gate")
        except ShoeRefused as exc:
            with self._lock:
                self._credit = 0
            if exc.code == m.Code.NOT_READY.slug and self._started:
                self._restarted("it answered Deal NOT_READY in the middle of a shoe")
            raise
        except DeviceError:
            with self._lock:
                self._credit = 0
            raise

    def next_event(self, timeout: float | None = None, *, want_card: bool = True) -> ShoeEvent:
        """The next event; while none is waiting and a card is wanted, the gate is opened for one (checked again
        every tenth of a second: a free burn's card, a fault cleared, a shoe that answers again)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if want_card and self._deal_on_demand and self._events.empty() and self._gate_wanted():
                self._open_gate()
            left = None if deadline is None else deadline - time.monotonic()
            try:
                return self._events.get(timeout=0.1 if left is None else max(0.0, min(0.1, left)))
            except queue.Empty:
                if left is not None and left <= 0:
                    raise DeviceTimeout(f"no event from the shoe within {timeout} s") from None

    def _open_gate(self) -> None:
        try:
            self.deal(1)
        except ProtocolError as exc:  # a reply to no command: the card still comes as an event
            self._events.put(DeviceWarning("protocol-error", f"the shoe's answer to Deal was not understood ({exc}): "
                                                             "call technical support"))
        except DeviceError:
            pass  # reported by the session (communication-lost, no-answer) or by the shoe's own events

    def _gate_wanted(self) -> bool:
        """Whether a card should be allowed now: a shoe started, connected, no fault open, none allowed already."""
        with self._lock:
            if not (self.session.connected and self._started) or self._open or self._restart_open:
                return False
            now = time.monotonic()
            if not self.session.answering:
                return now - self._last_probe > PROBE_EVERY
            if self._credit == 0:
                return True
            return self._regrant_at is not None and now > self._regrant_at

    def waiting_events(self) -> list[ShoeEvent]:
        events = []
        while True:
            try:
                events.append(self._events.get_nowait())
            except queue.Empty:
                return events

    def close_gate(self) -> None:
        """Let no further card out (5.1: the host closes the gate when it stops)."""
        if self.session.connected and self._started:
            try:
                self.session.request(m.Deal(0), 2.0, quiet=True)
            except DeviceError:
                pass
        with self._lock:
            self._credit = 0

    def close(self) -> None:
        self.close_gate()
        self.session.close()

    def _check(self, reply: m.Message, what: str) -> None:
        if not isinstance(reply, m.Result):
            raise ProtocolError(f"the shoe answered with a {type(reply).__name__}, not a Result, when asked to {what}: "
                                "call technical support")
        if reply.code is not m.Code.OK:
            raise ShoeRefused(reply.code.slug, f"the shoe could not {what}: {reply.code.dealer_message}")

    # -- what the shoe reports ---------------------------------------------

    def _on_event(self, ev: m.Event, problem: str | None) -> None:
        deliver, lost = self._delivery.accept(ev)
        if not deliver:
            return
        out: list[ShoeEvent] = []
        if lost:
            out.append(DeviceFault("events-lost", f"the shoe no longer has events {lost}: count the cards on the "
                                                  "table against the journal, then the supervisor resumes or voids the round"))
        with self._lock:
            out += self._translate(ev, problem)
        for event in out:
            self._events.put(event)

    def _translate(self, ev: m.Event, problem: str | None) -> list[ShoeEvent]:
        why = f"the shoe sent a card code that is not a card ({problem}): call technical support" if problem else ""
        match ev.type:
            case m.EventType.CARD_DRAWN | m.EventType.CARD_BURNED:
                if ev.type is m.EventType.CARD_BURNED and ev.card is not None and self._credit:
                    # 5.2: a burn may or may not have used the allowance: wait a moment for the card that
                    # follows a free burn before allowing another (REGRANT_AFTER)
                    self._regrant_at = time.monotonic() + REGRANT_AFTER
                else:
                    self._credit, self._regrant_at = max(0, self._credit - 1), None
                self._count = ev.count
                if ev.card is None:
                    self._unreadable_at = ev.count
                    return [CardUnreadable(ev.count, why)]
                if ev.type is m.EventType.CARD_BURNED:
                    return [CardBurned(ev.card, ev.count)]
                return [CardDrawn(ev.card, ev.count)]
            case m.EventType.CUT_CARD:
                return [CutCardReached(ev.count)]
            case m.EventType.SHOE_EMPTY:
                self._credit, self._started = 0, False  # no shoe in progress: no Deal until the next Shuffle
                return [ShoeEmpty(ev.count)]
            case m.EventType.FAULT:
                self._open.add(ev.code)
                if ev.code is m.Code.UNRECOGNISED_CARD:
                    fault = DeviceFault(ev.code.slug, f"card {ev.count} of the shoe: {ev.code.dealer_message}")
                    if ev.count == self._count + 1 and ev.count != self._unreadable_at:  # 5.3: the FAULT is the card
                        self._credit = max(0, self._credit - 1)
                        self._count = self._unreadable_at = ev.count
                        return [CardUnreadable(ev.count), fault]
                    return [fault]
                return [DeviceFault(ev.code.slug, ev.code.dealer_message)]
            case m.EventType.FAULT_CLEARED:
                self._open.discard(ev.code)
                self._regrant_at = time.monotonic() + REGRANT_AFTER
                return [DeviceRecovered(ev.code.slug, f"cleared: {ev.code.dealer_message}")]
            case m.EventType.SHUFFLED:
                self._count, self._unreadable_at = 0, None
                return []
        return [DeviceWarning("protocol-error", f"the shoe sent a {ev.type.name} event (number {ev.number}) "
                                                "this host does not expect: call technical support")]

    def _on_status(self, status: m.Status, delivered_when_asked: int) -> None:
        self._delivery.on_status(status, delivered_when_asked)

    def _on_replay_result(self, result: m.Result) -> None:
        self._delivery.on_replay_result(result)

    def _delivered(self) -> int:
        return self._delivery.last

    def _restarted(self, how: str) -> None:
        """8.4: the shoe lost its shoe; its event numbers start again from 1. Reported once until a new shuffle."""
        with self._lock:
            self._credit, self._started, self._count, self._unreadable_at = 0, False, 0, None
            self._open.clear()
            reported, self._restart_open = self._restart_open, True
        if not reported:
            self._events.put(DeviceFault("device-restarted", f"{RESTARTED} ({how})"))
        self._delivery.restart_from_zero()

    def _on_down(self, code: str, message: str) -> None:
        self._events.put(DeviceFault(code, message))

    def _on_over(self, code: str, message: str) -> None:
        self._events.put(DeviceRecovered(code, message))

    def _on_protocol_error(self, what: str) -> None:
        self._events.put(DeviceWarning("protocol-error", f"the shoe broke the protocol ({what}): call technical support"))

    def _on_up(self, ident: DeviceIdentity, codes: list[str]) -> None:
        """Back after a loss: ask what happened meanwhile. A new ``boot`` means the shoe's memory is gone."""
        restarted = ident.boot != self._boot
        with self._lock:
            self._boot = ident.boot
            if self._credit:
                self._regrant_at = time.monotonic() + REGRANT_AFTER
        if restarted:
            self._restarted("it reports a new boot value")
        else:
            self._delivery.replay()
        for code in codes:
            self._events.put(DeviceRecovered(code, f"the shoe is back ({code} is over)"))
