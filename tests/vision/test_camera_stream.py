"""A live camera filmed over a real network stream: an MJPEG stream served over HTTP on this machine at
30 frames a second, each frame carrying its number, read through ``cv2.VideoCapture`` (FFmpeg) exactly
as a table PC reads an IP camera (``[vision] source = "http://..."``)."""

from __future__ import annotations

import http.server
import socketserver
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from vision.sources import CameraError, CameraSource, open_source

FPS = 30
BITS = 16


def _numbered(n: int) -> bytes:
    """A small JPEG frame whose top row spells ``n`` in black and white blocks (JPEG keeps them)."""
    frame = np.full((96, 16 * BITS, 3), 90, np.uint8)
    for bit in range(BITS):
        frame[:16, 16 * bit:16 * (bit + 1)] = 255 * ((n >> bit) & 1)
    return cv2.imencode(".jpg", frame)[1].tobytes()


def number_of(frame: np.ndarray) -> int:
    return sum(1 << bit for bit in range(BITS) if frame[8, 16 * bit + 8].mean() > 127)


@dataclass
class Stream:
    """The stream's URL and the number of the frame it is sending now."""

    url: str
    started: float
    connections: list[int]  # one entry per connection the camera opened

    def now(self) -> int:
        return int((time.monotonic() - self.started) * FPS)


@contextmanager
def _serve(frames: int | None = None, then: str = "hold") -> Iterator[Stream]:
    """A stream that sends each connection ``frames`` frames (None: until the test ends), then
    ``then``: "hold" the connection open sending nothing, "close" it (a camera opened again gets a
    new one), or "vanish": close it and stop listening, as a camera unplugged."""
    started = time.monotonic()
    stop = threading.Event()
    connections: list[int] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            connections.append(1)
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.end_headers()
            sent = 0
            try:
                while not stop.is_set() and (frames is None or sent < frames):
                    data = _numbered(int((time.monotonic() - started) * FPS))
                    self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n%s\r\n" % (len(data), data))
                    sent += 1
                    time.sleep(1 / FPS)
                if then == "hold":
                    stop.wait()
                elif then == "vanish":
                    server.server_close()
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *args: object) -> None:
            pass

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    try:
        yield Stream(f"http://127.0.0.1:{server.server_address[1]}/table.mjpg", started, connections)
    finally:
        stop.set()
        server.shutdown()
        server.server_close()


@pytest.fixture
def stream() -> Iterator[Stream]:
    with _serve() as served:
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
    with _serve(5, "hold") as served:
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
    with _serve(5, "close") as served:
        source = CameraSource(served.url, timeout_s=5.0, reopen_s=0.1)
        try:
            numbers = [number_of(source.read()) for _ in range(12)]
        finally:
            source.close()
        assert numbers == sorted(set(numbers)) and len(served.connections) >= 3


def test_a_camera_that_is_gone_is_named_while_it_is_opened_again_and_a_closed_one_says_so() -> None:
    with _serve(5, "vanish") as served:
        source = CameraSource(served.url, timeout_s=0.5, reopen_s=0.1)
        try:
            with pytest.raises(CameraError, match=r"camera 'http://\S+' stopped giving frames \(opened again every 0\.1 s\)"):
                for _ in range(10):
                    source.read()
        finally:
            source.close()
        with pytest.raises(CameraError, match="is closed"):
            source.read()
