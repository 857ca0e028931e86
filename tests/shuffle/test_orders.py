"""The simulated bad shufflers (drivers.shuffles): pure functions of a seed, each with the structure it is named for."""

import random
from collections import Counter

import pytest

from controller.cards import shoe, standard_deck
from drivers.shuffles import (
    KINDS,
    ShuffleModel,
    riffles,
    rising_sequences,
    shelf_shuffle,
)


def test_each_model_is_a_pure_function_of_its_seed() -> None:
    deck = standard_deck()
    for name in ("random", "shelf:10", "riffles:3", "clump:20", "removed", "added", "repeat:3"):
        a, b = ShuffleModel.parse(name, deck, seed=7), ShuffleModel.parse(name, deck, seed=7)
        assert [a.order(k) for k in (1, 2, 3)] == [b.order(k) for k in (3, 2, 1)][::-1], name
        assert a.order(2) != ShuffleModel.parse(name, deck, seed=8).order(2) or name == "factory", name


def test_factory_and_previous_deal_the_old_order_again() -> None:
    deck = standard_deck()
    assert ShuffleModel.parse("factory", deck, seed=1).order(5) == list(deck)
    previous = ShuffleModel.parse("previous", deck, seed=1)
    assert previous.order(1) == list(deck) and previous.order(9) == list(deck)


def test_k_riffles_leave_at_most_two_to_the_k_rising_sequences() -> None:
    """Bayer and Diaconis: after k GSR riffles an order has at most 2**k rising sequences."""
    rng = random.Random(3)
    deck = list(range(52))
    for k in range(1, 6):
        for _ in range(20):
            assert rising_sequences(riffles(deck, k, rng), deck) <= 2**k


def test_each_shelf_of_a_shelf_shuffler_reads_as_a_valley() -> None:
    """One pass with N shelves: at most N - 1 peaks (up then down) in the old order's numbering."""
    rng = random.Random(5)
    for _ in range(20):
        out = shelf_shuffle(list(range(52)), 10, rng)
        peaks = sum(out[i - 1] < out[i] > out[i + 1] for i in range(1, 51))
        assert sorted(out) == list(range(52)) and peaks <= 9


def test_a_clump_keeps_m_cards_of_the_previous_order_in_place() -> None:
    deck = standard_deck()
    order = ShuffleModel.parse("clump:20", deck, seed=2).order(1)
    kept = max(sum(1 for _ in run) for run in _runs(order, list(deck)))
    assert kept >= 20


def _runs(order: list[object], old: list[object]):  # type: ignore[no-untyped-def]
    run: list[int] = []
    for i, (a, b) in enumerate(zip(order, old)):
        if a == b:
            run.append(i)
        else:
            if run:
                yield run
            run = []
    if run:
        yield run


def test_removed_and_added_change_the_deck_by_one_card() -> None:
    deck = shoe(8)
    removed = ShuffleModel.parse("removed", deck, seed=4).order(1)
    added = ShuffleModel.parse("added", deck, seed=4).order(1)
    assert len(removed) == 415 and len(added) == 417
    assert sum((Counter(deck) - Counter(removed)).values()) == 1
    assert sum((Counter(added) - Counter(deck)).values()) == 1


def test_a_restart_repeats_the_orders_dealt_after_the_last_restart() -> None:
    model = ShuffleModel.parse("repeat:3", standard_deck(), seed=9)
    assert model.order(4) == model.order(1) and model.order(6) == model.order(3)
    assert model.order(2) != model.order(1)


@pytest.mark.parametrize("text", ["shelf", "riffles:0", "riffles:x", "factory:2", "magic"])
def test_a_wrong_name_is_refused_naming_the_choices(text: str) -> None:
    with pytest.raises(ValueError, match="shuffle"):
        ShuffleModel.parse(text, standard_deck())


def test_every_kind_has_a_generator() -> None:
    for kind, takes in KINDS.items():
        ShuffleModel.parse(f"{kind}:2" if takes else kind, standard_deck(), seed=1).order(2)
