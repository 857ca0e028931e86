"""An MJPEG stream served over HTTP on 127.0.0.1, as an IP camera serves one: frames at 30 a second,
read through ``cv2.VideoCapture`` (FFmpeg) exactly as a table PC reads ``[vision] source = "http://..."``."""

from __future__ import annotations

import http.server
import socketserver
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import cv2
import numpy as np

FPS = 30
BITS = 16


def numbered(n: int) -> bytes:
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
def serve(frames: int | None = None, then: str = "hold", picture: Callable[[int], bytes] | None = None) -> Iterator[Stream]:
    """A stream that sends each connection ``frames`` frames (None: until the test ends), then
    ``then``: "hold" the connection open sending nothing, "close" it (a camera opened again gets a
    new one), or "vanish": close it and stop listening, as a camera unplugged. Frame ``n`` is
    ``picture(n)`` (a JPEG), by default a frame that spells ``n`` (``number_of``)."""
    picture = picture or numbered
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
                    data = picture(int((time.monotonic() - started) * FPS))
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


