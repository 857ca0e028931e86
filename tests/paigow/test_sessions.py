"""``tablectl run`` for Double-Hand Poker and Fortune Pai Gow Poker: full rounds that balance to the cent.

Money moves only between the players, the player-dealer and the house's
collection fees, so for every round: what the players win is exactly what the
player-dealer's bank loses (the bank's own settlement returns the bank plus its
net), the player-dealer never wins or loses more than the posted bank, and the
fees are the house's only take: players + player-dealer + house = 0 to the cent.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.events import (
    DecisionTaken,
    FeeCollected,
    PositionPassed,
    PositionTaken,
    Revealed,
    RoundVoided,
    SettlementSummarized,
    WagerChanged,
    WagerPlaced,
    WagerSettled,
)
from tests.helpers import init_table, session_lengths

CONFIGS = ["config/double-hand-poker.toml", "config/fortune-pai-gow.toml"]
ROOT = Path(__file__).resolve().parents[2]


def run_session(tmp_path: Path, config: Path | str, rounds: int = 200, seed: int = 7) -> list[dict]:
    log = tmp_path / "events.jsonl"
    init_table(str(tmp_path / "journal.sqlite"), str(log), str(config))
    assert main(["run", "--config", str(config), "--rounds", str(rounds), "--seed", str(seed), "--log", str(log),
                 "--journal", str(tmp_path / "journal.sqlite")]) == 0
    return [json.loads(line) for line in log.read_text().splitlines()]


def by_round(records: list[dict]) -> dict[str, list[dict]]:
    rounds: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        if r.get("round"):
            rounds[r["round"]].append(r)
    return rounds


def check_balances(records: list[dict]) -> dict[str, int]:
    """Check every round to the cent; return session totals."""
    totals: dict[str, int] = defaultdict(int)
    for round_id, events in by_round(records).items():
        placed = sum(e["amount"] - e["previous"] for e in events if e["event"] in (WagerPlaced.EVENT, WagerChanged.EVENT))
        settled = [e for e in events if e["event"] == WagerSettled.EVENT]
        fees = sum(e["amount"] for e in events if e["event"] == FeeCollected.EVENT)
        assert sum(e["stake"] for e in settled) == placed, round_id
        players = [e for e in settled if e["wager"] != "bank"]
        bank = [e for e in settled if e["wager"] == "bank"]
        players_net = sum(e["returned"] - e["stake"] for e in players)
        player_dealer_net = sum(e["returned"] - e["stake"] for e in bank)
        if any(e["event"] == RoundVoided.EVENT for e in events):
            assert players_net == player_dealer_net == 0
        else:
            (summary,) = [e for e in events if e["event"] == SettlementSummarized.EVENT]
            assert all(e["banker"] == "player-dealer" for e in settled)
            assert player_dealer_net == summary["net"] and bank[0]["stake"] == summary["bank"]
            assert abs(summary["net"]) <= summary["bank"] and summary["action"] <= summary["bank"]
            seat = next(e for e in events if e["event"] == Revealed.EVENT)["player_dealer"]
            assert bank[0]["spot"] == seat and all(e["spot"] != seat for e in players)
            totals["exhausted"] += summary["exhausted"]
        assert players_net + player_dealer_net == 0, round_id
        player_dealer_fee = sum(e["amount"] for e in events if e["event"] == FeeCollected.EVENT and e["spot"] == bank[0]["spot"])
        totals["players"] += players_net - (fees - player_dealer_fee)
        totals["player_dealer"] += player_dealer_net - player_dealer_fee
        totals["fees"] += fees
        totals["rounds"] += 1
    return totals


@pytest.mark.parametrize("rounds", session_lengths(100, 200))
@pytest.mark.parametrize("config", CONFIGS)
def test_a_session_balances_to_the_cent(tmp_path: Path, config: str, rounds: int, capsys) -> None:
    records = run_session(tmp_path, ROOT / config, rounds)
    totals = check_balances(records)
    assert totals["players"] + totals["player_dealer"] + totals["fees"] == 0
    out = capsys.readouterr().out
    played = int(re.search(r"^rounds\s+(\d+)", out, re.MULTILINE)[1])
    assert played == totals["rounds"] == rounds
    # general rule 5: when nobody takes the player-dealer position the game stops, says why, and waits until a
    # player takes it (the simulated players are asked again); the run goes on from there
    moves = [r for r in records if r["event"] in (PositionPassed.EVENT, PositionTaken.EVENT)]
    for stop, after in zip(moves, moves[1:]):
        if "stopped" in stop:
            assert after["event"] == PositionTaken.EVENT and after["player_dealer"] != stop.get("player_dealer")
    if any("stopped" in r for r in moves):
        assert "the game stopped: no player intervened" in out and "takes the player-dealer position" in out
    fee_line = re.search(r"^fees\s+\$([\d,]+)\.(\d\d)$", out, re.MULTILINE)
    assert fee_line and int(fee_line[1].replace(",", "")) * 100 + int(fee_line[2]) == totals["fees"]


@pytest.mark.parametrize("config", CONFIGS)
def test_banks_run_out_mid_settlement_and_the_rest_is_returned(tmp_path: Path, config: str) -> None:
    # general rule 6: "Once the Player/Dealer's wager is depleted, the hand is over"
    small = tmp_path / "small-bank.toml"
    small.write_text((ROOT / config).read_text().replace("bank = [1000, 200000]", "bank = [1000, 2500]"))
    records = run_session(tmp_path, small, rounds=120, seed=3)
    totals = check_balances(records)
    assert totals["exhausted"] > 10
    for events in by_round(records).values():
        settled = [e for e in events if e["event"] == WagerSettled.EVENT and e["wager"] != "bank"]
        cut = next((i for i, e in enumerate(settled) if "bank exhausted" in e["reason"]), None)
        if cut is not None:
            assert all(e["returned"] == e["stake"] for e in settled[cut + 1:]), "no action is left after the cut"


def test_the_same_seed_plays_the_same_session(tmp_path: Path, capsys) -> None:
    outputs = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        run_session(tmp_path / name, ROOT / CONFIGS[0], rounds=15, seed=11)
        outputs.append(re.sub(r"-\d{8}T\d{6}-", "-", capsys.readouterr().out).split("\n", 1)[1])
    assert outputs[0] == outputs[1]


def test_dice_and_the_first_pile_are_logged_with_every_round(tmp_path: Path) -> None:
    records = run_session(tmp_path, ROOT / CONFIGS[0], rounds=10)
    dice = [r for r in records if r["event"] == DecisionTaken.EVENT and r["action"] == "dice"]
    piles = [r for r in records if r["event"] == DecisionTaken.EVENT and r["action"] == "first-pile"]
    assert len(dice) == len(piles) == 10
    assert all(len(r["values"]) == 3 and all(1 <= v <= 6 for v in r["values"]) for r in dice)
