"""The table's side of a jackpot linked across tables: the claim's keys and the client that reads awards and the meter.

Apart from the controller (``controller.floor.jackpot``) so that a table imports
only the NATS client, never the floor's database driver: a table installed
without the ``floor`` extra runs, linked or not.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from typing import Any

from nats.errors import Error as NatsError
from nats.js.errors import Error as JetStreamError, NotFoundError

from controller.floor import broker, wire


def bucket_name(site: str) -> str:
    return wire.stream_name(site) + "_JACKPOTS"


def claim_key(table: str, round_id: str, spot: int) -> str:
    """The claim's key: one claim per table, round and spot."""
    return f"{table}.{round_id}.{spot}"


def award_key(jackpot: str, claim: str) -> str:
    return f"{jackpot}.award.{claim}"


def meter_key(jackpot: str) -> str:
    return f"{jackpot}.meter"



async def _quiet(exc: Exception) -> None:
    """The NATS client's own report of a connection error: the table asks again and its outbox says the floor is away
    (nats-py's default logs each one with its traceback, every few seconds, on the table's screen)."""


class JackpotClient:
    """The table's side: read the linked meter, wait for a claim's award (however long the floor is away)."""

    def __init__(self, servers: Sequence[str], site: str, jackpot: str) -> None:
        self.servers = list(servers)
        self.site = site
        self.jackpot = jackpot

    async def _get(self, key: str, timeout: float) -> dict[str, Any] | None:
        # bounded from outside too: nats-py's connect can wait on a refused server well past connect_timeout
        client = await broker.connect(servers=self.servers, connect_timeout=min(2, timeout), allow_reconnect=False,
                                    max_reconnect_attempts=0, error_cb=_quiet)
        try:
            kv = await client.jetstream(timeout=timeout).key_value(bucket_name(self.site))
            entry = await kv.get(key)
            return dict(json.loads(entry.value)) if entry.value else None
        except (NotFoundError, JetStreamError):
            return None
        finally:
            await client.close()

    def award(self, claim: str, timeout: float = 3.0) -> dict[str, Any] | None:
        """The award for ``claim`` if the controller has answered it; None if not yet (or the floor cannot be reached)."""
        try:
            return asyncio.run(asyncio.wait_for(self._get(award_key(self.jackpot, claim), timeout), 2 * timeout))
        except (TimeoutError, NatsError, OSError):
            return None

    def source(self, table: str) -> Callable[[str, int], dict[str, Any] | None]:
        """The award source of ``table``'s rounds (``controller.engine.jackpot.AwardSource``): by round id and spot."""
        return lambda round_id, spot: self.award(claim_key(table, round_id, spot))

    def meter(self, timeout: float = 3.0) -> dict[str, Any] | None:
        try:
            return asyncio.run(asyncio.wait_for(self._get(meter_key(self.jackpot), timeout), 2 * timeout))
        except (TimeoutError, NatsError, OSError):
            return None
