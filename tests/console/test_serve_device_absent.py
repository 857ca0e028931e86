"""`tablectl serve` started while its shoe (or shuffler) is not there: the service comes up, the table held, and goes
on once the device is plugged in.

Seen by a user: the shoe unplugged (or its `/dev/tablectl-shoe` name not made yet) when the service started;
`serve` exited 2, systemd restarted it five times in a row and gave up, and the table stayed dark until someone
ran `systemctl restart tablectl`. Now the service starts, tells systemd READY with the hold in its STATUS
("table on hold: shoe not connected at PORT: ..."), keeps trying to open the shoe as it does for one lost
mid-round, and the table goes on by itself once the shoe answers (journaled as the shoe's `not-connected` fault
and its end). A wrong key in the config still stops it with exit 2. A real `tablectl serve` subprocess, the shoe
simulator started later on a real pty at the configured path.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from controller.engine.commands import CommandRefused, OpenRound
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.loop import TableLoop
from controller.engine.table import Table
from controller.events import ShoeFaulted, ShoeRecovered, ShufflerFaulted, ShufflerRecovered
from controller.records.journal import Journal
from drivers.sim.process import SimulatorProcess
from tests.console.tables import CONFIG, SUPERVISOR, do, logged_in
from tests.console.test_device_poll import shuffler_round
from tests.console.test_serve import ROOT, Service, table_config
from tests.helpers import MemoryLog


def shoe_at(tmp_path: Path, port: Path, extra: str = "") -> Path:
    """The console test's Top Card table with its shoe the reference driver at ``port`` (not there yet)."""
    config = table_config(tmp_path)
    text = config.read_text(encoding="utf-8").replace('driver = "simulated"', f'driver = "reference"\nport = "{port}"{extra}', 1)
    config.write_text(text, encoding="utf-8")
    return config


def collect(service: Service) -> list[str]:
    """Every message the service sends systemd from now on, read on a thread (a full queue would slow the table)."""
    messages: list[str] = []

    def read() -> None:
        while True:
            try:
                messages.append(service.message())
            except OSError:  # the socket timed out or was closed: the service is gone
                return

    threading.Thread(target=read, daemon=True).start()
    return messages


def wait_for(check: object, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def test_serve_without_its_shoe_comes_up_held_and_goes_on_once_the_shoe_is_plugged_in(tmp_path: Path) -> None:
    port = tmp_path / "tablectl-shoe"
    config = shoe_at(tmp_path, port)
    with Service(config, tmp_path, WATCHDOG_USEC="2000000") as service:
        ready = service.message()
        assert "READY=1" in ready.split("\n"), ready
        assert f"table on hold: shoe not connected at {port}: No such file or directory" in ready
        url = re.search(r"console (http://127\.0\.0\.1:\d+)/", ready)
        assert url is not None, ready
        messages = collect(service)
        with httpx.Client(base_url=url.group(1), timeout=10) as client:
            headers = logged_in(client, SUPERVISOR)
            wait_for(lambda: client.get("/api/state").json()["table_fault"] is not None, 10)
            state = client.get("/api/state").json()
            assert f"shoe not connected at {port}" in state["table_fault"]
            refused = client.post("/api/command", json={"command": "open_round"}, headers=headers).json()
            assert not refused["ok"] and "shoe not connected" in str(refused)

            with SimulatorProcess("shoe", "--seed", "3", "--link", str(port)):
                wait_for(lambda: client.get("/api/state").json()["table_fault"] is None, 30)
                assert client.get("/api/state").json()["devices"]["shoe"] == "ok"
                opened = client.post("/api/command", json={"command": "open_round"}, headers=headers).json()
                assert opened["ok"], opened
                placed = client.post("/api/command", json={"command": "place_wager", "spot": 1, "wager": "home",
                                                           "amount": "10.00"}, headers=headers).json()
                assert placed["ok"], placed
                assert client.post("/api/command", json={"command": "no_more_bets"}, headers=headers).json()["ok"]
                wait_for(lambda: client.get("/api/state").json()["round"]["state"] == "complete", 30)
                time.sleep(2.5)  # a heartbeat or two after the round
    assert service.process.returncode == 0, service.err
    assert "Traceback" not in service.err
    assert f"table TC-01 on hold: shoe not connected at {port}" in service.err
    statuses = [line for m in messages for line in m.split("\n") if line.startswith("STATUS=")]
    held = [s for s in statuses if s.startswith("STATUS=table on hold: shoe: ")]
    assert held and f"shoe not connected at {port}" in held[0], statuses
    assert any(s.startswith("STATUS=1 rounds played") for s in statuses[statuses.index(held[0]):]), statuses  # then played
    with Journal(tmp_path / "journal.sqlite", table_id="TC-01", readonly=True) as journal:
        faults = [(e.code, e.message) for e in journal.records_of(ShoeFaulted) if isinstance(e, ShoeFaulted)]
        over = [e.code for e in journal.records_of(ShoeRecovered) if isinstance(e, ShoeRecovered)]
        states = [r.state for r in journal.rounds()]
    assert faults[0][0] == "not-connected" and str(port) in faults[0][1]
    assert "not-connected" in over and states == ["complete"]


def test_serve_with_a_wrong_key_in_the_shoe_s_section_still_stops_with_exit_2(tmp_path: Path) -> None:
    config = shoe_at(tmp_path, tmp_path / "tablectl-shoe", extra="\nprot = 3")
    done = subprocess.run([sys.executable, "-m", "controller.commands.cli", "serve", "--config", str(config)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2, done.stderr
    assert "shoe.prot: unknown key (did you mean 'port'?)" in done.stderr and "Traceback" not in done.stderr


def test_a_table_whose_shuffler_is_not_there_yet_is_held_and_goes_on_once_it_is_plugged_in(tmp_path: Path) -> None:
    """The same for a shuffler (Three Card Poker), on the table loop `serve` runs: held from the start, naming the
    shuffler and its port; once the shuffler answers at the port the hold ends by itself and a round is dealt."""
    port = tmp_path / "tablectl-shuffler"
    config = load_config(CONFIG / "three-card-poker.toml")
    config = dataclasses.replace(config, shuffler={"driver": "reference", "port": str(port)})
    log = MemoryLog(config.table_id)
    table = Table(config, open_feed(config, log, seed=7, await_device=True), log, session="TEST")
    loop = TableLoop(table)
    loop.start()
    try:
        wait_for(lambda: loop.snapshot()["table_fault"] is not None, 30)
        assert f"shuffler: shuffler fault (not-connected): shuffler not connected at {port}" in loop.snapshot()["table_fault"]
        with pytest.raises(CommandRefused, match="shuffler not connected"):
            do(loop, OpenRound())
        with SimulatorProcess("shuffler", "--seed", "4", "--link", str(port)):
            wait_for(lambda: loop.snapshot()["table_fault"] is None, 30)
            assert loop.snapshot()["devices"]["shuffler"] == "ok"
            shuffler_round(loop)
            faults = [r["code"] for r in log.named(ShufflerFaulted.EVENT)]  # before the simulator stops
    finally:
        loop.stop()
        loop.table.feed.close()
    assert faults == ["not-connected"]
    assert "not-connected" in [r["code"] for r in log.named(ShufflerRecovered.EVENT)]
