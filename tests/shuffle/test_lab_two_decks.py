"""A two-deck shuffler (docs/protocol.md 6.1) whose second deck is barely shuffled is held like a one-deck one.

Each deck of a two-deck machine is shuffled from the order it was itself last dealt in, two decks ago: the shuffle
tests must take that order as the deck's previous order. Against the other deck's order a deck given one riffle
of its own last order looks random (before: 0 alarms in 40 rounds of Three Card Poker; a one-deck shuffler doing
the same is held at its first riffled deck). Three Card Poker deals 15 to 21 cards of a deck, so only those of
its last order are known (docs/shuffle.md, Limits: partial decks): a riffled deck B is warned on or held within a
few of its deals, not always at the first.
"""

from __future__ import annotations

import dataclasses
import random

from controller import events as ev
from controller.cards import Card, standard_deck
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.shuffle.monitor import ShuffleMonitor
from controller.engine.table import Table
from drivers.conformance.run import simulator
from tests.helpers import MemoryLog, play_round
from tests.shuffle.lab import riffle


def _orders(shuffles: int, seed: int) -> list[list[Card]]:
    """Deck A (shuffles 1, 3, ...) truly shuffled each time; deck B (2, 4, ...) truly shuffled once, then given one
    riffle of its own last order each time."""
    rng = random.Random(seed)
    orders: list[list[Card]] = []
    for k in range(shuffles):
        if k % 2 == 0 or k < 2:
            order = list(standard_deck())
            rng.shuffle(order)
        else:
            order = riffle(orders[k - 2], rng)
        orders.append(order)
    return orders


def test_the_monitor_tests_each_deck_of_two_against_its_own_last_order() -> None:
    monitor = ShuffleMonitor(standard_deck(), device="T/shuffler", decks=2)
    held = {0: 0, 1: 0}
    for k, order in enumerate(_orders(60, seed=11)):
        monitor.start_shoe()
        for card in order[:24]:  # a full Three Card Poker table deals about 24 cards of a deck
            monitor.card(card)
        report = monitor.end_shoe()
        held[k % 2] += any(r.level == "hold" for r in report.results)
    assert held[0] == 0, "the truly shuffled deck is never held"
    assert held[1] >= 27, f"deck B, riffled once, held in {held[1]} of its 29 riffled decks"


def test_a_two_deck_table_holds_the_round_dealt_from_a_deck_riffled_once() -> None:
    with simulator("shuffler", "two-decks", seed=3) as sim:
        # the host's order (6.3): shuffle k is dealt in round k, deck A in odd rounds and deck B in even ones
        for k, order in enumerate(_orders(12, seed=5), start=1):
            codes = " ".join(c.code for c in order)
            sim.control(f"order {codes}" if k == 1 else f"on shuffle {k} order {codes}")
        config = load_config("config/three-card-poker.toml")
        config = dataclasses.replace(config, shuffler={"driver": "reference", "port": sim.url, "decks": 2},
                                     sections={k: v for k, v in config.sections.items() if k != "vision"})
        log = MemoryLog(config.table_id)
        table = Table(config, open_feed(config, log, seed=5), log, session="S")
        players = SimulatedPlayers(random.Random(5))
        try:
            rounds = []
            for _ in range(8):
                rounds.append(play_round(table, players))
                if rounds[-1].state == "hold":
                    break
        finally:
            table.feed.close()
    held = rounds[-1]
    assert held.state == "hold", "a deck given one riffle of its own last order is held within 8 rounds"
    assert len(rounds) % 2 == 0, "the round held is dealt from deck B"
    assert held.hold_reason is not None and "shuffle test" in held.hold_reason
    assert not held.settlements
    dealt = [e["order"] for e in log.named(ev.ShuffleTested.EVENT)]
    assert dealt == [[c.code for c in order[: len(d)]] for order, d in zip(_orders(12, seed=5), dealt, strict=False)]
    alarms = log.named(ev.ShuffleAlarm.EVENT)
    assert all(a["shoe"] % 2 == 0 for a in alarms), "the truly shuffled deck A raised nothing"
    assert [a["round"] for a in alarms if a["level"] == "hold"] == [held.id] * sum(a["level"] == "hold" for a in alarms)
