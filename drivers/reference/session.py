"""A supervised session with one reference-protocol device: connect, identify, watch, reconnect.

``Session.open`` connects and checks the device's identity against the
configured one (``IdentityMismatch`` if the kind, protocol version, model,
serial number or firmware differ: refused, never silently used). A supervisor
thread then sends a heartbeat whenever the line has been quiet for
``heartbeat`` seconds, so a device that stops acknowledging is noticed within
``heartbeat`` plus the link's retransmissions (under two seconds by default)
and a closed port or pulled cable at once. On a loss it tells the driver
(``on_down(code, message)``), reconnects with doubling backoff, re-identifies
the device, and tells the driver again (``on_up``, with the codes it reported
down) so it can ask the device what happened while it was gone.

A slow answer is not a loss (docs/protocol.md 9.2): while the device
acknowledges frames the link is alive. A command acknowledged and never
answered is repeated once when repeating is harmless, then reported as
``no-answer`` (9.4), which is over (``on_over``) as soon as the device answers
again. Replies nobody asked for, and messages that break the protocol, are
counted and reported (``on_protocol_error``) in words that name the device.

A reply answers a command only if its ``request`` is the ``SEQ`` of a command
still awaited on this connection and its kind fits that command (4.2): a
reply that comes after the host stopped waiting (9.2), or one a device on a
serial line still sends from the host's previous connection (3.6, 3.9: it
comes before this connection's Identity), is dropped. Sequence numbers wrap
at 256, so a reply kept for nobody would one day answer a later command that
happens to carry the same number (a Status taken for a Dispense's stack).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from drivers.errors import DeviceError, DeviceLost, DeviceTimeout, IdentityMismatch, ProtocolError
from drivers.protocol import messages as m
from drivers.protocol.frame import Frame
from drivers.protocol.link import ACK_TIMEOUT, RETRIES, Link
from drivers.transport import Transport

log = logging.getLogger("drivers.session")

HEARTBEAT = 0.25
REPLY_TIMEOUT = 5.0
STARTING_WAIT = 30.0
CONNECT_WAIT = 10.0
"""How long the first connection is tried (a device just switched on, a cable plugged in late) before giving up."""
STARTING_POLL = 0.5
BACKOFF_FIRST = 0.05
BACKOFF_MAX = 1.0
HARMLESS = (m.Hello, m.GetStatus, m.Replay, m.Deal, m.Shuffle, m.Verify)
"""Commands repeated once when their answer does not come (9.4, 9.5): never Dispense or Alternate."""


@dataclass(frozen=True, slots=True)
class DeviceIdentity:
    """Who the device says it is."""

    kind: str
    model: str
    serial: str
    firmware: str
    boot: int
    version: int = m.PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class Timing:
    """How patient a session is (docs/protocol.md 9.1)."""

    heartbeat: float = HEARTBEAT
    ack_timeout: float = ACK_TIMEOUT
    retries: int = RETRIES
    reply_timeout: float = REPLY_TIMEOUT
    starting_wait: float = STARTING_WAIT
    connect_wait: float = CONNECT_WAIT


@dataclass(frozen=True, slots=True)
class Expected:
    """The configured identity; ``None`` accepts any value."""

    model: str | None = None
    serial: str | None = None
    firmware: str | None = None

    def check(self, ident: DeviceIdentity, where: str) -> None:
        if ident.version != m.PROTOCOL_VERSION:
            raise IdentityMismatch(
                f"{ident.kind} on {where} speaks protocol version {ident.version}, but tablectl speaks version "
                f"{m.PROTOCOL_VERSION} (docs/protocol.md): refused"
            )
        for field in ("model", "serial", "firmware"):
            want = getattr(self, field)
            if want is not None and getattr(ident, field) != want:
                raise IdentityMismatch(
                    f"{ident.kind} on {where} reports {field} {getattr(ident, field)!r} but the configuration "
                    f"expects {want!r}: refused"
                )


ANSWERS = {m.Hello.KIND: m.Identity.KIND, m.GetStatus.KIND: m.Status.KIND, m.Dispense.KIND: m.Stack.KIND}
"""The reply of another kind than Result that answers a command kind."""


def answers(command: m.Command, reply: m.Reply) -> bool:
    """Whether ``reply`` is of a kind that answers ``command`` (4.2), its ``request`` aside: a Result naming the
    command's kind answers any command; Hello is answered by an Identity, GetStatus by a Status, Dispense by a
    Stack."""
    if isinstance(reply, m.Result):
        return reply.command == command.KIND
    return ANSWERS.get(command.KIND) == reply.KIND


@dataclass(eq=False)
class Awaited:
    """A command sent on ``link`` and not answered yet; ``since`` is the number of stray replies seen before it."""

    command: m.Command
    link: Link
    since: int
    seq: int = -1
    reply: m.Reply | None = None


class StrayReply(ProtocolError):
    """The device answered a command with a reply whose ``request`` byte names no command sent (4.2).

    ``reply`` is what it sent: a driver may still record its cards.
    """

    def __init__(self, message: str, reply: m.Message) -> None:
        super().__init__(message)
        self.reply = reply


class Session:
    """One device, connected and supervised (see module doc)."""

    def __init__(
        self,
        open_transport: Callable[[], Transport],
        kind: m.DeviceKind,
        *,
        expected: Expected = Expected(),
        on_event: Callable[[m.Event, str | None], None] = lambda ev, problem: None,
        on_status: Callable[[m.Status, int], None] = lambda st, before: None,
        delivered: Callable[[], int] = lambda: 0,
        on_down: Callable[[str, str], None] = lambda code, why: None,
        on_up: Callable[[DeviceIdentity, list[str]], None] = lambda ident, codes: None,
        on_over: Callable[[str, str], None] = lambda code, why: None,
        on_replay_result: Callable[[m.Result], None] = lambda result: None,
        on_protocol_error: Callable[[str], None] = lambda why: None,
        timing: Timing = Timing(),
    ) -> None:
        self._open_transport = open_transport
        self._kind = kind
        self.noun = f"the {kind.name.lower()}"
        self._expected = expected
        self._on_event, self._on_status, self._delivered = on_event, on_status, delivered
        self._on_down, self._on_up, self._on_over = on_down, on_up, on_over
        self._on_replay_result, self._on_protocol_error = on_replay_result, on_protocol_error
        self.timing = timing
        self._link: Link | None = None
        self._connected = False
        self._identified = False
        self._closed = False
        self._awaited: dict[int, Awaited] = {}
        self._given_up: deque[int] = deque(maxlen=32)
        """Requests the host stopped waiting for: an answer to one of them is late (9.2), not a stray."""
        self._strays: deque[tuple[int, m.Reply]] = deque(maxlen=16)
        self._stray_count = 0
        self._reply_cond = threading.Condition()
        self._tasks: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._supervisor = threading.Thread(target=self._supervise, name="session-supervisor", daemon=True)
        self._no_answer = False
        self._lost_why = "the port closed"
        self.identity: DeviceIdentity | None = None
        self.where = "device"
        self.protocol_errors = 0
        self.ignored_before_hello = 0

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def answering(self) -> bool:
        """False while a ``no-answer`` is reported (the device acknowledges but does not answer)."""
        return not self._no_answer

    def open(self) -> DeviceIdentity:
        """Connect for the first time, trying again with backoff for ``Timing.connect_wait`` while the device is
        absent or silent; a refusal (``IdentityMismatch``) or the last failure is the caller's to report."""
        deadline = time.monotonic() + self.timing.connect_wait
        delay = BACKOFF_FIRST
        while True:
            try:
                ident = self._connect()
                break
            except IdentityMismatch:
                raise
            except (DeviceLost, DeviceTimeout, ProtocolError):
                if time.monotonic() + delay > deadline:
                    raise
            time.sleep(delay)
            delay = min(delay * 2, BACKOFF_MAX)
        self._supervisor.start()
        return ident

    def request(self, command: m.Command, timeout: float | None = None, *, quiet: bool = False) -> m.Message:
        """Send ``command`` and return the device's reply to it (repeated once if harmless and unanswered).

        ``quiet``: asked once, and an unanswered command is not reported as ``no-answer`` (a host that stops).
        """
        link = self._link
        if link is None or not self._connected:
            raise DeviceLost(f"{self.where}: not connected (reconnecting)")
        if quiet:
            return self._request(link, command, timeout)
        tries = 2 if isinstance(command, HARMLESS) else 1
        for attempt in range(tries):
            try:
                reply = self._request(link, command, timeout)
            except StrayReply:
                if attempt + 1 < tries:
                    continue
                raise
            except DeviceTimeout:
                if attempt + 1 < tries:
                    log.warning("%s: no answer to %s, asking again", self.where, type(command).__name__)
                    continue
                self._report_no_answer(command)
                raise
            self._answered()
            return reply
        raise AssertionError("unreachable")

    def request_when_ready(self, command: m.Command, timeout: float | None = None) -> m.Message:
        """``request``, waiting out a device that is still starting (8.5): ``NOT_READY`` while it reports busy
        is asked again every half second, for up to ``Timing.starting_wait``."""
        deadline = time.monotonic() + self.timing.starting_wait
        while True:
            reply = self.request(command, timeout)
            if not (isinstance(reply, m.Result) and reply.code is m.Code.NOT_READY) or time.monotonic() > deadline:
                return reply
            if self.status().state is not m.State.BUSY:
                return reply
            time.sleep(STARTING_POLL)

    def status(self) -> m.Status:
        reply = self.request(m.GetStatus())
        if not isinstance(reply, m.Status):
            raise ProtocolError(f"{self.where}: answered GetStatus with {type(reply).__name__}, not Status")
        return reply

    def schedule(self, task: Callable[[], None]) -> None:
        """Run ``task`` on the supervisor thread (for work a reader callback must not block on)."""
        self._tasks.put(task)

    def close(self) -> None:
        self._closed = True
        self._tasks.put(None)
        if self._link is not None:
            self._link.close()
        if self._supervisor.is_alive():
            self._supervisor.join(timeout=2.0)

    def _request(self, link: Link, command: m.Command, timeout: float | None) -> m.Message:
        """The reply to ``command``: ``DeviceLost`` if the line is dead, ``DeviceTimeout`` if no answer came,
        ``StrayReply`` if what came answers no command sent."""
        with self._reply_cond:
            awaited = Awaited(command, link, self._stray_count)

        def sending(seq: int) -> None:
            with self._reply_cond:
                awaited.seq = seq
                self._awaited[seq] = awaited

        try:
            try:
                link.send(command.KIND, m.encode(command), on_seq=sending)
            except DeviceTimeout as exc:
                self._lost_why = str(exc)
                link.close()
                self._tasks.put(None)
                raise DeviceLost(f"{self.where}: {exc}") from exc
            deadline = time.monotonic() + (self.timing.reply_timeout if timeout is None else timeout)
            with self._reply_cond:
                while awaited.reply is None:
                    left = deadline - time.monotonic()
                    if not link.alive:
                        raise DeviceLost(f"{self.where}: lost while waiting for the answer to {type(command).__name__}")
                    if left <= 0:
                        self._raise_unanswered(awaited)
                    self._reply_cond.wait(min(left, 0.05))
                return awaited.reply
        finally:
            with self._reply_cond:
                if self._awaited.get(awaited.seq) is awaited:
                    del self._awaited[awaited.seq]
                    if awaited.reply is None:
                        self._given_up.append(awaited.seq)

    def _raise_unanswered(self, awaited: Awaited) -> None:
        """No answer carries the command's ``SEQ``: a reply to no command sent that came meanwhile, if one did
        (of the command's kind, or carrying its ``SEQ`` but of another kind), else plain silence."""
        name, seq = type(awaited.command).__name__, awaited.seq
        came = [(n, reply) for n, reply in self._strays if n > awaited.since]
        for n, reply in came:
            if answers(awaited.command, reply) or reply.request == seq:
                self._strays.remove((n, reply))
                what = (f"a reply to request {reply.request}" if reply.request != seq
                        else f"a {type(reply).__name__}, which does not answer it")
                self._protocol_error(f"answered {name} (request {seq}) with {what} (4.2)")
                raise StrayReply(f"{self.where}: answered {name} (request {seq}) with {what}", reply)
        raise DeviceTimeout(f"{self.where}: no answer to {name} in time")

    def _report_no_answer(self, command: m.Command) -> None:
        if self._no_answer or not self._connected:
            return
        self._no_answer = True
        log.warning("%s: acknowledges %s but does not answer it", self.where, type(command).__name__)
        self._on_down("no-answer", f"{self.noun} accepts commands but does not answer them: restart it; call "
                                   "technical support if it happens again")

    def _answered(self) -> None:
        if self._no_answer:
            self._no_answer = False
            self._on_over("no-answer", f"{self.noun} answers again")

    def _protocol_error(self, what: str) -> None:
        self.protocol_errors += 1
        log.warning("%s: protocol error: %s", self.where, what)
        self._on_protocol_error(what)

    def _connect(self) -> DeviceIdentity:
        transport = self._open_transport()
        self.where = transport.description
        self._identified = False
        link = Link(
            transport, lambda frame: self._on_frame(frame, link), self._on_link_lost,
            ack_timeout=self.timing.ack_timeout, retries=self.timing.retries, name=self.where,
        )
        link.start()
        try:
            link.sync()
            reply = self._request(link, m.Hello(), None)
            if not isinstance(reply, m.Identity):
                raise ProtocolError(f"{self.where}: answered Hello with {type(reply).__name__}, not Identity")
            if reply.device is not self._kind:
                raise IdentityMismatch(f"{self.where} is a {reply.device.name.lower()}, not a {self._kind.name.lower()}")
            ident = DeviceIdentity(reply.device.name.lower(), reply.model, reply.serial, reply.firmware, reply.boot,
                                   reply.version)
            self._expected.check(ident, self.where)
        except BaseException:
            link.close()
            raise
        self._link, self.identity, self._connected = link, ident, True
        log.info("%s connected: %s serial %s firmware %s", self.where, ident.model, ident.serial, ident.firmware)
        return ident

    def _on_frame(self, frame: Frame, link: Link) -> None:
        try:
            msg, problem = m.decode_cards_leniently(frame.kind, frame.payload)
        except ProtocolError as exc:
            self._protocol_error(f"frame kind 0x{frame.kind:02x}: {exc}")
            return
        if problem is not None:
            self._protocol_error(f"{type(msg).__name__}: {problem}")
        if isinstance(msg, m.Event):
            if not self._identified:
                self.ignored_before_hello += 1  # 3.9: the host replays what it needs after Hello
                return
            self._on_event(msg, problem)
        elif isinstance(msg, m.Identity | m.Status | m.Result | m.Stack):
            self._on_reply(msg, link)
        else:
            self._protocol_error(f"sent a {type(msg).__name__}, which only a host sends")

    def _on_reply(self, reply: m.Reply, link: Link) -> None:
        """Hand ``reply`` to the command it answers, or keep it aside (see module doc)."""
        with self._reply_cond:
            awaited = self._awaited.get(reply.request)
            if awaited is not None and (awaited.link is not link or not answers(awaited.command, reply)):
                awaited = None
        if awaited is None or (not self._identified and not isinstance(awaited.command, m.Hello)):
            self._keep_aside(reply)
            return
        if isinstance(reply, m.Identity):
            self._identified = True
        elif isinstance(reply, m.Result) and reply.command == m.Replay.KIND:
            self._on_replay_result(reply)  # before the replayed events that follow it on this thread
        with self._reply_cond:
            awaited.reply = reply
            self._reply_cond.notify_all()

    def _keep_aside(self, reply: m.Reply) -> None:
        """A reply that answers no command awaited: late (9.2), from before this connection's Identity (3.9), or
        a stray that a command left unanswered may name (``_raise_unanswered``)."""
        name = type(reply).__name__
        if not self._identified:
            self.ignored_before_hello += 1
            log.info("%s: %s to request %d before its Identity: ignored (3.9)", self.where, name, reply.request)
            return
        with self._reply_cond:
            if reply.request in self._given_up:
                log.info("%s: late %s to request %d, no longer awaited: dropped (9.2)", self.where, name, reply.request)
                return
            self._stray_count += 1
            self._strays.append((self._stray_count, reply))
        log.info("%s: %s to request %d answers no command awaited", self.where, name, reply.request)

    def _on_link_lost(self, exc: DeviceLost) -> None:
        self._lost_why = str(exc)
        self._tasks.put(None)

    def _supervise(self) -> None:
        while not self._closed:
            try:
                task = self._tasks.get(timeout=self.timing.heartbeat / 2)
            except queue.Empty:
                task = self._heartbeat_task
            if self._closed:
                return
            link = self._link
            if link is None or not link.alive:
                self._recover()
                continue
            if task is None:
                continue
            try:
                task()
            except DeviceError:
                if not (self._link and self._link.alive):
                    self._recover()

    def _heartbeat_task(self) -> None:
        """GetStatus when the line has been quiet: an unacknowledged one kills the link (``DeviceLost``);
        an acknowledged one left unanswered is ``no-answer``, never a dead link (9.2)."""
        link = self._link
        if link is None or time.monotonic() - link.last_rx < self.timing.heartbeat:
            return
        delivered = self._delivered()
        status = self.request(m.GetStatus())
        if isinstance(status, m.Status):
            self._on_status(status, delivered)

    def _recover(self) -> None:
        if self._closed:
            return
        self._connected = False
        if self._link is not None:
            self._link.close()
        log.warning("%s: device lost (%s), reconnecting", self.where, self._lost_why)
        self._lost_why = "the port closed"
        self._on_down("communication-lost",
                      f"{self.noun} stopped answering: check its cable and power (reconnecting)")
        reported = ["communication-lost"]
        if self._no_answer:
            self._no_answer = False
            reported.append("no-answer")
        delay = BACKOFF_FIRST
        while not self._closed:
            try:
                ident = self._connect()
            except IdentityMismatch as exc:
                log.error("%s: device refused: %s", self.where, exc)
                if "identity-mismatch" not in reported:
                    self._on_down("identity-mismatch", f"{exc}: reconnect the configured {self._kind.name.lower()}")
                    reported.append("identity-mismatch")
            except DeviceError as exc:
                log.debug("%s: reconnect failed (%s), retrying in %.2f s", self.where, exc, delay)
            else:
                self._drain_tasks()
                try:
                    self._on_up(ident, reported)
                    return
                except DeviceError as exc:
                    # Lost again while resuming (the replay went unanswered): reconnect again. Left to
                    # escape, it would end this thread and the device would never be recovered.
                    self._connected = False
                    if self._link is not None:
                        self._link.close()
                    log.warning("%s: lost again while resuming (%s), reconnecting", self.where, exc)
            time.sleep(delay)
            delay = min(delay * 2, BACKOFF_MAX)

    def _drain_tasks(self) -> None:
        while True:
            try:
                self._tasks.get_nowait()
            except queue.Empty:
                return
