"""The table's link to the floor: its outbox, started as a process of its own beside the table (``[floor]``).

The engine does not import the floor: the outbox is ``python -m
controller.floor.outbox``, a separate program that reads the journal the
table writes and publishes it (``docs/floor.md``). A process, not a thread,
because a thread would share the table's interpreter lock and slow its rounds.
The outbox ends with the table: the table holds its standard input, and
when that closes (``stop``, or the table's process dying) the outbox gives the
records already journaled a few seconds to go out, then ends.
"""

from __future__ import annotations

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
        self.process = subprocess.Popen(self.args, stdin=subprocess.PIPE)

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.stdin is not None:
            self.process.stdin.close()  # "the table has stopped": the outbox publishes what is journaled, then ends
        try:
            self.process.wait(LINGER_SECONDS + 15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
