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
  outgoing connections take theirs), each process walking from a place of its
  own in that range, set by its pid, so two workers rarely even try one port.

What is left (a program that sets ``SO_REUSEADDR`` and binds a fixed port) is
met by the servers' start: see :mod:`controller.floor.localservers`.
"""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

_LOWEST_PORT = 10000
_PORT_STRIDE = 2617  # a prime: processes with neighbouring pids start thousands of ports apart


class _PortWalk:
    """Candidate ports for this process: a walk below the kernel's ephemeral range, from a start set by the pid."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = 0
        self._next = 0

    def take(self) -> int | None:
        """The next candidate, or None where the machine leaves no room below its ephemeral range."""
        span = _ephemeral_low() - _LOWEST_PORT
        if span < 1000:
            return None
        with self._lock:
            if self._pid != os.getpid():  # first use, or a forked child: a start of its own
                self._pid = os.getpid()
                self._next = self._pid * _PORT_STRIDE
            self._next += 1
            return _LOWEST_PORT + self._next % span


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


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing holds now (not held after: prefer :func:`reserve_port`)."""
    with reserve_port() as sock:
        port: int = sock.getsockname()[1]
        return port
