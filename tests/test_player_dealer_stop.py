"""A player-dealer game nobody takes the position of stops, says why, waits, and is still stopped after a restart.

Seed 003, Three Card Poker general rules: the position passes clockwise to a
different player after every two banks; when nobody takes it the game
cannot go on until a player does.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller.engine.players import SimulatedPlayers
from controller.engine.session import open_session
from tests.helpers import in_process_config, init_table

ROOT = Path(__file__).resolve().parents[1]


def test_a_stopped_game_waits_across_a_restart_until_a_player_takes_the_position(tmp_path: Path) -> None:
    config = in_process_config(str(ROOT / "config" / "three-card-poker.toml"))
    journal, events = tmp_path / "journal.sqlite", tmp_path / "events.jsonl"
    nobody = SimulatedPlayers(random.Random(1), take_position_probability=0.0)
    init_table(journal, events, ROOT / "config" / "three-card-poker.toml")
    with open_session(config, random.Random(1), journal=journal, events=events) as session:
        for _ in range(2):
            session.play(nobody)
        assert session.table.stopped and "no player intervened" in session.table.stopped
        assert session.table.game.position_offer() == [2, 3, 4, 5, 6, 7, 8]  # never seat 1 again
    with open_session(config, random.Random(2), journal=journal, events=events) as session:
        table = session.table
        assert table.stopped == "nobody has taken the player-dealer position since the game stopped"
        with pytest.raises(ValueError, match="passes to a different player"):
            table.take_position(1, None)
        facts = table.take_position(5, None)
        assert facts == {"player_dealer": 5, "bank_button": "1st bank"} and table.stopped is None
    with open_session(config, random.Random(3), journal=journal, events=events) as session:  # taken, then a restart
        assert session.table.stopped is None
        round = session.play(SimulatedPlayers(random.Random(3)))
        assert round.state == "complete" and round.wagers[(5, "bank")]
    with open_session(config, random.Random(4), journal=journal, events=events) as session:
        assert session.table.stopped is None and session.table.game.table_roles()["player_dealer"] == 5
