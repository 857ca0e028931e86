"""What a table sees card by card is what the shoe's report says: a shuffle test that crosses its hold line is
raised at the table within 7 cards of the crossing (docs/shuffle.md, the likelihood test), or, crossed only by
what the end of the shoe looks at, at the end of the shoe, holding the next round.

The orders are four riffles of a single deck, written here (not the simulators' shuffles), fed to the watch a
table runs (``ShuffleWatch``) one card at a time. Before: test ``likelihood``'s evidence crossed the hold line
at card 21 and fell back by card 24, its next run, and the table held at card 44 (a later crossing); and a
deck whose whole-order look crossed the hold line at its end was reported 'hold at card 52' with no alarm
raised and nothing held.
"""

from __future__ import annotations

import random
import re

from controller.cards import standard_deck
from controller.engine.shuffle.policy import SHOE_TESTS
from controller.engine.shuffle.watch import ShuffleWatch
from controller.events import ShuffleAlarm, ShuffleTested
from tests.helpers import MemoryLog
from tests.shuffle.lab import riffle


def _deal(shoes: int, riffles: int, seed: int) -> tuple[MemoryLog, list[list[str]]]:
    """``shoes`` single decks, each ``riffles`` riffles of the one before, dealt whole card by card; the reasons
    each shoe's end gave to hold the next round."""
    log = MemoryLog("T1")
    watch = ShuffleWatch(standard_deck(), log, device="T1/shoe")
    rng = random.Random(seed)
    order = list(standard_deck())
    reasons = []
    for number in range(1, shoes + 1):
        for _ in range(riffles):
            order = riffle(order, rng)
        watch.shoe_started(f"r{number}", 52)
        for card in order:
            watch.card(card, f"r{number}")
        reasons.append(watch.shoe_ended(f"r{number + 1}", complete=True))
    return log, reasons


def _late(log: MemoryLog, tests: tuple[str, ...]) -> list[tuple[int, str, int, list[int]]]:
    """(shoe, test, card crossed, cards raised at the table) of each hold of ``tests`` a shoe's report names that
    the table raised more than 7 cards after its crossing, or never."""
    alarms = [a for a in log.named(ShuffleAlarm.EVENT) if a["level"] == "hold"]
    late = []
    for tested in log.named(ShuffleTested.EVENT):
        for result in tested["results"]:
            if result["test"] not in tests or result["level"] != "hold":
                continue
            raised = [a["card"] for a in alarms if a["shoe"] == tested["shoe"] and a["test"] == result["test"]]
            if not raised or raised[0] > result["card"] + 7:
                late.append((tested["shoe"], result["test"], result["card"], raised))
    return late


def test_the_likelihood_test_holds_within_7_cards_of_its_evidence_crossing_the_line() -> None:
    log, _ = _deal(100, 4, seed=3)
    assert not _late(log, ("likelihood",))
    held = sum(any(r["level"] == "hold" and r["test"] in SHOE_TESTS for r in t["results"])
               for t in log.named(ShuffleTested.EVENT))
    assert held >= 90, "four riffles of one deck: most decks held"


def test_a_line_crossed_only_at_the_end_of_a_deck_raises_its_alarm_and_holds_the_next_round() -> None:
    log, reasons = _deal(100, 4, seed=3)
    assert not _late(log, SHOE_TESTS), "every shoe test's hold in a shoe's report was raised at the table"
    at_end = [a for a in log.named(ShuffleAlarm.EVENT) if a["level"] == "hold" and a["test"] in SHOE_TESTS
              and a["round"] == f"r{a['shoe'] + 1}"]  # raised by the shoe's end, journaled with the round it holds
    assert at_end, "some deck crossed a hold line only by what the end of the deck looks at"
    for alarm in at_end:
        assert alarm["card"] == 52 and f"shoe {alarm['shoe']}, by card 52" in alarm["reason"]
        assert alarm["reason"] in reasons[alarm["shoe"] - 1], "the next round is held before betting"


def test_an_alarm_names_the_device_and_its_shoe_or_deck_once() -> None:
    log, _ = _deal(3, 1, seed=1)
    reason = log.named(ShuffleAlarm.EVENT)[0]["reason"]
    assert reason.startswith("shuffle test ") and " on T1/shoe, shoe 1, by card " in reason, reason
    shuffler = ShuffleWatch(standard_deck(), log, device="T1/shuffler")
    shuffler.shoe_started("r9", 52)
    for card in standard_deck():
        shuffler.card(card, "r9")
    decks = [a["reason"] for a in log.named(ShuffleAlarm.EVENT) if a["device"] == "T1/shuffler"]
    assert decks and all(re.search(r" on T1/shuffler, deck 1, by card \d+: ", r) for r in decks), decks
