"""Loopback ports for the servers tests, benchmarks and demos start (:mod:`controller.floor.localservers`).

Many such servers start at once (pytest-xdist workers, other programs on a
busy machine), and a port picked free by binding port 0 and closing the
socket may be taken before the server binds it. Two things narrow that to
almost nothing:

- :func:`reserve_port` holds the port until the server listens on it: a socket
  bound to the port (not listening) with ``SO_REUSEADDR`` set after the bind.
  Another program's plain bind to it, ``bind(0)`` and an outgoing
  connection's automatic port all skip it, while our server, which sets
  ``SO_REUSEADDR`` as ``nats-server`` and PostgreSQL both do, binds and
  listens alongside it. The caller closes it once the server listens.
- Ports come from below the kernel's ephemeral range (where ``bind(0)`` and
  outgoing connections take theirs), in blocks each process claims for its
  lifetime (a lock file each), so two processes using this module never try
  one port: not even a port of a node another one stopped for a while, which
  that cluster's routes and clients keep dialling.

What is left (a program that sets ``SO_REUSEADDR`` and binds a fixed port) is
met by the servers' start: see :mod:`controller.floor.localservers`.
"""

from __future__ import annotations

import fcntl
import os
import socket
import tempfile
import threading
from pathlib import Path
from typing import IO

_LOWEST_PORT = 10000
_BLOCK = 256  # ports a process claims at a time: a floor test's cluster takes 13
_BLOCK_STRIDE = 37  # processes with neighbouring pids try blocks far apart first
_CLAIMS = Path(tempfile.gettempdir()) / "tablectl-ports"


class _PortWalk:
    """Candidate ports for this process, block by block below the kernel's ephemeral range.

    Each block is claimed for the process's lifetime by an exclusive ``flock`` on a
    file of its own under ``$TMPDIR/tablectl-ports`` (the kernel lets it go when the
    process ends, however it ends), so processes using this module never walk the
    same ports: a node one of them stopped for a while keeps its ports, and another
    cluster's routes cannot reach it. Where no block can be claimed (the folder is
    not writable, every block taken) the walk goes on unclaimed; :func:`reserve_port`
    still checks every port.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = 0
        self._next = self._end = 0
        self._mine: set[int] = set()
        self._claims: list[IO[str]] = []  # open while the process lives: closing one gives its block up

    def take(self) -> int | None:
        """The next candidate, or None where the machine leaves no room below its ephemeral range."""
        blocks = (_ephemeral_low() - _LOWEST_PORT) // _BLOCK
        if blocks < 4:
            return None
        with self._lock:
            if self._pid != os.getpid():  # first use, or a forked child: the parent's blocks stay the parent's
                self._pid = os.getpid()
                self._next = self._end = 0
                self._mine = set()
            if self._next >= self._end:
                self._next = _LOWEST_PORT + self._claim(blocks) * _BLOCK
                self._end = self._next + _BLOCK
            self._next += 1
            return self._next - 1

    def _claim(self, blocks: int) -> int:
        first = self._pid * _BLOCK_STRIDE
        for step in range(blocks):
            block = (first + step) % blocks
            if block in self._mine:
                continue
            try:
                _CLAIMS.mkdir(exist_ok=True)
                claim = (_CLAIMS / f"{block}.lock").open("a")
            except OSError:
                break
            try:
                fcntl.flock(claim, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                claim.close()
                continue
            self._claims.append(claim)
            self._mine.add(block)
            return block
        block = (first + len(self._mine)) % blocks  # nothing to claim: walk on unclaimed
        self._mine.add(block)
        return block


_WALK = _PortWalk()


def _ephemeral_low() -> int:
    """The lowest port the kernel hands out by itself (``bind(0)``, outgoing connections)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def reserve_port() -> socket.socket:
    """A free TCP port on 127.0.0.1, held by the returned socket until it is closed.

    The socket is bound without ``SO_REUSEADDR`` (so the bind fails where anything
    holds the port, a connection lingering in TIME_WAIT included), then given it, so
    that a server setting ``SO_REUSEADDR`` can bind and listen on the port while it
    is still held. Close it once the server listens.
    """
    for _ in range(200):
        port = _WALK.take()
        if port is None:
            break
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            sock.close()
            continue
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        return sock
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    return sock
