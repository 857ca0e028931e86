"""Frame codec: whole, split or byte by byte, through garbage and damage, it never invents a frame."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, strategies as st

from drivers.protocol.examples import section
from drivers.protocol.frame import MAX_PAYLOAD, SYNC, Frame, FrameDecoder, crc16, encode

frames = st.builds(
    Frame,
    kind=st.integers(0, 255),
    seq=st.integers(0, 255),
    payload=st.binary(max_size=MAX_PAYLOAD),
)
garbage = st.binary(max_size=40)


def decode_all(chunks: list[bytes]) -> list[Frame]:
    decoder = FrameDecoder()
    out: list[Frame] = []
    for chunk in chunks:
        out += decoder.feed(chunk)
    while decoder.pending:
        out += decoder.expire()
    return out


def is_subsequence(needles: list[Frame], haystack: list[Frame]) -> bool:
    it = iter(haystack)
    return all(any(n == h for h in it) for n in needles)


def test_crc_is_ccitt_false_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1


@given(st.lists(frames, max_size=8), st.data())
def test_frames_fed_whole_halved_and_byte_by_byte_decode_the_same(sent: list[Frame], data: st.DataObject) -> None:
    wire = b"".join(encode(f) for f in sent)
    cut = data.draw(st.integers(0, len(wire)))
    assert decode_all([wire]) == sent
    assert decode_all([wire[:cut], wire[cut:]]) == sent
    assert decode_all([wire[i : i + 1] for i in range(len(wire))]) == sent


@given(st.lists(st.tuples(garbage.filter(lambda g: SYNC not in g), frames), max_size=6))
def test_garbage_without_a_start_byte_between_frames_is_skipped(parts: list[tuple[bytes, Frame]]) -> None:
    wire = b"".join(g + encode(f) for g, f in parts)
    assert decode_all([wire]) == [f for _, f in parts]


@given(st.lists(st.tuples(garbage, frames), max_size=6), st.lists(st.integers(1, 50), max_size=5))
def test_any_garbage_loses_no_frame_and_every_frame_decoded_is_on_the_wire(
    parts: list[tuple[bytes, Frame]], splits: list[int]
) -> None:
    wire = b"".join(g + encode(f) for g, f in parts)
    chunks, at = [], 0
    for n in splits:
        chunks.append(wire[at : at + n])
        at += n
    chunks.append(wire[at:])
    decoded = decode_all(chunks)
    assert is_subsequence([f for _, f in parts], decoded)
    assert all(encode(f) in wire for f in decoded)


@given(st.binary(max_size=600))
def test_random_bytes_never_crash_and_only_yield_frames_present_in_them(noise: bytes) -> None:
    for frame in decode_all([noise]):
        assert encode(frame) in noise


@given(frames, frames, st.data())
def test_a_damaged_byte_loses_only_its_own_frame(first: Frame, second: Frame, data: st.DataObject) -> None:
    wire = bytearray(encode(first))
    at = data.draw(st.integers(1, len(wire) - 1))
    wire[at] ^= data.draw(st.integers(1, 255))
    decoded = decode_all([bytes(wire) + encode(second)])
    assert decoded and decoded[-1] == second
    assert all(encode(f) in bytes(wire) for f in decoded[:-1])


def test_a_frame_behind_an_inflated_length_byte_comes_out_when_the_line_goes_quiet() -> None:
    real = encode(Frame(0x84, 3, b"x"))
    decoder = FrameDecoder()
    assert decoder.feed(bytes((SYNC, MAX_PAYLOAD, 1, 2)) + real) == []
    assert decoder.expire() == [Frame(0x84, 3, b"x")]
    assert decoder.stats.stale == 1


def test_frames_reject_oversized_payloads_with_the_limit_named() -> None:
    try:
        Frame(0x10, 0, bytes(MAX_PAYLOAD + 1))
    except ValueError as exc:
        assert str(MAX_PAYLOAD) in str(exc)
    else:
        raise AssertionError("an oversized payload was accepted")


def test_the_protocol_documents_byte_examples_are_what_the_codec_produces() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert section() in doc, "regenerate with: python -m drivers.protocol.examples --write docs/protocol.md"
