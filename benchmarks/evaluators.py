"""Time tablectl's five- and seven-card evaluators against treys, phevaluator and pokerkit.

All evaluators see the same random hands (one million by default, drawn with
a fixed seed): the seven-card hands are the rows, the five-card hands their
first five cards. The peers are called once per hand from Python, as their
APIs are meant to be used; tablectl is timed through its batch API (one call
over the whole array, input checks on) and through its per-hand API
(``controller.rules.evaluators.per_hand``: one compiled call per hand, codes as
plain ints like phevaluator's; and ``per_hand.evaluate`` on ``Card`` objects,
input checked).
pokerkit is far slower, so it is timed on the first ``--slow-hands`` hands of
the same set. The per-call evaluators (ours, phevaluator, treys) take turns
every 20,000 hands, so each sees the same load on a shared machine; the
per-hand ratio is the median over those chunks. The batch call and pokerkit
are timed alone (fastest of three runs). Hands per second and the ratios of
ours to each peer are printed.

Correctness: on a sample, our values must order hands exactly as treys and
phevaluator rank them (equal values exactly where their ranks are equal).

Needs the ``bench`` extra: ``pip install -e .[bench]``. Run::

    PYTHONPATH=. python benchmarks/evaluators.py [--hands 1000000] [--slow-hands 10000]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
from phevaluator import evaluate_cards
from pokerkit import StandardHighHand
from treys import Card as TreysCard, Evaluator

from controller.rules.evaluators import batch, per_hand
from controller.rules.evaluators.encoding import decode

RANKS = "23456789TJQKA"
SUITS = "shdc"  # our suit order S, H, D, C; any fixed bijection keeps flushes
WARM_UP = 1_000
Hands = npt.NDArray[np.uint8]


def random_hands(count: int, size: int, seed: int) -> Hands:
    """``count`` uniformly random hands of ``size`` distinct cards, as batch codes."""
    rng = np.random.default_rng(seed)
    chunks = []
    for start in range(0, count, 100_000):
        rows = min(100_000, count - start)
        chunks.append(np.argsort(rng.random((rows, 52)), axis=1)[:, :size].astype(np.uint8))
    return np.vstack(chunks)


REPEAT = 3
CHUNK = 20_000


def rate(run: Callable[[], object], hands: int, warm_up: Callable[[], object]) -> tuple[float, float]:
    """Seconds and hands per second of the fastest of ``REPEAT`` timed runs, after one untimed run on a few hands.

    The fastest run is the one least disturbed by other work on the machine (as ``timeit`` reports).
    """
    warm_up()
    best = float("inf")
    for _ in range(REPEAT):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best, hands / best


Loop = Callable[[int, int], object]
"""Evaluates hands ``start:stop`` of the set, one call per hand."""


def per_hand_loops(hands: Hands) -> dict[str, Loop]:
    """tablectl's per-hand API and each per-call peer, over pre-converted hands (ints, as phevaluator takes)."""
    compiled = {5: per_hand.value5, 7: per_hand.value7}[hands.shape[1]]
    treys_cards = [TreysCard.new(RANKS[c >> 2] + SUITS[c & 3]) for c in range(52)]
    evaluator = Evaluator()
    as_ints = hands.tolist()
    as_treys = [[treys_cards[c] for c in row] for row in as_ints]

    def ours(start: int, stop: int) -> None:
        for row in as_ints[start:stop]:
            compiled(*row)

    def phevaluator(start: int, stop: int) -> None:
        for row in as_ints[start:stop]:
            evaluate_cards(*row)

    def treys(start: int, stop: int) -> None:
        for row in as_treys[start:stop]:
            evaluator.evaluate(row[:2], row[2:])

    return {"tablectl per-hand": ours, "phevaluator": phevaluator, "treys": treys}


def interleaved(loops: dict[str, Loop], count: int) -> tuple[dict[str, float], dict[str, float]]:
    """Time every loop chunk by chunk, taking turns (rotating who goes first), over the same hands.

    The machine is shared, so timings taken one after another compare the neighbours' load as much as
    the code; taking turns every ``CHUNK`` hands gives each the same load. Returns each loop's total
    seconds and, per peer, the median over chunks of (peer's seconds / ours) on the same chunk.
    """
    names = list(loops)
    for loop in loops.values():
        loop(0, WARM_UP)
    chunks: dict[str, list[float]] = {name: [] for name in names}
    for i, start in enumerate(range(0, count, CHUNK)):
        stop = min(start + CHUNK, count)
        for name in names[i % len(names):] + names[:i % len(names)]:
            began = time.perf_counter()
            loops[name](start, stop)
            chunks[name].append(time.perf_counter() - began)
    ours = chunks[names[0]]
    ratios = {name: statistics.median(t / o for t, o in zip(chunks[name], ours)) for name in names[1:]}
    return {name: sum(times) for name, times in chunks.items()}, ratios


