"""Double-Hand Poker dealt by the reference shuffler simulator over a real pseudo-terminal."""

from __future__ import annotations

import random
from pathlib import Path

from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.table import Table
from drivers.sim.process import SimulatorProcess
from tests.helpers import MemoryLog, play_round

CONFIG = Path(__file__).resolve().parents[2] / "config" / "double-hand-poker.toml"


def test_rounds_dealt_by_the_reference_shuffler_settle_to_the_cent(tmp_path: Path) -> None:
    with SimulatorProcess("shuffler", "--seed", "5", "--deck", "standard+joker") as sim:
        path = tmp_path / "table.toml"
        path.write_text(CONFIG.read_text().replace('driver = "simulated"', f'driver = "reference"\nport = "{sim.port}"'))
        config = load_config(path)
        log = MemoryLog(config.table_id)
        feed = open_feed(config, log, seed=5)
        table = Table(config, feed, log, session="S")
        players = SimulatedPlayers(random.Random(5))
        rounds = [play_round(table, players) for _ in range(3)]
        feed.shuffler.close()  # type: ignore[attr-defined]
    assert [r.state for r in rounds] == ["complete"] * 3
    for round in rounds:
        assert len([c for c in round.cards if c[0].startswith("pile")]) == 49
        assert sum(s.stake - s.returned for s in round.settlements) == 0
