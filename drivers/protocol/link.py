"""The reliable link: acknowledged, retransmitted, de-duplicated frames over a transport.

Both ends of the reference protocol run the same ``Link``. It is stop-and-wait:
``send`` writes a frame and waits for an ``ACK`` frame carrying the same
sequence number, retransmitting up to ``retries`` times; the wait starts at
``ack_timeout`` and doubles up to ``ack_timeout_max`` (four times the first by default; docs/protocol.md 3.2:
a busy peer gets about 1.5 s before the link is declared dead). The
receiving side delivers a frame with a good CRC only if its sequence number
differs from the last one delivered, and then acknowledges it (duplicates too,
since the duplicate means its earlier ACK was lost): once ``send`` returns, the
peer's ``on_frame`` has run. A ``SYNC`` frame resets
that memory; the host sends one first on every (re)connection.

A reader thread owns the transport's input. ``on_frame`` runs on that thread
and must not block (hand work to another thread); ``on_lost`` runs once, on
whichever thread first saw the transport fail.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from drivers.errors import DeviceLost, DeviceTimeout
from drivers.protocol.frame import ACK, SYNC_LINK, Frame, FrameDecoder, encode
from drivers.transport import Transport

ACK_TIMEOUT = 0.05
ACK_GROWTH = 4
"""The wait for an ACK doubles up to this many times the first wait (50 ms to 200 ms by default)."""
RETRIES = 8
STALE_AFTER = 0.02


@dataclass
class LinkStats:
    sent: int = 0
    retransmits: int = 0
    received: int = 0
    duplicates: int = 0


class Link:
    """Stop-and-wait delivery of frames over one transport (see module doc)."""

    def __init__(
        self,
        transport: Transport,
        on_frame: Callable[[Frame], None],
        on_lost: Callable[[DeviceLost], None] = lambda exc: None,
        *,
        ack_timeout: float = ACK_TIMEOUT,
        retries: int = RETRIES,
        name: str = "link",
        ack_timeout_max: float | None = None,
        first_seq: int | None = None,
    ) -> None:
        self.transport = transport
        self.decoder = FrameDecoder()
        self.stats = LinkStats()
        self.last_rx = time.monotonic()
        self._on_frame = on_frame
        self._on_lost = on_lost
        self._ack_timeout = ack_timeout
        self._ack_timeout_max = max(ack_timeout, ack_timeout * ACK_GROWTH if ack_timeout_max is None else ack_timeout_max)
        self._retries = retries
        self._name = name
        self._tx_seq = random.randrange(256) if first_seq is None else first_seq & 0xFF
        self._rx_last: int | None = None
        self._send_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._acked = threading.Condition()
        self._waiting: int | None = None
        self._ack_seen = False
        self._lost: DeviceLost | None = None
        self._closed = False
        self._reader = threading.Thread(target=self._read_loop, name=f"{name}-reader", daemon=True)

    def start(self) -> Link:
        self._reader.start()
        return self

    @property
    def next_seq(self) -> int:
        """The ``SEQ`` the next frame sent will carry."""
        return self._tx_seq

    @property
    def alive(self) -> bool:
        return self._lost is None and not self._closed

    def send(self, kind: int, payload: bytes = b"", *, on_seq: Callable[[int], None] | None = None) -> int:
        """Deliver one frame; returns its sequence number once acknowledged.

        ``on_seq`` is told that number before the frame is first written: an answer may arrive before ``send``
        returns. Raises ``DeviceTimeout`` when no ACK came after every retry and ``DeviceLost`` when the
        transport failed.
        """
        with self._send_lock:
            seq = self._tx_seq
            self._tx_seq = (seq + 1) & 0xFF
            wire = encode(Frame(kind, seq, payload))
            if on_seq is not None:
                on_seq(seq)
            with self._acked:
                self._waiting, self._ack_seen = seq, False
            wait = self._ack_timeout
            for attempt in range(self._retries + 1):
                if attempt:
                    self.stats.retransmits += 1
                    wait = min(wait * 2, self._ack_timeout_max)
                self._write(wire)
                with self._acked:
                    self._acked.wait_for(lambda: self._ack_seen or self._lost is not None, wait)
                    if self._ack_seen:
                        self.stats.sent += 1
                        return seq
                    if self._lost is not None:
                        raise DeviceLost(str(self._lost))
            raise DeviceTimeout(
                f"{self._name}: frame {seq} not acknowledged after {self._retries + 1} tries "
                f"({self._ack_timeout * 1000:.0f} to {self._ack_timeout_max * 1000:.0f} ms apart)"
            )

    def sync(self) -> None:
        """Make the peer forget the last sequence number it delivered (first thing after connecting)."""
        self.send(SYNC_LINK)

    def close(self) -> None:
        self._closed = True
        self.transport.close()
        if self._reader.is_alive() and self._reader is not threading.current_thread():
            self._reader.join(timeout=1.0)

    def _write(self, data: bytes) -> None:
        try:
            with self._write_lock:
                self.transport.write(data)
        except DeviceLost as exc:
            self._lose(exc)
            raise

    def _lose(self, exc: DeviceLost) -> None:
        with self._acked:
            if self._lost is not None or self._closed:
                return
            self._lost = exc
            self._acked.notify_all()
        self._on_lost(exc)

    def _read_loop(self) -> None:
        while not self._closed:
            try:
                data = self.transport.read()
            except DeviceLost as exc:
                if not self._closed:
                    self._lose(exc)
                return
            now = time.monotonic()
            if data:
                self.last_rx = now
                frames = self.decoder.feed(data)
            elif self.decoder.pending and now - self.last_rx > STALE_AFTER:
                frames = self.decoder.expire()
            else:
                continue
            for frame in frames:
                try:
                    self._handle(frame)
                except DeviceLost:
                    return

    def _handle(self, frame: Frame) -> None:
        if frame.kind == ACK:
            with self._acked:
                if frame.seq == self._waiting:
                    self._ack_seen = True
                    self._acked.notify_all()
            return
        if frame.kind == SYNC_LINK:
            self._rx_last = frame.seq
        elif frame.seq == self._rx_last:
            self.stats.duplicates += 1
        else:
            self._rx_last = frame.seq
            self.stats.received += 1
            self._on_frame(frame)
        self._write(encode(Frame(ACK, frame.seq)))
