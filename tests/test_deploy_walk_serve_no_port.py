"""`tablectl serve` (the service) on a config as `tablectl config init top-card` writes it, the shoe's port still
commented out as shipped: it stopped with 'shoe: shoe driver 'reference': missing a required argument: 'port'', a
Python signature's words. It now names the key, the udev name to give it and why `tablectl run` did not need it.
Seen on a deployment walk. A real `tablectl serve` subprocess, its real exit code."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.console.test_serve import SUPERVISOR, tablectl
from tests.helpers import init_table

ROOT = Path(__file__).resolve().parents[1]


def test_serve_without_the_shoes_port_names_the_key_and_what_to_write(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    written = tablectl("config", "init", "top-card", "--out", str(config), cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    text = config.read_text(encoding="utf-8").replace(
        'events = "var/log/TC-01.events.jsonl"',
        f'events = "{tmp_path / "events.jsonl"}"\n\n[journal]\npath = "{tmp_path / "journal.sqlite"}"')
    config.write_text(text + f'\n[console]\nstaff = "{tmp_path / "staff.json"}"\nport = 0\n', encoding="utf-8")
    init_table(tmp_path / "journal.sqlite", config=config)
    added = tablectl("staff", "add", SUPERVISOR[0], "--role", "supervisor", "--pin-stdin", "--config", str(config),
                     cwd=tmp_path, stdin=SUPERVISOR[1] + "\n")
    assert added.returncode == 0, added.stderr

    done = subprocess.run([sys.executable, "-m", "controller.commands.cli", "serve", "--config", str(config)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert f"tablectl: {config}: shoe.port: the shoe driver 'reference' needs the port the shoe is on" in done.stderr
    assert 'port = "/dev/tablectl-shoe"' in done.stderr
    assert "missing a required argument" not in done.stderr