def check_order(hands: Hands, ours: npt.NDArray[np.int32], theirs: Sequence[int], peer: str) -> None:
    """Our values must be a strictly decreasing function of the peer's rank (1 = best)."""
    ranks = np.asarray(theirs)
    order = np.argsort(ours, kind="stable")
    ours_sorted, ranks_sorted = ours[order], ranks[order]
    same = ours_sorted[1:] == ours_sorted[:-1]
    bad = (same & (ranks_sorted[1:] != ranks_sorted[:-1])) | (~same & (ranks_sorted[1:] >= ranks_sorted[:-1]))
    if bad.any():
        i = int(bad.argmax())
        raise SystemExit(f"ORDER DISAGREES with {peer}: {decode(hands[order[i]])} vs {decode(hands[order[i + 1]])}")
    print(f"  order agrees with {peer} on {len(ours):,} hands ({len(np.unique(ours)):,} distinct values)")


def bench(size: int, hands: Hands, slow: int, sample: int) -> None:
    print(f"\n{size}-card hands: {len(hands):,}")
    seconds, ours = rate(lambda: batch.high_values(hands), len(hands), lambda: batch.high_values(hands[:WARM_UP]))
    print(f"  {'tablectl batch':<24}{len(hands):>10,} hands {seconds:8.3f} s {ours:>14,.0f} hands/s")
    totals, ratios = interleaved(per_hand_loops(hands), len(hands))
    single = len(hands) / totals["tablectl per-hand"]
    for name, total in totals.items():
        versus = "" if name not in ratios else (f"   ours/theirs: batch {ours * total / len(hands):,.1f}x, "
                                                f"per-hand {ratios[name]:,.2f}x (median over chunks)")
        print(f"  {name:<24}{len(hands):>10,} hands {total:8.3f} s {len(hands) / total:>14,.0f} hands/s{versus}")
    as_cards = [decode(row) for row in hands[:sample].tolist()]
    seconds, checked_rate = rate(lambda: [per_hand.evaluate(h) for h in as_cards], len(as_cards),
                                 lambda: [per_hand.evaluate(h) for h in as_cards[:WARM_UP]])
    print(f"  {'tablectl per-hand Card':<24}{len(as_cards):>10,} hands {seconds:8.3f} s {checked_rate:>14,.0f} hands/s"
          "  (Card objects, input checked; timed alone)")
    as_text = ["".join(RANKS[c >> 2] + SUITS[c & 3] for c in row) for row in hands[:slow].tolist()]
    seconds, theirs = rate(lambda: [StandardHighHand.from_game(t[:4], t[4:]) for t in as_text], len(as_text),
                           lambda: StandardHighHand.from_game(as_text[0][:4], as_text[0][4:]))
    print(f"  {'pokerkit':<24}{len(as_text):>10,} hands {seconds:8.3f} s {theirs:>14,.0f} hands/s   "
          f"ours/theirs: batch {ours / theirs:,.1f}x, per-hand {single / theirs:,.1f}x (timed alone)")
    print(f"  PER-HAND RATIO vs phevaluator ({size} cards): {ratios['phevaluator']:.2f}x (target >= 1x)")
    checked = hands[:sample]
    values = batch.high_values(checked)
    compiled = {5: per_hand.value5, 7: per_hand.value7}[size]
    if [compiled(*row) for row in checked.tolist()] != values.tolist():
        raise SystemExit(f"PER-HAND DISAGREES with the batch API on {size}-card hands")
    treys_cards = [TreysCard.new(RANKS[c >> 2] + SUITS[c & 3]) for c in range(52)]
    evaluator = Evaluator()
    as_treys = [[treys_cards[c] for c in row] for row in checked.tolist()]
    check_order(checked, values, [evaluator.evaluate(row[:2], row[2:]) for row in as_treys], "treys")
    check_order(checked, values, [evaluate_cards(*row) for row in checked.tolist()], "phevaluator")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--slow-hands", type=int, default=10_000, help="hands for pokerkit (a prefix of the set)")
    parser.add_argument("--sample", type=int, default=100_000, help="hands checked for agreement with the peers")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    seven = random_hands(args.hands, 7, args.seed)
    start = time.perf_counter()
    for size in (5, 7):
        batch.high_values(seven[:1, :size])
    per_hand.value5(0, 1, 2, 3, 4)
    per_hand.value7(0, 1, 2, 3, 4, 5, 6)
    print(f"lookup tables built and the per-hand functions loaded in {time.perf_counter() - start:.2f} s "
          "(once per process, before timing; the tables are built when per_hand is imported)")
    bench(5, np.ascontiguousarray(seven[:, :5]), args.slow_hands, args.sample)
    bench(7, seven, args.slow_hands, args.sample)


if __name__ == "__main__":
    main()
