"""A console session that ends without a logout is journaled, so ``tablectl round ID`` stops naming its holder.

Before, a session unused for 12 hours, dropped to make room, or ended by the console stopping left no record:
``staff_at`` listed the last login as open for every round after it, naming a dealer who had long gone.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from controller.commands.cli import main
from controller.console.login import IDLE_SECONDS, MAX_SESSIONS, Sessions
from controller.events import LoggedOut, LoginGranted, from_record
from controller.records.journal import Journal
from controller.records.recall import staff_at
from controller.records.staff import Account
from tests.console.tables import DEALER, SUPERVISOR, logged_in, served
from tests.console.test_serve import Service, table_config


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_session_unused_past_the_idle_limit_or_dropped_for_room_is_reported_ended_once() -> None:
    clock = Clock()
    sessions = Sessions(clock)
    dana = sessions.open(Account("dana", "dealer", True, False), "127.0.0.1")
    clock.now += IDLE_SECONDS / 2
    assert sessions.get(dana.token) is dana  # used: its idle time starts again
    clock.now += IDLE_SECONDS - 1
    sessions.expire()
    assert sessions.take_ended() == []
    clock.now += 2
    sessions.expire()
    assert [(s.account.name, s.client, why) for s, why in sessions.take_ended()] == [("dana", "127.0.0.1", "idle")]
    assert sessions.take_ended() == [] and sessions.get(dana.token) is None
    first = sessions.open(Account("pat", "supervisor", True, False), "10.0.0.2")
    for n in range(MAX_SESSIONS):
        clock.now += 1
        sessions.open(Account(f"d{n}", "dealer", True, False), "127.0.0.1")
    assert [(s.token, why) for s, why in sessions.take_ended()] == [(first.token, "replaced")]
    assert sessions.close(first.token) is None  # a logout after it ended finds nothing to end again


def test_the_floors_pit_page_keeps_no_ended_sessions_nobody_journals() -> None:
    clock = Clock()
    sessions = Sessions(clock, keep_ended=False)
    sessions.open(Account("pat", "supervisor", True, False))
    clock.now += IDLE_SECONDS + 1
    sessions.expire()
    assert sessions.take_ended() == []


def test_the_console_stopping_journals_each_open_session_as_ended_and_recall_says_so() -> None:
    with served("three-card-poker") as console, httpx.Client(base_url=console.url) as client:
        logged_in(client, DEALER)
    records = [from_record(r) for r in console.log.records()]
    ends = [e for e in records if isinstance(e, LoggedOut)]
    assert [(e.name, e.ended) for e in ends] == [(DEALER[0], "console stopped")], ends
    logins = [e for e in records if isinstance(e, LoginGranted | LoggedOut)]
    after = staff_at(logins, max(e.seq for e in records) + 1, None)
    assert after == [], "a round after the console stopped names nobody"
    during = staff_at(logins, logins[0].seq, None)
    assert [e["what"] for e in during] == ["logged in before it started", "session ended (console stopped)"]


def test_serve_stopped_by_systemd_journals_the_sessions_still_open_and_verifies(tmp_path: Path) -> None:
    # under `serve` the table loop runs on the main thread and has stopped before the console does: the sessions
    # still open are journaled from there, after the loop, into the same journal and signed log
    with Service(table_config(tmp_path), tmp_path) as service:
        url = re.search(r"console (http://127\.0\.0\.1:\d+)/", service.message())
        assert url is not None
        with httpx.Client(base_url=url.group(1), timeout=10) as client:
            logged_in(client, SUPERVISOR)
    assert service.process.returncode == 0, service.err
    with Journal(tmp_path / "journal.sqlite", table_id="TC-01", readonly=True) as journal:
        ends = [r for r in journal.records() if isinstance(r, LoggedOut)]
    assert [(e.name, e.ended) for e in ends] == [(SUPERVISOR[0], "console stopped")]
    assert main(["journal", "verify", "--config", str(tmp_path / "table.toml")]) == 0


def test_a_session_lost_with_a_killed_table_ends_on_the_record_when_serve_starts_again(tmp_path: Path) -> None:
    # a kill (or a power loss) journals nothing: the login stayed open in the journal, and round ID and the floor
    # named its holder as logged in for every round after, until their next login
    config = table_config(tmp_path)
    service = Service(config, tmp_path)
    try:
        url = re.search(r"console (http://127\.0\.0\.1:\d+)/", service.message())
        assert url is not None
        with httpx.Client(base_url=url.group(1), timeout=10) as client:
            logged_in(client, SUPERVISOR)
        service.process.kill()
        service.process.communicate(timeout=20)
    finally:
        service.notify.close()
    (tmp_path / "notify").unlink()
    with Service(config, tmp_path) as again:
        assert "READY=1" in again.message()
    with Journal(tmp_path / "journal.sqlite", table_id="TC-01", readonly=True) as journal:
        records = journal.records()
    ends = [r for r in records if isinstance(r, LoggedOut)]
    assert [(e.name, e.ended) for e in ends] == [(SUPERVISOR[0], "table restarted")], ends
    logins = [r for r in records if isinstance(r, LoginGranted | LoggedOut)]
    assert staff_at(logins, max(r.seq for r in records) + 1, None) == []
