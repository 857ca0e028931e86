"""Every shuffler error reaches the round engine as a typed ``ShufflerError`` with a message for the dealer.

Issue 3, "Done when": each shuffler error drives the round to ``hold`` with a
clear message for the dealer. The engine holds on any ``ShufflerError``; these
tests check each error arrives as its own type, carrying its code and message,
and that the machine stays faulted until cleared at the machine.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from controller.cards import Card, no_face_deck
from drivers.errors import DeviceError
from drivers.reference.shuffler import ReferenceShuffler
from drivers.registry import open_shuffler
from drivers.shuffler import (
    CountMismatch,
    DoorOpen,
    DuplicateCard,
    RecognitionFailure,
    ShufflerError,
    ShufflerJam,
    ShufflerNotReady,
    ShufflerOffline,
)
from drivers.sim.process import SimulatorProcess

from .conftest import FAST


@pytest.fixture
def shuffler(shuffler_sim: SimulatorProcess) -> Iterator[ReferenceShuffler]:
    driver = open_shuffler("reference", port=shuffler_sim.port, decks=2, **FAST)
    driver.shuffle()
    driver.alternate()
    driver.shuffle()
    yield driver  # type: ignore[misc]
    driver.close()


@pytest.mark.parametrize(
    ("inject", "error", "builtin", "message"),
    [
        ("fault jam", ShufflerJam, RuntimeError, "a card is jammed: open the lid, clear the card path"),
        ("fault door-open", DoorOpen, RuntimeError, "the door or lid is open: close it"),
        ("duplicate", DuplicateCard, ValueError, "a card was seen twice"),
        ("duplicate silent", DuplicateCard, ValueError, "more often than the deck holds"),
        ("unreadable", RecognitionFailure, ValueError, "a card could not be read"),
    ],
)
def test_each_dispense_error_is_typed_with_a_message_for_the_dealer(
    shuffler: ReferenceShuffler,
    shuffler_sim: SimulatorProcess,
    inject: str,
    error: type[ShufflerError],
    builtin: type[Exception],
    message: str,
) -> None:
    shuffler_sim.command(inject)
    with pytest.raises(error, match=message) as caught:
        shuffler.dispense(3)
    assert isinstance(caught.value, builtin)
    assert caught.value.code == error.code


@pytest.mark.parametrize("inject", ["fault jam", "fault door-open", "unreadable", "duplicate"])
def test_a_machine_fault_persists_until_cleared_at_the_machine(
    shuffler: ReferenceShuffler, shuffler_sim: SimulatorProcess, inject: str
) -> None:
    shuffler_sim.command(inject)
    with pytest.raises(ShufflerError):
        shuffler.dispense(3)
    with pytest.raises(ShufflerError):
        shuffler.shuffle()
    assert not shuffler.wait_ready(0.2)
    shuffler_sim.command("clear")
    assert shuffler.wait_ready(2.0)
    assert len(shuffler.dispense(3)) == 3


def test_a_miscount_is_a_count_mismatch_naming_both_counts(
    shuffler: ReferenceShuffler, shuffler_sim: SimulatorProcess
) -> None:
    shuffler_sim.command("miscount 51")
    with pytest.raises(CountMismatch, match="counted 51 cards but a standard deck holds 52") as caught:
        shuffler.verify_count()
    assert isinstance(caught.value, ValueError)


def test_the_count_is_checked_against_the_games_deck() -> None:
    # seed 004, Two Cards High rule 1: one deck with all face cards removed (40 cards)
    with SimulatorProcess("shuffler", "--deck", "no-face", "--seed", "1") as sim:
        driver = open_shuffler("reference", port=sim.port, deck="no-face")
        driver.shuffle()
        assert driver.verify_count() == 40 == len(no_face_deck())
        driver.close()


def test_two_decks_alternate_each_dealt_whole_while_the_other_is_shuffled(shuffler: ReferenceShuffler) -> None:
    # seed 003, Three Card Poker "Type of card deck used" 3b-c: one deck shuffled while the other is dealt
    first = [c for _ in range(13) for c in shuffler.dispense(4)]
    shuffler.alternate()
    shuffler.shuffle()
    second = [c for _ in range(13) for c in shuffler.dispense(4)]
    assert len(set(first)) == len(set(second)) == 52
    assert first != second


def test_dispensing_from_an_unshuffled_deck_is_not_ready(shuffler_sim: SimulatorProcess) -> None:
    driver = open_shuffler("reference", port=shuffler_sim.port, decks=2)
    with pytest.raises(ShufflerNotReady, match="shuffle or load cards first"):
        driver.dispense(3)
    driver.close()


def test_a_one_deck_machine_cannot_alternate() -> None:
    with SimulatorProcess("shuffler", "--seed", "1") as sim:
        driver = open_shuffler("reference", port=sim.port)
        with pytest.raises(ShufflerError, match="does not support"):
            driver.alternate()
        driver.close()


def test_an_unplugged_shuffler_is_offline_then_resumes_its_deck(
    shuffler: ReferenceShuffler, shuffler_sim: SimulatorProcess
) -> None:
    before = shuffler.dispense(3)
    shuffler_sim.command("unplug 1.0")
    with pytest.raises(ShufflerOffline, match="check its cable and power") as caught:
        for _ in range(500):  # the driver notices the closed port within a few reads
            shuffler.status()
            time.sleep(0.01)
    assert isinstance(caught.value, ConnectionError) and isinstance(caught.value, DeviceError)
    assert shuffler.wait_ready(3.0)
    after = shuffler.dispense(3)
    assert not set(before) & set(after)
    assert all(isinstance(c, Card) for c in after)


def test_a_refusal_that_arrives_after_its_fault_was_cleared_is_the_machines_fault_already_over() -> None:
    """6.4 with 9.2: a late device answers a Dispense JAM after it has already reported the jam cleared; the refusal
    is still the machine's own fault (no supervisor needed), and the stack is asked for again."""
    from drivers.conformance.run import simulator

    with simulator("shuffler", "late") as sim:
        driver = open_shuffler("reference", port=sim.url, decks=2, **FAST)
        try:
            driver.next_deck()
            sim.control("on dispense 1 fault jam 0.3")  # cleared before the refusal (0.6 s late) is sent
            with pytest.raises(ShufflerJam) as refused:
                driver.dispense(3)
            assert refused.value.reported
            assert driver.wait_cleared(5.0)
            assert len(driver.dispense(3)) == 3
        finally:
            driver.close()
    assert not ShufflerJam("a refusal nobody reported").reported
