"""systemd's notify protocol with the standard library: READY, STATUS, WATCHDOG, STOPPING.

Messages go as one datagram to the unix socket named by ``$NOTIFY_SOCKET``
(a leading ``@`` means the abstract namespace). Without the variable (not run
by systemd) every call does nothing. The watchdog interval comes from
``$WATCHDOG_USEC``; ``watchdog()`` sends a keep-alive at most every half
interval, and is meant to be called from the main loop after its health check
passes, so a hung loop is what stops the keep-alives.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Mapping

SEND_WAIT = 1.0
"""Seconds READY, STATUS and STOPPING may wait for room in the notify socket's queue before they are dropped."""


class Notifier:
    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        mine = not pid or pid == str(os.getpid())
        self.watchdog_interval = int(usec) / 1e6 if usec.isdigit() and mine else None
        self._last_watchdog = float("-inf")

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, *fields: str, wait: float = SEND_WAIT) -> bool:
        """Send ``KEY=value`` fields in one datagram; False when not under systemd, or when it could not go.

        A datagram socket's queue is short (``net.unix.max_dgram_qlen``, 10 by default): while nothing reads it,
        a blocking send would stop the table loop's thread, which sends the keep-alives. A message waits at most
        ``wait`` seconds (0: not at all) and is otherwise dropped."""
        if not self.address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.settimeout(wait)
                sock.connect(self.address)
                sock.sendall("\n".join(fields).encode())
        except OSError:  # the queue stayed full, or the socket is gone: systemd learns it from the next one
            return False
        return True

    def ready(self, status: str) -> bool:
        return self.send("READY=1", f"STATUS={status}", f"MAINPID={os.getpid()}")

    def status(self, status: str) -> bool:
        return self.send(f"STATUS={status}")

    def stopping(self, status: str) -> bool:
        return self.send("STOPPING=1", f"STATUS={status}")

    def watchdog(self) -> bool:
        """Keep-alive, at most every half watchdog interval. Call it only when the health check passed."""
        if self.watchdog_interval is None:
            return False
        now = time.monotonic()
        if now - self._last_watchdog < self.watchdog_interval / 2:
            return False
        self._last_watchdog = now
        return self.send("WATCHDOG=1", wait=0)  # a keep-alive that cannot go now is worth no wait: the next one goes
