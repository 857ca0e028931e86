"""A shoe and a shuffler written from docs/protocol.md alone, the way a device maker would write them.

This file imports nothing of tablectl (no ``drivers``, no ``controller``): its
frames, CRC, link, messages, shoe and shuffler come from reading the document,
clause by clause, so tests that run tablectl against it test the document and
the host, not the host against its own simulator's assumptions. Every choice
the document leaves to the device is an option (``Reading``), and ``READINGS``
names combinations of them; ``--set NAME=VALUE`` changes one.

    python tests/witness/device.py shoe --reading burn-slot [--socket] [--decks 8] [--seed 3]

It prints ``PORT <url>`` (a stable symlink to a pseudo-terminal, or
``socket://127.0.0.1:N``) and ``CARD <code>`` / ``UNREAD <code>`` for every
card that leaves it, then reads control lines on standard input, as a person at
the machine would act: ``door-open [S]``, ``jam [S]`` (cleared S seconds
later), ``clear``, ``unreadable``, ``restart [S]``, ``power-off`` (switched off, its
port gone, until ``power-on``: the restart of 8.4, as long as the person keeps it off),
``reset [S]`` (a watchdog or firmware reset on a serial line, 8.4: the port stays open, the
device deaf S seconds, or until ``power-on``, losing what the host sends meanwhile, then it
starts anew), ``unplug [S]``, ``silence S``, ``noise [P]`` (``noise`` alone: a quiet line again), ``miscount N``,
``duplicate``, ``after S ACTION``, ``on COMMAND N ACTION`` (at the Nth such
command from now, before answering it), ``on card N ACTION`` (just before the
card counted N leaves a shoe); and, to play a device that breaks the document,
``ignore COMMAND N`` / ``ignore off`` (acknowledge and never answer),
``badcard [CODE]`` (the next card goes out as CODE) and ``badreply`` (the next
reply names no command). ``status`` prints ``STATUS boot=B last_event=N shuffles=S``
(the shuffles since power-on).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import os
import random
import select
import socket
import struct
import sys
import tempfile
import threading
import time
import tty
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty, Queue

# ---- the wire: section 2 -------------------------------------------------------------------

SYNC_BYTE = 0xA5
MAX_PAYLOAD = 200
ACK, LINK_SYNC = 0x01, 0x02
HELLO, GET_STATUS, REPLAY, SHUFFLE, DEAL, VERIFY, DISPENSE, ALTERNATE = range(0x10, 0x18)
IDENTITY, STATUS, RESULT, STACK, EVENT = range(0x80, 0x85)
CARD_DRAWN, CARD_BURNED, CUT_CARD, SHOE_EMPTY, FAULT, FAULT_CLEARED, SHUFFLED = range(1, 8)
OK, JAM, DOOR_OPEN, COUNT_MISMATCH, EMPTY, DUPLICATE_CARD, UNRECOGNISED_CARD = range(7)
BAD_REQUEST, NOT_READY, UNSUPPORTED, INTEGRITY = range(7, 11)
NO_CARD = "--"
RANKS, SUITS = "AKQJT98765432", "SHDC"
COMMAND_NAMES = {HELLO: "hello", GET_STATUS: "status", REPLAY: "replay", SHUFFLE: "shuffle", DEAL: "deal",
                 VERIFY: "verify", DISPENSE: "dispense", ALTERNATE: "alternate"}
PARTIAL_SILENCE = 0.02  # 2.3


def crc16(data: bytes) -> int:
    """2.1: CRC-16/CCITT-FALSE, written out rather than borrowed."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def frame(kind: int, seq: int, payload: bytes = b"") -> bytes:
    body = bytes([len(payload), seq, kind]) + payload
    return bytes([SYNC_BYTE]) + body + crc16(body).to_bytes(2, "big")


