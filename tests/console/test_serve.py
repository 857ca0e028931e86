"""``tablectl serve`` as systemd starts it: journal, devices, console on loopback, sd_notify, a clean stop."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import cv2
import httpx
import numpy as np

from controller.events import CameraOff, CameraScaleLow, LoginGranted, LoginRefused
from controller.records.journal import Journal
from tests.console.tables import CONFIG, SUPERVISOR, logged_in
from tests.helpers import init_table
from tests.test_service import listening_sockets
from vision.calibration import MEASURED_PX_PER_MM

ROOT = Path(__file__).resolve().parents[2]


def tablectl(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.commands.cli", *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})


def table_config(tmp_path: Path, *, staff: bool = True) -> Path:
    """Top Card on the in-process shoe, its journal and log under ``tmp_path``; with ``staff``, a supervisor account."""
    config = tmp_path / "table.toml"
    text = (CONFIG / "top-card.toml").read_text(encoding="utf-8")
    text = re.sub(r'(?m)^driver = "reference".*$', 'driver = "simulated"', text)
    text = text.replace('events = "var/log/TC-01.events.jsonl"',
                        f'events = "{tmp_path / "events.jsonl"}"\n\n[journal]\npath = "{tmp_path / "journal.sqlite"}"')
    config.write_text(text + f'\n[console]\nstaff = "{tmp_path / "staff.json"}"\nport = 0\n', encoding="utf-8")
    init_table(tmp_path / "journal.sqlite", config=config)
    if staff:
        added = tablectl("staff", "add", SUPERVISOR[0], "--role", "supervisor", "--pin-stdin", "--config", str(config),
                         cwd=tmp_path, stdin=SUPERVISOR[1] + "\n")
        assert added.returncode == 0, added.stderr
    return config


class Service:
    """``tablectl serve --config config`` started as systemd starts it (``NOTIFY_SOCKET``, extra ``env``) and
    stopped with SIGTERM on leaving; ``err`` is its stderr once stopped."""

    def __init__(self, config: Path, tmp_path: Path, **env: str) -> None:
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(str(tmp_path / "notify"))
        self.notify.settimeout(60)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "controller.commands.cli", "serve", "--config", str(config)], cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT), "NOTIFY_SOCKET": str(tmp_path / "notify"), **env},
            stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.err = ""

    def __enter__(self) -> Service:
        return self

    def __exit__(self, *_: object) -> None:
        self.process.send_signal(signal.SIGTERM)
        _, self.err = self.process.communicate(timeout=20)
        self.notify.close()

    def message(self) -> str:
        return self.notify.recv(4096).decode()


def test_serve_runs_the_table_with_its_console_on_loopback_and_tells_systemd(tmp_path: Path) -> None:
    with Service(table_config(tmp_path), tmp_path, WATCHDOG_USEC="400000") as service:
        ready = service.message()
        assert "READY=1" in ready.split("\n")
        url = re.search(r"console (http://127\.0\.0\.1:\d+)/", ready)
        assert url is not None, ready
        listening = listening_sockets(service.process.pid)
        assert listening and all(line.startswith("tcp:") for line in listening)
        assert all(line.split()[2].startswith("0100007F:") for line in listening)  # 127.0.0.1 only
        with httpx.Client(base_url=url.group(1), timeout=10) as client:
            headers = logged_in(client, SUPERVISOR)
            assert client.post("/api/command", json={"command": "open_round"}, headers=headers).json()["ok"]
            state = client.get("/api/state").json()
            assert (state["mode"], state["round"]["state"]) == ("dealer", "betting")
            client.cookies.clear()
            assert client.post("/api/login", json={"name": SUPERVISOR[0], "pin": "000000"}).status_code == 401
        messages = [service.message() for _ in range(3)]
        assert any("WATCHDOG=1" in m for m in messages)
    assert service.process.returncode == 0, service.err
    # the login and the wrong PIN were journaled by the table loop's own thread, into SQLite, never the PIN itself
    with Journal(tmp_path / "journal.sqlite", table_id="TC-01", readonly=True) as journal:
        events = [r.EVENT for r in journal.records()]
    assert LoginGranted.EVENT in events and LoginRefused.EVENT in events
    assert SUPERVISOR[1] not in (tmp_path / "events.jsonl").read_text(encoding="utf-8")


def test_serve_refuses_to_start_without_a_supervisor_and_says_how_to_create_one(tmp_path: Path) -> None:
    config = table_config(tmp_path, staff=False)
    done = tablectl("serve", "--config", str(config), cwd=tmp_path)
    assert done.returncode == 2
    assert f"no supervisor account in {tmp_path / 'staff.json'}" in done.stderr
    assert f"tablectl staff add NAME --role supervisor --config {config}" in done.stderr
    assert tablectl("staff", "add", "dana", "--role", "dealer", "--pin-stdin", "--config", str(config), cwd=tmp_path,
                    stdin="2468\n").returncode == 0
    assert tablectl("serve", "--config", str(config), cwd=tmp_path).returncode == 2  # a dealer alone is not enough
    listed = tablectl("staff", "list", "--config", str(config), cwd=tmp_path)
    assert listed.stdout.split() == ["dana", "dealer", "PIN"]
    assert "2468" not in (tmp_path / "staff.json").read_text(encoding="utf-8")


def test_the_console_refuses_a_non_loopback_address_unless_asked(tmp_path: Path) -> None:
    done = tablectl("serve", "--config", str(table_config(tmp_path)), "--host", "0.0.0.0", cwd=tmp_path)
    assert done.returncode == 2
    assert "0.0.0.0 is not this machine: pass --allow-remote" in done.stderr


def test_serve_films_from_a_camera_that_sees_the_cards_small_and_says_so(tmp_path: Path) -> None:
    """A live table whose camera (here a folder of frames) is calibrated to see the table's marks 1.6 times
    further apart than the simulated camera does: under the scale the recognizer is measured at. The
    table serves and films all the same; the technician is told on stderr, and the event log says so."""
    frames = tmp_path / "frames"
    frames.mkdir()
    felt = np.zeros((1080, 1920, 3), np.uint8)
    felt[:] = (40, 120, 35)
    assert cv2.imwrite(str(frames / "0000.png"), felt)
    config = table_config(tmp_path)
    text = config.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^# source = .*$", f'source = "{frames}"', text)
    text = text.replace("table_points = [[0.0, 0.0], [800.0, 0.0], [800.0, 450.0], [0.0, 450.0]]",
                        "table_points = [[0.0, 0.0], [1280.0, 0.0], [1280.0, 720.0], [0.0, 720.0]]")
    assert f'source = "{frames}"' in text and "1280.0, 720.0" in text
    config.write_text(text, encoding="utf-8")
    with Service(config, tmp_path) as service:
        assert "READY=1" in service.message().split("\n")
    assert service.process.returncode == 0, service.err
    events = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    [low] = [e for e in events if e["event"] == CameraScaleLow.EVENT]
    assert low["px_per_mm"] < MEASURED_PX_PER_MM
    assert f"below the {MEASURED_PX_PER_MM} px/mm the recognizer is measured at" in low["reason"]
    assert f"tablectl: camera: {low['reason']}" in service.err
    assert not any(e["event"] == CameraOff.EVENT for e in events)
