"""The device end of a simulated port, and the line faults a simulator can inject.

``PtyEndpoint`` plugs the simulator into a fresh pseudo-terminal each time and
points a stable symlink at it, the way udev's ``/dev/serial/by-id/...`` names
follow a USB adapter; unplugging closes the pseudo-terminal (the driver's next
read fails with EIO, as with a pulled adapter) and removes the symlink until
the device comes back. ``SocketEndpoint`` listens on ``socket://127.0.0.1:PORT``.

Pseudo-terminals model no baud rate, line noise or control lines, so
``FaultyTransport`` injects what a real line does: dropped, duplicated,
corrupted and delayed bytes, in both directions.
"""

from __future__ import annotations

import errno
import os
import random
import select
import socket
import tempfile
import threading
import time
import tty
from dataclasses import dataclass
from pathlib import Path

from drivers.errors import DeviceLost
from drivers.transport import InUse, Transport

POLL = 0.02


class FdTransport(Transport):
    """The master side of a pseudo-terminal. Writes nobody reads are dropped, not blocked on.

    Like a device on a serial line, it cannot tell a host closing the port and opening it again: while no
    host has the port open (the kernel answers ``EIO``) it reads nothing and its writes are lost. Closing
    it while its link's reader waits in ``read`` leaves both descriptors open until that read returns
    (``InUse``): the simulator restarts and stops while other simulators in the process open ports.
    """

    def __init__(self, master: int, slave: int, description: str) -> None:
        self.description = description
        self._master, self._slave = master, slave
        self._in_use = InUse(description, self._release)

    def read(self) -> bytes:
        with self._in_use.use():
            try:
                ready, _, _ = select.select([self._master], [], [], POLL)
                return os.read(self._master, 4096) if ready else b""
            except OSError as exc:
                if exc.errno == errno.EIO:
                    time.sleep(POLL)  # no host has the port open: nothing to read
                    return b""
                raise DeviceLost(f"{self.description}: {exc}") from exc
            except ValueError as exc:  # select(): a descriptor number past FD_SETSIZE
                raise DeviceLost(f"{self.description}: {exc}") from exc

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        with self._in_use.use():
            try:
                while view:
                    view = view[os.write(self._master, view) :]
            except BlockingIOError:
                return
            except OSError as exc:
                if exc.errno == errno.EIO:
                    return  # no host has the port open: the bytes are lost, as on a serial line
                raise DeviceLost(f"{self.description}: {exc}") from exc

    def close(self) -> None:
        self._in_use.close()

    def _release(self) -> None:
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


class SocketTransport(Transport):
    """One accepted TCP connection.

    Python's socket takes its descriptor number as each ``recv``/``send`` starts, and ``close()`` marks
    it closed before freeing it: the window is narrow but there. A reader descheduled between taking the
    number and reading (a busy machine) reads whatever the process opened on that number meanwhile, a
    writer writes into it. So, as for ``FdTransport``: closing shuts the connection down at once, which
    ends the read in progress, and frees the socket only once the last read or write has returned (``InUse``).
    """

    def __init__(self, conn: socket.socket, description: str) -> None:
        self.description = description
        self._conn = conn
        conn.settimeout(POLL)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._in_use = InUse(description, conn.close, self._wake)

    def read(self) -> bytes:
        with self._in_use.use():
            try:
                data = self._conn.recv(4096)
            except TimeoutError:
                return b""
            except OSError as exc:
                raise DeviceLost(f"{self.description}: {exc}") from exc
            if not data:
                raise DeviceLost(f"{self.description}: " + ("closed" if self._in_use.closed else "the host closed the connection"))
            return data

    def write(self, data: bytes) -> None:
        with self._in_use.use():
            try:
                self._conn.sendall(data)
            except OSError as exc:
                raise DeviceLost(f"{self.description}: {exc}") from exc

    def close(self) -> None:
        self._in_use.close()

    def _wake(self) -> None:
        """End the read (and write) in progress now: a shut-down socket reads as ended."""
        try:
            self._conn.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the host hung up first


class PtyEndpoint:
    """A pseudo-terminal behind a stable symlink (see module doc)."""

    def __init__(self, path: Path | None = None) -> None:
        self._own_dir = None if path else Path(tempfile.mkdtemp(prefix="tablectl-sim-"))
        self.path = path or self._own_dir / "port"  # type: ignore[operator]
        self.url = str(self.path)

    def attach(self, stop: threading.Event) -> Transport | None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        staging = self.path.with_name(self.path.name + ".new")
        staging.unlink(missing_ok=True)
        os.symlink(os.ttyname(slave), staging)
        os.replace(staging, self.path)
        return FdTransport(master, slave, self.url)

    def detach(self) -> None:
        self.path.unlink(missing_ok=True)

    def close(self) -> None:
        self.detach()
        if self._own_dir is not None:
            self._own_dir.rmdir()


class SocketEndpoint:
    """A TCP listener; each connection a host makes replaces the previous one."""

    def __init__(self, port: int = 0) -> None:
        self._listener = socket.create_server(("127.0.0.1", port))
        self.port = self._listener.getsockname()[1]
        self.url = f"socket://127.0.0.1:{self.port}"

    def attach(self, stop: threading.Event) -> Transport | None:
        if self._listener.fileno() < 0:
            self._listener = socket.create_server(("127.0.0.1", self.port))
        self._listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            return SocketTransport(conn, self.url)
        return None

    def detach(self) -> None:
        """Stop listening, as a device that vanished; ``attach`` listens again."""
        self._listener.close()

    def close(self) -> None:
        self.detach()


@dataclass
class LineFaults:
    """Probabilities per byte (``drop``, ``duplicate``, ``corrupt``) and per write (``delay``)."""

    drop: float = 0.0
    duplicate: float = 0.0
    corrupt: float = 0.0
    delay: float = 0.0
    delay_seconds: float = 0.005

    @property
    def any(self) -> bool:
        return bool(self.drop or self.duplicate or self.corrupt or self.delay)


class FaultyTransport(Transport):
    """Wraps a transport and damages bytes both ways as ``faults`` says."""

    def __init__(self, inner: Transport, faults: LineFaults, rng: random.Random) -> None:
        self.description = inner.description
        self._inner, self._faults, self._rng = inner, faults, rng

    def _mangle(self, data: bytes) -> bytes:
        f, rng = self._faults, self._rng
        if not data or not (f.drop or f.duplicate or f.corrupt):
            return data
        out = bytearray()
        for byte in data:
            roll = rng.random()
            if roll < f.drop:
                continue
            if roll < f.drop + f.corrupt:
                byte ^= rng.randrange(1, 256)
            out.append(byte)
            if rng.random() < f.duplicate:
                out.append(byte)
        return bytes(out)

    def read(self) -> bytes:
        return self._mangle(self._inner.read())

    def write(self, data: bytes) -> None:
        if self._faults.delay and self._rng.random() < self._faults.delay:
            time.sleep(self._faults.delay_seconds)
        self._inner.write(self._mangle(data))

    def write_raw(self, data: bytes) -> None:
        self._inner.write(data)

    def close(self) -> None:
        self._inner.close()
