"""Where frames come from: a live camera, a folder of images, a video file (or a synthetic scene).

Every source has ``read() -> frame`` (an 8-bit BGR image) and ``close()``.
``read`` raises ``EndOfFrames`` when a recorded source is used up and
``CameraError`` when a camera cannot be opened or stops giving frames, naming
the device. ``open_source`` picks the kind from a string: a device index
(``0``), a ``/dev/video*`` path or a stream URL (``rtsp://...``) is a camera, a
folder is a folder of images, anything else a video file.

The synthetic source of the simulated table is ``vision.synthetic.SceneSource``.
``record`` writes a source's frames to a folder that ``FolderSource`` replays:
a technician's frames to calibrate on, or a table filmed for a replayed test.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

import cv2
import numpy as np

__all__ = ["FrameSource", "CameraError", "EndOfFrames", "CameraSource", "FolderSource", "VideoFileSource", "colour_error", "open_source",
           "record"]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class CameraError(OSError):
    """A camera (or video) that cannot be opened or stopped giving frames."""


class EndOfFrames(EOFError):
    """A recorded source has no more frames."""


class FrameSource(Protocol):
    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...


class CameraSource:
    """A live camera through ``cv2.VideoCapture``: device index, ``/dev/video*`` path or stream URL.

    A thread of its own takes every frame the camera sends, as it comes, and keeps the newest;
    ``read`` gives the newest frame not given before, waiting up to ``timeout_s`` for one. The table
    reads the camera only while it looks (after each card), and ``VideoCapture`` read so hands back
    the frames that queued since the last read, oldest first: a network stream every one of them
    (after two seconds idle, a frame two seconds old), a V4L2 camera its last few buffers. The
    camera would witness the table as it was. Each frame is given once, as the tracker counts the
    frames a card stays put.

    A camera that stops giving frames (a stream that ends, a camera unplugged) is opened again every
    ``reopen_s`` seconds; meanwhile ``read`` raises ``CameraError``, and once it gives frames again
    the table films on without a restart. ``changes`` tells when it stopped and came back, for the
    table's log: an outage between looks would otherwise leave no trace.
    """

    def __init__(self, device: int | str, width: int = 1920, height: int = 1080, timeout_s: float = 5.0,
                 reopen_s: float = 1.0) -> None:
        self.device = device
        self.name = shown(device)
        """The device as errors and the table's log name it: a stream URL's password is not shown."""
        self.size = (width, height)
        self.timeout_s = timeout_s
        self.reopen_s = reopen_s
        capture = self._open()
        if capture is None:
            raise CameraError(f"camera {self.name!r} cannot be opened (unplugged, busy, or no permission?)")
        self._newest: np.ndarray | None = None
        self._stopped = False  # not giving frames now (opened again every reopen_s)
        self._ended = False  # the thread is done: closed
        self._changes: list[tuple[bool, str]] = []
        self._closing = threading.Event()
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._take_frames, args=(capture,), name=f"camera {self.name}", daemon=True)
        self._thread.start()

    def _open(self) -> cv2.VideoCapture | None:
        capture = cv2.VideoCapture(self.device)
        if not capture.isOpened():
            capture.release()
            return None
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        return capture

    def _take_frames(self, capture: cv2.VideoCapture | None) -> None:
        """The camera's thread, the only one that touches a capture; it releases each one it is done with."""
        while not self._closing.is_set():
            if capture is None:
                if self._closing.wait(self.reopen_s):
                    break
                capture = self._open()
                continue
            ok, frame = capture.read()
            with self._changed:
                giving = ok and frame is not None
                if giving == self._stopped:
                    self._changes.append((giving, _utc_now()))
                if giving:
                    self._newest = frame
                self._stopped = not giving
                self._changed.notify_all()
            if not giving:
                capture.release()
                capture = None
        if capture is not None:
            capture.release()
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def read(self) -> np.ndarray:
        """The newest frame not given before, waited for up to ``timeout_s`` (through a reopening)."""
        with self._changed:
            self._changed.wait_for(lambda: self._newest is not None or self._ended, self.timeout_s)
            if self._newest is None:
                if self._ended:
                    raise CameraError(f"camera {self.name!r} is closed")
                if self._stopped:
                    raise CameraError(f"camera {self.name!r} stopped giving frames (opened again every {self.reopen_s:g} s)")
                raise CameraError(f"camera {self.name!r} gave no frame for {self.timeout_s:g} s")
            frame, self._newest = self._newest, None
            return frame

    def changes(self) -> list[tuple[bool, str]]:
        """What happened since the last call, in order: ``(giving, UTC time)``, ``giving`` false when the camera
        stopped giving frames and true when it gave them again."""
        with self._changed:
            changes, self._changes = self._changes, []
            return changes

    def close(self) -> None:
        """Stop taking frames; the camera is released once the frame being taken has come (at once, or
        when the backend gives up waiting on a camera that stalled)."""
        self._closing.set()
        self._thread.join(timeout=2.0)


def shown(device: int | str) -> int | str:
    """``device`` with a stream URL's password masked (``rtsp://user:***@host/...``): an IP camera's
    URL often carries its login, which must not reach error messages or the event log.

    >>> shown("rtsp://admin:hunter2@10.0.0.9:554/stream1"), shown("/dev/video0"), shown(0)
    ('rtsp://admin:***@10.0.0.9:554/stream1', '/dev/video0', 0)
    """
    if not isinstance(device, str) or "://" not in device:
        return device
    parts = urlsplit(device)
    if parts.password is None:
        return device
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def _utc_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat().replace("+00:00", "Z")


