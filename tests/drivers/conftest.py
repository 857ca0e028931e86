"""Fixtures for driver tests: simulators in their own processes, on real pseudo-terminals."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from drivers.sim.process import SimulatorProcess

FAST = {"heartbeat": 0.1}  # quicker to notice a loss; ACK timing stays at its default


@pytest.fixture
def shoe_sim() -> Iterator[SimulatorProcess]:
    """A one-deck shoe simulator with seed 7 and the cut card 10 cards from the end."""
    with SimulatorProcess("shoe", "--decks", "1", "--seed", "7", "--cut", "10") as sim:
        yield sim


@pytest.fixture
def shuffler_sim() -> Iterator[SimulatorProcess]:
    """A two-deck shuffler simulator, standard decks, seed 7."""
    with SimulatorProcess("shuffler", "--decks", "2", "--seed", "7") as sim:
        yield sim


def hardware_port(request: pytest.FixtureRequest, option: str) -> str:
    port = request.config.getoption(option)
    if not port:
        pytest.skip(f"no {option} given: hardware tests need a real device")
    return str(port)
