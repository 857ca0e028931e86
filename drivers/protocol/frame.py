"""Frames of the reference protocol: bytes in, frames out, whatever the line did to them.

A frame on the wire::

    +------+-----+-----+------+-----------------+--------+
    | 0xA5 | LEN | SEQ | KIND | PAYLOAD (LEN B) | CRC-16 |
    +------+-----+-----+------+-----------------+--------+

``LEN`` counts payload bytes only (0 to ``MAX_PAYLOAD``). The CRC is
CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection, no
final XOR) over ``LEN SEQ KIND PAYLOAD``, sent high byte first.

The decoder resynchronises after garbage: a start byte whose length is too big
or whose CRC does not match is dropped and the search for the next start byte
resumes one byte later, so a frame hidden behind noise is still found.

>>> wire = encode(Frame(kind=0x10, seq=7, payload=b"\\x01"))
>>> wire.hex(" ")
'a5 01 07 10 01 64 b6'
>>> FrameDecoder().feed(b"\\x00garbage" + wire)
[Frame(kind=16, seq=7, payload=b'\\x01')]
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass, field

SYNC = 0xA5
HEADER = 4
TRAILER = 2
MAX_PAYLOAD = 200
CRC_INIT = 0xFFFF

# Link-level kinds; every other kind carries a message (see drivers.protocol.messages).
ACK = 0x01
SYNC_LINK = 0x02


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE, as the stdlib computes it (``crc16(b"123456789") == 0x29B1``)."""
    return binascii.crc_hqx(data, CRC_INIT)


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: its kind (what the payload is), sequence number and payload."""

    kind: int
    seq: int
    payload: bytes = b""

    def __post_init__(self) -> None:
        if not 0 <= self.kind <= 0xFF or not 0 <= self.seq <= 0xFF:
            raise ValueError(f"kind and seq are bytes, got kind={self.kind} seq={self.seq}")
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"payload of {len(self.payload)} bytes exceeds the {MAX_PAYLOAD}-byte limit")


def encode(frame: Frame) -> bytes:
    """The bytes that carry ``frame`` on the wire."""
    body = bytes((len(frame.payload), frame.seq, frame.kind)) + frame.payload
    return bytes((SYNC,)) + body + crc16(body).to_bytes(2, "big")


@dataclass
class DecoderStats:
    """What the decoder threw away: for logs, the benchmark and fault tests."""

    frames: int = 0
    garbage_bytes: int = 0
    bad_length: int = 0
    bad_crc: int = 0
    stale: int = 0


@dataclass
class FrameDecoder:
    """Turns a byte stream, fed in pieces of any size, into frames.

    ``expire()`` gives up on a partial frame that will never complete (its
    length byte was corrupted upward): the link calls it when the line has
    been quiet for a while with bytes still buffered.
    """

    stats: DecoderStats = field(default_factory=DecoderStats)
    _buf: bytearray = field(default_factory=bytearray)

    @property
    def pending(self) -> int:
        """Bytes buffered that are not yet a whole frame."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[Frame]:
        self._buf += data
        return self._drain()

    def expire(self) -> list[Frame]:
        """Drop the start byte of a partial frame and decode what follows it."""
        if not self._buf:
            return []
        self.stats.stale += 1
        del self._buf[0]
        return self._drain()

    def _drain(self) -> list[Frame]:
        frames: list[Frame] = []
        buf = self._buf
        while buf:
            start = buf.find(SYNC)
            if start < 0:
                self.stats.garbage_bytes += len(buf)
                buf.clear()
                break
            if start:
                self.stats.garbage_bytes += start
                del buf[:start]
            if len(buf) < HEADER:
                break
            length = buf[1]
            if length > MAX_PAYLOAD:
                self.stats.bad_length += 1
                del buf[0]
                continue
            total = HEADER + length + TRAILER
            if len(buf) < total:
                break
            body = bytes(buf[1 : HEADER + length])
            if crc16(body) != int.from_bytes(buf[HEADER + length : total], "big"):
                self.stats.bad_crc += 1
                del buf[0]
                continue
            del buf[:total]
            self.stats.frames += 1
            frames.append(Frame(kind=body[2], seq=body[1], payload=body[3:]))
        return frames
