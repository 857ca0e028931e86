"""The card shuffler over the reference protocol, as a ``drivers.shuffler.Shuffler``.

Every error the machine reports becomes the matching ``ShufflerError``
subclass whose text tells the dealer what to do; a machine that stops
answering raises ``ShufflerOffline`` while the session reconnects behind it.
The driver also checks what the machine does not: the count against the
game's deck, and every dispensed card against the deck's composition (a card
dealt more often than the deck holds it is a ``DuplicateCard``).

``next_deck()`` runs the order of docs/protocol.md 6.3: before the first
round Shuffle, Verify, then Alternate, whose answer says whether the machine
holds one deck or two (a two-deck machine then shuffles and counts its other
deck); before each later round Shuffle and Verify on one deck, Alternate,
Shuffle, Verify on two. A step refused is done again on the next call.

What the machine reports on its own (faults, their clearing) is kept for
``notices()``, numbered events delivered once (``drivers.reference.delivery``).
A restart (a new boot value, event numbers going back, ``NOT_READY`` to a
Dispense with a counted deck being dealt) loses the decks: the next
``next_deck()`` starts from the beginning.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from controller.cards import Card, deck_by_name
from drivers.errors import DeviceError, DeviceLost, DeviceTimeout, ProtocolError
from drivers.notices import DeviceFault, DeviceRecovered, DeviceWarning
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
    StrayReply,
    Timing,
)
from drivers.shuffler import (
    CountMismatch,
    DeckSizeMismatch,
    DoorOpen,
    DuplicateCard,
    RecognitionFailure,
    Shuffler,
    ShufflerEmpty,
    ShufflerError,
    ShufflerJam,
    ShufflerNotReady,
    ShufflerOffline,
    ShufflerRestarted,
    StackUnknown,
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
Notice = DeviceFault | DeviceRecovered | DeviceWarning
OFFLINE = "the shuffler stopped answering: check its cable and power"
RESTARTED = "the shuffler restarted (power cut or reset) and lost its decks: they are shuffled and counted again"


def error_for(code: m.Code, doing: str) -> ShufflerError:
    """The exception for a code the machine answered ``doing`` with."""
    error = ERRORS.get(code, ShufflerError)(f"the shuffler could not {doing}: {code.dealer_message}")
    if type(error) is ShufflerError:
        error.code = code.slug
    return error


class ReferenceShuffler(Shuffler):
    """A shuffler speaking the reference protocol over any transport.

    ``decks`` is what the table's config says (1 or 2), or ``None`` to take what the machine answers (6.1).
    """

    def __init__(
        self,
        open_transport: Callable[[], Transport],
        *,
        deck: str | tuple[Card, ...] = "standard",
        decks: int | None = None,
        expected: Expected = Expected(),
        timing: Timing = Timing(),
    ) -> None:
        if decks not in (None, 1, 2):
            raise ValueError(f"a shuffler holds one or two decks, not {decks}")
        self.deck = deck_by_name(deck) if isinstance(deck, str) else deck
        self.deck_name = deck if isinstance(deck, str) else f"{len(deck)}-card"
        self.decks = decks
        self.two_decks: bool | None = None if decks is None else decks == 2
        self._composition = Counter(self.deck)
        self._dealt: Counter[Card] = Counter()
        self._steps: list[str] = []
        self._started = False
        self._dealing = False
        self._restart_open = False
        self._notices: queue.Queue[Notice] = queue.Queue()
        self._fault_lock = threading.Lock()
        self.fault: m.Code | None = None
        self._cleared: list[m.Code] = []  # every FAULT_CLEARED delivered, in order: a refusal may arrive after one
        self._cleared_mark = 0
        self.session = Session(
            open_transport, m.DeviceKind.SHUFFLER, expected=expected, on_event=self._on_event,
            on_status=self._on_status, delivered=self._delivered, on_down=self._on_down,
            on_up=self._on_up, on_over=self._on_over, on_replay_result=self._on_replay_result,
            on_protocol_error=self._on_protocol_error, timing=timing,
        )
        self._delivery = Delivery(self.session, self._restarted)
        self._boot = self.session.open().boot
        try:
            status = self.status()
        except DeviceError:
            self.session.close()
            raise
        self._delivery.last = status.last_event
        self._set_fault(status.fault if status.state is m.State.FAULT else None)

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
        decks: int | None = None,
        heartbeat: float = HEARTBEAT,
        ack_timeout: float = ACK_TIMEOUT,
        retries: int = RETRIES,
        reply_timeout: float = REPLY_TIMEOUT,
        connect_wait: float = CONNECT_WAIT,
    ) -> ReferenceShuffler:
        """The shuffler at ``port`` (a device path, ``/dev/serial/by-id/...``, ``socket://host:port``)."""
        return cls(
            lambda: SerialTransport(port, baudrate=baudrate),
            expected=Expected(expected_model, expected_serial, expected_firmware),
            deck=deck, decks=decks, timing=Timing(heartbeat, ack_timeout, retries, reply_timeout, connect_wait=connect_wait),
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
        decks: int | None = None,
        heartbeat: float = HEARTBEAT,
        ack_timeout: float = ACK_TIMEOUT,
        retries: int = RETRIES,
        reply_timeout: float = REPLY_TIMEOUT,
        connect_wait: float = CONNECT_WAIT,
    ) -> ReferenceShuffler:
        """The USB shuffler with these ids (and serial number, also checked in its identity)."""
        from drivers.transport.usb import UsbTransport

        return cls(
            lambda: UsbTransport(vendor_id, product_id, serial, backend=backend),
            expected=Expected(expected_model, serial, expected_firmware),
            deck=deck, decks=decks, timing=Timing(heartbeat, ack_timeout, retries, reply_timeout, connect_wait=connect_wait),
        )

    @property
    def identity(self) -> DeviceIdentity:
        assert self.session.identity is not None
        return self.session.identity

    def status(self) -> m.Status:
        try:
            status = self.session.status()
        except (DeviceLost, DeviceTimeout) as exc:
            raise ShufflerOffline(OFFLINE) from exc
        return status

    def wait_ready(self, timeout: float) -> bool:
        """Wait until the machine reports no fault (the dealer cleared it); ``False`` on timeout."""
        return self.wait_cleared(timeout)

    def wait_cleared(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if self.session.connected and self.status().state is not m.State.FAULT:
                    return True
            except (ShufflerOffline, ProtocolError):
                pass
            time.sleep(0.1)
        return False

    # -- the order of 6.3 -----------------------------------------------

    def decks_in_turn(self) -> int:
        return 2 if self.two_decks else 1

    def next_deck(self) -> int:
        if not self._steps:
            if not self._started:
                self._steps = ["shuffle", "verify", "probe"]
            elif self.two_decks:
                self._steps = ["alternate", "shuffle", "verify"]
            else:
                self._steps = ["shuffle", "verify"]
        counted = len(self.deck)
        while self._steps:
            step = self._steps[0]
            if step == "shuffle":
                self.shuffle()
            elif step == "verify":
                try:
                    counted = self.verify_count()
                except CountMismatch:
                    self._steps.insert(0, "shuffle")  # recounted by the supervisor: shuffle and count again
                    raise
            elif step == "probe":
                if self._probe_decks():
                    self._steps[1:1] = ["shuffle", "verify"]
            elif step == "alternate":
                self.alternate()
            self._steps.pop(0)
        self._started, self._dealing = True, True
        if self._restart_open:
            self._restart_open = False
            self._notices.put(DeviceRecovered("device-restarted", "the decks are shuffled and counted again"))
        return counted

    def _probe_decks(self) -> bool:
        """6.1: Alternate answers whether the machine holds two decks; a config that says otherwise is refused."""
        reply = self._request(m.Alternate(), None)
        if not isinstance(reply, m.Result):
            raise ShufflerError(f"the shuffler answered Alternate with a {type(reply).__name__}: call technical support")
        two = reply.code is m.Code.OK
        if reply.code not in (m.Code.OK, m.Code.UNSUPPORTED, m.Code.BAD_REQUEST):
            raise self._refusal(reply.code, "deal from the deck it just shuffled")
        if self.decks is not None and two != (self.decks == 2):
            holds = "two decks" if two else "one deck"
            raise DeckSizeMismatch(
                f"the shuffler holds {holds} but the table is set for {self.decks} ([shuffler] decks = {self.decks}): "
                "set decks to match the machine, or connect the right shuffler"
            )
        self.two_decks = two
        if two:
            self._dealt.clear()
        return two

    # -- commands -------------------------------------------------------

    def shuffle(self) -> None:
        reply = self._request(m.Shuffle(), SHUFFLE_TIMEOUT, when_ready=True)
        self._ok(reply, "shuffle")
        if not self.two_decks:
            self._dealt.clear()

    def verify_count(self) -> int:
        reply = self._request(m.Verify(), None)
        if not isinstance(reply, m.Result) or reply.code not in (m.Code.OK, m.Code.COUNT_MISMATCH):
            self._ok(reply, "count the deck")
        assert isinstance(reply, m.Result)
        if reply.value != len(self.deck) or reply.code is m.Code.COUNT_MISMATCH:
            raise CountMismatch(
                f"the shuffler counted {reply.value} cards but a {self.deck_name} deck holds {len(self.deck)}: "
                f"{m.Code.COUNT_MISMATCH.dealer_message}"
            )
        return reply.value

    def alternate(self) -> None:
        reply = self._request(m.Alternate(), None)
        if isinstance(reply, m.Result) and reply.code is m.Code.NOT_READY and self._started:
            self._restarted("it answered Alternate NOT_READY although its other deck was shuffled")
            raise ShufflerRestarted(RESTARTED)
        self._ok(reply, "alternate the decks")
        self._dealt.clear()

    def dispense(self, n: int) -> tuple[Card | None, ...]:
        if not 1 <= n <= 99:
            raise ValueError(f"a stack holds 1 to 99 cards, not {n}")
        if not self.session.connected:
            raise ShufflerOffline(OFFLINE)
        lost = (f"the shuffler's answer to a Dispense of {n} cards never came: a stack may be in the tray, its "
                "cards unrecorded: the supervisor enters them, or voids the round")
        try:
            reply = self._dispense_request(n)
        except StrayReply as exc:
            cards = exc.reply.cards if isinstance(exc.reply, m.Stack) else ()
            what = (f"a {type(exc.reply).__name__}" if not isinstance(exc.reply, m.Stack | m.Result)
                    else f"a {type(exc.reply).__name__} for another request")
            raise StackUnknown(f"the shuffler's answer to a Dispense of {n} cards was not understood ({what}): the "
                               "stack is recorded but the supervisor checks it, or voids the round; call technical "
                               "support", cards) from exc
        except (DeviceLost, DeviceTimeout) as exc:
            raise StackUnknown(lost) from exc
        if isinstance(reply, m.Result):
            if reply.code is m.Code.NOT_READY and self._dealing:
                self._restarted("it answered Dispense NOT_READY with a counted deck being dealt")
                raise ShufflerRestarted(RESTARTED)
            raise self._refusal(reply.code, f"dispense {n} cards")
        if not isinstance(reply, m.Stack) or len(reply.cards) != n:
            cards = reply.cards if isinstance(reply, m.Stack) else ()
            got = f"a stack of {len(cards)} cards" if isinstance(reply, m.Stack) else f"a {type(reply).__name__}"
            raise StackUnknown(f"the shuffler answered a Dispense of {n} cards with {got}: the stack is recorded but "
                               "the supervisor checks it, or voids the round; call technical support", cards)
        self._check_duplicates(tuple(c for c in reply.cards if c is not None))
        return reply.cards

    def _dispense_request(self, n: int) -> m.Message:
        with self._fault_lock:
            self._cleared_mark = len(self._cleared)
        return self.session.request(m.Dispense(n))

    def notices(self) -> list[Notice]:
        out = []
        while True:
            try:
                out.append(self._notices.get_nowait())
            except queue.Empty:
                return out

    def reported_fault(self) -> str | None:
        if not self.session.connected:
            return OFFLINE
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
            raise DuplicateCard(f"the shuffler dealt {names} more often than the deck holds: "
                                f"{m.Code.DUPLICATE_CARD.dealer_message}")

    def _request(self, command: m.Command, timeout: float | None, *, when_ready: bool = False) -> m.Message:
        with self._fault_lock:
            self._cleared_mark = len(self._cleared)
        try:
            if when_ready:
                return self.session.request_when_ready(command, timeout)
            return self.session.request(command, timeout)
        except (DeviceLost, DeviceTimeout) as exc:
            raise ShufflerOffline(OFFLINE) from exc
        except ProtocolError as exc:
            error = ShufflerError(f"the shuffler's answer to {type(command).__name__} was not understood: "
                                  "call technical support")
            error.code = "protocol-error"
            raise error from exc

    def _ok(self, reply: m.Message, doing: str) -> m.Result:
        if not isinstance(reply, m.Result):
            raise ShufflerError(f"the shuffler answered {doing} with a {type(reply).__name__}: call technical support")
        if reply.code is not m.Code.OK:
            raise self._refusal(reply.code, doing)
        return reply

    def _refusal(self, code: m.Code, doing: str) -> ShufflerError:
        """``error_for``, knowing whether the machine reported that fault itself (open, or cleared since the command
        was sent: the refusal came late)."""
        error = error_for(code, doing)
        with self._fault_lock:
            error.reported = self.fault is code or code in self._cleared[self._cleared_mark :]
        return error

    # -- what the machine reports --------------------------------------

    def _set_fault(self, fault: m.Code | None) -> None:
        with self._fault_lock:
            before, self.fault = self.fault, fault
        if before == fault:
            return
        if fault is not None:
            self._notices.put(DeviceFault(fault.slug, fault.dealer_message))
        elif before is not None:
            self._notices.put(DeviceRecovered(before.slug, f"cleared: {before.dealer_message}"))

    def _on_event(self, ev: m.Event, problem: str | None) -> None:
        deliver, lost = self._delivery.accept(ev)
        if not deliver:
            return
        if lost:
            self._notices.put(DeviceWarning("events-lost", f"the shuffler no longer has events {lost}"))
        if ev.type is m.EventType.FAULT:
            log.warning("shuffler fault %s: %s", ev.code.slug, ev.code.dealer_message)
            self._set_fault(ev.code)
        elif ev.type is m.EventType.FAULT_CLEARED:
            log.info("shuffler fault %s cleared", ev.code.slug)
            with self._fault_lock:
                self._cleared.append(ev.code)
            self._set_fault(None)
        elif ev.type not in (m.EventType.CARD_DRAWN, m.EventType.CARD_BURNED, m.EventType.SHUFFLED):
            self._notices.put(DeviceWarning("protocol-error", f"the shuffler sent a {ev.type.name} event this host "
                                                              "does not expect from a shuffler"))

    def _on_status(self, status: m.Status, delivered_when_asked: int) -> None:
        self._delivery.on_status(status, delivered_when_asked)
        if status.last_event == self._delivery.last:  # the event stream is caught up: Status agrees with it
            self._set_fault(status.fault if status.state is m.State.FAULT else None)

    def _on_replay_result(self, result: m.Result) -> None:
        self._delivery.on_replay_result(result)

    def _delivered(self) -> int:
        return self._delivery.last

    def _restarted(self, how: str) -> None:
        self._started, self._dealing, self._steps = False, False, []
        self._dealt.clear()
        if not self._restart_open:
            self._restart_open = True
            self._notices.put(DeviceFault("device-restarted", f"{RESTARTED} ({how})"))
        self._delivery.restart_from_zero()

    def _on_down(self, code: str, message: str) -> None:
        self._notices.put(DeviceFault(code, message))

    def _on_over(self, code: str, message: str) -> None:
        self._notices.put(DeviceRecovered(code, message))

    def _on_protocol_error(self, what: str) -> None:
        self._notices.put(DeviceWarning("protocol-error", f"the shuffler broke the protocol ({what}): "
                                                          "call technical support"))

    def _on_up(self, ident: DeviceIdentity, codes: list[str]) -> None:
        if ident.boot != self._boot:
            self._boot = ident.boot
            self._restarted("it reports a new boot value")
        else:
            self._delivery.replay()
        for code in codes:
            self._notices.put(DeviceRecovered(code, f"the shuffler is back ({code} is over)"))
