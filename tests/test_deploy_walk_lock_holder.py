"""A second `tablectl serve` on a table installed under a longer path than /opt/tablectl was refused naming the holder
as '(.../bin/python3 .../bin/tablectl serve --config ): one process writes a table at a time': its command line cut at
120 characters, the config it was given (what tells two tables apart) lost and no sign of the cut. Seen on a
deployment walk with a scratch install root. A real process, its real /proc command line."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from controller.records.lock import describe

CONFIG = "/srv/tables/pit-3/etc/tablectl/table-with-a-long-name.toml"


def test_a_long_command_line_keeps_its_program_and_its_end_and_shows_the_cut() -> None:
    padding = "/opt/a-long-install-prefix-for-the-table-controller/venv/bin/tablectl-serve-placeholder"
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", padding, "serve", "--config", CONFIG])
    try:
        deadline = time.monotonic() + 10
        while CONFIG not in Path(f"/proc/{holder.pid}/cmdline").read_text() and time.monotonic() < deadline:
            time.sleep(0.02)
        shown = describe(holder.pid)
    finally:
        holder.kill()
        holder.wait()
    assert shown.startswith(f"pid {holder.pid} ({sys.executable}")
    assert shown.endswith(f"{CONFIG})"), shown
    assert " … " in shown and len(shown) < 150, shown
