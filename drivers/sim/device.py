"""What every simulated device shares: the port, the link, the event log, its behaviour and the control commands.

A simulated device serves one endpoint (pseudo-terminal or socket), answers
the reference protocol through the same ``Link`` the driver uses, numbers and
logs every event it raises (so a host can ask for a replay), reads the
protocol as its ``Behaviour`` says (``drivers.sim.behaviour``: every choice
``docs/protocol.md`` leaves to a device maker), and obeys control commands,
one per line, from a test, a script file or a terminal:

``noise drop=P duplicate=P corrupt=P delay=P``
    damage bytes on the line (probabilities; ``noise`` alone clears).
``unplug SECONDS [midframe]``
    vanish for SECONDS (mid-way through a frame with ``midframe``), then come back.
``plug``
    come back now from an ``unplug`` (a test holds a device unplugged as long as it needs, then plugs it in).
``restart [SECONDS]``
    power-cycle: off for SECONDS, then a new boot value, event numbers from 1, nothing shuffled.
``fault CODE [SECONDS]`` / ``clear``
    enter a fault (``jam``, ``door-open``, ...) until cleared at the machine (or SECONDS later).
``ignore COMMAND [N]`` / ``ignore off``
    acknowledge the next N commands of that kind (``deal``, ``dispense``, ..., ``all``) and never answer them.
``badcard [CODE]`` / ``badreply``
    the next card sent carries CODE (default ``qh``, not a card code); the next reply a wrong ``request`` byte.
``on COMMAND|card [N] ACTION...``
    run the control command ACTION when the device receives its N-th such command from now (before
    answering it), or (``card N``) just before the card counted N comes out.
``later SECONDS ACTION...``
    run ACTION after SECONDS.
``behave OPTION=VALUE...``
    change a reading (``drivers.sim.behaviour.Behaviour``) while running.
``identity model=M serial=S firmware=F``
    change what the device reports (to test refusal of a swapped device).
``sleep SECONDS``, ``timings PATH``, ``status``, ``report``
    pause a script; write when each event was first written (``number TYPE monotonic-ns`` lines); show
    state; show the cards that left the device, which of them reached a host and which a restart wiped from
    the event log before they did (JSON).

Each device kind adds its own commands (see ``drivers.sim.shoe`` and ``drivers.sim.shuffler``).
"""

from __future__ import annotations

import json
import os
import queue
import random
import threading
import time
from dataclasses import dataclass, field, fields

from controller.cards import Card
from drivers.errors import DeviceError, ProtocolError
from drivers.protocol import messages as m
from drivers.protocol.frame import SYNC_LINK, Frame, encode
from drivers.protocol.link import Link
from drivers.sim.behaviour import Behaviour
from drivers.sim.endpoints import FaultyTransport, LineFaults, PtyEndpoint, SocketEndpoint

COMMAND_NAMES = {"hello": m.Hello, "status": m.GetStatus, "replay": m.Replay, "shuffle": m.Shuffle, "deal": m.Deal,
                 "verify": m.Verify, "dispense": m.Dispense, "alternate": m.Alternate}


@dataclass
class SimIdentity:
    model: str
    serial: str = "SIM-0001"
    firmware: str = "1.0.0"
    boot: int = field(default_factory=lambda: os.getpid() & 0xFFFF)


@dataclass
class Outgoing:
    """A frame waiting to be sent, and what it carries (for the record of what reached a host)."""

    kind: int
    payload: bytes
    number: int = 0
    cards: tuple[tuple[str, Card | None], ...] = ()
    """The cards it reports leaving the device, each with how (drawn, burned, unreadable, stack)."""


def parse_options(words: list[str]) -> dict[str, str]:
    """``["a=1", "b=x"]`` -> ``{"a": "1", "b": "x"}``; a word without ``=`` is an error."""
    out = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep:
            raise ValueError(f"expected key=value, got {word!r}")
        out[key] = value
    return out


