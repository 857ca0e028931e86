"""``tablectl run`` for each of these games: full rounds on the simulated shuffler balance to the cent."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.events import DecisionTaken, RoundStarted
from tests.helpers import check_session_balances, init_table

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("top-5-poker", "high-card-flush", "two-cards-high")


def play_and_balance(game: str, rounds: int, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    log_file = tmp_path / "events.jsonl"
    config = ROOT / "config" / f"{game}.toml"
    init_table(str(tmp_path / "journal.sqlite"), str(log_file), str(config))
    assert main(["run", "--config", str(config), "--rounds", str(rounds), "--seed", str(seed), "--log", str(log_file),
                 "--journal", str(tmp_path / "journal.sqlite")]) == 0
    return check_session_balances(capsys.readouterr().out, log_file, rounds)


@pytest.mark.parametrize("game", GAMES)
def test_a_short_session_balances_to_the_cent(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = play_and_balance(game, 60, 3, tmp_path, capsys)
    started = [r for r in records if r["event"] == RoundStarted.EVENT]
    assert all(r["game"] == game and r["options"] is not None for r in started)  # options logged with every round
    assert any(r["event"] == DecisionTaken.EVENT for r in records)


@pytest.mark.exhaustive
@pytest.mark.parametrize("game", GAMES)
def test_a_thousand_rounds_with_seed_7_balance_to_the_cent(game: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    play_and_balance(game, 1000, 7, tmp_path, capsys)
