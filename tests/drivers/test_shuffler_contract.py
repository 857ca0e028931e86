"""What any reference-protocol shuffler must do, through the driver: against the simulator in every reading of
``drivers/sim/readings.toml`` (one deck or two), or real hardware with ``pytest -m hardware --shuffler-port PORT``
(loaded with one standard deck, or two for alternation)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from controller.cards import standard_deck
from drivers.conformance.run import simulator
from drivers.reference.shuffler import ReferenceShuffler
from drivers.registry import open_shuffler
from drivers.shuffler import ShufflerEmpty
from drivers.sim.behaviour import reading, readings
from drivers.sim.process import SimulatorProcess

from .conftest import hardware_port

READINGS = sorted(readings("shuffler"))


@pytest.fixture(params=[*READINGS, pytest.param("hardware", marks=pytest.mark.hardware)])
def shuffler(request: pytest.FixtureRequest) -> Iterator[ReferenceShuffler]:
    if request.param == "hardware":
        driver = open_shuffler("reference", port=hardware_port(request, "--shuffler-port"))
        yield driver  # type: ignore[misc]
        driver.close()
        return
    if request.param == "reference":  # tablectl's own reading in a process of its own
        with SimulatorProcess("shuffler", "--seed", "3") as process:
            driver = open_shuffler("reference", port=process.port)
            driver.reading = request.param  # type: ignore[attr-defined]
            yield driver  # type: ignore[misc]
            driver.close()
        return
    with simulator("shuffler", request.param, seed=3) as sim:
        driver = open_shuffler("reference", port=sim.url)
        driver.reading = request.param  # type: ignore[attr-defined]
        yield driver  # type: ignore[misc]
        driver.close()


def test_the_shuffler_identifies_itself(shuffler: ReferenceShuffler) -> None:
    assert shuffler.identity.kind == "shuffler" and shuffler.identity.version == 1
    assert shuffler.identity.model and shuffler.identity.serial and shuffler.identity.firmware


def test_a_fresh_deck_counts_52_and_the_machine_says_how_many_decks_it_alternates(shuffler: ReferenceShuffler) -> None:
    # docs/protocol.md 6.3: Shuffle, Verify, Alternate (whose answer says one deck or two), ...
    assert shuffler.next_deck() == 52
    assert shuffler.two_decks is not None
    name = getattr(shuffler, "reading", None)
    if name is not None:
        assert shuffler.two_decks == (reading("shuffler", name).decks == 2)


def test_stacks_of_three_deal_the_whole_deck_once_then_report_empty(shuffler: ReferenceShuffler) -> None:
    # seed 003, Three Card Poker "Dealing procedures" 1: the shuffler dispenses stacks of three
    shuffler.next_deck()
    dealt = [card for _ in range(17) for card in shuffler.dispense(3)]
    dealt += shuffler.dispense(1)
    assert sorted(dealt) == sorted(standard_deck())  # type: ignore[type-var]
    with pytest.raises(ShufflerEmpty, match="no cards left"):
        shuffler.dispense(3)


def test_every_round_is_dealt_from_a_fresh_counted_deck(shuffler: ReferenceShuffler) -> None:
    # seed 003, Three Card Poker "Number of Decks" (c): both decks alternated, each used for every other round
    for _ in range(3):
        assert shuffler.next_deck() == 52
        stack = shuffler.dispense(3)
        assert len(set(stack)) == 3 and None not in stack


def test_a_stack_size_out_of_range_is_refused_before_it_reaches_the_machine(shuffler: ReferenceShuffler) -> None:
    with pytest.raises(ValueError, match="1 to 99 cards, not 0"):
        shuffler.dispense(0)
