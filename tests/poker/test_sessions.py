"""Whole sessions with simulated players: every pot is conserved to the cent after fees (issue 10, "Done when")."""

import random
import re

import pytest
from hypothesis import given, settings, strategies as st

from controller.commands.cli import main
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.table import Table
from controller.events import FeeCollected, RoundCompleted, WagerSettled
from tests.helpers import MemoryLog, init_table, play_round, session_lengths
from tests.poker.tables import assert_conserved, balance

CONFIGS = ["config/holdem.toml", "config/omaha-hi-lo.toml", "config/lowball.toml"]


def cents(text: str) -> int:
    return int(re.sub(r"[^0-9]", "", text))


@pytest.mark.parametrize("rounds", session_lengths(100, 200))
@pytest.mark.parametrize("config", CONFIGS)
def test_a_session_conserves_each_pot_to_the_cent(config: str, rounds: int, tmp_path, capsys) -> None:
    log_file = tmp_path / "events.jsonl"
    init_table(str(tmp_path / "journal.sqlite"), str(log_file), config)
    assert main(["run", "--config", config, "--rounds", str(rounds), "--seed", "7", "--log", str(log_file),
                 "--journal", str(tmp_path / "journal.sqlite")]) == 0
    out = capsys.readouterr().out
    summary = dict(re.findall(r"^(rounds|fees|house win)\s+(\S+)", out, re.MULTILINE))
    between = re.search(r"^between players \(not house action\): \d+ wagers, staked (\S+), returned (\S+)", out, re.MULTILINE)
    log = MemoryLog()
    log.stream.write(log_file.read_text())
    assert_conserved(log)
    records = log.records()
    completes = [r for r in records if r["event"] == RoundCompleted.EVENT]
    assert summary["rounds"] == str(rounds) and len(completes) == rounds
    fees = sum(r["amount"] for r in records if r["event"] == FeeCollected.EVENT)
    assert cents(summary["fees"]) == cents(summary["house win"]) == fees == sum(r["house_win"] for r in completes)
    staked = sum(v[1] for v in balance(log).values())
    returned = sum(v[2] for v in balance(log).values())
    dropped = sum(v[3] for v in balance(log).values())
    assert between is not None and cents(between[1]) == staked > 0 and cents(between[2]) == returned
    assert returned + dropped == staked
    settled = [r for r in records if r["event"] == WagerSettled.EVENT]
    assert {r["banker"] for r in settled} == {"pot"}
    assert any(r["reason"].startswith("side pot") for r in settled)  # all-ins happened


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32 - 1))
def test_any_seed_every_hand_balances(config: str, seed: int) -> None:
    table_config = load_config(config)
    log = MemoryLog()
    table = Table(table_config, open_feed(table_config, log, seed=seed), log)
    players = SimulatedPlayers(random.Random(seed))
    for _ in range(25):
        round = play_round(table, players)
        assert round.state == "complete"
    assert_conserved(log)
    assert table.meters.total.house_win == table.meters.total.fees
