"""A maker's shoe and shuffler firmware, emulated from docs/protocol.md alone (importing nothing of tablectl).

Run: ``python tests/maker2/device.py shoe|shuffler [--socket PORT] [--opt NAME=VALUE ...]``. It prints
``PORT <url>`` (a pty path, or socket://127.0.0.1:PORT) and reads control lines on standard input:

    jam | door | duplicate | integrity | unreadable-fault   raise a lasting fault (section 10)
    clear                      clear the open fault at the machine (FAULT_CLEARED)
    unreadable                 the next card out cannot be read (5.3 / 6.5)
    send KIND HEX | event TYPE COUNT CARD CODE   a frame or an event as given (a firmware bug)
    restart [same-seq] [close] power cycle: new boot, events from 1, shoe or decks lost (8.4); same-seq: its SEQ counter
                               goes on where it was; close: a socket connection drops
    order QH,KD,...            the next cards out of the shoe / the deck being dealt, in this order
    cut N                      the cut card lies after card N of the shoe
    remove                     take one card out of the shuffler's next deck (until "clear")
    at N LINE                  run the control LINE once the Nth card since power-on is out
    later S LINE               run the control LINE S seconds from now
    unplug S                   the cable out for S seconds (nothing passes either way; the port stays open)
    burst                      send the next event three times at once (retransmissions of one frame)
    quit

Options (``--opt``), each a choice the document leaves to the maker:
    burn=host|gate|slot        host marks the burn (CARD_DRAWN), the shoe burns behind the gate, or before it
    unreadable=drawn|fault     ``--`` + FAULT, or FAULT alone (5.3)
    stack_unreadable=refuse|dashes|dashes-fault   (6.5)
    decks=1|2                  shuffler decks (6.1); percard=none|before|after: CARD_DRAWN per card dispensed (6.6)
    deck=N                     cards per shuffler deck (52)
    shoe_decks=N               shoe decks (8)
    cut=N                      cards behind the cut card (0: no cut-card sensor)
    sync=0|1                   the device sends SYNC as its first frame and after a restart (3.4)
    seq=N                      the first SEQ the device uses (wrap-around)
    ack_wait=S                 first ACK wait, doubling to 4x; retries=N retransmissions
    shuffle_time=S             a shuffler's Shuffle takes S seconds (busy meanwhile)
    reply_delay=S              wait before each reply; status_delay=S before each Status alone
    event_first=0|1            a shoe's card event before the Deal's Result
    dribble=S                  write each frame in two pieces, S seconds apart
    deal_before_shuffle=not_ready|ok ; deal_in_fault=code|ok
    deal_value=set|left        (with event_first) Deal's value: the allowance set, or what is left of it after the card
    verify=ok|mismatch ; unknown=unsupported|bad_request ; memory=N (events kept, 0: all)
    strings=N                  pad model/serial/firmware to N bytes (max frame)
"""

from __future__ import annotations

import binascii
import contextlib
import os
import pty
import random
import select
import socket
import struct
import sys
import threading
import time
import tty
from collections import deque
from dataclasses import dataclass, field

SYNC_BYTE = 0xA5
K_ACK, K_SYNC = 0x01, 0x02
K_HELLO, K_STATUS_REQ, K_REPLAY, K_SHUFFLE, K_DEAL, K_VERIFY, K_DISPENSE, K_ALTERNATE = range(0x10, 0x18)
K_IDENTITY, K_STATUS, K_RESULT, K_STACK, K_EVENT = range(0x80, 0x85)
OK, JAM, DOOR_OPEN, COUNT_MISMATCH, EMPTY, DUPLICATE, UNRECOGNISED, BAD_REQUEST, NOT_READY, UNSUPPORTED = range(10)
INTEGRITY = 0x0A
CARD_DRAWN, CARD_BURNED, CUT_CARD, SHOE_EMPTY, FAULT, FAULT_CLEARED, SHUFFLED = range(1, 8)
NO_CARD = b"--"
FAULTS = {"jam": JAM, "door": DOOR_OPEN, "duplicate": DUPLICATE, "integrity": INTEGRITY,
          "unreadable-fault": UNRECOGNISED, "count": COUNT_MISMATCH}


def crc(data: bytes) -> int:
    return binascii.crc_hqx(data, 0xFFFF)


def frame(seq: int, kind: int, payload: bytes = b"") -> bytes:
    body = bytes([len(payload), seq & 0xFF, kind]) + payload
    return bytes([SYNC_BYTE]) + body + struct.pack(">H", crc(body))


