"""A table whose simulated shoe or shuffler shuffles badly is held (or its pit warned) as [shuffle] says."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from controller import events as ev
from controller.cards import Card
from controller.commands.cli import main
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.round import Round
from controller.engine.table import Table
from controller.events import CameraDisagreed, DeckReconciled, ShuffleAlarm, ShuffleTested, from_record
from tests.helpers import MemoryLog, init_table, play_round

SHOE = "config/top-card.toml"  # an 8-deck shoe, two cards and a burn a round
SHUFFLER = "config/three-card-poker.toml"  # a one-deck shuffler dispensing stacks of three, a fresh deck a round


def _table(path: str, fault: str, shuffle: dict[str, Any] | None = None) -> tuple[Table, MemoryLog]:
    config = load_config(path)
    device = "shoe" if path == SHOE else "shuffler"
    sections = {k: v for k, v in config.sections.items() if k != "vision"}
    if shuffle is not None:
        sections["shuffle"] = shuffle
    config = dataclasses.replace(config, **{device: {**getattr(config, device), "driver": "simulated", "shuffle": fault}},
                                 sections=sections)
    log = MemoryLog(config.table_id)
    return Table(config, open_feed(config, log, seed=5), log, session="S"), log


def _play_until_held(table: Table, rounds: int) -> Round | None:
    players = SimulatedPlayers(random.Random(5))
    for _ in range(rounds):
        round = play_round(table, players)
        if round.state == "hold":
            return round
    return None


@pytest.mark.parametrize("path", [SHOE, SHUFFLER])
@pytest.mark.parametrize("fault, test, within", [
    ("factory", "guess", 7), ("previous", "guess", 7), ("riffles:1", "rising", 7), ("riffles:2", "rising", 60),
    ("repeat:1", "repeat", None),
])
def test_a_bad_shuffle_holds_the_round_before_it_settles(path: str, fault: str, test: str, within: int | None) -> None:
    table, log = _table(path, fault)
    held = _play_until_held(table, 400)
    assert held is not None and held.hold_reason is not None
    assert not held.settlements, "nothing of the held round was paid"
    alarm = next(a for a in log.named(ShuffleAlarm.EVENT) if a["level"] == "hold")
    assert alarm["round"] == held.id and f"shuffle test {alarm['test']} (hold)" in held.hold_reason
    if within is not None:  # the first shoe, by this card
        assert alarm["shoe"] == 1 and alarm["card"] <= within
    else:  # a repeated order: the second shoe, by the seventh card
        assert alarm["test"] == test and alarm["shoe"] == 2 and alarm["card"] <= 7


@pytest.mark.parametrize("fault", ["shelf:10", "riffles:3"])
def test_a_shelf_shuffler_or_three_riffles_of_an_8_deck_shoe_is_held_within_the_shoe(fault: str) -> None:
    """With 8 copies of every card only the likelihood test (the copy of each card latent) sees them early."""
    table, log = _table(SHOE, fault)
    held = _play_until_held(table, 60)
    assert held is not None and not held.settlements
    alarm = next(a for a in log.named(ev.ShuffleAlarm.EVENT) if a["level"] == "hold")
    assert alarm["test"] == "likelihood" and alarm["shoe"] == 1 and alarm["card"] <= 120


@pytest.mark.parametrize("path", [SHOE, SHUFFLER])
@pytest.mark.parametrize("fault", ["removed", "added"])
def test_a_deck_with_a_card_too_few_or_too_many_is_held_before_betting(path: str, fault: str) -> None:
    table, log = _table(path, fault)
    held = _play_until_held(table, 1)
    assert held is not None and held.state == "hold" and not held.wagers
    (count,) = log.named(DeckReconciled.EVENT)
    assert count["held"] and "the device counted" in count["problems"][0]
    assert "deck count" in (held.hold_reason or "")


@pytest.mark.parametrize("path", [SHOE, SHUFFLER])
def test_a_test_configured_to_warn_tells_the_pit_and_lets_the_round_settle(path: str) -> None:
    no_holds = {"hold_rate": 0.0, "device_hold_rate": 0.0}
    table, log = _table(path, "factory", no_holds)
    assert _play_until_held(table, 3) is None
    warned = log.named(ShuffleAlarm.EVENT)
    assert warned and {a["level"] for a in warned} == {"warn"}
    assert all("shuffle test" in a["reason"] for a in warned)


def test_every_shoe_is_journaled_with_its_tests_and_its_inventory() -> None:
    table, log = _table(SHOE, "random")
    players = SimulatedPlayers(random.Random(1))
    while table.feed.shuffles < 2:  # type: ignore[attr-defined]
        assert play_round(table, players).state == "complete"
    (tested,) = log.named(ShuffleTested.EVENT)
    assert tested["shoe"] == 1 and len(tested["order"]) == tested["cards"] >= 364
    assert {r["test"] for r in tested["results"]} >= {"pairs", "rising", "guess", "moved", "repeat", "chi-square"}
    assert all(r["level"] is None for r in tested["results"])
    (inventory,) = log.named(DeckReconciled.EVENT)
    assert inventory["seen"] == tested["cards"] and not inventory["held"]


def test_shuffle_monitoring_can_be_switched_off() -> None:
    table, log = _table(SHOE, "factory", {"enabled": False})
    assert _play_until_held(table, 5) is None and not log.named(ShuffleAlarm.EVENT)


def test_a_device_that_deals_its_orders_again_after_the_table_restarts_is_held(tmp_path: Path) -> None:
    """The journal gives the monitor back the shoes dealt before the restart, so a device that starts its orders
    over (an RNG seeded the same at every power-on) is held in its first shoe after the restart."""
    config = tmp_path / "tcp.toml"
    config.write_text(Path(SHUFFLER).read_text())
    args = ["run", "--config", str(config), "--rounds", "2", "--seed", "7", "--journal", str(tmp_path / "j.sqlite"),
            "--log", str(tmp_path / "events.jsonl"), "--no-camera"]
    init_table(tmp_path / "j.sqlite", tmp_path / "events.jsonl", config)
    assert main(args) == 0
    records = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    dealt = [r for r in records if r["event"] == ShuffleTested.EVENT]
    assert len(dealt) == 2
    table, log = _table(SHUFFLER, "random")
    watch = table.feed.watch  # type: ignore[attr-defined]
    assert watch.restore([from_record(r) for r in dealt]) == 2
    watch.shoe_started(None, 52)
    for code in dealt[0]["order"][:7]:
        watch.card(Card.parse(code), "R")
    holds = [a for a in log.named(ShuffleAlarm.EVENT) if a["level"] == "hold"]
    assert holds and holds[0]["test"] == "repeat" and holds[0]["shoe"] == 3 and holds[0]["card"] <= 7


def test_a_restarted_table_does_not_deal_its_simulated_orders_again(tmp_path: Path) -> None:
    """A sound device shuffles afresh after a restart: the simulated one is seeded anew from the journal."""
    config = tmp_path / "tcp.toml"
    config.write_text(Path(SHUFFLER).read_text())
    args = ["run", "--config", str(config), "--rounds", "2", "--seed", "7", "--journal", str(tmp_path / "j.sqlite"),
            "--log", str(tmp_path / "events.jsonl"), "--no-camera"]
    init_table(tmp_path / "j.sqlite", tmp_path / "events.jsonl", config)
    assert main(args) == 0
    assert main(args) == 0
    records = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    orders = [tuple(r["order"]) for r in records if r["event"] == ShuffleTested.EVENT]
    assert len(orders) == 4 and len(set(orders)) == 4
    assert not [r for r in records if r["event"] == ShuffleAlarm.EVENT and r["level"] == "hold"]


def test_the_camera_s_second_reading_is_reconciled_with_the_shoe_s() -> None:
    """A card the camera saw that the shoe never read this shoe is named by the shoe's inventory."""
    table, log = _table(SHOE, "random")
    watch = table.feed.watch  # type: ignore[attr-defined]
    watch.shoe_started(None, 416)
    watch.card(Card.parse("AS"), "R1")
    log.emit(CameraDisagreed(round="R1", kind="seen-differently", zone="home", dealt="AS", seen="KH"))
    assert watch.shoe_ended("R1") and log.named(DeckReconciled.EVENT)[-1]["camera_only"] == ["KH"]
    assert log.named(DeckReconciled.EVENT)[-1]["camera_disagreed"] == ["seen-differently in home: device AS, camera KH"]
