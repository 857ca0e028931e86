"""Messages of the reference protocol: typed records and their payload bytes.

Every message travels as the payload of one frame whose ``KIND`` byte names
the message. Integers are unsigned and big-endian; a card is its two-letter
code in ASCII (``b"AS"``), ``b"--"`` when there is none or it was unreadable;
strings are one length byte then UTF-8. Host commands are ``0x10``-``0x1F``;
device messages are ``0x80``-``0x8F``. A device answers each command with one
reply carrying ``request``: the sequence number of the command's frame.

>>> decode(0x14, encode(Deal(3)))
Deal(cards=3)
>>> encode(Event(12, EventType.CARD_DRAWN, 5, Card.parse("QH"))).hex(" ")
'00 00 00 0c 01 00 05 51 48 00'
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from controller.cards import Card, UnknownCard
from drivers.errors import ProtocolError

PROTOCOL_VERSION = 1
NO_CARD = b"--"


class DeviceKind(enum.IntEnum):
    SHOE = 1
    SHUFFLER = 2


class State(enum.IntEnum):
    """What a device reports it is doing."""

    READY = 0
    BUSY = 1
    FAULT = 2


class Code(enum.IntEnum):
    """Result and fault codes. ``dealer_message`` is what the dealer is told."""

    OK = 0x00
    JAM = 0x01
    DOOR_OPEN = 0x02
    COUNT_MISMATCH = 0x03
    EMPTY = 0x04
    DUPLICATE_CARD = 0x05
    UNRECOGNISED_CARD = 0x06
    BAD_REQUEST = 0x07
    NOT_READY = 0x08
    UNSUPPORTED = 0x09
    INTEGRITY = 0x0A

    @property
    def slug(self) -> str:
        return self.name.lower().replace("_", "-")

    @property
    def dealer_message(self) -> str:
        return _DEALER_MESSAGES[self]


_DEALER_MESSAGES = {
    Code.OK: "ready",
    Code.JAM: "a card is jammed: open the lid, clear the card path, close the lid",
    Code.DOOR_OPEN: "the door or lid is open: close it",
    Code.COUNT_MISMATCH: "the card count is wrong: call the supervisor to recount the deck",
    Code.EMPTY: "no cards left: load a deck",
    Code.DUPLICATE_CARD: "a card was seen twice: call the supervisor to inspect the deck",
    Code.UNRECOGNISED_CARD: "a card could not be read: call the supervisor to inspect it",
    Code.BAD_REQUEST: "the device refused a malformed command: call technical support",
    Code.NOT_READY: "the device is not ready: shuffle or load cards first",
    Code.UNSUPPORTED: "the device does not support this command",
    Code.INTEGRITY: "the device failed its self-test: call technical support",
}


class EventType(enum.IntEnum):
    CARD_DRAWN = 0x01
    CARD_BURNED = 0x02
    CUT_CARD = 0x03
    SHOE_EMPTY = 0x04
    FAULT = 0x05
    FAULT_CLEARED = 0x06
    SHUFFLED = 0x07


def _card_bytes(card: Card | None) -> bytes:
    return NO_CARD if card is None else card.code.encode("ascii")


def _card(raw: bytes) -> Card | None:
    if raw == NO_CARD:
        return None
    try:
        card = Card.parse(raw.decode("ascii"))
    except (UnicodeDecodeError, UnknownCard) as exc:
        raise ProtocolError(f"bad card bytes {raw.hex(' ')}: {exc}") from None
    if card.code.encode("ascii") != raw:
        raise ProtocolError(f"bad card bytes {raw.hex(' ')}: card codes are sent in capitals, e.g. {card.code}")
    return card


def _text(s: str) -> bytes:
    raw = s.encode("utf-8")
    if len(raw) > 60:
        raise ValueError(f"identity string {s!r} is longer than 60 bytes")
    return bytes((len(raw),)) + raw


def _texts(raw: bytes, n: int) -> list[str]:
    out, at = [], 0
    for _ in range(n):
        if at >= len(raw) or at + 1 + raw[at] > len(raw):
            raise ProtocolError(f"identity strings cut short: {raw.hex(' ')}")
        try:
            out.append(raw[at + 1 : at + 1 + raw[at]].decode("utf-8"))
        except UnicodeDecodeError:
            raise ProtocolError(f"identity string is not UTF-8: {raw.hex(' ')}") from None
        at += 1 + raw[at]
    if at != len(raw):
        raise ProtocolError(f"{len(raw) - at} stray bytes after identity strings")
    return out


def _unpack(fmt: str, payload: bytes, name: str) -> tuple[int, ...]:
    try:
        return struct.unpack(fmt, payload)
    except struct.error:
        raise ProtocolError(
            f"{name} payload must be {struct.calcsize(fmt)} bytes, got {len(payload)}: {payload.hex(' ')}"
        ) from None


# ---- host to device -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """Start a session: the device answers with ``Identity``."""

    KIND: ClassVar[int] = 0x10
    version: int = PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class GetStatus:
    """Ask for ``Status`` (also the heartbeat when the line is idle)."""

    KIND: ClassVar[int] = 0x11


@dataclass(frozen=True, slots=True)
class Replay:
    """Resend every logged event numbered ``first`` or later; ``Result.value`` is the last one."""

    KIND: ClassVar[int] = 0x12
    first: int


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Shoe: start a new shoe. Shuffler: shuffle the deck not being dealt."""

    KIND: ClassVar[int] = 0x13


