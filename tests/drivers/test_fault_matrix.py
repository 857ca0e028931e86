"""Issue 48, "Done when": every device fault at every moment, on a shoe and a shuffler, ends in a resumed round or
a held round naming the device, with 0 cards lost, 0 recorded twice and no traceback (``tests.drivers.fault_matrix``).

CI plays every fault at every moment once, each scenario in one reading of the simulator, the readings taken in
turn so that every reading is played; ``pytest -m long tests/drivers/test_fault_matrix.py`` plays every scenario in
every reading (about ten times as long).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller.events import ShoeFaulted, ShufflerFaulted
from tests.drivers.fault_matrix import MOMENTS, Outcome, Scenario, play_all, scenarios, table_of
from tests.once import computed_once

ALL = [s for device in MOMENTS for s in scenarios(device)]
EVERY_READING = [s for device in MOMENTS for s in scenarios(device, every_reading=True) if s not in ALL]


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> dict[Scenario, Outcome]:
    def play() -> dict[Scenario, Outcome]:
        outcomes = play_all(ALL, tmp_path_factory.mktemp("matrix"))
        (Path(tmp_path_factory.getbasetemp()) / "fault-matrix.txt").write_text(table_of(outcomes) + "\n")
        return {o.scenario: o for o in outcomes}

    return computed_once(tmp_path_factory, "fault-matrix", play)


def verdict(o: Outcome) -> str:
    return (f"{o.scenario.id}: {o.sent} cards sent, {o.journaled} journaled, {o.lost} lost, {o.duplicated} twice, "
            f"rounds {o.rounds}, problems {o.problems}\n" + "\n".join(o.tracebacks))


@pytest.mark.parametrize("scenario", ALL, ids=lambda s: s.id)
def test_the_fault_ends_in_a_resumed_or_held_round_with_every_card_recorded_once(
    matrix: dict[Scenario, Outcome], scenario: Scenario
) -> None:
    outcome = matrix[scenario]
    assert outcome.ok, verdict(outcome)
    assert outcome.rounds, verdict(outcome)


def test_the_matrix_covers_every_fault_moment_device_and_reading(matrix: dict[Scenario, Outcome]) -> None:
    from drivers.sim.behaviour import readings

    for device in MOMENTS:
        played = [s for s in matrix if s.device == device]
        assert {s.reading for s in played} == set(readings(device))
        assert {s.moment for s in played} == set(MOMENTS[device])
    assert sum(o.sent for o in matrix.values()) > 500


@pytest.mark.long
def test_every_scenario_in_every_reading(tmp_path: Path) -> None:
    failed = [verdict(o) for o in play_all(EVERY_READING, tmp_path) if not o.ok]
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("device", ["shoe", "shuffler"])
def test_a_refused_shuffle_that_arrives_after_its_fault_was_cleared_does_not_hold_the_table(device: str, tmp_path: Path) -> None:
    """Issue 48, case 2, with a late device (9.2): the door is opened as the Shuffle arrives and closed before the
    refusal (0.6 s late) is sent; the fault is the machine's and already over, so the round goes on by itself."""
    from controller.engine.config import load_config
    from controller.engine.devices import open_feed
    from controller.engine.players import SimulatedPlayers
    from controller.engine.table import Table
    from tests.drivers.fault_matrix import SEED, _config, _device
    from tests.helpers import MemoryLog, play_round

    s = Scenario(device, "door-open", "start-up", "late")
    with _device(s) as sim:
        sim.control("on shuffle 1 fault door-open 0.3")
        config = load_config(_config(s, sim.url, tmp_path))
        log = MemoryLog(config.table_id)
        feed = open_feed(config, log, seed=SEED)
        try:
            round = play_round(Table(config, feed, log, session="L", recovery_timeout=8.0), SimulatedPlayers(random.Random(SEED)))
        finally:
            feed.close()
    assert round.state == "complete", round.hold_reason
    fault = {"shoe": ShoeFaulted, "shuffler": ShufflerFaulted}[device].EVENT
    assert any(r["event"] == fault and r["code"] == "door-open" for r in log.records())
