"""The shuffle monitor against every simulated bad shuffler, and against true random shuffles.

For an 8-deck shoe (dealt to a cut card one deck from the end: 364 cards) and
for a single deck dealt whole (52 cards), each fault runs ``--fault-shoes``
shoes on a fresh device and true random shuffles run ``--random-shoes``. Per
fault it prints the share of shoes held and warned by the shoe tests, the
cards dealt until the hold (median, p95), the first shoe a device test (CUSUM)
alarmed at, the deck inventory's verdict, and the classic offline lab check
beside them: chi-square of card positions over the same shoes (detected at
p < 0.01). The random rows are the false-alarm rates. ``--calibration-shoes``
more random shoes are scored by test ``likelihood`` alone (the costly one: its
forward algorithms take most of a random shoe's time), for its false-alarm rate.

    nice -n 10 python benchmarks/shuffle.py                # the full run (about 15 minutes on one core)
    python benchmarks/shuffle.py --random-shoes 2000 --fault-shoes 100   # a quick look
    nice -n 10 python benchmarks/shuffle.py --random-shoes 0 --faults --calibration-shoes 30000   # likelihood alone
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.cards import Card, shoe
from controller.engine.shuffle.inventory import reconcile
from controller.engine.shuffle.monitor import ShuffleMonitor, likelihood_log_e
from controller.engine.shuffle.policy import DEVICE_TESTS, SHOE_TESTS, Policy
from drivers.shuffles import ShuffleModel

FAULTS = ("factory", "previous", "shelf:10", "riffles:1", "riffles:2", "riffles:3", "riffles:4", "riffles:5",
          "riffles:6", "riffles:7", "clump:20", "removed", "added", "repeat:10")


@dataclass
class Tally:
    shoes: int = 0
    held: int = 0
    warned: int = 0
    hold_cards: list[int] = field(default_factory=list)
    by_test: dict[str, int] = field(default_factory=dict)
    warn_by_test: dict[str, int] = field(default_factory=dict)
    device_alarms: int = 0
    device_hold_alarms: int = 0
    first_device_alarm: int | None = None
    inventory_held: int = 0
    inventory_cards: list[int] = field(default_factory=list)
    lab_p: float = 1.0
    seconds: float = 0.0
    peaks: dict[str, list[float]] = field(default_factory=dict)


def run(deck: tuple[Card, ...], dealt: int, fault: str, shoes: int, seed: int, skip: int = 0) -> Tally:
    """``shoes`` shoes of ``fault`` on a fresh device; the first ``skip`` shoes (a fault not yet in force) are not counted."""
    monitor = ShuffleMonitor(deck, device=fault)
    tally = Tally()
    start = time.perf_counter()
    model = None if fault == "random" else ShuffleModel.parse(fault, deck, seed=seed)
    rng = np.random.default_rng(seed)
    for number in range(1, shoes + skip + 1):
        if model is None:
            types = rng.permutation(monitor.encode(deck))[:dealt]
            order = None
        else:
            order = model.order(number)
            types = monitor.encode(order[:dealt])
        monitor.start_shoe()
        monitor.dealt = [int(t) for t in types]
        report = monitor.end_shoe()
        if number <= skip:
            continue
        tally.shoes += 1
        holds = [r for r in report.results if r.level == "hold"]
        warns = [r for r in report.results if r.level == "warn" and r.test in SHOE_TESTS]
        if model is None:
            for r in report.results:
                if r.test in SHOE_TESTS:
                    tally.peaks.setdefault(r.test, []).append(r.score)
        if holds:
            tally.held += 1
            tally.hold_cards.append(min(r.card if r.card is not None else len(types) for r in holds))
        elif warns:
            tally.warned += 1
        for r in holds:
            tally.by_test[r.test] = tally.by_test.get(r.test, 0) + 1
        for r in warns:
            tally.warn_by_test[r.test] = tally.warn_by_test.get(r.test, 0) + 1
        device_alarms = [a for a in report.alarms if a.test in DEVICE_TESTS]  # the shoe tests' are counted above
        if device_alarms:
            tally.device_alarms += 1
            tally.device_hold_alarms += any(a.level == "hold" for a in device_alarms)
            if tally.first_device_alarm is None:
                tally.first_device_alarm = tally.shoes
        if order is not None:
            seen = order[:dealt]
            inventory = reconcile(deck, seen, complete=dealt >= len(order), counted=len(order))
            if inventory.held:
                tally.inventory_held += 1
                extra = [i + 1 for i, c in enumerate(seen) if seen[: i + 1].count(c) > deck.count(c)]
                tally.inventory_cards.append(0 if inventory.counted != len(deck) else (extra[0] if extra else dealt))
    tally.lab_p = monitor.chi_square()[2]
    tally.seconds = time.perf_counter() - start
    return tally


def calibrate_likelihood(deck: tuple[Card, ...], dealt: int, shoes: int, seed: int) -> tuple[np.ndarray, float]:
    """Test ``likelihood``'s peak ln e-value on ``shoes`` random shoes, each against the random shoe before it, and
    the seconds a shoe took."""
    monitor = ShuffleMonitor(deck)
    rng = np.random.default_rng(seed + 1)  # not the shoes of the random row
    full = monitor.encode(deck)
    previous = rng.permutation(full)[:dealt]
    peaks = np.zeros(shoes)
    start = time.perf_counter()
    for i in range(shoes):
        types = rng.permutation(full)[:dealt]
        peaks[i] = likelihood_log_e(types, monitor.counts, previous, len(deck)).max()
        previous = types
    return peaks, (time.perf_counter() - start) / max(shoes, 1)


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def cards(values: list[int]) -> str:
    if not values:
        return "-"
    return f"{int(np.median(values))} / {int(np.percentile(values, 95))}"


def upper95(events: int, trials: int) -> float:
    """One-sided 95 % upper bound of a rate from ``events`` in ``trials`` (exact for 0: the rule of three)."""
    if events == 0:
        return 3.0 / trials
    return (events + 1.645 * math.sqrt(events) + 1.5) / trials


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--random-shoes", type=int, default=100_000)
    parser.add_argument("--fault-shoes", type=int, default=1_000)
    parser.add_argument("--decks", type=int, nargs="+", default=[8, 1])
    parser.add_argument("--faults", nargs="*", default=list(FAULTS))
    parser.add_argument("--calibration-shoes", type=int, default=0)
    parser.add_argument("--seed", type=int, default=44)
    args = parser.parse_args(argv)
    print(f"shuffle monitor benchmark: {args.random_shoes} random shoes and {args.fault_shoes} shoes per fault, seed {args.seed}")
    for decks in args.decks:
        deck = shoe(decks)
        dealt = len(deck) - 52 if decks > 1 else len(deck)
        print(f"\n## {decks} deck{'s' * (decks > 1)}: {len(deck)} cards, {dealt} dealt per shoe\n")
        print("| shuffle | shoes | held | warned only (shoe tests) | cards to hold (median / p95) | held by | device test alarm "
              "| inventory held | lab chi-square p (detected) |")
        print("|---|---|---|---|---|---|---|---|---|")
        random_tally = None
        for fault in ["random", *args.faults]:
            shoes = args.random_shoes if fault == "random" else args.fault_shoes
            if not shoes:
                continue
            skip = int(fault.split(":")[1]) if fault.startswith("repeat:") else 0
            t = run(deck, dealt, fault, shoes, args.seed, skip)
            by = ", ".join(f"{k} {v}" for k, v in sorted(t.by_test.items(), key=lambda kv: -kv[1])) or "-"
            device = (f"shoe {t.first_device_alarm}, {percent(t.device_alarms, t.shoes)} of shoes"
                      if t.first_device_alarm else "none")
            inventory = f"{percent(t.inventory_held, t.shoes)} (card {cards(t.inventory_cards)})" if t.inventory_held else "-"
            lab = "too few shoes" if math.isnan(t.lab_p) else f"{t.lab_p:.2g} ({'yes' if t.lab_p < 0.01 else 'no'})"
            print(f"| {fault} | {t.shoes} | {percent(t.held, t.shoes)} | {percent(t.warned, t.shoes)} | "
                  f"{cards(t.hold_cards)} | {by} | {device} | {inventory} | {lab} |", flush=True)
            if fault == "random":
                random_tally = t
        if args.calibration_shoes:
            peaks, seconds = calibrate_likelihood(deck, dealt, args.calibration_shoes, args.seed)
            line = Policy().limit("likelihood", "hold")
            tails = ", ".join(f"{a:.0e}: {(peaks >= math.log(1 / a)).mean():.1e}" for a in (1e-2, 1e-3, 1e-4, 1e-5))
            print(f"\nTest likelihood alone on {len(peaks)} more random shoes ({1e3 * seconds:.1f} ms a shoe): "
                  f"holds {(peaks >= line).sum()} (line {line:.2f}); share whose e-value ever reached 1/alpha "
                  f"(Ville's bound: alpha): {tails}; highest ln e-value {peaks.max():.2f}")
        t = random_tally
        if t is None:
            continue
        print(f"\nFalse alarms on {t.shoes} random shoes ({t.seconds:.0f} s, {1e3 * t.seconds / t.shoes:.2f} ms a shoe):")
        print(f"- holds: {t.held} ({t.held / t.shoes:.2e} per shoe, 95 % upper bound {upper95(t.held, t.shoes):.1e}); "
              f"warnings: {t.warned + t.held} ({(t.warned + t.held) / t.shoes:.2e} per shoe)")
        print("- calibration: share of random shoes whose test ever reached e-value 1/alpha (Ville's bound: alpha)\n")
        print("| test | holds | warnings | alpha 1e-2 | 1e-3 | 1e-4 |")
        print("|---|---|---|---|---|---|")
        for test in SHOE_TESTS:
            peaks = np.array(t.peaks.get(test, [0.0]))
            tails = " | ".join(f"{(peaks >= math.log(1 / a)).mean():.1e}" for a in (1e-2, 1e-3, 1e-4))
            print(f"| {test} | {t.by_test.get(test, 0)} | {t.warn_by_test.get(test, 0)} | {tails} |")
        print(f"- device tests ({', '.join(DEVICE_TESTS)}): shoes with a new alarm {t.device_alarms} "
              f"({t.device_alarms / t.shoes:.2e} per shoe), of them holds {t.device_hold_alarms}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
