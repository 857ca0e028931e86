"""Running a table with its console until stopped: what ``tablectl run --console`` and ``tablectl serve`` share."""

from __future__ import annotations

import argparse
import dataclasses
import signal
import sys
import threading
from collections.abc import Callable

from controller.console.server import ConsoleServer
from controller.console.settings import ConsoleSettings
from controller.engine.loop import TableLoop
from controller.records.staff import SessionAccounts


def console_arguments(parser: argparse.ArgumentParser) -> None:
    """The listening options both commands take."""
    add = parser.add_argument
    add("--host", default=None, help="address to listen on (default: [console] host, else 127.0.0.1)")
    add("--port", type=port_number, default=None, help="port to listen on (default: [console] port, else 8470; 0 picks a free one)")
    add("--allow-remote", action="store_true", help="allow listening on an address other than this machine's loopback")


def port_number(text: str) -> int:
    """A TCP port to listen on, 0 (any free one) to 65535, for argparse."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {value}")
    return value


def with_overrides(settings: ConsoleSettings, host: str | None, port: int | None, pace: float | None = None) -> ConsoleSettings:
    return dataclasses.replace(
        settings,
        host=host if host is not None else settings.host,
        port=port if port is not None else settings.port,
        pace=pace if pace is not None else settings.pace,
    )


def serve_until_stopped(
    loop: TableLoop,
    settings: ConsoleSettings,
    accounts: SessionAccounts,
    *,
    allow_remote: bool,
    stop: threading.Event | None = None,
    ready: Callable[[str], object] | None = None,
) -> None:
    """Serve the console on a thread, run the table loop on this thread until SIGINT/SIGTERM (or ``stop``).

    ``ready(url)`` is called once the console listens. An error that ends the table loop is raised here
    after the console has stopped.
    """
    stop = stop or threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    server = ConsoleServer(loop, settings, accounts, allow_remote=allow_remote)
    url = server.start()
    try:
        print(f"console: {url}/  (pit view {url}/pit)", file=sys.stderr, flush=True)
        if ready is not None:
            ready(url)
        loop.run(stop)
    finally:
        server.stop()
