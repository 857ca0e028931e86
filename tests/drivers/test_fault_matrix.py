"""Issue 48, "Done when": every device fault at every moment, on a shoe and a shuffler, ends in a resumed round or
a held round naming the device, with 0 cards lost, 0 recorded twice and no traceback (``tests.drivers.fault_matrix``).

CI plays every fault at every moment once, each scenario in one reading of the simulator, the readings taken in
turn so that every reading is played; ``pytest -m long tests/drivers/test_fault_matrix.py`` plays every scenario in
every reading (about ten times as long).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.drivers.fault_matrix import MOMENTS, Outcome, Scenario, play_all, scenarios, table_of

ALL = [s for device in MOMENTS for s in scenarios(device)]
EVERY_READING = [s for device in MOMENTS for s in scenarios(device, every_reading=True) if s not in ALL]


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> dict[Scenario, Outcome]:
    outcomes = play_all(ALL, tmp_path_factory.mktemp("matrix"))
    (Path(tmp_path_factory.getbasetemp()) / "fault-matrix.txt").write_text(table_of(outcomes) + "\n")
    return {o.scenario: o for o in outcomes}


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
def test_every_scenario_in_every_reading(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    if "long" not in (request.config.option.markexpr or ""):
        pytest.skip("the matrix in every reading runs with -m long")
    failed = [verdict(o) for o in play_all(EVERY_READING, tmp_path) if not o.ok]
    assert not failed, "\n".join(failed)
