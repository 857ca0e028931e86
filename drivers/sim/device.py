"""What every simulated device shares: the port, the link, the event log and the control commands.

A simulated device serves one endpoint (pseudo-terminal or socket), answers
the reference protocol through the same ``Link`` the driver uses, numbers and
logs every event it raises (so a host can ask for a replay), and obeys control
commands, one per line, from a test, a script file or a terminal:

``noise drop=P duplicate=P corrupt=P delay=P``
    damage bytes on the line (probabilities; ``noise`` alone clears).
``unplug SECONDS [midframe]``
    vanish for SECONDS (mid-way through a frame with ``midframe``), then come back.
``fault CODE`` / ``clear``
    enter a fault (``jam``, ``door-open``, ...) until cleared at the machine.
``identity model=M serial=S firmware=F``
    change what the device reports (to test refusal of a swapped device).
``sleep SECONDS``, ``timings PATH``, ``status``
    pause a script; write when each event was first written (``number TYPE monotonic-ns`` lines); show state.

Each device kind adds its own commands (see ``drivers.sim.shoe`` and ``drivers.sim.shuffler``).
"""

from __future__ import annotations

import os
import queue
import random
import threading
import time
from dataclasses import dataclass, field, fields

from controller.cards import Card
from drivers.errors import DeviceError, ProtocolError
from drivers.protocol import messages as m
from drivers.protocol.frame import Frame, encode
from drivers.protocol.link import Link
from drivers.sim.endpoints import FaultyTransport, LineFaults, PtyEndpoint, SocketEndpoint


@dataclass
class SimIdentity:
    model: str
    serial: str = "SIM-0001"
    firmware: str = "1.0.0"
    boot: int = field(default_factory=lambda: os.getpid() & 0xFFFF)


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
        self, endpoint: PtyEndpoint | SocketEndpoint, identity: SimIdentity, seed: int | None, ack_timeout: float
    ) -> None:
        self.endpoint = endpoint
        self.ack_timeout = ack_timeout
        self.identity = identity
        self.rng = random.Random(seed)
        self.faults = LineFaults()
        self.fault: m.Code | None = None
        self.log: list[m.Event] = []
        self.written_ns: dict[int, int] = {}
        self.lock = threading.RLock()
        self._link: Link | None = None
        self._transport: FaultyTransport | None = None
        self._outbox: queue.Queue[tuple[int, bytes, int]] = queue.Queue()
        self._commands: queue.Queue[Frame] = queue.Queue()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._unplug_for = 0.0
        self._unplugged = threading.Event()
        self._attached = threading.Event()
        self._line_rng = random.Random(None if seed is None else seed + 1)

    @property
    def url(self) -> str:
        return self.endpoint.url

    def start(self) -> SimDevice:
        for target in (self._serve, self._send_loop, self._command_loop):
            threading.Thread(target=target, name=f"sim-{target.__name__}", daemon=True).start()
        if isinstance(self.endpoint, PtyEndpoint):  # a socket is ready once listening
            self._attached.wait(5.0)
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._outbox.put((0, b"", 0))
        self._commands.put(Frame(0, 0))

    # ---- events -------------------------------------------------------

    def emit(self, type_: m.EventType, count: int, card: Card | None = None, code: m.Code = m.Code.OK) -> m.Event:
        with self.lock:
            ev = m.Event(len(self.log) + 1, type_, count, card, code)
            self.log.append(ev)
            self._outbox.put((m.Event.KIND, m.encode(ev), ev.number))
        return ev

    def reply(self, msg: m.Reply) -> None:
        self._outbox.put((msg.KIND, m.encode(msg), 0))

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
            link = Link(
                self._transport, self._commands.put, lambda exc: self._wake.set(),
                ack_timeout=self.ack_timeout, name=f"sim {self.url}",
            )
            self._link = link.start()
            self._attached.set()
            while not self._stop.is_set() and link.alive and not self._unplug_for:
                self._wake.wait(0.1)
                self._wake.clear()
            self._link = None
            link.close()
            self.endpoint.detach()
            if self._unplug_for:
                self._unplugged.set()
                time.sleep(self._unplug_for)
                self._unplug_for = 0.0

    def _send_loop(self) -> None:
        while not self._stop.is_set():
            kind, payload, number = self._outbox.get()
            link = self._link
            if link is None or not link.alive or not kind:
                continue
            if number and number not in self.written_ns:
                self.written_ns[number] = time.monotonic_ns()
            try:
                link.send(kind, payload)
            except DeviceError:
                pass

    def _command_loop(self) -> None:
        while not self._stop.is_set():
            frame = self._commands.get()
            if not frame.kind:
                continue
            try:
                command = m.decode(frame.kind, frame.payload)
            except ProtocolError:
                self.reply(m.Result(frame.seq, frame.kind, m.Code.BAD_REQUEST))
                continue
            with self.lock:
                self.handle(frame.seq, command)

    def handle(self, request: int, command: m.Message) -> None:
        """Answer one command; subclasses handle their own and defer the rest here."""
        match command:
            case m.Hello():
                self._drop_queued_events()
                ident = self.identity
                self.reply(m.Identity(request, m.PROTOCOL_VERSION, self.KIND, ident.boot, ident.model, ident.serial, ident.firmware))
            case m.GetStatus():
                self.reply(self.status(request))
            case m.Replay(first):
                self.reply(m.Result(request, command.KIND, m.Code.OK, len(self.log)))
                for ev in self.log[max(first, 1) - 1 :]:
                    self._outbox.put((m.Event.KIND, m.encode(ev), ev.number))
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
            if item[0] != m.Event.KIND:
                kept.append(item)
        for item in kept:
            self._outbox.put(item)

    def status(self, request: int) -> m.Status:
        raise NotImplementedError

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
        self._unplug_for = max(float(seconds), 0.01)
        self._wake.set()
        if not self._unplugged.wait(5.0):  # answer once the port is really gone
            raise ValueError("the device could not be unplugged (is its port attached?)")
        return ""

    def ctl_fault(self, code: str) -> str:
        try:
            fault = m.Code[code.upper().replace("-", "_")]
        except KeyError:
            raise ValueError(f"unknown fault {code!r}: one of {', '.join(c.slug for c in m.Code if c)}") from None
        self.raise_fault(fault, self.count)
        return ""

    def ctl_clear(self) -> str:
        with self.lock:
            if self.fault is not None:
                code, self.fault = self.fault, None
                self.emit(m.EventType.FAULT_CLEARED, self.count, code=code)
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
            out.writelines(f"{n} {self.log[n - 1].type.name} {ns}\n" for n, ns in sorted(self.written_ns.items()))
        return ""

    def ctl_status(self) -> str:
        st = self.status(0)
        return f"state={st.state.name.lower()} fault={st.fault.slug} count={st.count} last_event={st.last_event}"

    @property
    def count(self) -> int:
        return self.status(0).count
