"""Long work shows a bar with its ETA on a terminal and nothing elsewhere; ``-v`` shows events wherever stderr goes.

The commands run as a person runs them: ``tablectl`` in a process of its own,
its standard error on a real pseudo-terminal (``tests.terminal``).
"""

from __future__ import annotations

import io
import re
import subprocess
import time
from pathlib import Path

import pytest

from controller.commands.progress import progress
from controller.events import RoundStarted, WagerSettled
from tests.terminal import TABLECTL, run_on_terminal

ETA = re.compile(r"\d+/\d+ \[\d\d:\d\d<\d\d:\d\d")
"""tqdm's ``done/total [elapsed<remaining``: a count against a total, and the time left."""


def test_off_a_terminal_the_helper_draws_nothing_and_still_prints(capsys: pytest.CaptureFixture[str]) -> None:
    stream = io.StringIO()
    with progress("work", 3, stream=stream) as advance:
        advance()
        advance(2)
        advance.print("a result line")
    assert stream.getvalue() == "" and not advance.shown
    assert capsys.readouterr().out == "a result line\n"


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_clock_runs_while_one_long_step_is_under_way() -> None:
    """A single step of many seconds (one pay table, one fit) still shows its time passing."""
    terminal = FakeTerminal()
    with progress("one long step", 1, stream=terminal) as advance:
        time.sleep(2.3)
        advance()
    assert "0/1 [00:02<" in terminal.getvalue() or "0/1 [00:01<" in terminal.getvalue()


def test_odds_shows_its_boards_counting_down_on_a_terminal_and_its_result_on_stdout() -> None:
    ran = run_on_terminal(["odds", "holdem", "--hole", "AS KS", "--hole", "QH QD"])
    assert ran.returncode == 0
    assert "odds holdem" in ran.terminal and ETA.search(ran.terminal) and "board" in ran.terminal
    assert "boards dealt exactly" in ran.stdout and "odds holdem" not in ran.stdout


def test_edge_shows_its_pay_tables_on_a_terminal() -> None:
    ran = run_on_terminal(["edge", "top-card"])
    assert ran.returncode == 0
    assert "edge top-card" in ran.terminal and "pay table" in ran.terminal
    assert "house edge" in ran.stdout


def test_a_run_shows_its_rounds_on_a_terminal_with_the_round_lines_on_stdout(tmp_path: Path) -> None:
    ran = run_on_terminal(["run", "--rounds", "40", "--seed", "3", "--no-journal", "--no-camera", "--log", str(tmp_path / "e.jsonl")])
    assert ran.returncode == 0
    assert "TC-01 rounds" in ran.terminal and ETA.search(ran.terminal)
    assert len([line for line in ran.stdout.splitlines() if line.startswith("TC-01-")]) == 40


def test_off_a_terminal_long_commands_write_nothing_but_their_result(tmp_path: Path) -> None:
    done = subprocess.run([TABLECTL, "odds", "holdem", "--hole", "AS KS", "--hole", "QH QD"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stderr == "" and "boards dealt exactly" in done.stdout


def test_verbose_shows_every_event_on_stderr_when_it_is_a_pipe(tmp_path: Path) -> None:
    done = subprocess.run([TABLECTL, "run", "--rounds", "2", "--seed", "3", "--no-journal", "--no-camera", "-v",
                           "--log", str(tmp_path / "e.jsonl")], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert RoundStarted.EVENT in done.stderr and WagerSettled.EVENT in done.stderr
    assert "\x1b[" not in done.stderr  # no colours off a terminal
