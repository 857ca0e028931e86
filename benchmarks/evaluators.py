"""Time tablectl's five- and seven-card evaluators against treys, phevaluator and pokerkit.

All evaluators see the same random hands (one million by default, drawn with
a fixed seed): the seven-card hands are the rows, the five-card hands their
first five cards. The peers are called once per hand from Python, as their
APIs are meant to be used; tablectl is timed through its batch API (one call
over the whole array, input checks on) and, on a sample, its per-hand API.
pokerkit is far slower, so it is timed on the first ``--slow-hands`` hands of
the same set. Hands per second and the ratio of ours to each peer are printed.

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
from controller.evaluators.five_card import evaluate

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


def rate(run: Callable[[], object], hands: int, warm_up: Callable[[], object]) -> tuple[float, float]:
    """Seconds and hands per second of one timed run, after one untimed run on a few hands."""
    warm_up()
    start = time.perf_counter()
    run()
    seconds = time.perf_counter() - start
    return seconds, hands / seconds


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
    per_hand = [decode(row) for row in hands[:sample // 10]]
    seconds, single = rate(lambda: [evaluate(h) for h in per_hand], len(per_hand),
                           lambda: [evaluate(h) for h in per_hand[:WARM_UP]])
    print(f"  {'tablectl per-hand':<22}{len(per_hand):>10,} hands {seconds:8.3f} s {single:>14,.0f} hands/s")
    for peer, (run, count) in peer_runs(hands, slow).items():
        seconds, theirs = rate(lambda: run(count), count, lambda: run(WARM_UP))
        print(f"  {peer:<22}{count:>10,} hands {seconds:8.3f} s {theirs:>14,.0f} hands/s   "
              f"ours/theirs: batch {ours / theirs:,.1f}x, per-hand {single / theirs:,.2f}x")
    checked = hands[:sample]
    values = batch.high_values(checked)
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
    print(f"lookup tables built in {time.perf_counter() - start:.2f} s (once per process, before timing)")
    bench(5, np.ascontiguousarray(seven[:, :5]), args.slow_hands, args.sample)
    bench(7, seven, args.slow_hands, args.sample)


if __name__ == "__main__":
    main()
