"""A shuffler's stack is tested as it is dispensed, before its cards are placed: a shuffle alarm says so.

Before, a Three Card Poker round held with 4 cards of its deck placed read 'deck 2, by card 6': card 6 was never
placed, it was in the stack of cards 4 to 6 the shuffler had just dispensed. The shuffler is the reference
simulator on a pseudo-terminal, made to deal one deck's order twice (the lab's ``order`` control command).
"""

from __future__ import annotations

import dataclasses
import random

from controller.cards import standard_deck
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.table import Table
from controller.events import CardDealt, ShuffleAlarm
from drivers.conformance.run import simulator
from tests.helpers import MemoryLog, play_round


def test_a_stack_alarm_names_the_stack_it_was_tested_in() -> None:
    order = list(standard_deck())
    random.Random(8).shuffle(order)
    codes = " ".join(c.code for c in order)
    with simulator("shuffler", "reference", seed=3) as sim:
        sim.control(f"order {codes}")
        sim.control(f"on shuffle 2 order {codes}")  # the second deck in the first's order: not shuffled at all
        config = load_config("config/three-card-poker.toml")
        config = dataclasses.replace(config, shuffler={"driver": "reference", "port": sim.url},
                                     sections={k: v for k, v in config.sections.items() if k != "vision"})
        log = MemoryLog(config.table_id)
        table = Table(config, open_feed(config, log, seed=5), log, session="S")
        players = SimulatedPlayers(random.Random(5))
        try:
            rounds = [play_round(table, players) for _ in range(2)]
        finally:
            table.feed.close()
    held = rounds[1]
    assert rounds[0].state == "complete" and held.state == "hold" and held.hold_reason is not None
    placed = sum(1 for r in log.named(CardDealt.EVENT) if r["round"] == held.id)
    alarm = next(a for a in log.named(ShuffleAlarm.EVENT) if a["level"] == "hold")
    first = placed  # the round holds at the first card of the stack that raised the alarm
    assert alarm["round"] == held.id and first <= alarm["card"] <= first + 2
    assert alarm["card"] > placed, "the alarm's card was dispensed, not placed (the case this test is about)"
    words = f"deck 2, by card {alarm['card']}, in the stack of cards {first} to {first + 2} tested as the shuffler dispensed it"
    assert words in alarm["reason"], alarm["reason"]
    assert words in held.hold_reason
