"""Serving the console: the ``[console]`` settings, the listening address, uvicorn on a thread.

The console listens on 127.0.0.1 unless another address is asked for
explicitly (``--allow-remote``): a dealer console on the casino network is a
deliberate choice, never a default.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from dataclasses import dataclass
from typing import Any

import uvicorn

from controller.engine.config import TableConfig, checked_section
from controller.engine.config_schema import Console
from controller.console.app import create_app
from controller.console.session import TableLoop
from controller.errors import ConfigError

DEFAULT_PORT = 8470


@dataclass(frozen=True)
class ConsoleSettings:
    """``[console]``: where to listen, the supervisor token, the pace of a simulated table."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    supervisor_token: str | None = None
    pace: float = 1.0

    def __repr__(self) -> str:
        token = "set" if self.supervisor_token else "none"
        return f"ConsoleSettings(host={self.host!r}, port={self.port}, supervisor_token={token}, pace={self.pace})"


def console_settings(config: TableConfig) -> ConsoleSettings:
    """``[console]`` read through the config schema (``controller.engine.config_schema.Console``); every error names the key."""
    section = checked_section(config.path, "console", Console, config.sections.get("console", {}))
    return ConsoleSettings(section.host, section.port, section.supervisor_token, float(section.pace))


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ConsoleServer:
    """uvicorn serving the console app for ``loop``, on a thread of its own."""

    def __init__(self, loop: TableLoop, settings: ConsoleSettings, *, allow_remote: bool = False) -> None:
        if not is_loopback(settings.host) and not allow_remote:
            raise ConfigError("console", "host", f"{settings.host} is not this machine: pass --allow-remote to listen on it")
        self.loop = loop
        self.settings = settings
        app = create_app(loop, supervisor_token=settings.supervisor_token)
        self.server = uvicorn.Server(uvicorn.Config(
            app, host=settings.host, port=settings.port, ws="websockets-sansio", log_level="warning",
            access_log=False, lifespan="on",
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
        return self.url

    def stop(self) -> None:
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None
