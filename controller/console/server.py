"""Serving the console: the listening address, uvicorn on a thread (the ``[console]`` settings: ``settings``).

The console listens on 127.0.0.1 unless another address is asked for
explicitly (``--allow-remote``): a dealer console on the casino network is a
deliberate choice, never a default.
"""

from __future__ import annotations

import contextlib
import ipaddress
import threading
import time
from typing import Any

import uvicorn

from controller.console.app import create_app
from controller.console.guard import LOOPBACK_NAMES, Addresses
from controller.console.login import Sessions
from controller.console.settings import ConsoleSettings
from controller.engine.loop import TableLoop
from controller.errors import ConfigError, TableError
from controller.events import LoggedOut
from controller.records.staff import SessionAccounts


def addresses_of(settings: ConsoleSettings) -> Addresses:
    """The names Host and Origin may carry: the listening address, its loopback names, ``hosts``."""
    names = {settings.host, *settings.hosts}
    if is_loopback(settings.host):
        names.update(LOOPBACK_NAMES)
    return Addresses(names, settings.port)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ConsoleServer:
    """uvicorn serving the console app for ``loop``, on a thread of its own."""

    def __init__(self, loop: TableLoop, settings: ConsoleSettings, accounts: SessionAccounts, *,
                 allow_remote: bool = False) -> None:
        if not is_loopback(settings.host) and not allow_remote:
            raise ConfigError("console", "host", f"{settings.host} is not this machine: pass --allow-remote to listen on it")
        self.loop = loop
        self.settings = settings
        self.addresses = addresses_of(settings)
        self.sessions = Sessions()
        app = create_app(loop, accounts=accounts, addresses=self.addresses, sessions=self.sessions)
        self.server = uvicorn.Server(uvicorn.Config(
            app, host=settings.host, port=settings.port, ws="websockets-sansio", log_level="warning",
            access_log=False, lifespan="on", ws_max_size=4096, h11_max_incomplete_event_size=16 * 1024,
            server_header=False,
        ))
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        sockets: Any = self.server.servers[0].sockets if self.server.servers else []
        host, port = sockets[0].getsockname()[:2] if sockets else (self.settings.host, self.settings.port)
        return f"http://{host}:{port}"

    def start(self, timeout: float = 10.0) -> str:
        """Serve on a background thread; return the URL once it listens."""
        self._thread = threading.Thread(target=self.server.run, name="console-http", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise OSError(f"the console could not listen on {self.settings.host}:{self.settings.port}")
            time.sleep(0.02)
        sockets: Any = self.server.servers[0].sockets if self.server.servers else []
        if sockets:
            self.addresses.port = sockets[0].getsockname()[1]
        return self.url

    def stop(self) -> None:
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None
        self.sessions.close_all("console stopped")
        if not self.loop.running:  # the loop has stopped on this thread (``serve``): its log is this thread's now
            with contextlib.suppress(TableError, OSError):  # a log that failed has said so already: the stop goes on
                for session, why in self.sessions.take_ended():
                    self.loop.table.log.emit(LoggedOut(name=session.account.name, client=session.client or "unknown",
                                                       ended=why))
