"""Transports move bytes and nothing else; framing lives in ``drivers.protocol``.

A transport reads with a short timeout (returning ``b""`` when nothing came),
writes whole buffers, and raises ``DeviceLost`` the moment its device goes
away, so the link above it can report the loss and reconnect.
"""

from __future__ import annotations

import abc


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
        """Release the port; safe to call twice."""
