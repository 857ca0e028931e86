"""What any reference-protocol shuffler must do: against the simulator, or real hardware with
``pytest -m hardware --shuffler-port PORT`` (loaded with one standard deck, or two for alternation)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from controller.cards import standard_deck
from drivers.reference.shuffler import ReferenceShuffler
from drivers.registry import open_shuffler
from drivers.shuffler import ShufflerEmpty
from drivers.sim.process import SimulatorProcess

from .conftest import hardware_port


@pytest.fixture(params=["simulator", pytest.param("hardware", marks=pytest.mark.hardware)])
def shuffler(request: pytest.FixtureRequest) -> Iterator[ReferenceShuffler]:
    if request.param == "hardware":
        driver = open_shuffler("reference", port=hardware_port(request, "--shuffler-port"))
        yield driver  # type: ignore[misc]
        driver.close()
        return
    with SimulatorProcess("shuffler", "--seed", "3") as sim:
        driver = open_shuffler("reference", port=sim.port)
        yield driver  # type: ignore[misc]
        driver.close()


def test_the_shuffler_identifies_itself(shuffler: ReferenceShuffler) -> None:
    assert shuffler.identity.kind == "shuffler"
    assert shuffler.identity.model and shuffler.identity.serial and shuffler.identity.firmware


def test_a_shuffled_deck_counts_52(shuffler: ReferenceShuffler) -> None:
    shuffler.shuffle()
    assert shuffler.verify_count() == 52


def test_stacks_of_three_deal_the_whole_deck_once_then_report_empty(shuffler: ReferenceShuffler) -> None:
    # seed 003, Three Card Poker "Dealing procedures" 1: the shuffler dispenses stacks of three
    shuffler.shuffle()
    dealt = [card for _ in range(17) for card in shuffler.dispense(3)]
    dealt += shuffler.dispense(1)
    assert sorted(dealt) == sorted(standard_deck())
    with pytest.raises(ShufflerEmpty, match="no cards left"):
        shuffler.dispense(3)


def test_a_stack_size_out_of_range_is_refused_before_it_reaches_the_machine(shuffler: ReferenceShuffler) -> None:
    with pytest.raises(ValueError, match="1 to 99 cards, not 0"):
        shuffler.dispense(0)
