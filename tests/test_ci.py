"""CI runs exactly what a new user runs: the README's Quick start test command, word for word, in .ci/run."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def quick_start() -> list[str]:
    block = re.search(r"## Quick start.*?```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)
    assert block is not None, "the README has no Quick start code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_the_quick_start_holds_exactly_two_commands_the_second_running_the_tests() -> None:
    commands = quick_start()
    assert len(commands) == 2
    assert re.search(r"-m pytest( -n \d+)?$", commands[1])


def test_ci_runs_the_readmes_test_command_word_for_word() -> None:
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert quick_start()[1] in ci
