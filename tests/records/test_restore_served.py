"""`tablectl journal restore` and the journal's `served` mark (`tablectl run` refuses a journal `serve` has dealt).

Seen by a user: a live table's journal, deleted and restored from a backup taken before the table was first served,
came back unmarked, and `tablectl run` then played simulated players' rounds into the live table's journal and its
never-reset meters. The mark is now journaled (`table_served`, so the event log witnesses it) and a restore carries
it, from that record, from the backup or from the journal it replaces. Real `tablectl` subprocesses throughout.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from controller.engine.config import DEFAULT_CONFIG
from controller.records.journal import Journal, served
from tests.helpers import init_table
from tests.journal_checks import check_journal

ROOT = Path(__file__).resolve().parents[2]


def tablectl(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.commands.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=180, env=env or environment())


def environment() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NOTIFY_SOCKET", None)
    return env


def live_table(tmp_path: Path) -> Path:
    """A live table's config (the shoe simulated in-process), its journal made, one trial round played."""
    config = tmp_path / "table.toml"
    config.write_text(DEFAULT_CONFIG.read_text().replace('driver = "reference"', 'driver = "simulated"').replace(
        '[log]\nevents = "var/log/TC-01.events.jsonl"',
        f'[log]\nevents = "{tmp_path}/events.jsonl"\n\n[journal]\npath = "{tmp_path}/journal.sqlite"'))
    init_table(tmp_path / "journal.sqlite", config=config)
    trial = tablectl("run", "--config", str(config), "--rounds", "1", "--seed", "5", "--no-camera")
    assert trial.returncode == 0, trial.stderr  # a trial round before the table goes live, as the install check plays
    return config


def serve_until_ready(config: Path, tmp_path: Path) -> None:
    """`tablectl serve` (no simulated players: a live table) up until systemd is told READY, then stopped."""
    address = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(60)
    live = subprocess.Popen([sys.executable, "-m", "controller.commands.cli", "serve", "--config", str(config), "--seed",
                             "3", "--no-console"], cwd=ROOT, env={**environment(), "NOTIFY_SOCKET": address},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while "READY=1" not in listener.recv(4096).decode().split("\n"):
            pass
        live.send_signal(signal.SIGTERM)
        _, err = live.communicate(timeout=30)
    finally:
        live.kill()
        listener.close()
    assert live.returncode == 0, err


def backup_now(config: Path, tmp_path: Path) -> Path:
    done = tablectl("journal", "backup", "--config", str(config), "--to", str(tmp_path / "backups"))
    assert done.returncode == 0, done.stderr
    (backup,) = (tmp_path / "backups").glob("*.sqlite")
    return backup


def test_a_journal_deleted_and_restored_from_a_backup_older_than_the_first_serve_is_still_refused_by_run(tmp_path: Path) -> None:
    config = live_table(tmp_path)
    (tmp_path / "backups").mkdir()
    backup = backup_now(config, tmp_path)  # taken before the table was ever served: no mark in it
    serve_until_ready(config, tmp_path)
    journal = tmp_path / "journal.sqlite"
    since = served(journal)
    assert since is not None
    for suffix in ("", "-wal", "-shm"):
        Path(f"{journal}{suffix}").unlink(missing_ok=True)

    restored = tablectl("journal", "restore", str(backup), "--config", str(config))

    assert restored.returncode == 0, restored.stderr
    assert f"still a live table's journal (`tablectl serve` has dealt from it since {since})" in restored.stdout
    assert served(journal) == since
    before = check_journal(journal)
    refused = tablectl("run", "--config", str(config), "--rounds", "1", "--seed", "3", "--no-camera")
    assert refused.returncode == 2, refused.stderr
    assert "`tablectl serve` has dealt its rounds" in refused.stderr and "Traceback" not in refused.stderr
    assert check_journal(journal) == before  # not a simulated round in the live table's journal


def test_a_mark_only_the_replaced_journal_holds_is_carried_over_too(tmp_path: Path) -> None:
    # a journal served by a release before `table_served` was journaled holds the mark in its meta alone
    config = live_table(tmp_path)
    (tmp_path / "backups").mkdir()
    backup = backup_now(config, tmp_path)
    journal = tmp_path / "journal.sqlite"
    with Journal(journal, table_id="TC-01", anchored=False) as open_journal:
        open_journal.mark_served("2026-01-02T03:04:05Z")

    restored = tablectl("journal", "restore", str(backup), "--config", str(config))

    assert restored.returncode == 0, restored.stderr
    assert served(journal) == "2026-01-02T03:04:05Z"
    refused = tablectl("run", "--config", str(config), "--rounds", "1", "--seed", "3", "--no-camera")
    assert refused.returncode == 2 and "`tablectl serve` has dealt its rounds" in refused.stderr


def test_a_journal_never_served_stays_a_trial_s_after_a_restore(tmp_path: Path) -> None:
    config = live_table(tmp_path)
    (tmp_path / "backups").mkdir()
    backup = backup_now(config, tmp_path)
    journal = tmp_path / "journal.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{journal}{suffix}").unlink(missing_ok=True)

    restored = tablectl("journal", "restore", str(backup), "--config", str(config))

    assert restored.returncode == 0, restored.stderr
    assert served(journal) is None and "live table" not in restored.stdout
    trial = tablectl("run", "--config", str(config), "--rounds", "1", "--seed", "3", "--no-camera")
    assert trial.returncode == 0, trial.stderr
