"""docs/operations.md, installing the service, step 2: the check it prints ("in an empty folder plays five rounds of
the shipped Top Card table"), run as printed on a PC where step 3 has written /etc/tablectl/table.toml. Without
`--config`, `journal init` and `run` read the table's own config: on a deployment walk the check played five rounds of
simulated players' wagers ($1,686) into the live table's journal and its never-reset meters, on its shoe. The command
is taken from the document itself; a real `tablectl` subprocess; the system folder is TABLECTL_CONFIG_DIR."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from controller.records.journal import Journal
from tests.records.suites import cli, write_config

ROOT = Path(__file__).resolve().parents[1]
INSTALLED = "/opt/tablectl/venv/bin/tablectl"


def step_two_check() -> list[list[str]]:
    """The commands of step 2's check, as docs/operations.md prints them (``A && B``), each as its words."""
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    step = text.split("\n2. Install tablectl", 1)[1].split("\n3. ", 1)[0]
    [line] = [m for m in re.findall(r"`([^`]*)`", step) if f"{INSTALLED} journal init" in m and " run " in m]
    return [shlex.split(part) for part in line.split("&&")]


def test_step_twos_check_never_touches_the_table_configured_in_the_system_folder(tmp_path: Path) -> None:
    live, etc, empty = tmp_path / "live", tmp_path / "etc", tmp_path / "empty"
    for folder in (live, etc, empty):
        folder.mkdir()
    write_config(live)  # the table of step 3: its own journal, log and key
    (etc / "table.toml").write_text((live / "table.toml").read_text(encoding="utf-8").replace(
        'path = "journal.sqlite"', f'path = "{live / "journal.sqlite"}"').replace(
        'events = "./events.jsonl"', f'events = "{live / "events.jsonl"}"'), encoding="utf-8")
    assert cli(live, "journal", "init", "--config", str(etc / "table.toml")).rc == 0
    with Journal(live / "journal.sqlite", table_id="TC-01", readonly=True) as journal:
        before = journal.last_seq

    commands = step_two_check()
    assert [c[:2] for c in commands] == [[INSTALLED, "journal"], [INSTALLED, "run"]]
    for command in commands:
        unfilmed = ["--no-camera"] if command[1] == "run" else []  # quicker; the camera is not what is checked
        done = subprocess.run([sys.executable, "-m", "controller.commands.cli", *command[1:], *unfilmed], cwd=empty,
                              capture_output=True, text=True, timeout=600,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "TABLECTL_CONFIG_DIR": str(etc)})
        assert done.returncode == 0, done.stderr
    assert "rounds      5" in done.stdout
    with Journal(live / "journal.sqlite", table_id="TC-01", readonly=True) as journal:
        assert journal.last_seq == before, "the check wrote into the live table's journal"
    assert (empty / "var" / "journal" / "TC-01.sqlite").exists()
