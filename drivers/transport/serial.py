"""Serial transport: any port ``serial.serial_for_url`` opens.

``/dev/ttyUSB0``, ``/dev/serial/by-id/...``, a pseudo-terminal, ``socket://host:port``
and ``loop://`` all work the same. pyserial reports an unplugged adapter as a
``SerialException`` (on Linux: "device reports readiness to read but returned no
data"); this transport turns every such error into ``DeviceLost``.

pyserial's ``close`` frees the port's descriptors at once, even while another
thread is inside ``read`` on them (a link's reader, when the link closes or
reconnects): here closing wakes that read and the port is released once it
returns (``drivers.transport.InUse``), so no read or write ever reaches a
descriptor number the process has handed to another file meanwhile.
"""

from __future__ import annotations

import os
import socket

import serial

from drivers.errors import DeviceLost
from drivers.transport import InUse, Transport

READ_TIMEOUT = 0.02


class SerialTransport(Transport):
    """Bytes through pyserial. Opening a port that is not there raises ``DeviceLost``."""

    def __init__(self, url: str, *, baudrate: int = 115200) -> None:
        self.description = url
        try:
            self._port = serial.serial_for_url(url, baudrate=baudrate, timeout=READ_TIMEOUT, write_timeout=1.0)
            self._port.reset_input_buffer()
            sock = getattr(self._port, "_socket", None)
            if sock is not None:
                # pyserial leaves Nagle on: small frames would wait for the peer's delayed ACK.
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise DeviceLost(f"cannot open {url}: {_reason(exc)}") from exc
        self._in_use = InUse(url, self._release, self._wake)

    def read(self) -> bytes:
        try:
            with self._in_use.use():
                return bytes(self._port.read(max(1, self._port.in_waiting)))
        except (serial.SerialException, OSError, TypeError, AttributeError, ValueError) as exc:
            # TypeError/AttributeError/ValueError: pyserial reading a port closed under it, not through close()
            # (ValueError: socket:// selects on the closed socket's descriptor, -1).
            raise DeviceLost(f"{self.description}: {exc}") from exc

    def write(self, data: bytes) -> None:
        try:
            with self._in_use.use():
                self._port.write(data)
        except (serial.SerialException, OSError, TypeError, AttributeError, ValueError) as exc:
            raise DeviceLost(f"{self.description}: {exc}") from exc

    def close(self) -> None:
        self._in_use.close()

    def _wake(self) -> None:
        """End the read (and write) in progress now rather than at its timeout (a tty's; socket:// has none)."""
        for cancel in ("cancel_read", "cancel_write"):
            try:
                getattr(self._port, cancel, lambda: None)()
            except (serial.SerialException, OSError):
                pass

    def _release(self) -> None:
        # pyserial 3.5's socket:// close() skips closing the socket when shutdown() fails
        # (the peer already hung up), leaking it: close it here as well.
        sock = getattr(self._port, "_socket", None)
        try:
            self._port.close()
        except (serial.SerialException, OSError):
            pass
        if sock is not None:
            sock.close()


def _reason(exc: Exception) -> str:
    """Why a port could not be opened, in the system's words (``No such file or directory``, ``Permission
    denied``) where it gives an error number; pyserial's own text repeats the port twice around it."""
    number = getattr(exc, "errno", None)
    return os.strerror(number) if isinstance(number, int) and number > 0 else str(exc)
