"""The console's ``[console]`` settings, apart from its server: the commands that only need where the staff file
lies (``tablectl staff``, a supervisor's PIN at ``tablectl hold``) do not load the web server."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from controller.engine.config import TableConfig, checked_section
from controller.engine.config_schema import Console
from controller.records.staff import DEFAULT_STAFF_FILE

DEFAULT_PORT = 8470


@dataclass(frozen=True)
class ConsoleSettings:
    """``[console]``: where to listen, the names it answers to, the staff file, the pace of a simulated table."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    staff: Path = DEFAULT_STAFF_FILE
    hosts: tuple[str, ...] = ()
    """Other names the console is reached by (a DNS name on the casino network); Host and Origin are checked against them."""
    pace: float = 1.0


def console_settings(config: TableConfig) -> ConsoleSettings:
    """``[console]`` read through the config schema (``controller.engine.config_schema.Console``); every error names the key."""
    section = checked_section(config.path, "console", Console, config.sections.get("console", {}))
    return ConsoleSettings(section.host, section.port, Path(section.staff), tuple(section.hosts), float(section.pace))
