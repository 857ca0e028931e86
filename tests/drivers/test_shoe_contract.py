"""What any reference-protocol shoe must do: run against the simulator, or real hardware with
``pytest -m hardware --shoe-port PORT`` (a dealer draws the cards the test asks for)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from controller.cards import shoe as make_shoe
from drivers.reference.shoe import ReferenceShoe
from drivers.registry import open_shoe
from drivers.shoe import CardBurned, CardDrawn, CutCardReached, ShoeEmpty, ShoeEvent
from drivers.sim.process import SimulatorProcess
from drivers.sim.shoe import shoe_order

from .conftest import hardware_port

DRAW_TIMEOUT = {"simulator": 5.0, "hardware": 120.0}


@pytest.fixture(params=["simulator", pytest.param("hardware", marks=pytest.mark.hardware)])
def target(request: pytest.FixtureRequest) -> Iterator[tuple[str, ReferenceShoe]]:
    if request.param == "hardware":
        shoe = open_shoe("reference", port=hardware_port(request, "--shoe-port"))
        yield "hardware", shoe  # type: ignore[misc]
        shoe.close()
        return
    with SimulatorProcess("shoe", "--decks", "1", "--seed", "7", "--cut", "10") as sim:
        shoe = open_shoe("reference", port=sim.port)
        yield "simulator", shoe  # type: ignore[misc]
        shoe.close()


def draw(shoe: ReferenceShoe, n: int, timeout: float) -> list[ShoeEvent]:
    return [shoe.next_event(timeout) for _ in range(n)]


def test_the_shoe_identifies_itself(target: tuple[str, ReferenceShoe]) -> None:
    _, shoe = target
    assert shoe.identity.kind == "shoe"
    assert shoe.identity.model and shoe.identity.serial and shoe.identity.firmware


def test_cards_after_a_shuffle_are_counted_from_one_and_belong_to_the_shoe(target: tuple[str, ReferenceShoe]) -> None:
    where, shoe = target
    shoe.shuffle()
    events = [e for e in draw(shoe, 5, DRAW_TIMEOUT[where]) if isinstance(e, CardDrawn | CardBurned)]
    assert [e.count for e in events] == list(range(1, len(events) + 1))
    composition = Counter(make_shoe(8))
    assert all(composition[e.card] for e in events)


def test_status_counts_what_was_drawn(target: tuple[str, ReferenceShoe]) -> None:
    where, shoe = target
    shoe.shuffle()
    draw(shoe, 3, DRAW_TIMEOUT[where])
    status = shoe.status()
    assert status.count == 3
    assert status.last_event == shoe.last_event_number


def test_simulated_one_deck_shoe_deals_its_seeded_order_then_cut_card_then_empty(
    target: tuple[str, ReferenceShoe],
) -> None:
    where, shoe = target
    if where != "simulator":
        pytest.skip("the order of a real shoe is unknown")
    shoe.shuffle()
    events = draw(shoe, 54, 5.0)
    cards = [e.card for e in events if isinstance(e, CardDrawn)]
    assert cards == shoe_order(make_shoe(1), 7, 1)
    assert events[42] == CutCardReached(42)  # cut card 10 cards from the end of 52
    assert events[-1] == ShoeEmpty(52)


def test_the_simulated_shoe_holds_the_decks_and_jokers_it_is_told() -> None:
    with SimulatorProcess("shoe", "--decks", "2", "--jokers", "1", "--seed", "1", "--cut", "5") as sim:
        shoe = open_shoe("reference", port=sim.port, deal_on_demand=False)
        assert isinstance(shoe, ReferenceShoe)
        shoe.shuffle()
        shoe.deal(106)
        cards = []
        while not isinstance(event := shoe.next_event(5.0), ShoeEmpty):
            if isinstance(event, CardDrawn):
                cards.append(event.card)
        shoe.close()
    assert Counter(cards) == Counter(make_shoe(2, jokers_per_deck=1))
