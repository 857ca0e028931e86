"""The table's link to the floor: its outbox, started as a process of its own beside the table (``[floor]``).

The engine does not import the floor: the outbox is ``python -m
controller.floor.outbox``, a separate program that reads the journal the
table writes and publishes it (``docs/floor.md``). A process, not a thread,
because a thread would share the table's interpreter lock and slow its rounds.
The outbox ends with the table: ``stop`` sends it SIGTERM (it then gives the
records already journaled a few seconds to go out), and Linux sends it
SIGTERM too if the table's process dies first.
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
from pathlib import Path

from controller.engine.config_schema import Floor

LINGER_SECONDS = 5.0
"""How long the outbox may go on publishing what the table journaled before it stopped."""


class OutboxProcess:
    def __init__(self, journal: Path, table_id: str, floor: Floor) -> None:
        self.args = [sys.executable, "-m", "controller.floor.outbox", "--journal", str(journal), "--table", table_id,
                     "--site", floor.site, "--catch-up-rate", str(floor.catch_up_rate), "--linger", str(LINGER_SECONDS),
                     *(["--leaf", floor.leaf] if floor.leaf else []), *(a for url in floor.servers for a in ("--server", url))]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        # preexec_fn only sets the parent-death signal (no locks are taken between fork and exec)
        self.process = subprocess.Popen(self.args, stdin=subprocess.DEVNULL, preexec_fn=_end_with_parent)  # noqa: PLW1509

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(LINGER_SECONDS + 5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)


def _end_with_parent() -> None:
    """In the child, before it runs the outbox: ask Linux for SIGTERM when the table's process dies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
