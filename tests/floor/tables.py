"""Tables for the floor's tests: real `tablectl run` sessions writing real journals."""

from __future__ import annotations

from pathlib import Path

from controller.commands.cli import main
from tests.helpers import init_table


def play(journal: Path, *, rounds: int, seed: int, config: str = "config/top-card.toml") -> Path:
    """Play ``rounds`` rounds of the config's game into ``journal`` (no camera) and give its path."""
    log = journal.with_suffix(".jsonl")
    if not journal.exists():
        init_table(journal, log, config)
    code = main(["run", "--config", config, "--rounds", str(rounds), "--seed", str(seed), "--journal", str(journal),
                 "--log", str(log), "--no-camera"])
    assert code == 0
    return journal