class SimDevice:
    """Base of the simulated shoe and shuffler (see module doc)."""

    KIND: m.DeviceKind

    def __init__(
        self,
        endpoint: PtyEndpoint | SocketEndpoint,
        identity: SimIdentity,
        seed: int | None,
        ack_timeout: float,
        behaviour: Behaviour | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.ack_timeout = ack_timeout
        self.identity = identity
        self.behaviour = behaviour or Behaviour()
        if self.behaviour.boot is not None:
            identity.boot = self.behaviour.boot
        self.rng = random.Random(seed)
        self.faults = LineFaults()
        self.fault: m.Code | None = None
        self.log: list[m.Event] = []
        self.forgotten = 0
        """Events dropped from the front of ``log`` (``Behaviour.keep_events``): ``log[0]`` is number ``forgotten + 1``."""
        self.written_ns: dict[int, int] = {}
        self.out: list[tuple[str, Card | None]] = []
        """Every card that left the device, in order: ``(how, card)``, ``how`` drawn, burned, unreadable or stack."""
        self.reached: list[tuple[str, Card | None]] = []
        """The cards of ``out`` a host acknowledged (an event counted once, however often it was replayed)."""
        self.wiped: list[tuple[str, Card | None]] = []
        """The cards of ``out`` whose events a power cycle (``restart``) wiped from the log before they reached a
        host: reported to no one, as a real device's volatile event log loses them (8.4)."""
        self.unread: list[Card] = []
        """What each card sent as unreadable (or with a code that is not a card) really was, in order."""
        self.garbled: list[Card] = []
        """The cards of ``out`` that went out with a code that is not a card (``badcard``): unreadable to a host."""
        self.lock = threading.RLock()
        self.powered_at = time.monotonic()
        self._link: Link | None = None
        self._transport: FaultyTransport | None = None
        self._outbox: queue.Queue[Outgoing | None] = queue.Queue()
        self._commands: queue.Queue[Frame | None] = queue.Queue()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._unplug_for = 0.0
        self._server: threading.Thread | None = None
        self._restart_pending = False
        self._unplugged = threading.Event()
        self._plugged = threading.Event()
        """Set by ``plug`` (and on stop): an unplugged device comes back before its time is up."""
        self._attached = threading.Event()
        self._line_rng = random.Random(None if seed is None else seed + 1)
        self._next_seq: int | None = None
        self._synced = False
        self._greeted = False
        """This connection's Hello was answered: events may be sent (3.9)."""
        self._reached_numbers: set[int] = set()
        self._event_out: dict[int, tuple[tuple[str, Card | None], ...]] = {}
        self._triggers: list[tuple[str, int, str]] = []
        self._ignore: dict[str, int] = {}
        self._bad_card: bytes | None = None
        self._bad_reply = False

    @property
    def url(self) -> str:
        return self.endpoint.url

    def start(self) -> SimDevice:
        threads = [threading.Thread(target=t, name=f"sim-{t.__name__}", daemon=True)
                   for t in (self._serve, self._send_loop, self._command_loop)]
        self._server = threads[0]
        for thread in threads:
            thread.start()
        if isinstance(self.endpoint, PtyEndpoint):  # a socket is ready once listening
            self._attached.wait(5.0)
        return self

    def stop(self) -> None:
        """Switch the device off; returns once its port is closed (the endpoint may then be removed: a port still
        being attached would otherwise come back in it)."""
        self._stop.set()
        self._plugged.set()
        self._wake.set()
        self._outbox.put(None)
        self._commands.put(None)
        if self._server is not None and self._server is not threading.current_thread():
            self._server.join(5.0)

    # ---- state a subclass keeps ---------------------------------------

    def power_on(self) -> None:
        """Forget everything a power cycle forgets (subclasses clear their shoe or decks too)."""
        self.wiped.extend(card for n, cards in self._event_out.items() if n not in self._reached_numbers for card in cards)
        self.log, self.forgotten, self.written_ns = [], 0, {}
        self._reached_numbers, self._event_out = set(), {}
        self.powered_at = time.monotonic()
        boot = self.behaviour.boot
        if boot is None:
            boot = self.identity.boot
            while boot == self.identity.boot:
                boot = self.rng.randrange(0x10000)
        self.identity.boot = boot

    @property
    def starting(self) -> bool:
        """Still starting up after power-on (``Behaviour.starting``): BUSY, and NOT_READY to work."""
        return time.monotonic() - self.powered_at < self.behaviour.starting

    def status(self, request: int) -> m.Status:
        raise NotImplementedError

    @property
    def count(self) -> int:
        return self.status(0).count

    # ---- events -------------------------------------------------------

    def emit(
        self, type_: m.EventType, count: int, card: Card | None = None, code: m.Code = m.Code.OK, *, out: str = ""
    ) -> m.Event:
        """Log and send an event; ``out`` (drawn, burned, unreadable) when it reports a card leaving the device."""
        with self.lock:
            ev = m.Event(self.forgotten + len(self.log) + 1, type_, count, card, code)
            self.log.append(ev)
            keep = self.behaviour.keep_events
            if keep and len(self.log) > keep:
                self.forgotten += len(self.log) - keep
                del self.log[: len(self.log) - keep]
            if out:
                self.out.append((out, card))
                self._event_out[ev.number] = ((out, card),)
            payload = m.encode(ev)
            if out and card is not None:  # only a card leaving the device is sent garbled (``badcard``)
                payload = self._card_payload(payload, 7, card)
            self._outbox.put(Outgoing(m.Event.KIND, payload, ev.number, self._event_out.get(ev.number, ())))
        return ev

    def reply(self, msg: m.Reply) -> None:
        payload = m.encode(msg)
        if self._bad_reply:
            self._bad_reply = False
            payload = bytes(((payload[0] + 0x55) & 0xFF,)) + payload[1:]
        cards = tuple(("stack" if c else "unreadable", c) for c in msg.cards) if isinstance(msg, m.Stack) else ()
        if isinstance(msg, m.Stack) and msg.cards:
            payload = self._card_payload(payload, 2, msg.cards[0])
        item = Outgoing(msg.KIND, payload, 0, cards)
        if self.behaviour.reply_delay:  # a busy device: each answer comes late, the work goes on meanwhile
            timer = threading.Timer(self.behaviour.reply_delay, self._outbox.put, args=(item,))
            timer.daemon = True
            timer.start()
        else:
            self._outbox.put(item)

    def _card_payload(self, payload: bytes, at: int, card: Card | None) -> bytes:
        """``payload`` with ``card`` (at byte ``at``) replaced by the bytes ``badcard`` asked for, once."""
        if self._bad_card is None or card is None:
            return payload
        bad, self._bad_card = self._bad_card, None
        self.unread.append(card)
        self.garbled.append(card)
        return payload[:at] + bad + payload[at + 2 :]

    def raise_fault(self, code: m.Code, count: int = 0) -> None:
        with self.lock:
            self.fault = code
            self.emit(m.EventType.FAULT, count, code=code)

    # ---- the line -----------------------------------------------------

    def _serve(self) -> None:
        while not self._stop.is_set():
            inner = self.endpoint.attach(self._stop)
            if inner is None:
                return
            self._transport = FaultyTransport(inner, self.faults, self._line_rng)
            first = {"continue": self._next_seq, "zero": 0, "random": None}[self.behaviour.seq_after_reconnect]
            link = Link(
                self._transport, self._commands.put, lambda exc: self._wake.set(),
                ack_timeout=self.ack_timeout, name=f"sim {self.url}", first_seq=first,
            )
            self._synced, self._greeted = False, False
            self._link = link.start()
            self._attached.set()
            while not self._stop.is_set() and link.alive and not self._unplug_for:
                self._wake.wait(0.1)
                self._wake.clear()
            self._link = None
            self._next_seq = link.next_seq
            link.close()
            self.endpoint.detach()
            self._drop_outbox()
            if self._unplug_for:
                self._unplugged.set()
                self._plugged.wait(self._unplug_for)
                self._unplug_for = 0.0
                if self._restart_pending:
                    with self.lock:
                        self._restart_pending = False
                        self._next_seq = None
                        self.power_on()
                        if self.fault is not None:  # a lasting fault survives the power cycle (10.2)
                            self.emit(m.EventType.FAULT, 0, code=self.fault)

    def _drop_outbox(self) -> None:
        """A lost connection loses every frame not yet sent (3.8); events stay in the log for Replay."""
        while True:
            try:
                self._outbox.get_nowait()
            except queue.Empty:
                return

    def _send_loop(self) -> None:
        while not self._stop.is_set():
            item = self._outbox.get()
            link = self._link
            if item is None or link is None or not link.alive:
                continue
            if item.kind == m.Event.KIND and not (self._greeted or self.behaviour.events_before_hello):
                continue  # 3.9: it waits in the log for the host's Replay
            if item.number and item.number not in self.written_ns:
                self.written_ns[item.number] = time.monotonic_ns()
            try:
                if self.behaviour.device_sync and not self._synced:
                    self._synced = True
                    link.send(SYNC_LINK)
                link.send(item.kind, item.payload)
            except DeviceError:
                continue
            if item.cards and (not item.number or item.number not in self._reached_numbers):
                self._reached_numbers.add(item.number)
                with self.lock:
                    self.reached.extend(item.cards)

    def _command_loop(self) -> None:
        while not self._stop.is_set():
            frame = self._commands.get()
            if frame is None:
                continue
            try:
                command = m.decode(frame.kind, frame.payload)
            except ProtocolError:
                self._refuse_unknown(frame)
                continue
            if not isinstance(command, m.Command):
                continue  # a device message sent to a device: acknowledged, ignored (2.5)
            name = next(n for n, cls in COMMAND_NAMES.items() if isinstance(command, cls))
            self._fire_triggers(name)
            if self._ignored(name):
                continue
            with self.lock:
                self.handle(frame.seq, command)

    def _refuse_unknown(self, frame: Frame) -> None:
        """2.5 and 2.6: a malformed command is BAD_REQUEST; an unknown command kind is BAD_REQUEST or UNSUPPORTED
        (the reading's choice); a kind outside the commands' range gets no answer."""
        if not 0x10 <= frame.kind <= 0x7F:
            return
        code = m.Code.BAD_REQUEST
        if frame.kind not in m.MESSAGES and self.behaviour.unknown_command == "unsupported":
            code = m.Code.UNSUPPORTED
        self.reply(m.Result(frame.seq, frame.kind, code))

    def _ignored(self, name: str) -> bool:
        for key in (name, "all"):
            left = self._ignore.get(key, 0)
            if left:
                self._ignore[key] = left - 1
                return True
        return False

    def _fire_triggers(self, name: str, count: int | None = None) -> None:
        """Run the ``on`` actions whose moment has come (``count``: a card about to come out)."""
        due: list[str] = []
        with self.lock:
            kept = []
            for when, n, action in self._triggers:
                if when == name and count is None:
                    n -= 1
                    if n <= 0:
                        due.append(action)
                        continue
                elif when == "card" and name == "card" and count == n:
                    due.append(action)
                    continue
                kept.append((when, n, action))
            self._triggers = kept
        for action in due:
            self.control(action)

    def handle(self, request: int, command: m.Message) -> None:
        """Answer one command; subclasses handle their own and defer the rest here."""
        match command:
            case m.Hello():
                self._drop_queued_events()
                if self.behaviour.events_before_hello:
                    for ev in self.log[-3:]:
                        self._outbox.put(Outgoing(m.Event.KIND, m.encode(ev), ev.number, self._event_out.get(ev.number, ())))
                ident = self.identity
                self._greeted = True
                self.reply(m.Identity(request, self.behaviour.version, self.KIND, ident.boot, ident.model, ident.serial,
                                      ident.firmware))
            case m.GetStatus():
                self.reply(self.status(request))
            case m.Replay(first):
                last = self.forgotten + len(self.log)
                self.reply(m.Result(request, command.KIND, m.Code.OK, last))
                for ev in self.log[max(first - self.forgotten, 1) - 1 :]:
                    self._outbox.put(Outgoing(m.Event.KIND, m.encode(ev), ev.number, self._event_out.get(ev.number, ())))
            case _:
                self.reply(m.Result(request, getattr(command, "KIND", 0), m.Code.UNSUPPORTED))

    def _drop_queued_events(self) -> None:
        """A new host session starts clean; undelivered events stay in the log for ``Replay``."""
        kept = []
        while True:
            try:
                item = self._outbox.get_nowait()
            except queue.Empty:
                break
            if item is not None and item.kind != m.Event.KIND:
                kept.append(item)
        for item in kept:
            self._outbox.put(item)

    # ---- control ------------------------------------------------------

    def control(self, line: str) -> str:
        """Run one control command; returns a line of text, ``ValueError`` if the command is wrong."""
        words = line.split()
        if not words or words[0].startswith("#"):
            return ""
        name, args = words[0].replace("-", "_"), words[1:]
        method = getattr(self, f"ctl_{name}", None)
        if method is None:
            raise ValueError(f"unknown control command {words[0]!r}")
        return method(*args) or ""

    def ctl_noise(self, *args: str) -> str:
        opts = {k: float(v) for k, v in parse_options(list(args)).items()}
        names = [f.name for f in fields(LineFaults)]
        unknown = set(opts) - set(names)
        if unknown:
            raise ValueError(f"unknown noise option(s) {', '.join(sorted(unknown))}: one of {', '.join(names)}")
        fresh = LineFaults(**opts)
        for name in names:  # in place: the line's FaultyTransport holds this object
            setattr(self.faults, name, getattr(fresh, name))
        return ""

    def ctl_unplug(self, seconds: str = "0.5", how: str = "") -> str:
        if how == "midframe" and self._transport is not None:
            wire = encode(Frame(m.Event.KIND, 0, m.encode(m.Event(len(self.log) + 1, m.EventType.CARD_DRAWN, 0))))
            try:
                self._transport.write_raw(wire[: len(wire) // 2])
            except DeviceError:
                pass
        self._unplugged.clear()
        self._plugged.clear()
        if self._stop.is_set():  # switched off meanwhile: nothing to wait for
            self._plugged.set()
        self._unplug_for = max(float(seconds), 0.01)
        self._wake.set()
        if not self._unplugged.wait(5.0):  # answer once the port is really gone
            raise ValueError("the device could not be unplugged (is its port attached?)")
        return ""

    def ctl_plug(self) -> str:
        self._plugged.set()
        return ""

    def ctl_restart(self, seconds: str = "0.3") -> str:
        self._restart_pending = True
        return self.ctl_unplug(seconds)

    def ctl_fault(self, code: str, seconds: str = "") -> str:
        try:
            fault = m.Code[code.upper().replace("-", "_")]
        except KeyError:
            raise ValueError(f"unknown fault {code!r}: one of {', '.join(c.slug for c in m.Code if c)}") from None
        self.raise_fault(fault, self.count)
        if seconds:
            self.ctl_later(seconds, "clear")
        return ""

    def ctl_clear(self) -> str:
        with self.lock:
            if self.fault is not None:
                code, self.fault = self.fault, None
                self.emit(m.EventType.FAULT_CLEARED, self.count, code=code)
        return ""

    def ctl_ignore(self, what: str, n: str = "1") -> str:
        if what == "off":
            self._ignore.clear()
            return ""
        if what not in (*COMMAND_NAMES, "all"):
            raise ValueError(f"unknown command {what!r}: one of {', '.join(COMMAND_NAMES)}, all")
        self._ignore[what] = int(n)
        return ""

    def ctl_badcard(self, code: str = "qh") -> str:
        raw = code.encode("ascii")
        if len(raw) != 2:
            raise ValueError(f"a card code is two bytes, not {code!r}")
        self._bad_card = raw
        return ""

    def ctl_badreply(self) -> str:
        self._bad_reply = True
        return ""

    def ctl_on(self, when: str, *rest: str) -> str:
        if when not in (*COMMAND_NAMES, "card"):
            raise ValueError(f"unknown moment {when!r}: one of {', '.join(COMMAND_NAMES)}, card")
        n, action = 1, list(rest)
        if action and action[0].isdigit():
            n, action = int(action[0]), action[1:]
        if not action:
            raise ValueError("on: no action given")
        with self.lock:
            self._triggers.append((when, n, " ".join(action)))
        return ""

    def ctl_later(self, seconds: str, *action: str) -> str:
        line = " ".join(action)
        timer = threading.Timer(float(seconds), self._quietly, args=(line,))
        timer.daemon = True
        timer.start()
        return ""

    def _quietly(self, line: str) -> None:
        try:
            self.control(line)
        except ValueError:
            pass

    def ctl_behave(self, *args: str) -> str:
        self.behaviour = self.behaviour.with_settings(parse_options(list(args)))
        return ""

    def ctl_identity(self, *args: str) -> str:
        for key, value in parse_options(list(args)).items():
            if key not in ("model", "serial", "firmware"):
                raise ValueError(f"unknown identity field {key!r}")
            setattr(self.identity, key, value)
        return ""

    def ctl_sleep(self, seconds: str) -> str:
        time.sleep(float(seconds))
        return ""

    def ctl_timings(self, path: str) -> str:
        with open(path, "w", encoding="ascii") as out:
            out.writelines(f"{n} {self.log[n - 1 - self.forgotten].type.name} {ns}\n"
                           for n, ns in sorted(self.written_ns.items()) if n > self.forgotten)
        return ""

    def ctl_status(self) -> str:
        st = self.status(0)
        return f"state={st.state.name.lower()} fault={st.fault.slug} count={st.count} last_event={st.last_event}"

    def ctl_report(self) -> str:
        with self.lock:
            return json.dumps({
                "out": [[how, None if c is None else c.code] for how, c in self.out],
                "reached": [[how, None if c is None else c.code] for how, c in self.reached],
                "wiped": [[how, None if c is None else c.code] for how, c in self.wiped],
                "boot": self.identity.boot,
            })
