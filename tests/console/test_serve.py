"""``tablectl serve`` as systemd starts it: journal, devices, console on loopback, sd_notify, a clean stop."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx

from tests.console.tables import CONFIG
from tests.test_service import listening_sockets

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "serve-test-token-123"


def table_config(tmp_path: Path) -> Path:
    config = tmp_path / "table.toml"
    text = (CONFIG / "top-card.toml").read_text(encoding="utf-8")
    text = re.sub(r'(?m)^driver = "reference".*$', 'driver = "simulated"', text)
    text = text.replace('events = "var/log/tablectl-events.jsonl"',
                        f'events = "{tmp_path / "events.jsonl"}"\n\n[journal]\npath = "{tmp_path / "journal.sqlite"}"')
    config.write_text(text + f'\n[console]\nsupervisor_token = "{TOKEN}"\nport = 0\n', encoding="utf-8")
    return config


def test_serve_runs_the_table_with_its_console_on_loopback_and_tells_systemd(tmp_path: Path) -> None:
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(20)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "400000"}
    process = subprocess.Popen([sys.executable, "-m", "controller.cli", "serve", "--config", str(table_config(tmp_path))],
                               cwd=tmp_path, env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        ready = notify.recv(4096).decode()
        assert "READY=1" in ready.split("\n")
        url = re.search(r"console (http://127\.0\.0\.1:\d+)/", ready)
        assert url is not None, ready
        listening = listening_sockets(process.pid)
        assert listening and all(line.startswith("tcp:") for line in listening)
        assert all(line.split()[2].startswith("0100007F:") for line in listening)  # 127.0.0.1 only
        page = httpx.get(url.group(1) + "/", timeout=5).text
        headers = {"X-Console-Session": page.split('name="console-session" content="')[1].split('"')[0]}
        assert httpx.post(url.group(1) + "/api/command", json={"command": "open_round"}, headers=headers, timeout=5).json()["ok"]
        state = httpx.get(url.group(1) + "/api/state", headers=headers, timeout=5).json()
        assert (state["mode"], state["round"]["state"]) == ("dealer", "betting")
        messages = [notify.recv(4096).decode() for _ in range(3)]
        assert any("WATCHDOG=1" in m for m in messages)
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=20)
        notify.close()
    assert process.returncode == 0, err
    assert TOKEN not in (tmp_path / "events.jsonl").read_text(encoding="utf-8")


def test_the_console_refuses_a_non_loopback_address_unless_asked(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "serve", "--config", str(table_config(tmp_path)),
                           "--host", "0.0.0.0"], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "0.0.0.0 is not this machine: pass --allow-remote" in done.stderr
