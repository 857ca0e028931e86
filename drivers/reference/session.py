"""A supervised session with one reference-protocol device: connect, identify, watch, reconnect.

``Session.open`` connects and checks the device's identity against the
configured one (``IdentityMismatch`` if the model, serial number or firmware
differ: refused, never silently used). A supervisor thread then sends a
heartbeat whenever the line has been quiet for ``heartbeat`` seconds, so a
silent device is noticed within ``heartbeat + (retries + 1) * ack_timeout``
(under a second by default) and a closed port or pulled cable at once. On a
loss it tells the driver (``on_down(code, message)``), reconnects with doubling
backoff, re-identifies the device, and tells the driver again (``on_up``, with
the codes it reported down) so it can ask the device what happened while it
was gone.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
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
BACKOFF_FIRST = 0.05
BACKOFF_MAX = 1.0


@dataclass(frozen=True, slots=True)
class DeviceIdentity:
    """Who the device says it is."""

    kind: str
    model: str
    serial: str
    firmware: str
    boot: int


@dataclass(frozen=True, slots=True)
class Timing:
    """How patient a session is (docs/protocol.md section 6)."""

    heartbeat: float = HEARTBEAT
    ack_timeout: float = ACK_TIMEOUT
    retries: int = RETRIES
    reply_timeout: float = REPLY_TIMEOUT


@dataclass(frozen=True, slots=True)
class Expected:
    """The configured identity; ``None`` accepts any value."""

    model: str | None = None
    serial: str | None = None
    firmware: str | None = None

    def check(self, ident: DeviceIdentity, where: str) -> None:
        for field in ("model", "serial", "firmware"):
            want = getattr(self, field)
            if want is not None and getattr(ident, field) != want:
                raise IdentityMismatch(
                    f"{ident.kind} on {where} reports {field} {getattr(ident, field)!r} but the configuration "
                    f"expects {want!r}: refused"
                )


class Session:
    """One device, connected and supervised (see module doc)."""

    def __init__(
        self,
        open_transport: Callable[[], Transport],
        kind: m.DeviceKind,
        *,
        expected: Expected = Expected(),
        on_event: Callable[[m.Event], None] = lambda ev: None,
        on_status: Callable[[m.Status], None] = lambda st: None,
        on_down: Callable[[str, str], None] = lambda code, why: None,
        on_up: Callable[[DeviceIdentity, list[str]], None] = lambda ident, codes: None,
        timing: Timing = Timing(),
    ) -> None:
        self._open_transport = open_transport
        self._kind = kind
        self._expected = expected
        self._on_event, self._on_status = on_event, on_status
        self._on_down, self._on_up = on_down, on_up
        self._heartbeat = timing.heartbeat
        self._ack_timeout, self._retries = timing.ack_timeout, timing.retries
        self._reply_timeout = timing.reply_timeout
        self._link: Link | None = None
        self._connected = False
        self._closed = False
        self._replies: dict[int, m.Message] = {}
        self._reply_cond = threading.Condition()
        self._tasks: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._supervisor = threading.Thread(target=self._supervise, name="session-supervisor", daemon=True)
        self.identity: DeviceIdentity | None = None
        self.where = "device"
        self.protocol_errors = 0

    @property
    def connected(self) -> bool:
        return self._connected

    def open(self) -> DeviceIdentity:
        """Connect for the first time; errors here are the caller's to report."""
        ident = self._connect()
        self._supervisor.start()
        return ident

    def request(self, command: m.Command, timeout: float | None = None) -> m.Message:
        """Send ``command`` and return the device's reply to it."""
        link = self._link
        if link is None or not self._connected:
            raise DeviceLost(f"{self.where}: not connected (reconnecting)")
        return self._request(link, command, timeout)

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
        """The reply to ``command``: ``DeviceLost`` if the line is dead, ``DeviceTimeout`` if the device is slow."""
        try:
            seq = link.send(command.KIND, m.encode(command))
        except DeviceTimeout as exc:
            link.close()
            self._tasks.put(None)
            raise DeviceLost(str(exc)) from exc
        deadline = time.monotonic() + (self._reply_timeout if timeout is None else timeout)
        with self._reply_cond:
            while seq not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0 or not link.alive:
                    if not link.alive:
                        raise DeviceLost(f"{self.where}: lost while waiting for the answer to {type(command).__name__}")
                    raise DeviceTimeout(f"{self.where}: no answer to {type(command).__name__} in time")
                self._reply_cond.wait(min(left, 0.05))
            return self._replies.pop(seq)

    def _connect(self) -> DeviceIdentity:
        transport = self._open_transport()
        self.where = transport.description
        link = Link(
            transport, self._on_frame, self._on_link_lost,
            ack_timeout=self._ack_timeout, retries=self._retries, name=self.where,
        ).start()
        try:
            link.sync()
            reply = self._request(link, m.Hello(), None)
            if not isinstance(reply, m.Identity):
                raise ProtocolError(f"{self.where}: answered Hello with {type(reply).__name__}, not Identity")
            if reply.device is not self._kind:
                raise IdentityMismatch(f"{self.where} is a {reply.device.name.lower()}, not a {self._kind.name.lower()}")
            ident = DeviceIdentity(reply.device.name.lower(), reply.model, reply.serial, reply.firmware, reply.boot)
            self._expected.check(ident, self.where)
        except BaseException:
            link.close()
            raise
        self._link, self.identity, self._connected = link, ident, True
        log.info("%s connected: %s serial %s firmware %s", self.where, ident.model, ident.serial, ident.firmware)
        return ident

    def _on_frame(self, frame: Frame) -> None:
        try:
            msg = m.decode(frame.kind, frame.payload)
        except ProtocolError as exc:
            self.protocol_errors += 1
            log.warning("%s: protocol error: %s", self.where, exc)
            return
        if isinstance(msg, m.Event):
            self._on_event(msg)
        elif isinstance(msg, m.Identity | m.Status | m.Result | m.Stack):
            with self._reply_cond:
                self._replies[msg.request] = msg
                for stale in list(self._replies)[:-16]:
                    del self._replies[stale]
                self._reply_cond.notify_all()

    def _on_link_lost(self, exc: DeviceLost) -> None:
        self._tasks.put(None)

    def _supervise(self) -> None:
        while not self._closed:
            try:
                task = self._tasks.get(timeout=self._heartbeat / 2)
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
        link = self._link
        if link is None or time.monotonic() - link.last_rx < self._heartbeat:
            return
        try:
            status = self._request(link, m.GetStatus(), 1.0)
        except DeviceTimeout:
            link.close()
            raise
        if isinstance(status, m.Status):
            self._on_status(status)

    def _recover(self) -> None:
        if self._closed:
            return
        self._connected = False
        if self._link is not None:
            self._link.close()
        log.warning("%s: device lost, reconnecting", self.where)
        self._on_down("communication-lost", f"the {self._kind.name.lower()} stopped answering: reconnecting")
        reported = ["communication-lost"]
        delay = BACKOFF_FIRST
        while not self._closed:
            try:
                ident = self._connect()
            except IdentityMismatch as exc:
                log.error("%s: device refused: %s", self.where, exc)
                if "identity-mismatch" not in reported:
                    self._on_down("identity-mismatch", str(exc))
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
