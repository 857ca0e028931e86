"""The conformance kit's end of the line: the reference protocol spoken by hand, so every rule can be tested.

Unlike the drivers' ``Link``, a ``Probe`` lets the kit break the rules on
purpose (garbage, a frame cut short, the same frame twice, a kind no command
has, an ACK withheld) and records everything the device sends, frame by frame,
so a clause can check what the device did, not what a driver made of it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from drivers.errors import DeviceError, DeviceLost, ProtocolError
from drivers.protocol import messages as m
from drivers.protocol.frame import ACK, SYNC_LINK, Frame, FrameDecoder, encode
from drivers.transport import Transport
from drivers.transport.serial import SerialTransport


class ProbeError(AssertionError):
    """What the device did wrong, in words for the kit's report."""


@dataclass
class Received:
    """One frame from the device, when it came, and the message it carried (``None``: not decodable)."""

    frame: Frame
    at: float
    message: m.Message | None = None
    problem: str = ""
    acked: bool = True


@dataclass
class Probe:
    """One connection to the device under test (see module doc)."""

    port: str
    open_transport: Callable[[str], Transport] = SerialTransport
    seq: int = 0x30
    withhold_acks: bool = False
    frames: list[Received] = field(default_factory=list)
    acks: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._cond = threading.Condition()
        self._transport: Transport | None = None
        self._reader: threading.Thread | None = None
        self._closed = True
        self._last_delivered: int | None = None
        self.lost: str | None = None

    # -- the connection -------------------------------------------------

    def connect(self, attempts: float = 10.0) -> Probe:
        deadline = time.monotonic() + attempts
        while True:
            try:
                self._transport = self.open_transport(self.port)
                break
            except DeviceLost:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        self._closed, self.lost, self._last_delivered = False, None, None
        with self._cond:
            self.frames, self.acks = [], []  # a new connection: nothing before it answers anything on it
        decoder = FrameDecoder()
        self._reader = threading.Thread(target=self._read, args=(self._transport, decoder), daemon=True)
        self._reader.start()
        return self

    def close(self) -> None:
        self._closed = True
        if self._transport is not None:
            self._transport.close()
        if self._reader is not None:
            self._reader.join(1.0)

    def reconnect(self, after: float = 0.0) -> Probe:
        self.close()
        time.sleep(after)
        return self.connect()

    def _read(self, transport: Transport, decoder: FrameDecoder) -> None:
        """The reader of one connection: once ``reconnect`` replaced it (its join may time out on a busy machine),
        it neither records frames nor reports its closed port as the new connection's loss."""
        last_rx = time.monotonic()
        while not self._closed and transport is self._transport:
            try:
                data = transport.read()
            except DeviceLost as exc:
                with self._cond:
                    if not self._closed and transport is self._transport:
                        self.lost = str(exc)
                    self._cond.notify_all()
                return
            now = time.monotonic()
            if data:
                last_rx = now
                frames = decoder.feed(data)
            elif decoder.pending and now - last_rx > 0.02:
                frames = decoder.expire()
            else:
                continue
            for frame in frames:
                self._take(frame, transport)

    def _take(self, frame: Frame, transport: Transport) -> None:
        now = time.monotonic()
        with self._cond:
            if frame.kind == ACK:
                self.acks.append(frame.seq)
                self._cond.notify_all()
                return
            record = Received(frame, now, acked=not self.withhold_acks)
            if frame.kind != SYNC_LINK and frame.seq != self._last_delivered:
                try:
                    record.message, problem = m.decode_cards_leniently(frame.kind, frame.payload)
                    record.problem = problem or ""
                except ProtocolError as exc:
                    record.problem = str(exc)
            if frame.kind == SYNC_LINK or frame.seq != self._last_delivered:
                self._last_delivered = frame.seq if record.acked else self._last_delivered
                self.frames.append(record)
            self._cond.notify_all()
        if record.acked:
            try:
                transport.write(encode(Frame(ACK, frame.seq)))
            except DeviceError:
                pass

    # -- sending --------------------------------------------------------

    def next_seq(self) -> int:
        self.seq = (self.seq + 1) & 0xFF
        return self.seq

    def raw(self, data: bytes) -> None:
        assert self._transport is not None
        self._transport.write(data)

    def write_frame(self, kind: int, payload: bytes = b"", seq: int | None = None) -> int:
        seq = self.next_seq() if seq is None else seq
        self.raw(encode(Frame(kind, seq, payload)))
        return seq

    def send(self, kind: int, payload: bytes = b"", seq: int | None = None) -> int:
        """Write a frame and wait for its ACK, retransmitting as 3.2 says; ``ProbeError`` if none comes."""
        seq = self.next_seq() if seq is None else seq
        wire = encode(Frame(kind, seq, payload))
        wait = 0.05
        with self._cond:
            start = len(self.acks)
        for _ in range(9):
            self.raw(wire)
            with self._cond:
                if self._cond.wait_for(lambda: seq in self.acks[start:] or self.lost is not None, wait):
                    if self.lost is not None:
                        raise ProbeError(f"the line was lost: {self.lost}")
                    return seq
            wait = min(wait * 2, 0.2)
        raise ProbeError(f"frame {seq} (kind 0x{kind:02x}) was never acknowledged")

    def sync(self) -> None:
        self.send(SYNC_LINK)

    def command(self, command: m.Command, timeout: float = 5.0) -> m.Message:
        """Send ``command``; its one reply (``ProbeError`` if none comes within ``timeout`` of the ACK)."""
        mark = self.mark()
        seq = self.send(command.KIND, m.encode(command))
        return self.reply_to(seq, type(command).__name__, timeout, mark)

    def send_marked(self, kind: int, payload: bytes = b"", seq: int | None = None) -> tuple[int, int]:
        """``send``, and the mark taken just before it (to find its reply among what comes after)."""
        mark = self.mark()
        return self.send(kind, payload, seq), mark

    def reply_to(self, seq: int, name: str, timeout: float = 5.0, since: int = 0) -> m.Message:
        found = self.wait_for(lambda r: _is_reply(r) and r.message.request == seq, timeout, since)  # type: ignore[union-attr]
        if not found:
            raise ProbeError(f"no answer to {name} (request {seq}) within {timeout:g} s")
        assert found[0].message is not None
        return found[0].message

    # -- what came back -------------------------------------------------

    def mark(self) -> int:
        """A point in the record of received frames, to look only at what comes after it."""
        with self._cond:
            return len(self.frames)

    def since(self, mark: int) -> list[Received]:
        with self._cond:
            return list(self.frames[mark:])

    def wait_for(self, match: Callable[[Received], bool], timeout: float, since: int = 0) -> list[Received]:
        """Frames received (after ``since``) that ``match``, waiting up to ``timeout`` for the first."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                hits = [r for r in self.frames[since:] if match(r)]
                left = deadline - time.monotonic()
                if hits or left <= 0:
                    return hits
                self._cond.wait(min(left, 0.05))

    def mark_after(self, match: Callable[[m.Event], bool], timeout: float, since: int = 0) -> int | None:
        """The mark just after the first event (after ``since``) that ``match``es, waiting up to ``timeout`` for it;
        ``None`` if none came. What the device did after an event is counted from the event itself, never from when a
        reply came: events sent after it may arrive before the reply (or before the caller takes a mark)."""
        hits = self.wait_for(lambda r: isinstance(r.message, m.Event) and match(r.message), timeout, since)
        if not hits:
            return None
        with self._cond:
            return next(i for i, r in enumerate(self.frames) if r is hits[0]) + 1

    def events(self, since: int = 0) -> list[m.Event]:
        return [r.message for r in self.since(since) if isinstance(r.message, m.Event)]

    def wait_events(self, match: Callable[[m.Event], bool], timeout: float, since: int = 0) -> list[m.Event]:
        hits = self.wait_for(lambda r: isinstance(r.message, m.Event) and match(r.message), timeout, since)
        return [r.message for r in hits if isinstance(r.message, m.Event)]


def _is_reply(r: Received) -> bool:
    return isinstance(r.message, m.Identity | m.Status | m.Result | m.Stack)