class Receiver:
    """2.2 and 2.3: frames out of a byte stream with garbage, damage and silences in it."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.last_byte = time.monotonic()

    def feed(self, data: bytes) -> list[tuple[int, int, bytes]]:
        now = time.monotonic()
        if not data:
            if self.buf and now - self.last_byte > PARTIAL_SILENCE:
                del self.buf[0]  # a partial frame that waited too long: its SYNC was not one
                return self._scan()
            return []
        self.last_byte = now
        self.buf += data
        return self._scan()

    def _scan(self) -> list[tuple[int, int, bytes]]:
        out: list[tuple[int, int, bytes]] = []
        while True:
            start = self.buf.find(SYNC_BYTE)
            if start < 0:
                self.buf.clear()
                return out
            del self.buf[:start]
            if len(self.buf) < 4:
                return out
            length = self.buf[1]
            if length > MAX_PAYLOAD:
                del self.buf[0]
                continue
            if len(self.buf) < length + 6:
                return out
            body = bytes(self.buf[1 : 4 + length])
            if crc16(body) != int.from_bytes(self.buf[4 + length : 6 + length], "big"):
                del self.buf[0]
                continue
            del self.buf[: length + 6]
            out.append((body[2], body[1], body[3:]))


def all_cards(decks: int) -> list[str]:
    return [rank + suit for _ in range(decks) for suit in SUITS for rank in RANKS]


# ---- what the document leaves to the device -------------------------------------------------


@dataclass
class Reading:
    """Every choice docs/protocol.md leaves to a device maker (the clause in each comment)."""

    device_sync: bool = False  # 3.4: send SYNC as its first frame on a connection
    seq_on_reconnect: str = "continue"  # 3.6: continue | zero | random
    events_before_hello: bool = True  # 3.9: on a serial line a device cannot tell; False holds events until Hello
    unknown_command: int = BAD_REQUEST  # 2.5: BAD_REQUEST (7) or UNSUPPORTED (9)
    reply_delay: float = 0.0  # 4.3, 9.2: answers within the reply timeout, maybe late
    retransmit_wait: float = 0.03  # 3.2: at least 20 ms
    retransmissions: int = 3  # 3.2: at least 3
    boot: str = "random"  # 8.3: random (re-drawn if equal to the last) or counter
    starting: float = 0.0  # 8.5: seconds BUSY after power-on
    keep_events: int = 100_000  # 7.2: at least every event since the last Shuffle and the last 64
    # shoes
    gate: bool = True  # 5.1
    burns: int = 0  # 5.2: cards the shoe burns itself after each shuffle (CARD_BURNED)
    burn_uses_allowance: bool = True  # 5.2
    unreadable: str = "drawn+fault"  # 5.3: drawn+fault | fault; shuffler 6.5: refuse | stack | stack+fault
    cut_sensor: bool = True  # 5.4
    deal_before_shuffle: int = NOT_READY  # 4.8: NOT_READY (8) or OK (0)
    deal_during_fault: str = "code"  # 4.8: code | ok
    fault_cancels_allowance: bool = False  # 4.8
    shoe_verify: str = "unsupported"  # 4.9: unsupported | count
    # shufflers
    decks: int = 1  # 6.1: one deck or two
    alternate_one_deck: int = UNSUPPORTED  # 4.11: UNSUPPORTED (9) or BAD_REQUEST (7)
    per_card_events: bool = False  # 6.6
    verify_wrong: str = "ok"  # 4.9: ok | mismatch | mismatch+fault


READINGS: dict[str, dict[str, dict[str, object]]] = {
    "shoe": {
        "plain": {},
        "burn-slot": {"burns": 1, "burn_uses_allowance": False, "unreadable": "fault", "device_sync": True,
                      "seq_on_reconnect": "zero", "deal_before_shuffle": OK, "events_before_hello": False},
        "burn-gate": {"burns": 2, "boot": "counter", "reply_delay": 0.5, "unknown_command": UNSUPPORTED,
                      "shoe_verify": "count", "retransmissions": 5, "retransmit_wait": 0.1},
        "no-sensor": {"cut_sensor": False, "deal_during_fault": "ok", "fault_cancels_allowance": True,
                      "seq_on_reconnect": "random", "keep_events": 64, "starting": 1.0, "unreadable": "fault"},
    },
    "shuffler": {
        "one-deck": {},
        "one-deck-stack": {"alternate_one_deck": BAD_REQUEST, "unreadable": "stack", "verify_wrong": "mismatch",
                           "device_sync": True, "seq_on_reconnect": "zero"},
        "two-decks": {"decks": 2, "per_card_events": True, "unreadable": "stack+fault", "verify_wrong": "mismatch+fault",
                      "reply_delay": 0.5, "boot": "counter"},
        "two-decks-refuse": {"decks": 2, "unreadable": "refuse", "starting": 1.0, "unknown_command": UNSUPPORTED,
                             "events_before_hello": False, "seq_on_reconnect": "random", "keep_events": 64},
    },
}


def reading_of(device: str, name: str, sets: list[str]) -> Reading:
    r = Reading(**READINGS[device][name])  # type: ignore[arg-type]
    types = {f.name: type(getattr(r, f.name)) for f in dataclasses.fields(r)}
    for item in sets:
        key, _, value = item.partition("=")
        kind = types[key]
        setattr(r, key, value.lower() in ("1", "true", "yes") if kind is bool else kind(value))
    if device == "shoe" and r.unreadable not in ("drawn+fault", "fault"):
        r.unreadable = "drawn+fault"
    if device == "shuffler" and r.unreadable not in ("refuse", "stack", "stack+fault"):
        r.unreadable = "refuse"
    return r


# ---- ports ---------------------------------------------------------------------------------


class Port:
    """Where the host plugs in: a pseudo-terminal behind a stable symlink, or a TCP listener (1.1)."""

    def __init__(self, use_socket: bool) -> None:
        self.use_socket = use_socket
        self.plugged = False
        self.fd = -1
        self._slave = -1
        self._conn: socket.socket | None = None
        self._listener: socket.socket | None = None
        self.new_connection = False
        if use_socket:
            self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._listener.bind(("127.0.0.1", 0))
            self.url = f"socket://127.0.0.1:{self._listener.getsockname()[1]}"
        else:
            self.link = Path(tempfile.mkdtemp(prefix="witness-")) / "tty"
            self.url = str(self.link)

    def plug(self) -> None:
        if self.use_socket:
            assert self._listener is not None
            self._listener.listen(1)
            self._listener.setblocking(False)
        else:
            self.fd, self._slave = os.openpty()
            tty.setraw(self.fd)
            os.set_blocking(self.fd, False)
            tmp = self.link.with_suffix(".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(os.ttyname(self._slave))
            tmp.replace(self.link)
        self.plugged = True

    def unplug(self) -> None:
        self.plugged = False
        if self.use_socket:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
        else:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
            for fd in (self.fd, self._slave):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self.fd = self._slave = -1

    def read(self) -> bytes:
        if not self.plugged:
            time.sleep(0.01)
            return b""
        if self.use_socket:
            return self._read_socket()
        ready, _, _ = select.select([self.fd], [], [], 0.005)
        if not ready:
            return b""
        try:
            return os.read(self.fd, 4096)
        except OSError as exc:
            if exc.errno in (errno.EIO, errno.EAGAIN):  # nobody has the port open
                time.sleep(0.005)
                return b""
            raise

    def _read_socket(self) -> bytes:
        assert self._listener is not None
        if self._conn is None:
            ready, _, _ = select.select([self._listener], [], [], 0.005)
            if not ready:
                return b""
            self._conn, _ = self._listener.accept()
            self._conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._conn.setblocking(False)
            self.new_connection = True
        ready, _, _ = select.select([self._conn], [], [], 0.005)
        if not ready:
            return b""
        try:
            data = self._conn.recv(4096)
        except OSError:
            data = b""
        if not data:  # the host closed the connection
            self._conn.close()
            self._conn = None
            self.new_connection = True
        return data

    def write(self, data: bytes) -> None:
        if not self.plugged:
            return
        try:
            if self.use_socket:
                if self._conn is not None:
                    self._conn.sendall(data)
            else:
                os.write(self.fd, data)
        except OSError:
            pass  # nobody listening: the bytes are lost, as on a serial line


# ---- the device ----------------------------------------------------------------------------


@dataclass
class Deck:
    cards: list[str]
    shuffled: bool = False
    dealt: int = 0


@dataclass
class Device:
    """The device side of docs/protocol.md; ``step`` runs it, ``act`` is a person at the machine."""

    kind: str
    reading: Reading
    port: Port
    decks: int = 8
    seed: int = 1
    cut_from_end: int = 52
    rng: random.Random = field(init=False)
    controls: Queue[str] = field(default_factory=Queue)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.boot = 0
        self.seq = self.rng.randrange(256)
        self.fault = 0
        self.running = True
        # what the person at the machine asked for: kept across restarts
        self.triggers: list[tuple[str, int, str]] = []
        self.ignoring: dict[str, int] = {}
        self.bad_card: bytes | None = None
        self.bad_reply = False
        self.noise = 0.0
        self.unread_next = False
        self.miscount: int | None = None
        self.duplicate_next = False
        self.powered = True
        self.power_on(first=True)

    # -- power -------------------------------------------------------------

    def power_on(self, *, first: bool = False) -> None:
        last = self.boot
        if self.reading.boot == "counter":
            self.boot = (last + 1) & 0xFFFF
        else:
            while self.boot == last:
                self.boot = self.rng.randrange(1, 0x10000)
        self.events: deque[tuple[int, int, int, str, int]] = deque()
        self.last_number = 0
        self.shuffles = 0
        self.ready_at = time.monotonic() + self.reading.starting
        self.outq: deque[tuple[int, bytes]] = deque()
        self.held_events: list[bytes] = []
        self.pending: tuple[int, bytes] | None = None
        self.tries = 0
        self.next_try = 0.0
        self.last_rx: int | None = None
        self.timers: list[tuple[float, str]] = []
        self.delayed: list[tuple[float, int, bytes]] = []
        self.receiver = Receiver()
        self.said_hello = False
        self.silent_until = 0.0
        # the shoe
        self.shoe: list[str] = []
        self.shoe_started = False
        self.count = 0
        self.allowance = 0
        self.burns_due = 0
        self.cut_at = 0
        self.cut_reported = False
        self.next_draw = 0.0
        self.shuffle_done_at: float | None = None
        self.shuffle_request = 0
        # the shuffler
        size = 52
        self.deck_size = size
        self.shuffler_decks = [Deck(all_cards(1)) for _ in range(self.reading.decks)]
        self.active = 0
        self.last_shuffled = 0
        self.verify_count = size
        if not first and self.fault:
            self.log(FAULT, self.count, NO_CARD, self.fault)  # 10.2: a lasting fault survives the restart
        self.new_connection()

    def new_connection(self) -> None:
        """A connection starts (3.6): SEQ as the reading says, a SYNC first if it sends one (3.4)."""
        self.connection = getattr(self, "connection", 0) + 1
        if self.reading.seq_on_reconnect == "zero":
            self.seq = 0xFF
        elif self.reading.seq_on_reconnect == "random":
            self.seq = self.rng.randrange(256)
        self.outq.clear()
        self.pending = None
        self.last_rx = None
        if self.reading.device_sync:
            self.queue(LINK_SYNC, b"")

    @property
    def starting(self) -> bool:
        return time.monotonic() < self.ready_at

    # -- the link: section 3 ----------------------------------------------------

    def queue(self, kind: int, payload: bytes) -> None:
        self.outq.append((kind, payload))

    def write(self, data: bytes) -> None:
        if time.monotonic() < self.silent_until:
            return
        if self.noise and self.rng.random() < self.noise:
            damaged = bytearray(data)
            damaged[self.rng.randrange(1, len(damaged))] ^= 0x5A
            self.port.write(bytes([self.rng.randrange(256)]) + bytes(damaged))
            return
        if self.noise and len(data) > 3 and self.rng.random() < self.noise:  # a frame split in two writes
            cut = self.rng.randrange(1, len(data))
            self.port.write(data[:cut])
            time.sleep(0.003)
            data = data[cut:]
        self.port.write(data)

    def pump(self) -> None:
        now = time.monotonic()
        if self.pending is not None and now >= self.next_try:
            if self.tries > self.reading.retransmissions:
                self.pending = None  # 3.7: given up; an event stays in the log for Replay
            else:
                self.tries += 1
                self.next_try = now + self.reading.retransmit_wait * self.tries
                self.write(self.pending[1])
        if self.pending is None and self.outq:
            kind, payload = self.outq.popleft()
            self.seq = (self.seq + 1) & 0xFF
            self.pending = (self.seq, frame(kind, self.seq, payload))
            self.tries = 1
            self.next_try = now + self.reading.retransmit_wait
            self.write(self.pending[1])

    def receive(self, data: bytes) -> None:
        if time.monotonic() < self.silent_until:
            return
        for kind, seq, payload in self.receiver.feed(data):
            if kind == ACK:
                if self.pending is not None and self.pending[0] == seq:
                    self.pending = None
                continue
            if kind == LINK_SYNC:
                self.last_rx = seq
                if not self.reading.events_before_hello:
                    self.said_hello = False
            elif seq != self.last_rx:
                self.last_rx = seq
                name = COMMAND_NAMES.get(kind, "")
                connection = self.connection
                self.fire(name)
                if connection != self.connection:  # switched off or unplugged before it could answer: lost
                    return
                if self.ignored(name):
                    self.write(frame(ACK, seq))
                    continue
                self.command(kind, seq, payload)
            self.write(frame(ACK, seq))

    # -- replies and events ------------------------------------------------------

    def ignored(self, name: str) -> bool:
        for key in (name, "all"):
            if self.ignoring.get(key, 0) > 0:
                self.ignoring[key] -= 1
                return True
        return False

    def reply(self, kind: int, payload: bytes) -> None:
        if self.bad_reply and kind != EVENT:
            self.bad_reply = False
            payload = bytes([(payload[0] + 0x55) & 0xFF]) + payload[1:]
        if self.reading.reply_delay:
            self.delayed.append((time.monotonic() + self.reading.reply_delay, kind, payload))
        else:
            self.queue(kind, payload)

    def result(self, request: int, command: int, code: int, value: int = 0) -> None:
        self.reply(RESULT, struct.pack(">BBBI", request, command, code, value))

    def log(self, type_: int, count: int, card: str = NO_CARD, code: int = 0) -> None:
        self.last_number += 1
        self.shuffles += type_ == SHUFFLED
        self.events.append((self.last_number, type_, count, card, code))
        self.forget()
        payload = self.event_bytes(self.events[-1])
        if self.said_hello or self.reading.events_before_hello:
            self.queue(EVENT, payload)
        else:
            self.held_events.append(payload)

    def forget(self) -> None:
        """7.2: keep at least the events since the last Shuffle and the last 64."""
        since_shuffle = max((e[0] for e in self.events if e[1] == SHUFFLED), default=0)
        while len(self.events) > self.reading.keep_events and self.events[0][0] < since_shuffle:
            self.events.popleft()

    @staticmethod
    def event_bytes(event: tuple[int, int, int, str, int]) -> bytes:
        number, type_, count, card, code = event
        return struct.pack(">IBH", number, type_, count) + card.encode() + bytes([code])

    def string(self, text: str) -> bytes:
        data = text.encode()
        return bytes([len(data)]) + data

    # -- commands: section 4 ------------------------------------------------------

    def command(self, kind: int, seq: int, payload: bytes) -> None:
        if kind == HELLO:
            self.said_hello = True
            device = 1 if self.kind == "shoe" else 2
            model = "WIT-SHOE" if self.kind == "shoe" else "WIT-SHUF"
            self.reply(IDENTITY, struct.pack(">BBBH", seq, 1, device, self.boot) + self.string(model)
                       + self.string("W-0001") + self.string("0.9"))
            for held in self.held_events:
                self.reply(EVENT, held)  # after the Identity, in order
            self.held_events.clear()
        elif kind == GET_STATUS:
            self.status(seq)
        elif kind == REPLAY:
            if len(payload) != 4:
                self.result(seq, kind, BAD_REQUEST)
                return
            first = max(1, int.from_bytes(payload, "big"))
            self.result(seq, kind, OK, self.last_number)
            for event in self.events:
                if event[0] >= first:
                    self.reply(EVENT, self.event_bytes(event))
        elif kind == SHUFFLE:
            self.shuffle(seq)
        elif kind == DEAL:
            self.deal(seq, payload)
        elif kind == VERIFY:
            self.verify(seq)
        elif kind == DISPENSE:
            self.dispense(seq, payload)
        elif kind == ALTERNATE:
            self.alternate(seq)
        elif 0x10 <= kind <= 0x7F:
            self.result(seq, kind, self.reading.unknown_command)
        # 2.5: any other kind is acknowledged and ignored

    def status(self, seq: int) -> None:
        busy = self.starting or self.shuffle_done_at is not None
        state = 2 if self.fault else (1 if busy else 0)
        if self.kind == "shoe":
            count, remaining = self.count, len(self.shoe) - self.count if self.shoe_started else 0
        else:
            deck = self.shuffler_decks[self.active]
            count, remaining = deck.dealt, (len(deck.cards) - deck.dealt) if deck.shuffled else 0
        self.reply(STATUS, struct.pack(">BBBHHIB", seq, state, self.fault, count, remaining, self.last_number,
                                       self.active if self.kind == "shuffler" else 0))

    def refused(self, seq: int, kind: int) -> bool:
        """A command refused for starting up or a lasting fault (8.5, 10.1)."""
        if self.starting:
            self.result(seq, kind, NOT_READY)
        elif self.fault:
            self.result(seq, kind, self.fault)
        else:
            return False
        return True

    def shuffle(self, seq: int) -> None:
        if self.refused(seq, SHUFFLE):
            return
        if self.kind == "shuffler":
            target = self.active if self.reading.decks == 1 else 1 - self.active
            deck = self.shuffler_decks[target]
            size = self.miscount if self.miscount is not None else len(all_cards(1))
            self.miscount = None
            deck.cards = all_cards(1)[:size]
            self.rng.shuffle(deck.cards)
            deck.shuffled, deck.dealt = True, 0
            self.last_shuffled = target
            self.log(SHUFFLED, 0)
            self.result(seq, SHUFFLE, OK, len(deck.cards))
            return
        self.shuffle_done_at = time.monotonic() + 0.2  # a shoe takes a moment; GetStatus says busy meanwhile
        self.shuffle_request = seq

    def finish_shoe_shuffle(self) -> None:
        self.shuffle_done_at = None
        seq = self.shuffle_request
        if self.fault:  # 10.4: a fault while shuffling refuses the Shuffle
            self.result(seq, SHUFFLE, self.fault)
            return
        self.shoe = all_cards(self.decks)
        self.rng.shuffle(self.shoe)
        self.shoe_started = True
        self.count = 0
        self.allowance = 0
        self.burns_due = self.reading.burns
        self.cut_at = len(self.shoe) - self.cut_from_end
        self.cut_reported = False
        self.log(SHUFFLED, 0)
        self.result(seq, SHUFFLE, OK, len(self.shoe))

    def deal(self, seq: int, payload: bytes) -> None:
        if self.kind != "shoe":
            self.result(seq, DEAL, UNSUPPORTED)
            return
        if len(payload) != 2:
            self.result(seq, DEAL, BAD_REQUEST)
            return
        cards = int.from_bytes(payload, "big")
        if self.starting:
            self.result(seq, DEAL, NOT_READY)
        elif self.fault and self.reading.deal_during_fault == "code":
            self.result(seq, DEAL, self.fault)
        elif not self.shoe_started and self.reading.deal_before_shuffle == NOT_READY:
            self.result(seq, DEAL, NOT_READY)
        else:
            self.allowance = cards
            self.result(seq, DEAL, OK, cards)

    def verify(self, seq: int) -> None:
        if self.kind == "shoe":
            if self.reading.shoe_verify == "count":
                self.result(seq, VERIFY, OK, len(self.shoe) - self.count if self.shoe_started else 0)
            else:
                self.result(seq, VERIFY, UNSUPPORTED)
            return
        if self.refused(seq, VERIFY):
            return
        deck = self.shuffler_decks[self.last_shuffled]
        counted = len(deck.cards) if deck.shuffled else 0
        if counted == self.deck_size or self.reading.verify_wrong == "ok":
            self.result(seq, VERIFY, OK, counted)
            return
        self.result(seq, VERIFY, COUNT_MISMATCH, counted)
        if self.reading.verify_wrong == "mismatch+fault":
            self.raise_fault(COUNT_MISMATCH)

    def dispense(self, seq: int, payload: bytes) -> None:
        if self.kind == "shoe":
            self.result(seq, DISPENSE, UNSUPPORTED)
            return
        if len(payload) != 1 or not 1 <= payload[0] <= 99:
            self.result(seq, DISPENSE, BAD_REQUEST)
            return
        if self.refused(seq, DISPENSE):
            return
        deck, n = self.shuffler_decks[self.active], payload[0]
        if not deck.shuffled:
            self.result(seq, DISPENSE, NOT_READY)
            return
        left = len(deck.cards) - deck.dealt
        if left < n:
            self.result(seq, DISPENSE, EMPTY, left)
            return
        if self.duplicate_next:
            self.duplicate_next = False
            self.raise_fault(DUPLICATE_CARD)
            self.result(seq, DISPENSE, DUPLICATE_CARD)
            return
        unread = -1
        if self.unread_next:
            self.unread_next = False
            if self.reading.unreadable == "refuse":
                self.raise_fault(UNRECOGNISED_CARD)
                self.result(seq, DISPENSE, UNRECOGNISED_CARD)
                return
            unread = min(1, n - 1)
        stack = deck.cards[deck.dealt : deck.dealt + n]
        sent = [NO_CARD if i == unread else card for i, card in enumerate(stack)]
        garbled = -1
        if self.bad_card is not None and unread != 0:
            sent[0], self.bad_card, garbled = self.bad_card.decode(), None, 0
        for i, card in enumerate(stack):
            deck.dealt += 1
            self.announce(card, how="GARBLED" if i == garbled else "UNREAD" if i == unread else "CARD")
            if self.reading.per_card_events:
                self.log(CARD_DRAWN, deck.dealt, sent[i] if i != unread else NO_CARD)
        self.reply(STACK, bytes([seq, n]) + "".join(sent).encode())
        if unread >= 0 and self.reading.unreadable == "stack+fault":
            self.raise_fault(UNRECOGNISED_CARD)

    def alternate(self, seq: int) -> None:
        if self.kind == "shoe":
            self.result(seq, ALTERNATE, UNSUPPORTED)
            return
        if self.reading.decks == 1:
            self.result(seq, ALTERNATE, self.reading.alternate_one_deck)
            return
        if self.refused(seq, ALTERNATE):
            return
        other = self.shuffler_decks[1 - self.active]
        if not other.shuffled:
            self.result(seq, ALTERNATE, NOT_READY)
            return
        self.shuffler_decks[self.active] = Deck(all_cards(1))  # taken back to be shuffled
        self.active = 1 - self.active
        self.result(seq, ALTERNATE, OK, self.active)

    # -- the shoe's gate and its dealer ----------------------------------------------

    def draw(self) -> None:
        """The dealer takes the next card when the gate lets one out (5.1, 5.2)."""
        now = time.monotonic()
        if (self.kind != "shoe" or not self.shoe_started or self.fault or now < self.next_draw
                or self.shuffle_done_at is not None or self.count >= len(self.shoe)):
            return
        burning = self.burns_due > 0
        free_burn = burning and not self.reading.burn_uses_allowance
        if not free_burn and self.reading.gate and self.allowance <= 0:
            return
        self.fire("card", self.count + 1)
        if self.fault or not self.shoe_started or self.count >= len(self.shoe):  # what the person did stops it
            return
        self.next_draw = now + 0.02
        card = self.shoe[self.count]
        self.count += 1
        if not free_burn:
            self.allowance -= 1
        if self.bad_card is not None:
            code, self.bad_card = self.bad_card.decode(), None
            self.announce(card, how="GARBLED")
            self.log(CARD_BURNED if burning else CARD_DRAWN, self.count, code)
            self.burns_due -= 1 if burning else 0
        elif burning:
            self.burns_due -= 1
            self.announce(card)
            self.log(CARD_BURNED, self.count, card)
        elif self.unread_next:
            self.unread_next = False
            self.announce(card, how="UNREAD")
            if self.reading.unreadable == "drawn+fault":
                self.log(CARD_DRAWN, self.count, NO_CARD)
            self.raise_fault(UNRECOGNISED_CARD)
        else:
            self.announce(card)
            self.log(CARD_DRAWN, self.count, card)
        if self.reading.cut_sensor and not self.cut_reported and self.count == self.cut_at:
            self.cut_reported = True
            self.log(CUT_CARD, self.count)
        if self.count == len(self.shoe):
            self.log(SHOE_EMPTY, self.count)

    def announce(self, card: str, how: str = "CARD") -> None:
        """Say on standard output what left the machine: the tests count these against the host's journal."""
        print(f"{how} {card}", flush=True)

    def raise_fault(self, code: int) -> None:
        if self.fault:
            return
        self.fault = code
        if self.reading.fault_cancels_allowance:
            self.allowance = 0
        count = self.count if self.kind == "shoe" else self.shuffler_decks[self.active].dealt
        self.log(FAULT, count, NO_CARD, code)

    def clear(self) -> None:
        if self.fault:
            code, self.fault = self.fault, 0
            count = self.count if self.kind == "shoe" else self.shuffler_decks[self.active].dealt
            self.log(FAULT_CLEARED, count, NO_CARD, code)

    # -- a person at the machine ------------------------------------------------------

    def fire(self, what: str, count: int = 0) -> None:
        """Run the ``on`` actions whose moment has come: a command received, or (``card``) a card about to leave."""
        due, kept = [], []
        for when, n, action in self.triggers:
            if when == what and what != "card":
                n -= 1
            if (when == what == "card" and n == count) or (when == what != "card" and n <= 0):
                due.append(action)
            else:
                kept.append((when, n, action))
        self.triggers = kept
        for action in due:
            self.act(action)

    def act(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        verb, args = words[0], words[1:]
        if verb in ("door-open", "jam"):
            self.raise_fault(DOOR_OPEN if verb == "door-open" else JAM)
            if args:
                self.timers.append((time.monotonic() + float(args[0]), "clear"))
        elif verb == "clear":
            self.clear()
        elif verb == "quit":
            self.running = False
        elif verb == "unreadable":
            self.unread_next = True
        elif verb == "miscount":
            self.miscount = int(args[0]) if args else 51
        elif verb == "duplicate":
            self.duplicate_next = True
        elif verb == "restart":
            self.port.unplug()
            time.sleep(float(args[0]) if args else 0.3)
            self.power_on()
            self.port.plug()
        elif verb == "power-off":
            if self.powered:
                self.powered = False
                self.port.unplug()
                self.connection += 1  # a command it was answering is lost with it
        elif verb == "reset":
            if self.powered:
                self.powered = False  # the port stays open: the host's line does not go away
                self.connection += 1
                self.timers.append((time.monotonic() + float(args[0] if args else 0.3), "power-on"))
        elif verb == "power-on":
            if not self.powered:
                self.powered = True
                self.power_on()
                if not self.port.plugged:
                    self.port.plug()
        elif verb == "status":
            print(f"STATUS boot={self.boot} last_event={self.last_number} shuffles={self.shuffles}", flush=True)
        elif verb == "unplug":
            self.port.unplug()
            self.outq.clear()  # 3.8
            self.pending = None
            time.sleep(float(args[0]) if args else 0.4)
            self.port.plug()
            self.new_connection()
        elif verb == "silence":
            self.silent_until = time.monotonic() + float(args[0])
        elif verb == "noise":
            self.noise = float(args[0]) if args else 0.0
            self.silent_until = self.silent_until if args else 0.0
        elif verb == "ignore":
            self.ignoring = {} if args[0] == "off" else {**self.ignoring, args[0]: int(args[1]) if len(args) > 1 else 1}
        elif verb == "badcard":
            self.bad_card = (args[0] if args else "qh").encode()
        elif verb == "badreply":
            self.bad_reply = True
        elif verb == "after":
            self.timers.append((time.monotonic() + float(args[0]), " ".join(args[1:])))
        elif verb == "on":
            self.triggers.append((args[0], int(args[1]), " ".join(args[2:])))
        else:
            print(f"ERROR unknown control {line!r}", flush=True)
            return
        print(f"DONE {line}", flush=True)

    # -- the loop ---------------------------------------------------------------------

    def step(self) -> None:
        if not self.powered:  # switched off: only the person at the machine acts
            self.port.read()  # what the host sends on a line kept open is lost (unplugged: a short sleep)
            for timer in [t for t in self.timers if t[0] <= time.monotonic()]:
                if timer in self.timers:  # a power-on before it started the timers afresh
                    self.timers.remove(timer)
                    self.act(timer[1])
            with contextlib.suppress(Empty):
                while not self.powered:
                    self.act(self.controls.get_nowait())
            return
        data = self.port.read()
        if self.port.new_connection:
            self.port.new_connection = False
            self.new_connection()
        self.receive(data)
        now = time.monotonic()
        for due in [d for d in self.delayed if d[0] <= now]:
            self.delayed.remove(due)
            self.queue(due[1], due[2])
        for timer in [t for t in self.timers if t[0] <= now]:
            self.timers.remove(timer)
            self.act(timer[1])
        if self.shuffle_done_at is not None and now >= self.shuffle_done_at:
            self.finish_shoe_shuffle()
        self.draw()
        self.pump()
        with contextlib.suppress(Empty):
            while True:
                self.act(self.controls.get_nowait())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("device", choices=("shoe", "shuffler"))
    parser.add_argument("--reading", default=None)
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE")
    parser.add_argument("--socket", action="store_true")
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--cut-from-end", type=int, default=52)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    name = args.reading or next(iter(READINGS[args.device]))
    port = Port(args.socket)
    device = Device(args.device, reading_of(args.device, name, args.set), port, args.decks, args.seed, args.cut_from_end)
    port.plug()
    print(f"PORT {port.url}", flush=True)

    def controls() -> None:
        for line in sys.stdin:
            device.controls.put(line.strip())
        device.controls.put("quit")

    threading.Thread(target=controls, daemon=True).start()
    while device.running:
        device.step()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
