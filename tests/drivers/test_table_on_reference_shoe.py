"""The table on the reference shoe over a pseudo-terminal: the default run, and a fault sending the round to hold."""

from __future__ import annotations

import contextlib
import os
import random

from controller.session import shoe_simulator
from controller.config import load_config
from controller.devices import open_feed
from controller.players import SimulatedPlayers
from controller.table import Table
from drivers.reference.shoe import ReferenceShoe
from drivers.sim.process import SimulatorProcess
from tests.helpers import MemoryLog


def test_the_default_table_deals_from_the_shoe_simulator_over_a_pseudo_terminal() -> None:
    config = load_config()
    log = MemoryLog(config.table_id)
    with contextlib.ExitStack() as stack:
        feed = open_feed(config, log, seed=5, shoe_port=shoe_simulator(config, 5, stack))
        shoe = feed.shoe  # type: ignore[attr-defined]
        stack.callback(shoe.close)
        assert isinstance(shoe, ReferenceShoe)
        assert os.path.realpath(shoe.session.where).startswith("/dev/pts/")
        table = Table(config, feed, log, session="S")
        rounds = [table.play_round(SimulatedPlayers(random.Random(5))) for _ in range(3)]
    assert [r.state for r in rounds] == ["complete"] * 3
    assert len(log.named("card_dealt")) == 6


def test_a_jammed_shoe_puts_the_round_on_hold_with_the_dealers_message() -> None:
    config = load_config()
    log = MemoryLog(config.table_id)
    with SimulatorProcess("shoe", "--seed", "2") as sim:
        feed = open_feed(config, log, seed=2, shoe_port=sim.port)
        table = Table(config, feed, log, session="S")
        players = SimulatedPlayers(random.Random(2))
        assert table.play_round(players).state == "complete"
        sim.command("fault jam")
        held = table.play_round(players)
        feed.shoe.close()  # type: ignore[attr-defined]
    assert held.state == "hold"
    assert held.hold_reason == "shoe fault (jam): a card is jammed: open the lid, clear the card path, close the lid"
    assert log.named("shoe_fault")[0]["code"] == "jam"
