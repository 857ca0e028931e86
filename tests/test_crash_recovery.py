"""Killing the controller at random points loses and repeats nothing (issue 8, done-when).

A real ``tablectl run`` subprocess plays Top Card rounds with several wagers
each and is killed with SIGKILL at random moments, then restarted on the same
journal and event log, over and over until at least 200 rounds are played.
The journal then has to prove that every wager was settled exactly once, every
round has its two cards, each settlement follows from the cards, the meters
equal the settlements to the cent, and the hash-chained log agrees with it.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from controller.records.journal import Journal
from controller.records.keys import PublicKey
from controller.records.verify import JournalView, verify
from tests.helpers import init_table
from tests.journal_checks import check_journal, integrity

ROOT = Path(__file__).resolve().parent.parent


def tablectl(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "controller.commands.cli", *args],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def assert_log_verifies(journal: Path, log: Path, table_id: str) -> None:
    """The signed event log of a table killed over and over is intact: every kill was a new chain, nothing tampered."""
    with Journal(journal, table_id=table_id, readonly=True) as j:
        view = JournalView({r["seq"]: r for r in j.stored()}, [c for _, c in j.checkpoints()], j.last_seq)
    report = verify([log], PublicKey.load(journal.with_suffix(".pub")), view)
    assert report.ok, report.problems
    assert len(report.chains) >= 2


def rounds_done(journal: Path) -> int:
    if not journal.exists():
        return 0
    with Journal(journal, table_id="TC-01", readonly=True) as j:
        return j.meters().rounds


def kill_after(proc: subprocess.Popen[str], rounds: int, delay: float) -> bool:
    """SIGKILL ``proc`` ``delay`` seconds after it has printed ``rounds`` round lines; False if it ended first."""
    assert proc.stdout is not None
    seen = 0
    while seen < rounds:
        line = proc.stdout.readline()
        if not line:
            return False
        seen += line.startswith("TC-01-")
    time.sleep(delay)
    if proc.poll() is not None:
        return False
    proc.send_signal(signal.SIGKILL)
    return True


def test_sigkill_at_random_points_over_200_rounds_loses_and_repeats_nothing(tmp_path: Path) -> None:
    journal, log = tmp_path / "journal.sqlite", tmp_path / "events.jsonl"
    rng = random.Random(8)
    kills = 0
    recoveries: list[str] = []
    init_table(journal, log)
    while rounds_done(journal) < 200:
        # The camera films one run in four: it is most of each round's time, and a filmed round recovered after a
        # kill has its own test (tests/test_crash_camera.py); the journal and the log are what this test is about.
        camera = [] if rng.random() < 0.25 else ["--no-camera"]
        proc = tablectl("run", "--rounds", "1000", "--seed", str(rng.randrange(10**6)), *camera, "--journal", str(journal),
                        "--log", str(log))
        kills += kill_after(proc, rng.randint(0, 8), rng.uniform(0, 0.05))
        _, err = proc.communicate()
        assert proc.returncode in (0, -signal.SIGKILL), err
        recoveries += [line for line in err.splitlines() if "resumes where it stopped" in line or "settled on restart" in line]
    final = tablectl("run", "--rounds", "1", "--seed", "1", "--journal", str(journal), "--log", str(log))
    _, err = final.communicate()
    assert final.returncode == 0, err

    assert kills >= 30
    assert integrity(journal) == "ok"
    counts = check_journal(journal)
    assert counts["rounds"] >= 200 and counts["open"] == 0
    assert len(recoveries) >= 10, "too few kills landed inside a round"
    assert_log_verifies(journal, log, "TC-01")
