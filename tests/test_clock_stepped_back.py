"""The table's clock set back (by hand, a wrong time server, a flat clock battery): the table notices and says so.

Seen by a user: with the PC's clock set back 2 hours the table said nothing, its rounds were stamped earlier than
rounds played before them, and `tablectl rounds --since` filed them under the wrong hour with no word of why. Now a
record time earlier than the last record's is journaled first as `clock_stepped_back` (typed, docs/events.md), the
operator is told on stderr (and, at a served table, in systemd's STATUS), the records keep their order by sequence
number (never reused, never going back) with the times the clock gave, and `tablectl rounds` notes the step. As the
floor does for a clock ahead (`clock_ahead`), times are kept as the table's clock stamped them and the step is said.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.engine.config import DEFAULT_CONFIG
from controller.engine.log import EventLog
from controller.events import ClockSteppedBack, ShoeShuffled
from controller.records.journal import Journal
from tests.helpers import init_table, new_journal

ROOT = Path(__file__).resolve().parents[1]
FAKETIME = Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")


class Clock:
    """A clock a test sets: ``now`` until moved."""

    def __init__(self) -> None:
        self.now = dt.datetime(2026, 11, 30, 14, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now


def test_a_time_earlier_than_the_last_record_s_is_journaled_first_as_a_clock_step_and_the_order_stays_by_seq(tmp_path: Path) -> None:
    clock = Clock()
    with new_journal(tmp_path / "j.sqlite") as journal:
        log = EventLog("T1", journal=journal)
        log.clock = clock
        log.emit(ShoeShuffled(shuffle=1, burn=1, cards=416))
        clock.now -= dt.timedelta(milliseconds=300)  # a time server's small correction: no step
        log.emit(ShoeShuffled(shuffle=2, burn=1, cards=416))
        clock.now -= dt.timedelta(hours=2)
        written = log.emit(ShoeShuffled(shuffle=3, burn=1, cards=416))
        clock.now += dt.timedelta(seconds=5)
        log.emit(ShoeShuffled(shuffle=4, burn=1, cards=416))  # the clock as it now is: no second warning
        records = journal.records()
    assert [type(r).__name__ for r in records] == ["ShoeShuffled", "ShoeShuffled", "ClockSteppedBack", "ShoeShuffled", "ShoeShuffled"]
    assert [r.seq for r in records] == [1, 2, 3, 4, 5] and written.seq == 4
    step = records[2]
    assert isinstance(step, ClockSteppedBack)
    assert (step.previous, step.previous_seq, step.timestamp) == (records[1].timestamp, 2, written.timestamp)
    assert step.seconds == pytest.approx(7200.0)
    assert "the table's clock stepped back 2 h 00 min" in step.message and "set the table's clock" in step.message


def tablectl(*args: str, faketime: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NOTIFY_SOCKET", None)
    if faketime is not None:
        env |= {"LD_PRELOAD": str(FAKETIME), "FAKETIME": faketime, "FAKETIME_DONT_RESET": "1"}
    return subprocess.run([sys.executable, "-m", "controller.commands.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=180)


@pytest.mark.skipif(not FAKETIME.exists() or shutil.which("faketime") is None,
                    reason="libfaketime is not installed (apt-get install faketime)")
def test_tablectl_run_with_the_clock_set_back_two_hours_warns_journals_the_step_and_rounds_note_it(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(DEFAULT_CONFIG.read_text().replace('driver = "reference"', 'driver = "simulated"').replace(
        '[log]\nevents = "var/log/TC-01.events.jsonl"',
        f'[log]\nevents = "{tmp_path}/events.jsonl"\n\n[journal]\npath = "{tmp_path}/journal.sqlite"'))
    init_table(tmp_path / "journal.sqlite", config=config)
    first = tablectl("run", "--config", str(config), "--rounds", "2", "--seed", "1", "--no-camera")
    assert first.returncode == 0, first.stderr
    assert "clock" not in first.stderr

    back = tablectl("run", "--config", str(config), "--rounds", "2", "--seed", "2", "--no-camera", faketime="-2h")

    assert back.returncode == 0, back.stderr
    assert "Traceback" not in back.stderr
    assert "tablectl: warning: the table's clock stepped back 1 h 59 min" in back.stderr \
        or "tablectl: warning: the table's clock stepped back 2 h 00 min" in back.stderr, back.stderr
    with Journal(tmp_path / "journal.sqlite", table_id="TC-01", readonly=True) as journal:
        steps = [r for r in journal.records_of(ClockSteppedBack) if isinstance(r, ClockSteppedBack)]
        rounds = journal.rounds()
    assert len(steps) == 1 and len(rounds) == 4
    assert [r.started_seq for r in rounds] == sorted(r.started_seq for r in rounds)  # the journal's order: seq
    assert rounds[1].ended_seq is not None and rounds[1].ended_seq < steps[0].seq < rounds[2].started_seq

    listed = tablectl("rounds", "--config", str(config), "--last", "4")
    assert listed.returncode == 0, listed.stderr
    assert f"note: the table's clock stepped back 1 h 59 min at seq {steps[0].seq}" in listed.stdout \
        or f"note: the table's clock stepped back 2 h 00 min at seq {steps[0].seq}" in listed.stdout, listed.stdout
    after = dt.datetime.fromisoformat(steps[0].timestamp)
    period = tablectl("rounds", "--config", str(config), "--since", (after - dt.timedelta(minutes=1)).isoformat(),
                      "--until", (after + dt.timedelta(minutes=30)).isoformat(), "--json")
    assert period.returncode == 0, period.stderr
    report = json.loads(period.stdout)
    assert len(report["rounds"]) == 2  # the rounds played after the step, filed by their earlier times
    assert [s["seq"] for s in report["clock_steps"]] == [steps[0].seq]


def test_a_served_table_s_systemd_status_says_its_clock_stepped_back(tmp_path: Path) -> None:
    import socket
    import threading
    from types import SimpleNamespace

    from controller.commands.notify import Notifier
    from controller.commands.serve import Heartbeat

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify"))
    listener.settimeout(5)
    loop = SimpleNamespace(round=None, table_fault=None, rounds_finished=3, players=None)
    session = SimpleNamespace(journal=None, loop=loop)
    heartbeat = Heartbeat(session, Notifier({"NOTIFY_SOCKET": str(tmp_path / "notify")}), threading.Event(), 0)  # type: ignore[arg-type]
    heartbeat.beat()
    assert listener.recv(4096).decode() == "STATUS=3 rounds played"
    heartbeat.saw(ClockSteppedBack(seq=41, previous="2026-11-30T14:00:00Z", previous_seq=40, seconds=7200.0, message="..."))
    heartbeat.beat()
    assert listener.recv(4096).decode() == "STATUS=3 rounds played; clock stepped back 2 h 00 min at seq 41 (set the clock)"
    listener.close()
