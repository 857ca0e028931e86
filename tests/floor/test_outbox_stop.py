"""An outbox whose floor broker cannot be reached stops when the table does (no broker needed)."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from controller.floor.outbox import Outbox
from tests.floor.tables import play


def _unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_outbox_whose_broker_is_away_stops_at_once(tmp_path: Path) -> None:
    """With the broker away nats-py's first connect tries again for ever: a table's exit waited out stop's whole
    10 s for it (a walkthrough's `run --rounds 1` sat 15.6 s after its last round). The journal waits for the
    floor either way; the outbox says why it is not connected."""
    journal = play(tmp_path / "tc.sqlite", rounds=1, seed=3)
    outbox = Outbox(journal, table_id="TC-01", site="s1", servers=[f"nats://127.0.0.1:{_unused_port()}"])
    outbox.start()
    deadline = time.monotonic() + 30
    while outbox.status().last_error is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "Connect call failed" in (outbox.status().last_error or "")
    outbox.stop(timeout=10)
    assert outbox._thread is not None and not outbox._thread.is_alive()
    assert outbox.status().acked_seq == 0


def test_a_table_that_ends_with_records_not_on_the_floor_is_told_they_wait_in_the_journal(tmp_path: Path) -> None:
    """The table's outbox process, its input closed as the table stops: it said only why it could not connect, not
    that the round's records had not gone, nor where they are."""
    journal = play(tmp_path / "tc.sqlite", rounds=1, seed=3)
    with sqlite3.connect(journal) as db:
        records = int(db.execute("SELECT MAX(seq) FROM events").fetchone()[0])
    done = subprocess.run([sys.executable, "-m", "controller.floor.outbox", "--journal", str(journal), "--table", "TC-01",
                           "--site", "s1", "--server", f"nats://127.0.0.1:{_unused_port()}", "--linger", "1"],
                          input=b"", capture_output=True, timeout=60)
    said = done.stderr.decode()
    assert done.returncode == 0
    assert (f"tablectl outbox TC-01: {records} journal record(s) not yet on the floor (" in said
            and "they wait in the journal and go to the floor when the table next runs with its broker reachable" in said)
