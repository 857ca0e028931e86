"""``tablectl run`` of both blackjack games with both side wagers: every round balances to the cent.

Players + player-dealer + collection fees: what the players win the player-dealer loses (within the posted
bank), and the house keeps only the fees.
"""

import json
import re
from collections import Counter, defaultdict

import pytest

from controller.commands.cli import main
from controller.events import DecisionTaken, FeeCollected, RoundCompleted, SettlementSummarized, WagerChanged, WagerPlaced, WagerSettled
from tests.helpers import init_table, session_lengths


@pytest.mark.parametrize("rounds", session_lengths(150, 300))
@pytest.mark.parametrize("game_id", ["no-bust-21", "pure-21-5"])
def test_a_session_balances_players_player_dealer_and_fees_to_the_cent(game_id, rounds, tmp_path, capsys) -> None:
    log_file = tmp_path / "events.jsonl"
    init_table(str(tmp_path / "journal.sqlite"), str(log_file), f"config/{game_id}.toml")
    assert main(["run", "--config", f"config/{game_id}.toml", "--rounds", str(rounds), "--seed", "7", "--no-camera",
                 "--log", str(log_file), "--journal", str(tmp_path / "journal.sqlite")]) == 0
    out = capsys.readouterr().out
    records = [json.loads(line) for line in log_file.read_text().splitlines()]
    placed: dict[str, int] = defaultdict(int)
    players: dict[str, int] = defaultdict(int)
    fees: dict[str, int] = defaultdict(int)
    wagers: Counter[str] = Counter()
    for r in records:
        if r["event"] in (WagerPlaced.EVENT, WagerChanged.EVENT):
            added_by_decision = r.get("by") == DecisionTaken.EVENT  # a double, split or insurance: ``amount`` is the addition
            placed[r["round"]] += r["amount"] if added_by_decision else r["amount"] - r["previous"]
        elif r["event"] == WagerSettled.EVENT:
            placed[r["round"]] -= r["stake"]
            if r["wager"] == "bank":
                continue
            players[r["round"]] += r["returned"] - r["stake"]
            assert r["banker"] == "player-dealer"
            wagers[f"{r['wager']} {r['outcome']}"] += 1
        elif r["event"] == FeeCollected.EVENT:
            fees[r["round"]] += r["amount"]
    summaries = {r["round"]: r for r in records if r["event"] == SettlementSummarized.EVENT}
    completes = {r["round"]: r for r in records if r["event"] == RoundCompleted.EVENT}
    assert len(summaries) == len(completes) == rounds
    for round_id, summary in summaries.items():
        assert placed[round_id] == 0, "every wager, added by a decision or not, settled exactly once"
        assert players[round_id] + summary["net"] == 0, "the players' net is the player-dealer's loss"
        assert abs(summary["net"]) <= summary["bank"] and summary["action"] <= summary["bank"]
        assert completes[round_id]["house_win"] == fees[round_id]
    assert re.search(r"^fees\s+\$([\d,.]+)", out, re.MULTILINE)[1].replace(",", "") == f"{sum(fees.values()) / 100:.2f}"
    assert any(s["exhausted"] for s in summaries.values()), "some round exhausts the bank"
    for outcome in ("base win", "base lose", "base push", "base partial", "bonus win", "bonus lose",
                    "buster win", "buster lose"):
        assert wagers[outcome], outcome
    actions = Counter(r["action"] for r in records if r["event"] == DecisionTaken.EVENT)
    assert {"hit", "stand", "double", "split", "surrender"} <= set(actions)
    assert len({s["player_dealer_seat"] for s in summaries.values()}) == 8
