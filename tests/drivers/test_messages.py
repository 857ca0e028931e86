"""Messages: every one round-trips; no payload makes the decoder fail but with ProtocolError."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from controller.cards import Card
from drivers.errors import ProtocolError
from drivers.protocol import messages as m
from drivers.protocol.frame import Frame, FrameDecoder, encode

cards = st.sampled_from(sorted(Card._interned.values(), key=lambda c: c.code))
maybe_card = st.none() | cards
u8, u16, u32 = st.integers(0, 0xFF), st.integers(0, 0xFFFF), st.integers(0, 0xFFFFFFFF)
text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=15)

messages = st.one_of(
    st.builds(m.Hello, u8),
    st.just(m.GetStatus()),
    st.builds(m.Replay, u32),
    st.just(m.Shuffle()),
    st.builds(m.Deal, u16),
    st.just(m.Verify()),
    st.builds(m.Dispense, u8),
    st.just(m.Alternate()),
    st.builds(m.Identity, u8, u8, st.sampled_from(m.DeviceKind), u16, text, text, text),
    st.builds(m.Status, u8, st.sampled_from(m.State), st.sampled_from(m.Code), u16, u16, u32, u8),
    st.builds(m.Result, u8, u8, st.sampled_from(m.Code), u32),
    st.builds(m.Stack, u8, st.lists(maybe_card, max_size=40).map(tuple)),
    st.builds(m.Event, u32, st.sampled_from(m.EventType), u16, maybe_card, st.sampled_from(m.Code)),
)


@given(messages)
def test_every_message_round_trips(msg: m.Message) -> None:
    assert m.decode(msg.KIND, m.encode(msg)) == msg


@given(st.sampled_from(sorted(m.MESSAGES)), st.binary(max_size=120))
def test_any_payload_decodes_or_raises_protocol_error(kind: int, payload: bytes) -> None:
    try:
        msg = m.decode(kind, payload)
    except ProtocolError:
        return
    assert m.encode(msg) == payload


@given(st.binary(min_size=2, max_size=2))
def test_an_event_carries_only_a_real_card_or_none(raw: bytes) -> None:
    payload = bytes(4) + bytes((m.EventType.CARD_DRAWN,)) + bytes(2) + raw + bytes(1)
    try:
        ev = m.decode(m.Event.KIND, payload)
    except ProtocolError as exc:
        assert "bad card" in str(exc)
        return
    assert isinstance(ev, m.Event)
    assert ev.card is None or ev.card.code.encode() == raw


def test_lower_case_card_codes_are_refused() -> None:
    with pytest.raises(ProtocolError, match="capitals"):
        m.decode(m.Stack.KIND, b"\x00\x01as")


def test_unknown_kind_is_named() -> None:
    with pytest.raises(ProtocolError, match="0x7f"):
        m.decode(0x7F, b"")


def test_short_payload_error_names_the_message_and_sizes() -> None:
    with pytest.raises(ProtocolError, match="Replay payload must be 4 bytes, got 2"):
        m.decode(m.Replay.KIND, b"\x00\x01")


def test_every_code_has_a_dealer_message() -> None:
    assert all(code.dealer_message for code in m.Code)


@given(
    st.lists(st.builds(m.Event, u32, st.just(m.EventType.CARD_DRAWN), u16, cards), min_size=1, max_size=8),
    st.dictionaries(st.integers(0, 7), st.tuples(st.integers(0, 15), st.integers(1, 255)), max_size=4),
    st.lists(st.binary(max_size=12), max_size=8),
)
def test_damaged_card_events_are_dropped_and_no_card_is_invented(
    sent: list[m.Event], damage: dict[int, tuple[int, int]], noise: list[bytes]
) -> None:
    """A damaged byte anywhere in an event's frame loses that event (it is sent again); nothing else changes."""
    wire = bytearray()
    for i, ev in enumerate(sent):
        frame = bytearray(encode(Frame(m.Event.KIND, i, m.encode(ev))))
        if i in damage:
            at, xor = damage[i]
            frame[at % len(frame)] ^= xor
        wire += (noise[i] if i < len(noise) else b"") + frame
    decoder = FrameDecoder()
    frames = decoder.feed(bytes(wire))
    while decoder.pending:
        frames += decoder.expire()
    received = [m.decode(f.kind, f.payload) for f in frames]
    assert received == [ev for i, ev in enumerate(sent) if i not in damage]
