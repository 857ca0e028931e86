"""``tablectl floor serve``: the floor service, one asyncio loop holding the consumer, the jackpots and the pit page.

- the consumer (``controller.floor.consumer``) moves the site's stream into
  PostgreSQL;
- each linked progressive's controller (``controller.floor.jackpot``) keeps
  its meter and answers the tables' claims;
- the pit page (``controller.floor.pit``) shows every table, served on
  ``[floor] listen``.

systemd is told READY=1 once the stream and the database are in place and
the page listens; SIGTERM stops all three (what was acknowledged is stored;
what was not is delivered again on the next start).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable
from typing import Any

from controller.floor.config import FloorConfig
from controller.floor.consumer import FloorConsumer
from controller.floor.stream import stream_settings


def make_consumer(config: FloorConfig) -> FloorConsumer:
    return FloorConsumer(
        servers=config.broker.servers, dsn=config.database.dsn, site=config.floor.site,
        shifts=config.shift_plan(), pits=config.pit_of(), stream=stream_settings(config),
    )


async def serve(config: FloorConfig, *, on_ready: Callable[[str], None] | None = None, stop: asyncio.Event | None = None) -> None:
    """Run the floor until ``stop`` is set (or SIGTERM / SIGINT)."""
    from controller.floor.jackpot import JackpotController
    from controller.floor.pit import PitServer

    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, stop.set)
    consumer = make_consumer(config)
    jackpots = [JackpotController(config, name) for name in config.jackpots]
    pit = PitServer(config, consumer)
    tasks = [asyncio.create_task(consumer.run(), name="consumer"), asyncio.create_task(pit.run(), name="pit")]
    tasks += [asyncio.create_task(jackpot.run(), name=f"jackpot {jackpot.name}") for jackpot in jackpots]
    try:
        ready: asyncio.Future[Any] = asyncio.ensure_future(
            asyncio.gather(consumer.ready.wait(), pit.ready.wait(), *(j.ready.wait() for j in jackpots)))
        stopped: asyncio.Future[Any] = asyncio.ensure_future(stop.wait())
        await asyncio.wait([ready, stopped, *tasks], return_when=asyncio.FIRST_COMPLETED)
        failed = [t for t in tasks if t.done()]
        if failed:
            stop.set()
            for task in failed:
                task.result()  # a part that ended by itself (the page's port taken, ...) ends the service
        elif ready.done() and on_ready is not None:
            on_ready(f"floor {config.floor.site}: consuming into PostgreSQL, pit page on {pit.url}/")
        await stopped
    finally:
        consumer.stop.set()
        pit.stop()
        for jackpot in jackpots:
            jackpot.stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
