"""Transports move bytes and nothing else; framing lives in ``drivers.protocol``.

A transport reads with a short timeout (returning ``b""`` when nothing came),
writes whole buffers, and raises ``DeviceLost`` the moment its device goes
away, so the link above it can report the loss and reconnect.

A link closes its transport from one thread while its reader thread may be
inside ``read``: ``InUse`` makes that safe for transports over a file
descriptor (see its docstring for what goes wrong otherwise).
"""

from __future__ import annotations

import abc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from drivers.errors import DeviceLost


class Transport(abc.ABC):
    """A byte pipe to one device."""

    description: str = "transport"

    @abc.abstractmethod
    def read(self) -> bytes:
        """Bytes that arrived, or ``b""`` after a short wait; ``DeviceLost`` if the device is gone."""

    @abc.abstractmethod
    def write(self, data: bytes) -> None:
        """Send all of ``data``; ``DeviceLost`` if the device is gone."""

    @abc.abstractmethod
    def close(self) -> None:
        """Release the port; safe to call twice, and from another thread while a read or write is in progress."""


class InUse:
    """The reads and writes in progress on one port, so that closing it never frees a descriptor under them.

    The kernel hands a closed descriptor's number to the next file the process opens (the lowest free
    number). A thread still in ``select``/``read`` on a port another thread has just closed then reads the
    next port opened in the process: it takes bytes meant for another connection, whose own read finds the
    port ready and empty ("device reports readiness to read but returned no data") or misses an ACK. Every
    read and write runs inside ``use()``; ``close()`` releases the port at once if none is in progress, and
    otherwise wakes them (``wake``) and leaves the release to the last one to finish.
    """

    def __init__(self, description: str, release: Callable[[], None], wake: Callable[[], None] = lambda: None) -> None:
        self._description = description
        self._release = release
        self._wake = wake
        self._lock = threading.Lock()
        self._users = 0
        self.closed = False

    @contextmanager
    def use(self) -> Iterator[None]:
        """Hold the port open for one read or write; ``DeviceLost`` once it is closed."""
        with self._lock:
            if self.closed:
                raise DeviceLost(f"{self._description}: closed")
            self._users += 1
        try:
            yield
        finally:
            self._done()

    def close(self) -> None:
        with self._lock:
            if self.closed:
                return
            self.closed = True
            busy = self._users > 0
            if busy:
                self._users += 1  # waking the others uses the port too
        if not busy:
            self._release()
            return
        try:
            self._wake()
        finally:
            self._done()

    def _done(self) -> None:
        with self._lock:
            self._users -= 1
            last = self.closed and self._users == 0
        if last:
            self._release()
