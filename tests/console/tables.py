"""Builders for the console tests: a real table (config, in-process devices, round engine) behind the console."""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path

from controller.engine.config import load_config
from controller.console.server import ConsoleServer, ConsoleSettings
from controller.console.session import TableLoop
from controller.engine.devices import open_feed
from controller.engine.feeds import ShoeFeed
from controller.engine.players import SimulatedPlayers
from controller.engine.table import Table
from tests.helpers import MemoryLog

CONFIG = Path(__file__).resolve().parents[2] / "config"
SUPERVISOR_TOKEN = "pit-boss-secret-7431"


@dataclasses.dataclass
class Console:
    url: str
    loop: TableLoop
    log: MemoryLog


def table_loop(game: str, *, seed: int = 7, simulated: bool = False, shoe_port: str | None = None) -> tuple[TableLoop, MemoryLog]:
    """A table loop on the game's config; the shoe is in-process unless ``shoe_port`` names a reference simulator."""
    config = load_config(CONFIG / f"{game}.toml")
    if shoe_port is None:
        config = dataclasses.replace(config, shoe={**config.shoe, "driver": "simulated"})
    log = MemoryLog(config.table_id)
    table = Table(config, open_feed(config, log, seed=seed, shoe_port=shoe_port), log, session="TEST")
    players = SimulatedPlayers(random.Random(seed)) if simulated else None
    return TableLoop(table, players=players, pace=0.0, rounds=3 if simulated else 0), log


@contextlib.contextmanager
def served(
    game: str, *, seed: int = 7, simulated: bool = False, supervisor_token: str | None = SUPERVISOR_TOKEN,
    shoe_port: str | None = None,
) -> Iterator[Console]:
    loop, log = table_loop(game, seed=seed, simulated=simulated, shoe_port=shoe_port)
    server = ConsoleServer(loop, ConsoleSettings(port=0, supervisor_token=supervisor_token, pace=0.0))
    loop.start()
    try:
        yield Console(server.start(), loop, log)
    finally:
        server.stop()
        loop.stop()
        feed = loop.table.feed
        if isinstance(feed, ShoeFeed):
            feed.shoe.close()
