"""Shoe latency and CPU over a real pseudo-terminal: from the simulator writing a card to the round engine seeing it.

Runs the shoe simulator in its own process, opens the reference shoe driver on
its pty, and takes cards as the round engine does (``next_event``: the driver
opens the gate for one card when none is waiting). The simulator records the
CLOCK_MONOTONIC time at which it first wrote each event; the benchmark records
the time ``next_event`` returned it. Prints the median and p99 latency over
10,000 cards (target: p99 under 5 ms), the CPU time per card of the driver
process and of the simulator process, and how long the driver takes to report
a lost device (target: under one second), both for a closed port and for a
device that stops answering with its port open.

    PYTHONPATH=. python benchmarks/devices.py [--cards 10000]
"""

from __future__ import annotations

import argparse
import logging
import resource
import statistics
import tempfile
import time
from pathlib import Path

from drivers.reference.shoe import ReferenceShoe
from drivers.registry import open_shoe
from drivers.shoe import CardDrawn, DeviceFault, DeviceRecovered, ShoeEmpty
from drivers.sim.process import SimulatorProcess


def take_cards(shoe: ReferenceShoe, cards: int) -> list[int]:
    """Monotonic ns at which each card reached the caller."""
    seen: list[int] = []
    shoe.shuffle()
    while len(seen) < cards:
        event = shoe.next_event(5.0)
        now = time.monotonic_ns()
        if isinstance(event, CardDrawn):
            seen.append(now)
        elif isinstance(event, ShoeEmpty):
            shoe.shuffle()
    return seen


def written_times(path: Path) -> list[int]:
    lines = (line.split() for line in path.read_text(encoding="ascii").splitlines())
    return [int(ns) for _, kind, ns in lines if kind == "CARD_DRAWN"]


def detection_ms(sim: SimulatorProcess, shoe: ReferenceShoe, fault: str, heal: str) -> float:
    """Milliseconds from the simulator's ``fault`` command to the driver reporting the loss."""
    start = time.monotonic()
    sim.command(fault)
    event = shoe.next_event(5.0)
    seen = (time.monotonic() - start) * 1000
    if not isinstance(event, DeviceFault):
        raise RuntimeError(f"expected a fault after {fault!r}, got {event!r}")
    if heal:
        sim.command(heal)
    while not isinstance(shoe.next_event(5.0), DeviceRecovered):
        pass
    return seen


def measure_detection(trials: int) -> tuple[list[float], list[float]]:
    """Loss detection with default timings: the port closing (unplug) and a device gone silent."""
    with SimulatorProcess("shoe", "--decks", "1", "--seed", "1") as sim:
        shoe = open_shoe("reference", port=sim.port, deal_on_demand=False)
        assert isinstance(shoe, ReferenceShoe)
        unplug = [detection_ms(sim, shoe, "unplug 0.2", "") for _ in range(trials)]
        silent = [detection_ms(sim, shoe, "noise drop=1", "noise") for _ in range(trials)]
        shoe.close()
    return unplug, silent


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--trials", type=int, default=10, help="unplugs and silences to time")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # the loss trials would log each loss
    with tempfile.TemporaryDirectory() as tmp:
        timings = Path(tmp) / "timings"
        with SimulatorProcess("shoe", "--decks", "8", "--seed", "1") as sim:
            shoe = open_shoe("reference", port=sim.port)
            assert isinstance(shoe, ReferenceShoe)
            take_cards(shoe, 200)  # warm up
            cpu0, wall0 = time.process_time(), time.monotonic()
            seen = take_cards(shoe, args.cards)
            cpu_driver, wall = time.process_time() - cpu0, time.monotonic() - wall0
            sim.command(f"timings {timings}")
            shoe.close()
        written = written_times(timings)[-len(seen) :]
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    unplug, silent = measure_detection(args.trials)
    latencies_ms = [(s - w) / 1e6 for s, w in zip(seen, written, strict=True)]
    n = len(latencies_ms)
    print(f"shoe over a pseudo-terminal, {n} cards, {wall:.2f} s ({n / wall:.0f} cards/s)")
    print(f"latency simulator write -> next_event: median {statistics.median(latencies_ms):.3f} ms, "
          f"p99 {percentile(latencies_ms, 99):.3f} ms, max {max(latencies_ms):.3f} ms")
    print(f"CPU per card: driver process {cpu_driver / n * 1e6:.0f} us, "
          f"simulator process {(child.ru_utime + child.ru_stime) / (n + 200) * 1e6:.0f} us (whole run incl. start-up)")
    print(f"loss detected (target: under 1 s), {args.trials} trials each: "
          f"port closed median {statistics.median(unplug):.0f} ms max {max(unplug):.0f} ms; "
          f"device silent median {statistics.median(silent):.0f} ms max {max(silent):.0f} ms")


if __name__ == "__main__":
    main()
