"""Connecting to the floor's NATS broker without leaving a half-open connection behind.

``nats.connect`` builds its client and opens the TCP connection before the
server's first word; cancelled there (a table stopping, a bounded wait running
out), it drops a client whose socket nobody closes, and the garbage collector
finds it later, in whatever the process does next, as an unclosed stream
writer. ``connect`` closes what a connect that did not finish opened.
"""

from __future__ import annotations

from typing import Any

from nats.aio.client import Client


async def connect(**options: Any) -> Client:
    """A client connected with nats-py's ``options``; on any failure or cancellation, its connection closed first."""
    client = Client()
    try:
        await client.connect(**options)
    except BaseException:
        await client.close()
        raise
    return client
