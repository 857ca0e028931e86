"""A shoe the watch opens at its first card (no shuffle reported before it) is reconciled on its own cards.

Found by a surveillance officer reading the shoe inventory's code: ``ShuffleWatch.card`` opened such a shoe but kept
the cards seen of the shoe before, so its inventory at the end counted every card of the last shoe again ('extra 2C
(2 seen, the deck holds 1)' for all 52) and held the next round.
"""

from __future__ import annotations

import random

from controller.cards import standard_deck
from controller.engine.shuffle.watch import ShuffleWatch
from controller.events import DeckReconciled
from tests.helpers import MemoryLog


def test_a_shoe_opened_by_its_first_card_counts_only_its_own_cards() -> None:
    log = MemoryLog("T1")
    watch = ShuffleWatch(standard_deck(), log, device="T1/shoe")
    rng = random.Random(1)
    reasons = []
    for number in (1, 2):
        order = list(standard_deck())
        rng.shuffle(order)
        if number == 1:
            watch.shoe_started("r1", 52)
        for card in order:
            watch.card(card, f"r{number}")
        reasons.append(watch.shoe_ended(f"r{number + 1}", complete=True))
    assert reasons == [[], []]
    assert [r["held"] for r in log.named(DeckReconciled.EVENT)] == [False, False]
