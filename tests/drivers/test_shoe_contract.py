"""What any reference-protocol shoe must do, through the driver: run against the simulator in every reading of
``drivers/sim/readings.toml``, or against real hardware with ``pytest -m hardware --shoe-port PORT`` (a dealer draws
the cards the test asks for). The clause by clause check of the device itself is the conformance kit
(``tests/drivers/test_conformance.py``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from controller.cards import shoe as make_shoe
from drivers.conformance.run import simulator
from drivers.reference.shoe import ReferenceShoe
from drivers.registry import open_shoe
from drivers.shoe import CardBurned, CardDrawn, CutCardReached, DeviceWarning, ShoeEmpty, ShoeEvent
from drivers.sim.behaviour import reading, readings
from drivers.sim.process import SimulatorProcess
from drivers.sim.shoe import shoe_order

from .conftest import hardware_port

DRAW_TIMEOUT = {"simulator": 5.0, "hardware": 120.0}
READINGS = sorted(readings("shoe"))


@pytest.fixture(params=[*READINGS, pytest.param("hardware", marks=pytest.mark.hardware)])
def target(request: pytest.FixtureRequest) -> Iterator[tuple[str, ReferenceShoe]]:
    if request.param == "hardware":
        shoe = open_shoe("reference", port=hardware_port(request, "--shoe-port"))
        yield "hardware", shoe  # type: ignore[misc]
        shoe.close()
        return
    if request.param == "reference":  # tablectl's own reading in a process of its own, as `tablectl run` starts it
        with SimulatorProcess("shoe", "--decks", "1", "--seed", "7", "--cut", "10") as process:
            shoe = open_shoe("reference", port=process.port)
            yield request.param, shoe  # type: ignore[misc]
            shoe.close()
        return
    with simulator("shoe", request.param, seed=7) as sim:
        shoe = open_shoe("reference", port=sim.url)
        yield request.param, shoe  # type: ignore[misc]
        shoe.close()


def draw(shoe: ReferenceShoe, n: int, timeout: float) -> list[ShoeEvent]:
    """The next ``n`` events, warnings aside."""
    out: list[ShoeEvent] = []
    while len(out) < n:
        event = shoe.next_event(timeout)
        if not isinstance(event, DeviceWarning):
            out.append(event)
    return out


def timeout_for(where: str) -> float:
    return DRAW_TIMEOUT["hardware" if where == "hardware" else "simulator"]


def test_the_shoe_identifies_itself(target: tuple[str, ReferenceShoe]) -> None:
    _, shoe = target
    assert shoe.identity.kind == "shoe" and shoe.identity.version == 1
    assert shoe.identity.model and shoe.identity.serial and shoe.identity.firmware


def test_cards_after_a_shuffle_are_counted_from_one_and_belong_to_the_shoe(target: tuple[str, ReferenceShoe]) -> None:
    where, shoe = target
    shoe.shuffle()
    assert shoe.counted() and shoe.counted() % 52 in (0, 1, 2, 8)  # type: ignore[operator]  # 5.5: the shoe says its size
    events = [e for e in draw(shoe, 5, timeout_for(where)) if isinstance(e, CardDrawn | CardBurned)]
    assert [e.count for e in events] == list(range(1, len(events) + 1))
    composition = Counter(make_shoe(8))
    assert all(composition[e.card] for e in events)


def test_status_counts_what_was_drawn(target: tuple[str, ReferenceShoe]) -> None:
    where, shoe = target
    shoe.shuffle()
    events = draw(shoe, 3, timeout_for(where))
    shoe.close_gate()
    status = shoe.status()
    assert status.count >= max(e.count for e in events if isinstance(e, CardDrawn | CardBurned))
    assert status.last_event >= shoe.last_event_number


def test_simulated_one_deck_shoe_deals_its_seeded_order_once_then_empty(target: tuple[str, ReferenceShoe]) -> None:
    where, shoe = target
    if where == "hardware":
        pytest.skip("the order of a real shoe is unknown")
    behaviour = reading("shoe", where)
    shoe.shuffle()
    events = draw(shoe, 53 + behaviour.cut_card_reported, 5.0)
    cards = [e.card for e in events if isinstance(e, CardDrawn | CardBurned)]
    assert cards == shoe_order(make_shoe(1), 7, 1)
    assert [isinstance(e, CardBurned) for e in events[: behaviour.burns]] == [True] * behaviour.burns
    if behaviour.cut_card_reported:
        cut = next(i for i, e in enumerate(events) if isinstance(e, CutCardReached))
        assert events[cut] == CutCardReached(42) and events[cut - 1].count == 42  # type: ignore[union-attr]
    assert events[-1] == ShoeEmpty(52)


def test_the_simulated_shoe_holds_the_decks_and_jokers_it_is_told() -> None:
    with SimulatorProcess("shoe", "--decks", "2", "--jokers", "1", "--seed", "1", "--cut", "5") as sim:
        shoe = open_shoe("reference", port=sim.port, deal_on_demand=False)
        assert isinstance(shoe, ReferenceShoe)
        shoe.shuffle()
        assert shoe.counted() == 106
        shoe.deal(106)
        cards = []
        while not isinstance(event := shoe.next_event(5.0), ShoeEmpty):
            if isinstance(event, CardDrawn):
                cards.append(event.card)
        shoe.close()
    assert Counter(cards) == Counter(make_shoe(2, jokers_per_deck=1))
