"""A service that refuses to start says why where ``systemctl status`` shows it (STATUS=), not only on stderr.

Before, ``tablectl serve`` and ``tablectl floor serve`` sent nothing to systemd when their config was broken or no
supervisor could log in: the unit read "exit-code" and the reason was only in the journal's stderr lines.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from controller.engine.config import DEFAULT_CONFIG

ROOT = Path(__file__).resolve().parent.parent


def _status_of(tmp_path: Path, *args: str) -> tuple[list[str], str]:
    """Run ``tablectl ARGS`` under a notify socket: the fields it sent, and its stderr."""
    address = str(tmp_path / "notify")
    Path(address).unlink(missing_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(address)
        listener.settimeout(0)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NOTIFY_SOCKET": address}
        done = subprocess.run([sys.executable, "-m", "controller.commands.cli", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        fields: list[str] = []
        while True:
            try:
                fields += listener.recv(4096).decode().split("\n")
            except BlockingIOError:
                return fields, done.stderr


@pytest.mark.parametrize("broken", ["a config with a typo", "no supervisor"])
def test_serve_that_will_not_start_tells_systemd_why(tmp_path: Path, broken: str) -> None:
    config = tmp_path / "table.toml"
    text = DEFAULT_CONFIG.read_text()
    config.write_text(text.replace("[shoe]", "[shoe]\ndeks = 6") if broken == "a config with a typo" else text)
    fields, err = _status_of(tmp_path, "serve", "--config", str(config))
    status = [f for f in fields if f.startswith("STATUS=")]
    assert "STOPPING=1" in fields and len(status) == 1, fields
    expected = "deks" if broken == "a config with a typo" else "no supervisor account"
    assert status[0].startswith("STATUS=not started: ") and expected in status[0], status
    assert expected in err


def test_floor_serve_that_will_not_start_tells_systemd_why(tmp_path: Path) -> None:
    config = tmp_path / "floor.toml"
    config.write_text('[floor]\nsite = "main"\n\n[broker]\nservers = ["nats://127.0.0.1:4222"]\n\n'
                      '[database]\ndsn = "postgresql:///floor"\n')
    fields, err = _status_of(tmp_path, "floor", "serve", "--config", str(config))
    status = [f for f in fields if f.startswith("STATUS=")]
    assert "STOPPING=1" in fields and len(status) == 1, fields
    assert status[0].startswith("STATUS=not started: ") and "supervisor" in status[0] and "supervisor" in err
    config.write_text(config.read_text().replace("[broker]", "[brokr]"))
    fields, err = _status_of(tmp_path, "floor", "serve", "--config", str(config))
    assert any(f.startswith("STATUS=not started: ") and "brokr" in f for f in fields), (fields, err)