def deck52() -> list[bytes]:
    return [(r + s).encode() for s in "SHDC" for r in "AKQJT98765432"]


def string(text: str) -> bytes:
    raw = text.encode()[:60]
    return bytes([len(raw)]) + raw


@dataclass
class Options:
    kind: str = "shoe"
    burn: str = "host"
    unreadable: str = "drawn"
    stack_unreadable: str = "refuse"
    decks: int = 1
    deck: int = 52
    shoe_decks: int = 8
    cut: int = 52
    sync: int = 0
    seq: int = 0
    ack_wait: float = 0.05
    retries: int = 12
    reply_delay: float = 0.0
    status_delay: float = 0.0
    shuffle_time: float = 0.0
    event_first: int = 0
    dribble: float = 0.0
    deal_before_shuffle: str = "not_ready"
    deal_in_fault: str = "code"
    verify: str = "ok"
    deal_value: str = "set"
    percard: str = "none"
    unknown: str = "unsupported"
    memory: int = 0
    strings: int = 0
    burns: int = 1
    seed: int = 0

    def set(self, text: str) -> None:
        name, _, value = text.partition("=")
        current = getattr(self, name)
        setattr(self, name, type(current)(value))


@dataclass
class Deck:
    cards: list[bytes] = field(default_factory=list)
    shuffled: bool = False
    pos: int = 0