class VideoFileSource:
    """A recorded video, replayed at its own frame rate (``realtime=False`` gives frames as fast as asked)."""

    def __init__(self, path: Path, realtime: bool = True) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise CameraError(f"video {self.path} {not_a_file(self.path)}")
        self.capture = cv2.VideoCapture(str(self.path))
        if not self.capture.isOpened():
            raise CameraError(f"video {self.path} cannot be decoded")
        fps = self.capture.get(cv2.CAP_PROP_FPS)
        self.interval = 1.0 / fps if realtime and fps > 0 else 0.0
        self._next = time.monotonic()

    def read(self) -> np.ndarray:
        if self.interval:
            delay = self._next - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self._next = max(self._next, time.monotonic()) + self.interval
        ok, frame = self.capture.read()
        if not ok or frame is None:
            raise EndOfFrames(f"video {self.path} has no more frames")
        return frame

    def close(self) -> None:
        self.capture.release()


class FolderSource:
    """The images of a folder in name order, one frame each."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(f"image folder {self.folder} does not exist")
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        self.position = 0

    def read(self) -> np.ndarray:
        if self.position >= len(self.paths):
            raise EndOfFrames(f"no more images in {self.folder}")
        path = self.paths[self.position]
        self.position += 1
        return read_image(path)

    def close(self) -> None:
        """Nothing is held open between frames."""


#: A frame whose colour channels nowhere differ by more than this is taken as grey (a JPEG of a grey image
#: decodes its channels within a level or two of each other); one whose levels span less than ``LEAST_SPAN``
#: (a covered lens, a black frame) shows nothing to read either way and is not called grey.
GREY_TOLERANCE = 3
LEAST_SPAN = 40


def colour_error(frame: np.ndarray) -> str | None:
    """Why a frame cannot be read (it has no colour: a monochrome camera, or one set to greyscale), else ``None``.

    Every deck's looks tell a heart from a spade partly by the red of its ink: on a grey frame a red card reads
    as the black one alike at its index, and confidently, so such frames are refused by name rather than read."""
    if frame.ndim == 2 or frame.shape[2] == 1:
        grey = True
    else:
        sample = frame[::2, ::2].astype(np.int16)
        grey = int(np.abs(sample[:, :, 0] - sample[:, :, 1]).max()) <= GREY_TOLERANCE and \
            int(np.abs(sample[:, :, 1] - sample[:, :, 2]).max()) <= GREY_TOLERANCE
    if not grey or int(frame.max()) - int(frame.min()) < LEAST_SPAN:
        return None
    return ("the camera sends frames without colour (greyscale): the reader tells red suits from black by their ink, "
            "so a grey frame would read red cards as black ones; set the camera to colour")


def not_a_file(path: Path) -> str:
    """Why ``path``, which is not a regular file, cannot be read as one: the end of a message naming it."""
    if path.is_dir():
        return "is a folder, not a file"
    return "is not a regular file" if path.exists() else "does not exist"


def read_image(path: Path) -> np.ndarray:
    """One image file as a BGR frame; a clear error for a missing or garbled file."""
    if not Path(path).is_file():
        raise CameraError(f"image {path} {not_a_file(Path(path))}")
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        raise CameraError(f"image {path} is not a readable image (garbled or not an image format)")
    if _cut_short_jpeg(Path(path)):
        raise CameraError(f"image {path} is cut short: its JPEG data ends before the end of the picture (a copy or a "
                          "download that stopped early); copy it again")
    return frame


#: How far from a JPEG file's end its end-of-image mark may lie (data some cameras append after it).
JPEG_TAIL = 65536


def _cut_short_jpeg(path: Path) -> bool:
    """Whether a JPEG file lacks its end-of-image mark near its end: OpenCV decodes such a file, its lost rows
    grey, and says so only on libjpeg's stderr (an outside lab's truncated frame read as no card, exit 0)."""
    with path.open("rb") as handle:
        if handle.read(2) != b"\xff\xd8":
            return False  # not a JPEG
        handle.seek(0, 2)
        size = handle.tell()
        handle.seek(max(0, size - JPEG_TAIL))
        return b"\xff\xd9" not in handle.read()


def open_source(spec: str) -> FrameSource:
    """A frame source from a command-line string (see the module doc)."""
    if spec.isdigit():
        return CameraSource(int(spec))
    if spec.startswith("/dev/video") or "://" in spec:
        return CameraSource(spec)
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path)
    return VideoFileSource(path)


def record(source: FrameSource, folder: Path, frames: int) -> list[Path]:
    """Write up to ``frames`` frames of ``source`` to ``folder`` as ``000000.png``, ``000001.png``...
    (lossless, in the order ``FolderSource`` reads them); fewer when a recorded source ends first.

    ``folder`` is created; one that already holds images is refused, so two
    recordings never mix into one replay.
    """
    folder = Path(folder)
    if folder.is_dir() and any(p.suffix.lower() in IMAGE_SUFFIXES for p in folder.iterdir()):
        raise CameraError(f"{folder} already holds images: record into a new folder")
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for k in range(frames):
        try:
            frame = source.read()
        except EndOfFrames:
            break
        path = folder / f"{k:06d}.png"
        if not cv2.imwrite(str(path), frame):
            raise CameraError(f"cannot write {path}")
        written.append(path)
    return written
