"""``tablectl run`` for each of these games: full rounds on the simulated shuffler balance to the cent."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from controller.cli import main

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("top-5-poker", "high-card-flush", "two-cards-high")


def cents(text: str) -> int:
    sign = -1 if text.startswith("-") else 1
    return sign * int(re.sub(r"[^0-9]", "", text))


def play_and_balance(game: str, rounds: int, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    log_file = tmp_path / "events.jsonl"
    config = ROOT / "config" / f"{game}.toml"
    assert main(["run", "--config", str(config), "--rounds", str(rounds), "--seed", str(seed), "--log", str(log_file)]) == 0
    out = capsys.readouterr().out
    summary = dict(re.findall(r"^(rounds|wagered|paid|house win)\s+(\S+)", out, re.M))
    assert summary["rounds"] == str(rounds)
    records = [json.loads(line) for line in log_file.read_text().splitlines()]
    stakes: dict[str, int] = defaultdict(int)
    returns: dict[str, int] = defaultdict(int)
    placed: dict[str, int] = defaultdict(int)
    for r in records:
        if r["event"] == "wager_settled":
            stakes[r["round"]] += r["stake"]
            returns[r["round"]] += r["returned"]
            assert r["stake"] - r["returned"] == r["house_win"]
        elif r["event"] in ("wager_placed", "wager_changed"):
            placed[r["round"]] += r["amount"] - r["previous"]
    completes = {r["round"]: r for r in records if r["event"] == "round_complete"}
    assert len(completes) == rounds
    for round_id, done in completes.items():
        assert done["wagered"] == stakes[round_id] == placed[round_id]
        assert done["paid"] == returns[round_id]
    assert cents(summary["wagered"]) == sum(stakes.values())
    assert cents(summary["paid"]) == sum(returns.values())
    assert cents(summary["house win"]) == sum(stakes.values()) - sum(returns.values())
    return records


@pytest.mark.parametrize("game", GAMES)
def test_a_short_session_balances_to_the_cent(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = play_and_balance(game, 60, 3, tmp_path, capsys)
    started = [r for r in records if r["event"] == "round_started"]
    assert all(r["game"] == game and r["options"] is not None for r in started)  # options logged with every round
    assert any(r["event"] == "decision" for r in records)


@pytest.mark.exhaustive
@pytest.mark.parametrize("game", GAMES)
def test_a_thousand_rounds_with_seed_7_balance_to_the_cent(game: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    play_and_balance(game, 1000, 7, tmp_path, capsys)
