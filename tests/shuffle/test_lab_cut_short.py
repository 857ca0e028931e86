"""The shoe after one held at its 4th card is still tested against an order it can be told from.

A table reshuffles after a shuffle hold: the shoe held (the discards loaded unshuffled: held by card 4) is cut
short with 4 cards known, and the next shoe, one riffle of it, was tested against those 4 cards, against which
nothing shows (an 8-deck table with a one-riffle shuffler, supervisor resuming each hold: its 9th shoe was dealt
whole, 365 cards, and never held). The order before the short shoe stays the reference: one riffle of a shoe
that repeated it is one riffle of it.
"""

from __future__ import annotations

import random

from controller.cards import Card, shoe
from controller.engine.shuffle.watch import ShuffleWatch
from controller.events import ShuffleAlarm
from tests.helpers import MemoryLog
from tests.shuffle.lab import riffle

DEALT = 364  # an 8-deck shoe dealt to a cut card one deck from the end


def _deal_until_held(watch: ShuffleWatch, log: MemoryLog, order: list[Card], number: int) -> int | None:
    """Deal the shoe card by card as a table does, until a shuffle test holds (the table then reshuffles)."""
    watch.shoe_started(f"r{number}", len(order))
    for i, card in enumerate(order[:DEALT], start=1):
        watch.card(card, f"r{number}")
        if watch.doubt() is not None:
            watch.shoe_ended(f"r{number}")
            return i
    watch.shoe_ended(f"r{number}")
    return None


def test_the_shoe_after_a_shoe_held_at_card_4_is_held_when_it_is_one_riffle_of_it() -> None:
    missed = []
    for trial in range(6):
        rng = random.Random(trial)
        log = MemoryLog("T1")
        watch = ShuffleWatch(shoe(8), log, device="T1/shoe")
        first = list(shoe(8))
        rng.shuffle(first)
        monitor = watch.monitor  # a sound shoe dealt whole: its order is the reference (tested at its end, no alarm)
        monitor.start_shoe()
        monitor.dealt = [int(t) for t in monitor.encode(first[:DEALT])]
        monitor.end_shoe()
        held_at = _deal_until_held(watch, log, first, 2)  # the discards loaded unshuffled
        assert held_at is not None and held_at <= 5
        riffled = riffle(first, rng)
        if _deal_until_held(watch, log, riffled, 3) is None:
            missed.append(trial)
        assert all(a["shoe"] in (2, 3) for a in log.named(ShuffleAlarm.EVENT))
    assert not missed, f"one riffle of the shoe held at card {held_at} passed a whole shoe in trials {missed}"
