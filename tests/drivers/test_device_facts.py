"""Issue 48: what a device says about itself is checked against the table's config, and the readings the
document allows for burns, two decks and the cut card work at the table (docs/protocol.md 5, 6, 8.1)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from controller import events as ev
from controller.engine.config import DEFAULT_CONFIG, TableConfig, load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.table import Table
from controller.errors import ConfigError
from drivers.sim.process import SimulatorProcess
from tests.helpers import MemoryLog, play_round

ROOT = Path(__file__).resolve().parents[2]
TCP = ROOT / "config" / "three-card-poker.toml"


def table_config(tmp_path: Path, port: str, *, template: Path = DEFAULT_CONFIG, extra: str = "") -> TableConfig:
    text = template.read_text().replace("crosscheck = true", "crosscheck = false")
    old = 'driver = "reference"' if template == DEFAULT_CONFIG else 'driver = "simulated"'
    path = tmp_path / "table.toml"
    path.write_text(text.replace(old, f'driver = "reference"\nport = "{port}"\n{extra}'))
    return load_config(path)


def test_a_six_deck_shoe_on_an_eight_deck_table_is_refused_before_any_card_naming_both(tmp_path: Path) -> None:
    # case 8; docs/protocol.md 5.5
    with SimulatorProcess("shoe", "--decks", "6", "--seed", "1") as sim:
        config = table_config(tmp_path, sim.port)
        log = MemoryLog(config.table_id)
        feed = open_feed(config, log, seed=1)
        held = play_round(Table(config, feed, log, session="S", recovery_timeout=1.0), SimulatedPlayers(random.Random(1)))
        feed.close()
    assert held.state == "hold" and held.cards == []
    assert ("the shoe holds 312 cards (6 decks) but the table is set for 8 decks, 416 cards ([shoe] decks)"
            in (held.hold_reason or ""))
    assert log.named(ev.CardDealt.EVENT) == []


def test_a_device_speaking_another_protocol_version_is_refused_by_name(tmp_path: Path) -> None:
    # case 8; docs/protocol.md 4.4, 8.1
    with SimulatorProcess("shoe", "--seed", "1", "--set", "version=2") as sim:
        config = table_config(tmp_path, sim.port)
        with pytest.raises(ConfigError, match="speaks protocol version 2, but tablectl speaks version 1"):
            open_feed(config, MemoryLog(config.table_id), seed=1)


def test_a_cut_card_far_before_its_place_is_obeyed_and_warned_about(tmp_path: Path) -> None:
    # case 8; docs/protocol.md 5.4: the shoe's cut card 406 cards from the end, the table's 52
    with SimulatorProcess("shoe", "--seed", "2", "--cut", "406") as sim:
        config = table_config(tmp_path, sim.port)
        log = MemoryLog(config.table_id)
        feed = open_feed(config, log, seed=2)
        table = Table(config, feed, log, session="S")
        rounds = [play_round(table, SimulatedPlayers(random.Random(2))) for _ in range(7)]
        feed.close()
    assert [r.state for r in rounds] == ["complete"] * 7
    warning = log.named(ev.DeviceWarning.EVENT)[0]
    assert warning["code"] == "cut-card-early" and "the cut card came out after 10 cards" in warning["message"]
    assert len(log.named(ev.ShoeShuffled.EVENT)) == 2


def test_a_shoe_that_burns_its_own_cards_is_burned_once_per_shuffle(tmp_path: Path) -> None:
    # case 5; docs/protocol.md 5.2: the shoe's CARD_BURNED is the table's burn, whether it used the allowance or not
    for name in ("burning", "burning-free"):
        with SimulatorProcess("shoe", "--seed", "3", "--reading", name) as sim:
            config = table_config(tmp_path, sim.port)
            log = MemoryLog(config.table_id)
            feed = open_feed(config, log, seed=3)
            table = Table(config, feed, log, session="S")
            rounds = [play_round(table, SimulatedPlayers(random.Random(3))) for _ in range(3)]
            feed.close()
        assert [r.state for r in rounds] == ["complete"] * 3, name
        assert len(log.named(ev.CardBurned.EVENT)) == 1 and len(log.named(ev.CardDealt.EVENT)) == 6, name


def test_three_card_poker_deals_from_two_alternating_decks(tmp_path: Path) -> None:
    # case 4; seed 003 Three Card Poker "Number of Decks"; docs/protocol.md 6.3
    with SimulatorProcess("shuffler", "--seed", "4", "--reading", "two-decks") as sim:
        config = table_config(tmp_path, sim.port, template=TCP)
        log = MemoryLog(config.table_id)
        feed = open_feed(config, log, seed=4)
        table = Table(config, feed, log, session="S")
        rounds = [play_round(table, SimulatedPlayers(random.Random(4))) for _ in range(3)]
        feed.close()
    assert [r.state for r in rounds] == ["complete"] * 3
    assert feed.shuffler.two_decks  # type: ignore[attr-defined]
    assert [r["count"] for r in log.named(ev.ShufflerShuffled.EVENT)] == [52, 52, 52]


def test_a_table_set_for_one_deck_refuses_a_two_deck_shuffler_by_name(tmp_path: Path) -> None:
    # case 8; docs/protocol.md 6.1
    with SimulatorProcess("shuffler", "--seed", "4", "--reading", "two-decks") as sim:
        config = table_config(tmp_path, sim.port, template=TCP, extra="decks = 1")
        log = MemoryLog(config.table_id)
        feed = open_feed(config, log, seed=4)
        held = play_round(Table(config, feed, log, session="S", recovery_timeout=1.0), SimulatedPlayers(random.Random(4)))
        feed.close()
    assert held.state == "hold"
    assert "the shuffler holds two decks but the table is set for 1 ([shuffler] decks = 1)" in (held.hold_reason or "")


def test_the_readmes_hardware_command_parses_a_port_given_after_a_space() -> None:
    # case 11: `pytest -m hardware --shoe-port /dev/...` took the device for a test path ("unrecognized arguments");
    # the run's own PYTEST_ADDOPTS (a -v, say) is not this command's
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-m", "hardware", "--shoe-port", "/dev/null", "--co", "-q",
         "-p", "no:cacheprovider", "-k", "contract"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "test_shoe_contract.py::test_the_shoe_identifies_itself[hardware]" in done.stdout
