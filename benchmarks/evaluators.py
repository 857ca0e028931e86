"""Time tablectl's five- and seven-card evaluators against treys, phevaluator and pokerkit.

All evaluators see the same random hands (one million by default, drawn with
a fixed seed): the seven-card hands are the rows, the five-card hands their
first five cards. The peers are called once per hand from Python, as their
APIs are meant to be used; tablectl is timed through its batch API (one call
over the whole array, input checks on) and through its per-hand API
(``controller.evaluators.per_hand``: one compiled call per hand, codes as
plain ints like phevaluator's; and ``per_hand.evaluate`` on ``Card`` objects,
input checked).
pokerkit is far slower, so it is timed on the first ``--slow-hands`` hands of
the same set. Each is timed three times and its fastest run kept (the machine
is shared); hands per second and the ratio of ours to each peer are printed.

Correctness: on a sample, our values must order hands exactly as treys and
phevaluator rank them (equal values exactly where their ranks are equal).

Needs the ``bench`` extra: ``pip install -e .[bench]``. Run::

    PYTHONPATH=. python benchmarks/evaluators.py [--hands 1000000] [--slow-hands 10000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
from phevaluator import evaluate_cards
from pokerkit import StandardHighHand
from treys import Card as TreysCard
from treys import Evaluator

from controller.evaluators import batch
from controller.evaluators.encoding import decode
from controller.evaluators import per_hand

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


Loop = Callable[[int], object]


def peer_runs(hands: Hands, slow: int) -> dict[str, tuple[Loop, int]]:
    """Each peer's loop over the first ``count`` pre-converted hands, and how many hands it is timed on."""
    treys_cards = [TreysCard.new(RANKS[c >> 2] + SUITS[c & 3]) for c in range(52)]
    evaluator = Evaluator()
    as_treys = [[treys_cards[c] for c in row] for row in hands.tolist()]
    as_ints = hands.tolist()
    as_text = ["".join(RANKS[c >> 2] + SUITS[c & 3] for c in row) for row in hands[:slow].tolist()]

    def treys(count: int) -> None:
        for row in as_treys[:count]:
            evaluator.evaluate(row[:2], row[2:])

    def phevaluator(count: int) -> None:
        for row in as_ints[:count]:
            evaluate_cards(*row)

    def pokerkit(count: int) -> None:
        for text in as_text[:count]:
            StandardHighHand.from_game(text[:4], text[4:])

    return {"treys": (treys, len(hands)), "phevaluator": (phevaluator, len(hands)), "pokerkit": (pokerkit, slow)}


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
    print(f"  {'tablectl batch':<22}{len(hands):>10,} hands {seconds:8.3f} s {ours:>14,.0f} hands/s")
    compiled = {5: per_hand.value5, 7: per_hand.value7}[size]
    as_ints = hands.tolist()
    seconds, single = rate(lambda: [compiled(*row) for row in as_ints], len(as_ints),
                           lambda: [compiled(*row) for row in as_ints[:WARM_UP]])
    print(f"  {'tablectl per-hand':<22}{len(as_ints):>10,} hands {seconds:8.3f} s {single:>14,.0f} hands/s")
    as_cards = [decode(row) for row in as_ints[:sample]]
    seconds, checked_rate = rate(lambda: [per_hand.evaluate(h) for h in as_cards], len(as_cards),
                                 lambda: [per_hand.evaluate(h) for h in as_cards[:WARM_UP]])
    print(f"  {'tablectl per-hand Card':<22}{len(as_cards):>10,} hands {seconds:8.3f} s {checked_rate:>14,.0f} hands/s"
          "  (Card objects, input checked)")
    rates: dict[str, float] = {}
    for peer, (run, count) in peer_runs(hands, slow).items():
        seconds, theirs = rate(lambda: run(count), count, lambda: run(WARM_UP))
        print(f"  {peer:<22}{count:>10,} hands {seconds:8.3f} s {theirs:>14,.0f} hands/s   "
              f"ours/theirs: batch {ours / theirs:,.1f}x, per-hand {single / theirs:,.2f}x")
        rates[peer] = theirs
    print(f"  PER-HAND RATIO vs phevaluator ({size} cards): {single / rates['phevaluator']:.2f}x "
          f"(target >= 1x)")
    checked = hands[:sample]
    values = batch.high_values(checked)
    if [compiled(*row) for row in as_ints[:sample]] != values.tolist():
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
