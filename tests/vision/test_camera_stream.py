"""A live camera filmed over a real network stream (``tests/vision/mjpeg_stream.py``), each frame
carrying its number."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.vision.mjpeg_stream import BITS, FPS, Stream, number_of, serve
from vision.sources import CameraError, CameraSource, open_source


@pytest.fixture
def stream() -> Iterator[Stream]:
    with serve() as served:
        yield served


def test_a_stream_url_is_a_live_camera(stream: Stream) -> None:
    source = open_source(stream.url)
    try:
        assert isinstance(source, CameraSource)
        assert source.read().shape == (96, 16 * BITS, 3)
    finally:
        source.close()


def test_a_look_after_a_pause_sees_the_table_as_it_is_now_not_as_it_was(stream: Stream) -> None:
    """The table reads the camera only while it looks; a stream read after a pause must not hand back
    the frames that queued meanwhile (VideoCapture alone returns them one by one, a second late here)."""
    source = CameraSource(stream.url)
    try:
        number_of(source.read())
        paused_at = stream.now()
        time.sleep(1.0)
        seen = number_of(source.read())
        assert seen >= paused_at + FPS // 2, f"frame {seen} read after a pause from frame {paused_at}: a queued frame"
    finally:
        source.close()


def test_each_frame_is_given_once_and_in_order(stream: Stream) -> None:
    """The tracker counts frames a card stays put: the same frame given twice would count as two."""
    source = CameraSource(stream.url)
    try:
        numbers = [number_of(source.read()) for _ in range(8)]
    finally:
        source.close()
    assert numbers == sorted(set(numbers))


def test_a_stream_that_stalls_is_named_in_the_error_once_the_wait_is_over() -> None:
    with serve(5, "hold") as served:
        source = CameraSource(served.url, timeout_s=0.5)
        try:
            source.read()
            started = time.monotonic()
            with pytest.raises(CameraError, match=r"camera 'http://127\.0\.0\.1:\d+/table\.mjpg' gave no frame for 0\.5 s"):
                for _ in range(10):
                    source.read()
            assert time.monotonic() - started < 5
        finally:
            source.close()


def test_a_stream_that_ends_is_opened_again_and_films_on() -> None:
    """An IP camera that drops its stream (here every five frames) must not stop the table until a restart."""
    with serve(5, "close") as served:
        source = CameraSource(served.url, timeout_s=5.0, reopen_s=0.1)
        try:
            numbers = [number_of(source.read()) for _ in range(12)]
        finally:
            source.close()
        assert numbers == sorted(set(numbers)) and len(served.connections) >= 3
        changes = source.changes()
        assert [giving for giving, _ in changes] == [False, True] * (len(changes) // 2)
        assert len(changes) >= 4 and [at for _, at in changes] == sorted(at for _, at in changes)
        assert source.changes() == []


def test_a_camera_that_is_gone_is_named_while_it_is_opened_again_and_a_closed_one_says_so() -> None:
    with serve(5, "vanish") as served:
        source = CameraSource(served.url, timeout_s=0.5, reopen_s=0.1)
        try:
            with pytest.raises(CameraError, match=r"camera 'http://\S+' stopped giving frames \(opened again every 0\.1 s\)"):
                for _ in range(10):
                    source.read()
        finally:
            source.close()
        with pytest.raises(CameraError, match="is closed"):
            source.read()


def test_a_camera_url_s_password_is_never_shown() -> None:
    """An IP camera's URL often carries its login: errors (and so the table's log) mask the password."""
    with pytest.raises(CameraError) as refused:
        CameraSource("http://pit:hunter2@127.0.0.1:9/table.mjpg")
    assert "hunter2" not in str(refused.value) and "'http://pit:***@127.0.0.1:9/table.mjpg' cannot be opened" in str(refused.value)