@dataclass(frozen=True, slots=True)
class Deal:
    """Shoe: let ``cards`` more cards through the gate (replaces any earlier allowance)."""

    KIND: ClassVar[int] = 0x14
    cards: int


@dataclass(frozen=True, slots=True)
class Verify:
    """Shuffler: count the deck to be dealt next; ``Result.value`` is the count."""

    KIND: ClassVar[int] = 0x15


@dataclass(frozen=True, slots=True)
class Dispense:
    """Shuffler: deliver a stack of ``cards`` cards; the answer is ``Stack``."""

    KIND: ClassVar[int] = 0x16
    cards: int


@dataclass(frozen=True, slots=True)
class Alternate:
    """Shuffler with two decks: deal from the freshly shuffled deck, take back the other."""

    KIND: ClassVar[int] = 0x17


# ---- device to host -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Identity:
    KIND: ClassVar[int] = 0x80
    request: int
    version: int
    device: DeviceKind
    boot: int
    model: str
    serial: str
    firmware: str


@dataclass(frozen=True, slots=True)
class Status:
    KIND: ClassVar[int] = 0x81
    request: int
    state: State
    fault: Code
    count: int
    remaining: int
    last_event: int
    active_deck: int


@dataclass(frozen=True, slots=True)
class Result:
    KIND: ClassVar[int] = 0x82
    request: int
    command: int
    code: Code
    value: int = 0


