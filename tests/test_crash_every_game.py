"""Every table config survives SIGKILL: each game's open round is recovered and every round replays to the cent.

The configs are globbed, so a game added with its ``config/GAME-ID.toml`` is
covered without touching this test. Player-dealer games also get their table
roles (who holds the bank, which bank it is) back from the journal.
"""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest

from controller.engine.config import load_config
from tests.helpers import init_table
from tests.journal_checks import check_any_game, integrity
from tests.test_crash_recovery import ROOT, assert_log_verifies, tablectl

CONFIGS = sorted((ROOT / "config").glob("*.toml"))


def kill_after_rounds(proc, prefix: str, rounds: int, delay: float) -> bool:
    import time

    assert proc.stdout is not None
    seen = 0
    while seen < rounds:
        line = proc.stdout.readline()
        if not line:
            return False
        seen += line.startswith(prefix)
    time.sleep(delay)
    if proc.poll() is not None:
        return False
    proc.send_signal(signal.SIGKILL)
    return True


@pytest.mark.parametrize("config", CONFIGS, ids=[c.stem for c in CONFIGS])
def test_every_game_recovers_from_sigkill_and_replays(tmp_path: Path, config: Path) -> None:
    table_id = load_config(config).table_id
    journal, log = tmp_path / "journal.sqlite", tmp_path / "events.jsonl"
    rng = random.Random(config.stem)
    kills = 0
    init_table(journal, log, config)
    for _ in range(8):
        proc = tablectl("run", "--config", str(config), "--rounds", "500", "--seed", str(rng.randrange(10**6)), "--no-camera",
                        "--journal", str(journal), "--log", str(log))
        kills += kill_after_rounds(proc, f"{table_id}-", rng.randint(0, 3), rng.uniform(0, 0.03))
        _, err = proc.communicate()
        assert proc.returncode in (0, -signal.SIGKILL), err
    final = tablectl("run", "--config", str(config), "--rounds", "2", "--seed", "1", "--no-camera", "--journal", str(journal), "--log", str(log))
    _, err = final.communicate()
    assert final.returncode == 0, err
    assert kills >= 4 and integrity(journal) == "ok"
    counts = check_any_game(journal, table_id)
    assert counts["open"] == 0 and counts["rounds"] >= 2
    assert_log_verifies(journal, log, table_id)
