"""The shuffle monitor (controller.engine.shuffle.monitor): what it holds, warns and journals, shoe by shoe and over shoes."""

import math
import re
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from controller.cards import Card, deck_by_name, shoe, standard_deck
from controller.engine.config import parse_config
from controller.engine.shuffle.inventory import reconcile
from controller.engine.shuffle.monitor import ShuffleMonitor, new_deck_order
from controller.engine.shuffle.policy import DEVICE_TESTS, Policy, PolicyError
from controller.errors import ConfigError
from drivers.shuffles import ShuffleModel


def _deal(monitor: ShuffleMonitor, cards: list[Card | None]) -> list[tuple[int, str, str]]:
    """Feed a shoe card by card; the (card, test, level) of every alarm raised."""
    monitor.start_shoe()
    raised = []
    for i, card in enumerate(cards, 1):
        raised += [(i, a.test, a.level) for a in monitor.card(card)]
    return raised


@pytest.mark.parametrize("deck", [shoe(8), shoe(1), shoe(6, jokers_per_deck=1), deck_by_name("no-face"),
                                  deck_by_name("pure-21.5")])
def test_a_factory_order_deck_is_held_by_the_seventh_card(deck: tuple[Card, ...]) -> None:
    monitor = ShuffleMonitor(deck)
    holds = [(card, test) for card, test, level in _deal(monitor, list(deck[:7])) if level == "hold"]
    assert holds and holds[0][0] <= 7


@pytest.mark.parametrize("order", ["new-deck", "reversed"])
def test_a_deck_in_us_new_deck_order_or_reversed_is_held_too(order: str) -> None:
    cards = list(new_deck_order() * 8)
    cards = cards[::-1] if order == "reversed" else cards
    monitor = ShuffleMonitor(shoe(8))
    assert any(level == "hold" and card <= 7 for card, _, level in _deal(monitor, cards[:7]))


@pytest.mark.parametrize("decks", [1, 8])
def test_the_previous_shoes_order_again_is_held_by_the_seventh_card(decks: int) -> None:
    deck = shoe(decks)
    monitor = ShuffleMonitor(deck)
    first = ShuffleModel.parse("random", deck, seed=3).order(1)
    seen = first[: len(deck) - 52 if decks > 1 else 52]
    assert not any(level == "hold" for _, _, level in _deal(monitor, seen))
    monitor.end_shoe()
    raised = _deal(monitor, seen[:7])
    assert {test for card, test, level in raised if level == "hold" and card <= 7} >= {"pairs", "repeat"}


def test_an_unreadable_card_does_not_stop_the_tests() -> None:
    deck = standard_deck()
    monitor = ShuffleMonitor(deck)
    cards: list[Card | None] = list(deck[:9])
    cards[2] = None
    assert any(level == "hold" and card <= 9 for card, _, level in _deal(monitor, cards))


def test_random_shoes_raise_no_hold_and_the_end_of_shoe_report_names_every_test() -> None:
    deck = standard_deck()
    monitor = ShuffleMonitor(deck)
    model = ShuffleModel.parse("random", deck, seed=11)
    for number in range(1, 201):
        monitor.start_shoe()
        monitor.dealt = [int(t) for t in monitor.encode(model.order(number))]
        report = monitor.end_shoe()
        assert not [r for r in report.results if r.level == "hold"], number
    names = [r.test for r in report.results]
    assert names == ["pairs", "rising", "guess", "moved", "likelihood", "repeat", "positions", "colour-runs", "suit-runs",
                     "serial", "drift", "chi-square"]
    assert report.result("chi-square").detail.startswith("lab check: positions over 200 shoes")
    fields = report.as_fields()
    assert fields["shoe"] == 200 and len(fields["order"]) == 52 and len(fields["results"]) == 12


def test_the_lab_chi_square_gives_no_p_value_until_every_cell_expects_five_cards() -> None:
    """A fair shuffler's first shoes: the chi-square law does not hold on a table of near-empty cells (52 cards in
    52 x 52 cells), and its p would read 0; the report says how many shoes it waits for."""
    deck = standard_deck()
    monitor = ShuffleMonitor(deck)
    model = ShuffleModel.parse("random", deck, seed=5)
    lab = []
    for number in range(1, 261):
        monitor.start_shoe()
        monitor.dealt = [int(t) for t in monitor.encode(model.order(number))]
        lab.append(monitor.end_shoe().result("chi-square"))
    first, last = lab[0], lab[-1]
    assert math.isnan(first.p_value) and first.expected == 0 and first.as_fields()["p"] is None
    assert "too few yet for a p-value" in first.detail and "after about 260 shoes" in first.detail
    assert math.isnan(lab[-2].p_value)
    assert last.expected == 51 * 51 and 0.001 < last.p_value < 1 and "degrees of freedom" in last.detail


@pytest.mark.parametrize("fault, test", [("shelf:10", "guess"), ("riffles:1", "rising"), ("riffles:3", "rising"),
                                         ("clump:20", "pairs"), ("repeat:2", "repeat")])