@dataclass(frozen=True, slots=True)
class Stack:
    KIND: ClassVar[int] = 0x83
    request: int
    cards: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the device, numbered from 1 since power-on."""

    KIND: ClassVar[int] = 0x84
    number: int
    type: EventType
    count: int
    card: Card | None = None
    code: Code = Code.OK


Command: TypeAlias = Hello | GetStatus | Replay | Shuffle | Deal | Verify | Dispense | Alternate
Reply: TypeAlias = Identity | Status | Result | Stack
Message: TypeAlias = Command | Reply | Event

MESSAGES: dict[int, type[Message]] = {
    cls.KIND: cls
    for cls in (Hello, GetStatus, Replay, Shuffle, Deal, Verify, Dispense, Alternate, Identity, Status, Result, Stack, Event)
}


def encode(msg: Message) -> bytes:
    """The payload bytes of ``msg`` (its frame's kind is ``msg.KIND``)."""
    match msg:
        case Hello(version):
            return struct.pack(">B", version)
        case GetStatus() | Shuffle() | Verify() | Alternate():
            return b""
        case Replay(first):
            return struct.pack(">I", first)
        case Deal(cards):
            return struct.pack(">H", cards)
        case Dispense(cards):
            return struct.pack(">B", cards)
        case Identity(request, version, device, boot, model, serial, firmware):
            return struct.pack(">BBBH", request, version, device, boot) + _text(model) + _text(serial) + _text(firmware)
        case Status(request, state, fault, count, remaining, last_event, active_deck):
            return struct.pack(">BBBHHIB", request, state, fault, count, remaining, last_event, active_deck)
        case Result(request, command, code, value):
            return struct.pack(">BBBI", request, command, code, value)
        case Stack(request, cards):
            return struct.pack(">BB", request, len(cards)) + b"".join(_card_bytes(c) for c in cards)
        case Event(number, type_, count, card, code):
            return struct.pack(">IBH", number, type_, count) + _card_bytes(card) + bytes((code,))
    raise TypeError(f"not a protocol message: {msg!r}")


def _enum(enum_cls: type[enum.IntEnum], value: int, what: str) -> enum.IntEnum:
    try:
        return enum_cls(value)
    except ValueError:
        raise ProtocolError(f"unknown {what} 0x{value:02x}") from None


def decode_cards_leniently(kind: int, payload: bytes) -> tuple[Message, str | None]:
    """Like ``decode``, but a card code that is not one (``qh``, ``XX``) is read as ``None``, an unreadable card,
    and what was wrong is returned beside the message (docs/protocol.md 10.6: no card goes unrecorded).

    >>> decode_cards_leniently(0x83, bytes.fromhex("2702") + b"ASqh")
    (Stack(request=39, cards=(Card('AS'), None)), 'bad card bytes 71 68: card codes are sent in capitals, e.g. QH')
    """
    try:
        return decode(kind, payload), None
    except ProtocolError as exc:
        if kind not in (Stack.KIND, Event.KIND) or "bad card bytes" not in str(exc):
            raise
        problem = str(exc)
    at = 2 if kind == Stack.KIND else 7
    step = 2 if kind == Stack.KIND else len(payload)
    fixed = bytearray(payload)
    for i in range(at, len(payload) - (1 if kind == Event.KIND else 0), step):
        try:
            _card(bytes(payload[i : i + 2]))
        except ProtocolError:
            fixed[i : i + 2] = NO_CARD
    return decode(kind, bytes(fixed)), problem


def decode(kind: int, payload: bytes) -> Message:
    """The message a frame carries; ``ProtocolError`` says what is wrong with it."""
    cls = MESSAGES.get(kind)
    if cls is None:
        raise ProtocolError(f"unknown message kind 0x{kind:02x}")
    name = cls.__name__
    if cls in (GetStatus, Shuffle, Verify, Alternate):
        _unpack("", payload, name)
        return cls()
    if cls is Hello:
        return Hello(*_unpack(">B", payload, name))
    if cls is Replay:
        return Replay(*_unpack(">I", payload, name))
    if cls is Deal:
        return Deal(*_unpack(">H", payload, name))
    if cls is Dispense:
        return Dispense(*_unpack(">B", payload, name))
    if cls is Identity:
        request, version, device, boot = _unpack(">BBBH", payload[:5], name)
        model, serial, firmware = _texts(payload[5:], 3)
        return Identity(request, version, _enum(DeviceKind, device, "device kind"), boot, model, serial, firmware)  # type: ignore[arg-type]
    if cls is Status:
        request, state, fault, count, remaining, last, deck = _unpack(">BBBHHIB", payload, name)
        return Status(request, _enum(State, state, "state"), _enum(Code, fault, "code"), count, remaining, last, deck)  # type: ignore[arg-type]
    if cls is Result:
        request, command, code, value = _unpack(">BBBI", payload, name)
        return Result(request, command, _enum(Code, code, "code"), value)  # type: ignore[arg-type]
    if cls is Stack:
        request, n = _unpack(">BB", payload[:2], name)
        if len(payload) != 2 + 2 * n:
            raise ProtocolError(f"Stack says {n} cards but carries {len(payload) - 2} card bytes")
        return Stack(request, tuple(_card(payload[i : i + 2]) for i in range(2, len(payload), 2)))
    number, type_, count = _unpack(">IBH", payload[:7], name)
    if len(payload) != 10:
        raise ProtocolError(f"Event payload must be 10 bytes, got {len(payload)}: {payload.hex(' ')}")
    return Event(
        number, _enum(EventType, type_, "event type"), count, _card(payload[7:9]), _enum(Code, payload[9], "code")  # type: ignore[arg-type]
    )