class Device:
    """One shoe or shuffler: the link (sections 2, 3) and the machine (sections 4 to 10)."""

    def __init__(self, opts: Options) -> None:
        self.o = opts
        self.rng = random.Random(opts.seed or None)
        self.lock = threading.RLock()
        self.out: deque[tuple[int, bytes, float]] = deque()
        self.out_ready = threading.Condition(self.lock)
        self.acked: int | None = None
        self.awaiting: int | None = None
        self.seq = opts.seq
        self.last_delivered: int | None = None
        self.generation = 0
        self.fd: int | None = None
        self.sock: socket.socket | None = None
        self.write_lock = threading.Lock()
        self.boot = 0
        self.fault_pending: list[int] = []
        self.busy = False
        self.unplugged_until = 0.0
        self.burst_next = False
        self.missing = 0
        self.cards_out = 0
        self.triggers: dict[int, list[str]] = {}
        self.power_on(first=True)

    # ---- the machine -------------------------------------------------------------------------------------
    def power_on(self, *, first: bool = False) -> None:
        old = getattr(self, "boot", 0)
        self.boot = self.rng.randrange(1, 0x10000)
        while self.boot == old:
            self.boot = self.rng.randrange(1, 0x10000)
        kept_fault = None if first else self.fault
        self.events: list[bytes] = []
        self.event_numbers: list[int] = []
        self.last_event = 0
        self.fault = 0
        self.started = False
        self.count = 0
        self.shoe: list[bytes] = []
        self.allowance = 0
        self.cut_at = 0
        self.scripted: list[bytes] = []
        self.next_unreadable = False
        self.burns_due = 0
        self.decks = [Deck() for _ in range(self.o.decks)]
        self.active = 0
        self.shuffled_last = 0
        self.dispensed = 0
        if kept_fault:
            self.raise_fault(kept_fault)  # 10.2: survives a power cycle, logged again

    def log(self, etype: int, count: int, card: bytes = NO_CARD, code: int = 0) -> None:
        self.last_event += 1
        payload = struct.pack(">IBH", self.last_event, etype, count) + card + bytes([code])
        self.events.append(payload)
        self.event_numbers.append(self.last_event)
        keep = max(self.o.memory, 0)
        if keep and len(self.events) > keep:
            del self.events[:-keep]
            del self.event_numbers[:-keep]
        self.send(K_EVENT, payload)
        if self.burst_next:
            self.burst_next = False
            self.send(K_EVENT, payload)  # a device that resends the same event as a new frame: the host dedups by number

    def raise_fault(self, code: int, count: int | None = None) -> None:
        if self.fault:
            self.fault_pending.append(code)
            return
        self.fault = code
        self.allowance = 0  # 4.8: a fault may cancel the allowance
        self.log(FAULT, self.count if count is None else count, code=code)

    def clear_fault(self) -> None:
        if not self.fault:
            return
        code, self.fault = self.fault, 0
        self.log(FAULT_CLEARED, self.count, code=code)
        if self.fault_pending:
            self.raise_fault(self.fault_pending.pop(0))
        self.let_out()

    def status(self, request: int) -> bytes:
        if self.o.kind == "shoe":
            remaining = len(self.shoe) - self.count if self.started else 0
            active = 0
        else:
            deck = self.decks[self.active]
            remaining = len(deck.cards) - deck.pos if deck.shuffled else 0
            active = self.active
        state = 2 if self.fault else 1 if self.busy else 0
        count = self.count if self.o.kind == "shoe" else self.decks[self.active].pos
        return struct.pack(">BBBHHIB", request, state, self.fault, count, remaining, self.last_event, active)

    def result(self, request: int, command: int, code: int, value: int = 0) -> None:
        self.reply(K_RESULT, struct.pack(">BBBI", request, command, code, value))

    def reply(self, kind: int, payload: bytes) -> None:
        self.send(kind, payload, self.o.reply_delay)

    def command(self, seq: int, kind: int, payload: bytes) -> None:
        o = self.o
        if kind == K_HELLO:
            if len(payload) != 1:
                self.result(seq, kind, BAD_REQUEST)
                return
            pad = o.strings
            model = ("MK2-SHOE" if o.kind == "shoe" else "MK2-SHUF").ljust(pad, "X")
            serial = "MK2-0042".ljust(pad, "0")
            firmware = "2.3.1".ljust(pad, ".")
            body = struct.pack(">BBBH", seq, 1, 1 if o.kind == "shoe" else 2, self.boot)
            self.reply(K_IDENTITY, body + string(model) + string(serial) + string(firmware))
        elif kind == K_STATUS_REQ:
            self.send(K_STATUS, self.status(seq), o.status_delay or o.reply_delay)
        elif kind == K_REPLAY:
            if len(payload) != 4:
                self.result(seq, kind, BAD_REQUEST)
                return
            first = max(struct.unpack(">I", payload)[0], 1)
            self.result(seq, kind, OK, self.last_event)
            for number, event in zip(list(self.event_numbers), list(self.events), strict=True):
                if number >= first:
                    self.send(K_EVENT, event)
        elif kind == K_SHUFFLE:
            self.shuffle(seq)
        elif kind == K_DEAL:
            self.deal(seq, payload)
        elif kind == K_VERIFY:
            if o.kind == "shoe":
                self.result(seq, kind, UNSUPPORTED)
            elif self.fault:
                self.result(seq, kind, self.fault)
            else:
                deck = self.decks[self.shuffled_last]
                counted = len(deck.cards) if deck.shuffled else 0
                code = OK if counted == o.deck or o.verify == "ok" else COUNT_MISMATCH
                self.result(seq, kind, code, counted)
        elif kind == K_DISPENSE:
            self.dispense(seq, payload)
        elif kind == K_ALTERNATE:
            if o.kind == "shoe" or o.decks == 1:
                self.result(seq, kind, UNSUPPORTED)
            elif self.fault:
                self.result(seq, kind, self.fault)
            else:
                other = 1 - self.active
                if not self.decks[other].shuffled:
                    self.result(seq, kind, NOT_READY)
                    return
                self.decks[self.active].shuffled = False  # taken back to be shuffled
                self.active = other
                self.result(seq, kind, OK, other)
        elif 0x10 <= kind <= 0x7F:
            self.result(seq, kind, UNSUPPORTED if o.unknown == "unsupported" else BAD_REQUEST)
        # any other kind: acknowledged and ignored (2.5)

    def shuffle(self, seq: int) -> None:
        o = self.o
        if self.fault:
            self.result(seq, K_SHUFFLE, self.fault)
            return
        if o.kind == "shoe":
            self.shoe = deck52() * o.shoe_decks
            self.rng.shuffle(self.shoe)
            self.count = 0
            self.allowance = 0
            self.started = True
            self.cut_at = len(self.shoe) - o.cut if o.cut else 0
            self.burns_due = o.burns if o.burn in {"gate", "slot"} else 0
            self.result(seq, K_SHUFFLE, OK, len(self.shoe))
            self.log(SHUFFLED, 0)
            if o.burn == "slot":
                while self.burns_due:
                    self.take_card()
            return
        target = 1 - self.active if o.decks == 2 else 0
        if self.busy:
            self.result(seq, K_SHUFFLE, NOT_READY)  # one shuffle at a time
            return
        if o.shuffle_time:  # 4.3: the Shuffle is answered when done; GetStatus meanwhile says busy
            self.busy = True
            threading.Timer(o.shuffle_time, self.shuffled, [seq, target, self.boot]).start()
            return
        self.shuffle_deck(seq, target)

    def shuffled(self, seq: int, target: int, boot: int) -> None:
        with self.lock:
            if boot != self.boot:
                return  # restarted meanwhile: the answer is lost with the shuffle
            self.busy = False
            if self.fault:  # 10.4: a fault during the shuffle refuses it; it did not shuffle
                self.result(seq, K_SHUFFLE, self.fault)
                return
            self.shuffle_deck(seq, target)

    def shuffle_deck(self, seq: int, target: int) -> None:
        o = self.o
        deck = self.decks[target]
        deck.cards = deck52()[: o.deck] if o.deck <= 52 else deck52() + [b"JK"]
        self.rng.shuffle(deck.cards)
        if o.verify == "mismatch" or self.missing:
            deck.cards = deck.cards[: -max(self.missing, 1)]
        deck.shuffled = True
        deck.pos = 0
        self.shuffled_last = target
        self.result(seq, K_SHUFFLE, OK, len(deck.cards))
        self.log(SHUFFLED, 0)

    def deal(self, seq: int, payload: bytes) -> None:
        o = self.o
        if o.kind != "shoe":
            self.result(seq, K_DEAL, UNSUPPORTED)
            return
        if len(payload) != 2:
            self.result(seq, K_DEAL, BAD_REQUEST)
            return
        cards = struct.unpack(">H", payload)[0]
        if not self.started and o.deal_before_shuffle == "not_ready":
            self.result(seq, K_DEAL, NOT_READY)
            return
        if self.fault and o.deal_in_fault == "code":
            self.result(seq, K_DEAL, self.fault)
            return
        self.allowance = cards
        if o.event_first:
            self.let_out()
            self.result(seq, K_DEAL, OK, self.allowance if o.deal_value == "left" else cards)
        else:
            self.result(seq, K_DEAL, OK, cards)
            self.let_out()

    def let_out(self) -> None:
        """The dealer draws every card the gate allows (at once: the hand is faster than the link)."""
        while self.o.kind == "shoe" and self.started and not self.fault and self.allowance > 0:
            if self.count >= len(self.shoe):
                return
            self.allowance -= 1
            self.take_card()

    def take_card(self) -> None:
        if self.scripted:
            card = self.scripted.pop(0)
            rest = self.shoe[self.count:]
            with contextlib.suppress(ValueError):
                rest.remove(card)
            self.shoe[self.count:] = [card, *rest]
        card = self.shoe[self.count]
        self.count += 1
        if self.burns_due:
            self.burns_due -= 1
            self.log(CARD_BURNED, self.count, card)
        elif self.next_unreadable:
            self.next_unreadable = False
            if self.o.unreadable == "drawn":
                self.log(CARD_DRAWN, self.count, NO_CARD)
            self.raise_fault(UNRECOGNISED, self.count)
        else:
            self.log(CARD_DRAWN, self.count, card)
        if self.cut_at and self.count == self.cut_at:
            self.log(CUT_CARD, self.count)
        if self.count == len(self.shoe):
            self.log(SHOE_EMPTY, self.count)
        self.card_out()

    def dispense(self, seq: int, payload: bytes) -> None:
        o = self.o
        if o.kind == "shoe":
            self.result(seq, K_DISPENSE, UNSUPPORTED)
            return
        if len(payload) != 1 or not 1 <= payload[0] <= 99:
            self.result(seq, K_DISPENSE, BAD_REQUEST)
            return
        n = payload[0]
        if self.fault:
            self.result(seq, K_DISPENSE, self.fault)
            return
        deck = self.decks[self.active]
        if not deck.shuffled:
            self.result(seq, K_DISPENSE, NOT_READY)
            return
        left = len(deck.cards) - deck.pos
        if left < n:
            self.result(seq, K_DISPENSE, EMPTY, left)
            return
        if self.scripted:
            rest = deck.cards[deck.pos:]
            for card in self.scripted[:n]:
                with contextlib.suppress(ValueError):
                    rest.remove(card)
            deck.cards[deck.pos:] = self.scripted[:n] + rest
            del self.scripted[:n]
        cards = deck.cards[deck.pos : deck.pos + n]
        if self.next_unreadable:
            self.next_unreadable = False
            if o.stack_unreadable == "refuse":
                self.raise_fault(UNRECOGNISED)
                self.result(seq, K_DISPENSE, UNRECOGNISED)
                return
            cards = [cards[0], NO_CARD, *cards[2:]] if n > 1 else [NO_CARD]
            if o.stack_unreadable == "dashes-fault":
                deck.pos += n
                self.reply(K_STACK, bytes([seq, n]) + b"".join(cards))
                self.raise_fault(UNRECOGNISED)
                return
        if o.percard == "before":  # 6.6: each card logged as it passes the sensor, before the stack is complete
            for i, card in enumerate(cards):
                self.log(CARD_DRAWN, deck.pos + i + 1, card)
        deck.pos += n
        self.reply(K_STACK, bytes([seq, n]) + b"".join(cards))
        if o.percard == "after":
            for i, card in enumerate(cards):
                self.log(CARD_DRAWN, deck.pos - n + i + 1, card)
        for _ in cards:
            self.card_out()

    def card_out(self) -> None:
        self.cards_out += 1
        for line in self.triggers.pop(self.cards_out, []):
            self.control(line)

    # ---- the link ----------------------------------------------------------------------------------------
    def send(self, kind: int, payload: bytes, delay: float = 0.0) -> None:
        with self.lock:
            self.out.append((kind, payload, time.monotonic() + delay))
            self.out_ready.notify_all()

    def write(self, data: bytes) -> bool:
        with self.write_lock:
            try:
                if self.o.dribble and len(data) > 6:
                    half = len(data) // 2  # the frame in two pieces, a silence between (a USB-serial latency timer)
                    self.raw_write(data[:half])
                    time.sleep(self.o.dribble)
                    self.raw_write(data[half:])
                else:
                    self.raw_write(data)
            except OSError:
                return False
            return True

    def raw_write(self, data: bytes) -> None:
        if time.monotonic() < self.unplugged_until:
            return  # the cable is out: the bytes go nowhere
        if self.sock is not None:
            self.sock.sendall(data)
        elif self.fd is not None:
            os.write(self.fd, data)
        else:
            raise OSError("no connection")

    def sender(self) -> None:
        while True:
            with self.lock:
                while not self.out:
                    self.out_ready.wait()
                kind, payload, not_before = self.out[0]
            if not_before > time.monotonic():
                time.sleep(not_before - time.monotonic())
            with self.lock:
                if not self.out or self.out[0][2] != not_before:
                    continue
                seq = self.seq
                self.seq = (self.seq + 1) & 0xFF
                self.awaiting = seq
                self.acked = None
                generation = self.generation
            data = frame(seq, kind, payload)
            wait = self.o.ack_wait
            delivered = False
            for _ in range(self.o.retries + 1):
                if not self.write(data):
                    time.sleep(0.05)
                with self.lock:
                    deadline = time.monotonic() + wait
                    while self.acked != seq and generation == self.generation:
                        left = deadline - time.monotonic()
                        if left <= 0:
                            break
                        self.out_ready.wait(left)
                    delivered = self.acked == seq
                    if delivered or generation != self.generation:
                        break
                wait = min(wait * 2, self.o.ack_wait * 4)
            with self.lock:
                self.awaiting = None
                if generation == self.generation and self.out:
                    self.out.popleft()  # sent, or given up (3.7)

    def on_frame(self, seq: int, kind: int, payload: bytes) -> None:
        if kind == K_ACK:
            with self.lock:
                if self.awaiting == seq:
                    self.acked = seq
                    self.out_ready.notify_all()
            return
        with self.lock:
            if kind == K_SYNC:
                self.last_delivered = seq
            elif seq != self.last_delivered:
                self.last_delivered = seq
                self.command(seq, kind, payload)
        self.write(frame(seq, K_ACK))

    def receive(self, chunk_source: object) -> None:
        """Section 2.2/2.3 receiver over a read(timeout) -> bytes | None callable (None: connection lost)."""
        read = chunk_source
        buf = bytearray()
        last = time.monotonic()
        while True:
            data = read(0.01)  # type: ignore[operator]
            now = time.monotonic()
            if data and now < self.unplugged_until:
                continue
            if data is None:
                return
            if data:
                buf += data
                last = now
            elif buf and now - last >= 0.02:
                del buf[0]  # 2.3: a partial frame that waited 20 ms: drop its 0xA5
                last = now
            while buf:
                start = buf.find(SYNC_BYTE)
                if start < 0:
                    buf.clear()
                    break
                del buf[:start]
                if len(buf) < 4:
                    break
                length = buf[1]
                if length > 200:
                    del buf[0]
                    continue
                if len(buf) < length + 6:
                    break
                body = bytes(buf[1 : 4 + length])
                if struct.unpack(">H", bytes(buf[4 + length : 6 + length]))[0] != crc(body):
                    del buf[0]
                    continue
                del buf[: length + 6]
                self.on_frame(body[1], body[2], body[3:])

    def new_connection(self) -> None:
        with self.lock:
            self.generation += 1
            self.out.clear()  # 3.8
            self.acked = None
            self.out_ready.notify_all()
        if self.o.sync:
            self.send_sync()

    def send_sync(self) -> None:
        with self.lock:
            seq = self.seq
            self.seq = (self.seq + 1) & 0xFF
        self.write(frame(seq, K_SYNC))

    def control(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        with self.lock:
            word = words[0]
            if word == "at":
                self.triggers.setdefault(int(words[1]), []).append(" ".join(words[2:]))
            elif word == "later":
                threading.Timer(float(words[1]), self.control, [" ".join(words[2:])]).start()
            elif word in FAULTS:
                self.raise_fault(FAULTS[word])
            elif word == "clear":
                self.missing = 0
                self.clear_fault()
            elif word == "remove":
                self.missing += 1
            elif word == "unreadable":
                self.next_unreadable = True
            elif word == "restart":
                self.power_on()
                self.seq = (self.seq - 1) & 0xFF if "same-seq" in words else self.o.seq
                self.out.clear()
                self.generation += 1
                self.out_ready.notify_all()
                self.last_delivered = None
                if self.o.sync:
                    self.send_sync()
                if "close" in words and self.sock is not None:  # a device with its own network port: the connection drops
                    with contextlib.suppress(OSError):
                        self.sock.shutdown(socket.SHUT_RDWR)
            elif word == "order":
                self.scripted = [c.encode() for c in words[1].split(",")]
            elif word == "cut":
                self.cut_at = int(words[1])
            elif word == "send":  # send KIND PAYLOAD (hex): any frame, as a broken firmware would
                self.send(int(words[1], 16), bytes.fromhex(words[2]) if len(words) > 2 else b"")
            elif word == "event":  # event TYPE COUNT CARD CODE: an event logged as given (a firmware bug)
                self.log(int(words[1]), int(words[2]), words[3].encode(), int(words[4]))
            elif word == "unplug":  # the cable out for S seconds: nothing passes either way
                self.unplugged_until = time.monotonic() + float(words[1])
            elif word == "burst":
                self.burst_next = True
            elif word == "quit":
                os._exit(0)


def serve_pty(dev: Device) -> None:
    master, slave = pty.openpty()
    tty.setraw(slave)
    dev.fd = master
    print(f"PORT {os.ttyname(slave)}", flush=True)

    def read(timeout: float) -> bytes | None:
        ready, _, _ = select.select([master], [], [], timeout)
        if not ready:
            return b""
        try:
            return os.read(master, 4096)
        except OSError:
            time.sleep(timeout)
            return b""

    threading.Thread(target=dev.receive, args=(read,), daemon=True).start()
    if dev.o.sync:
        dev.send_sync()


def serve_socket(dev: Device, port: int) -> None:
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(1)
    print(f"PORT socket://127.0.0.1:{server.getsockname()[1]}", flush=True)

    def loop() -> None:
        while True:
            conn, _ = server.accept()
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            dev.sock = conn
            dev.new_connection()

            def read(timeout: float, conn: socket.socket = conn) -> bytes | None:
                ready, _, _ = select.select([conn], [], [], timeout)
                if not ready:
                    return b""
                try:
                    data = conn.recv(4096)
                except OSError:
                    return None
                return data or None

            dev.receive(read)
            with dev.lock:
                dev.sock = None
                dev.generation += 1
                dev.out.clear()
                dev.out_ready.notify_all()
            conn.close()

    threading.Thread(target=loop, daemon=True).start()


def main(argv: list[str]) -> None:
    opts = Options(kind=argv[0])
    port: int | None = None
    args = iter(argv[1:])
    for arg in args:
        if arg == "--socket":
            port = int(next(args))
        elif arg == "--opt":
            opts.set(next(args))
    if opts.kind == "shoe":
        opts.decks = 1
    dev = Device(opts)
    threading.Thread(target=dev.sender, daemon=True).start()
    if port is None:
        serve_pty(dev)
    else:
        serve_socket(dev, port)
    for line in sys.stdin:
        dev.control(line)
    while True:  # standard input closed: keep running until killed
        time.sleep(3600)


if __name__ == "__main__":
    main(sys.argv[1:])
