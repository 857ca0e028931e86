"""``tablectl serve`` and ``tablectl run --console`` as a person starts them: a process, a URL, a clean stop."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from tests.console.tables import CONFIG

ROOT = Path(__file__).resolve().parents[2]


def start(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    config = tmp_path / "table.toml"
    text = (CONFIG / "top-card.toml").read_text(encoding="utf-8").replace(
        'events = "var/log/tablectl-events.jsonl"', f'events = "{tmp_path / "events.jsonl"}"')
    config.write_text(text + '\n[console]\nsupervisor_token = "serve-test-token-123"\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "controller.cli", *args, "--config", str(config), "--port", "0"],
                               cwd=tmp_path, env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        found = re.search(r"console: (http://127\.0\.0\.1:\d+)/", line)
        if found:
            return process, found.group(1)
    process.communicate(timeout=20)
    raise AssertionError(f"no console URL; exit {process.returncode}")


def test_serve_runs_the_configured_table_with_its_console_until_stopped(tmp_path: Path) -> None:
    process, url = start(tmp_path, "serve", "--seed", "5")
    try:
        page = httpx.get(url + "/", timeout=5)
        session = re.search(r'content="([^"]+)"', page.text.split('name="console-session"')[1])
        assert session is not None
        headers = {"X-Console-Session": session.group(1)}
        assert httpx.post(url + "/api/command", json={"command": "open_round"}, headers=headers, timeout=5).json()["ok"]
        state = httpx.get(url + "/api/state", headers=headers, timeout=5).json()
        assert (state["mode"], state["round"]["state"]) == ("dealer", "betting")
        assert "serve-test-token-123" not in (tmp_path / "events.jsonl").read_text(encoding="utf-8")
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=20)
    assert process.returncode == 0


def test_the_console_refuses_a_non_loopback_address_unless_asked(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text((CONFIG / "top-card.toml").read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "controller.cli", "serve", "--config", str(config), "--host", "0.0.0.0"],
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "0.0.0.0 is not this machine: pass --allow-remote" in done.stderr
