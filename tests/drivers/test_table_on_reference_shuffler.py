"""Three Card Poker on the reference shuffler over a pty: each shuffler error puts the round on hold.

Issue 3, "Done when": each shuffler error drives the round to ``hold`` with a
clear message for the dealer. The fault is injected once the wagers are down,
so it strikes while the shuffler dispenses the round's stacks of three
(seed 003, Three Card Poker "Dealing procedures" 1).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller import events as ev
from controller.engine import holds
from controller.engine.commands import PlaceWager, Sit
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.round import Round
from controller.engine.table import Table
from controller.events import ShufflerFaulted
from drivers.sim.process import SimulatorProcess
from tests.helpers import MemoryLog, play_round

CONFIG = Path(__file__).resolve().parents[2] / "config" / "three-card-poker.toml"


class PlayersThenFault(SimulatedPlayers):
    """Players who place their wagers, after which the shuffler develops a fault."""

    def __init__(self, sim: SimulatorProcess, fault: str) -> None:
        super().__init__(random.Random(3))
        self.sim, self.fault = sim, fault

    def wagers(self, round: Round) -> list[PlaceWager | Sit]:
        commands = super().wagers(round)
        self.sim.command(self.fault)
        return commands


@pytest.mark.parametrize(
    ("fault", "code", "message"),
    [
        ("fault jam", "jam", "a card is jammed: open the lid, clear the card path, close the lid"),
        ("fault door-open", "door-open", "the door or lid is open: close it"),
        ("duplicate", "duplicate-card", "a card was seen twice: call the supervisor to inspect the deck"),
        ("duplicate silent", "duplicate-card", "more often than the deck holds"),
        ("unreadable", "unrecognised-card", "a card could not be read: call the supervisor to inspect it"),
    ],
)
def test_each_shuffler_error_puts_the_round_on_hold_with_the_dealers_message(
    tmp_path: Path, fault: str, code: str, message: str
) -> None:
    with SimulatorProcess("shuffler", "--seed", "3") as sim:
        path = tmp_path / "table.toml"
        path.write_text(CONFIG.read_text().replace('driver = "simulated"', f'driver = "reference"\nport = "{sim.port}"'))
        config = load_config(path)
        log = MemoryLog(config.table_id)
        feed = open_feed(config, log, seed=3)
        # nobody clears the fault: the table waits a moment for the machine, then the round stays held
        held = play_round(Table(config, feed, log, session="S", recovery_timeout=1.0), PlayersThenFault(sim, fault))
        feed.shuffler.close()  # type: ignore[attr-defined]
    assert held.state == "hold"
    assert message in (held.hold_reason or "")
    assert log.named(ShufflerFaulted.EVENT)[0]["code"] == code


@pytest.mark.parametrize(("fault", "message"), [
    ("fault door-open", "the door or lid is open: close it"),
    ("fault jam", "a card is jammed"),
])
def test_a_shuffler_fault_before_the_shuffle_holds_the_new_round_with_the_dealers_message(
    tmp_path: Path, fault: str, message: str
) -> None:
    with SimulatorProcess("shuffler", "--seed", "5") as sim:
        path = tmp_path / "table.toml"
        path.write_text(CONFIG.read_text().replace('driver = "simulated"', f'driver = "reference"\nport = "{sim.port}"'))
        config = load_config(path)
        log = MemoryLog(config.table_id)
        feed = open_feed(config, log, seed=5)
        sim.command(fault)
        held = play_round(Table(config, feed, log, session="S", recovery_timeout=1.0), SimulatedPlayers(random.Random(5)))
        feed.shuffler.close()  # type: ignore[attr-defined]
    assert held.state == "hold" and held.wagers == {}
    assert (held.hold_reason or "").startswith("the shuffler is not ready:")
    assert message in (held.hold_reason or "")


def test_a_round_voided_for_a_stack_lost_to_an_unplug_is_followed_by_a_round_once_the_shuffler_is_back(
    tmp_path: Path,
) -> None:
    """Unplugged as it dispenses: the stack is unknown and the supervisor voids the round at once, while the link is
    still being remade. The next round waits for the shuffler to be back and opens, with no fault left for a
    supervisor (the console's dealer opens it as soon as the void is done)."""
    with SimulatorProcess("shuffler", "--seed", "5") as sim:
        path = tmp_path / "table.toml"
        path.write_text(CONFIG.read_text().replace('driver = "simulated"', f'driver = "reference"\nport = "{sim.port}"'))
        config = load_config(path)
        log = MemoryLog(config.table_id)
        feed = open_feed(config, log, seed=5)
        table = Table(config, feed, log, session="S", recovery_timeout=1.0)
        try:
            held = play_round(table, PlayersThenFault(sim, "on dispense unplug 1"))
            assert held.state == "hold" and "stack-unknown" in (held.hold_reason or "")
            holds.void(held, by="supervisor", reason="the stack is in the tray", feed=feed)
            after = table.new_round()  # refused as "stopped answering" while the link was remade, before
            assert feed.current_fault() is None
            assert log.named(ev.ShufflerShuffled.EVENT)[-1]["round"] == after.id
        finally:
            feed.shuffler.close()  # type: ignore[attr-defined]