def test_each_weak_shuffle_of_a_single_deck_is_held_within_the_deck(fault: str, test: str) -> None:
    deck = standard_deck()
    monitor = ShuffleMonitor(deck)
    model = ShuffleModel.parse(fault, deck, seed=5)
    held = 0
    for number in range(1, 13):
        monitor.start_shoe()
        monitor.dealt = [int(t) for t in monitor.encode(model.order(number))]
        report = monitor.end_shoe()
        held += report.result(test).level == "hold"
    assert held >= (10 if fault == "repeat:2" else 12)


@pytest.mark.parametrize("fault", ["shelf:10", "riffles:3"])
def test_a_shelf_shuffler_or_three_riffles_of_an_8_deck_shoe_is_held_by_the_likelihood_test(fault: str) -> None:
    """With 8 copies of every card the guessers lose the copy a card came from; the forwards keep every copy."""
    deck = shoe(8)
    monitor = ShuffleMonitor(deck)
    model = ShuffleModel.parse(fault, deck, seed=5)
    for number in range(1, 7):
        monitor.start_shoe()
        monitor.dealt = [int(t) for t in monitor.encode(model.order(number)[:364])]
        result = monitor.end_shoe().result("likelihood")
        assert result.level == "hold" and result.card is not None and result.card <= 120, (number, result)


def test_a_test_set_to_warn_only_warns() -> None:
    policy = Policy.from_config({"hold": {"pairs": 0, "rising": 0, "guess": 0, "moved": 0, "likelihood": 0, "repeat": 0}})
    monitor = ShuffleMonitor(standard_deck(), policy)
    raised = _deal(monitor, list(standard_deck()[:10]))
    assert raised and {level for _, _, level in raised} == {"warn"}


def test_the_config_section_is_checked_key_by_key() -> None:
    assert Policy.from_config({}).rate("pairs", "hold") == pytest.approx(1e-4 / 6)
    assert Policy.from_config({}).rate("drift", "hold") == pytest.approx(5e-5)
    assert Policy.from_config({}).rate("serial", "hold") == 0 < Policy.from_config({}).rate("serial", "warn")
    assert Policy.from_config({"hold": {"serial": 1e-5}}).rate("serial", "hold") == pytest.approx(1e-5)
    assert Policy.from_config({"hold_rate": 6e-5}).rate("moved", "hold") == pytest.approx(1e-5)
    for bad, where in [({"hold_rte": 1e-4}, "shuffle.hold_rte"), ({"warn_rate": "1e-2"}, "shuffle.warn_rate"),
                       ({"hold": {"pears": 0}}, "shuffle.hold.pears"), ({"enabled": "yes"}, "shuffle.enabled"),
                       ({"hold_rate": 2}, "shuffle.hold_rate")]:
        with pytest.raises(PolicyError, match=where.replace(".", r"\.")):
            Policy.from_config(bad)


def test_a_slowly_failing_shuffler_is_caught_by_its_device_tests() -> None:
    """Five riffles of a single deck pass most shoes one by one; the drift CUSUM adds them up."""
    deck = standard_deck()
    monitor = ShuffleMonitor(deck)
    model = ShuffleModel.parse("riffles:5", deck, seed=8)
    alarm_at = None
    for number in range(1, 300):
        monitor.start_shoe()
        monitor.dealt = [int(t) for t in monitor.encode(model.order(number))]
        if any(a.test in DEVICE_TESTS for a in monitor.end_shoe().alarms):
            alarm_at = number
            break
    assert alarm_at is not None and alarm_at < 300


def test_the_inventory_names_every_missing_extra_foreign_and_camera_only_card() -> None:
    deck = standard_deck()
    seen: list[Card | None] = list(deck[2:]) + [Card.parse("JK"), deck[5], None]
    report = reconcile(deck, seen, complete=True, counted=52, camera=[deck[0]])
    assert report.held
    assert report.problems() == [f"extra {deck[5].code} (2 seen, the deck holds 1)", "foreign card JK (not of this deck)",
                                 f"{deck[0].code} seen by the camera but not read by the device"]
    assert reconcile(deck, list(deck[2:]), complete=True).missing == (deck[0].code, deck[1].code)
    assert not reconcile(deck, deck, complete=True, counted=52).held
    assert np.array_equal(ShuffleMonitor(deck).encode([Card.parse("JK"), None]), [-1, -1])


@pytest.mark.parametrize("section, key", [
    ({"shuffle": {"hold_rte": 1e-4}}, "shuffle.hold_rte"), ({"shuffle": {"warn_rate": "1e-2"}}, "shuffle.warn_rate"),
    ({"shuffle": {"hold": {"pears": 0}}}, "shuffle.hold"), ({"shuffle": {"enabled": "false"}}, "shuffle.enabled"),
    ({"shuffle": {"hold_rate": 2}}, "shuffle.hold_rate"),
    ({"shoe": {"driver": "simulated", "shuffle": "rifles:2"}}, "shoe.shuffle"),
    ({"shoe": {"driver": "reference", "shuffle": "riffles:2"}}, "shoe.shuffle"),
])
def test_a_wrong_shuffle_key_in_a_table_config_is_refused_naming_it(section: dict[str, Any], key: str) -> None:
    data = tomllib.loads(Path("config/top-card.toml").read_text())
    with pytest.raises(ConfigError, match=re.escape(key)):
        parse_config({**data, **section})
