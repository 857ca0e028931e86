"""Speed of ``tablectl odds`` (exact enumeration on the batch evaluators) next to pokerkit on the same spots.

pokerkit's ``calculate_equities`` samples boards at random (Monte Carlo); it is
given as many samples as our exact run deals boards, capped at ``--cap`` so a
preflop spot finishes, and the figures compare boards per second. pokerkit has
no joker, so the joker spot runs ours only. Needs the ``bench`` extra
(``pip install -e '.[bench]'``).

    python benchmarks/odds.py [--cap 5000]
"""

from __future__ import annotations

import argparse
import random
import time

from pokerkit import Card as PKCard, Deck, OmahaEightOrBetterLowHand, OmahaHoldemHand, StandardHighHand, calculate_equities

from controller.cards import parse_cards
from controller.rules.poker.equity import equities

SPOTS = [
    ("holdem", ["AS KS", "QH QD"], "", False),
    ("holdem", ["AS KS", "QH QD", "JC TC"], "2S 7D 9C", False),
    ("holdem", ["AH AD", "8S 9S", "KC QC", "5D 5H"], "6S 7S KD", False),
    ("omaha-hi-lo", ["AS 2S KD QD", "AH 3H 4C 5C"], "8S 7H TD", False),
    ("omaha-hi-lo", ["AS 2S KD QD", "AH 3H 4C 5C", "9C TC JH QH"], "8S 7H 2D", False),
    ("omaha-hi-lo", ["AS 2S KD QD", "AH 3H 4C 5C"], "", False),
    ("omaha-hi-lo", ["JK 2S KD QD", "AH 3H 4C 5C"], "8S 7H TD", True),
]


def pk_cards(text: str) -> list[PKCard]:
    return list(PKCard.parse("".join(code[0] + code[1].lower() for code in text.split())))


def pokerkit_equities(game: str, holes: list[str], board: str, samples: int) -> tuple[list[float], float]:
    hand_types = (StandardHighHand,) if game == "holdem" else (OmahaHoldemHand, OmahaEightOrBetterLowHand)
    started = time.perf_counter()
    result = calculate_equities(
        [[pk_cards(h)] for h in holes], pk_cards(board), 2 if game == "holdem" else 4, 5, Deck.STANDARD, hand_types,
        sample_count=samples,
    )
    return result, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cap", type=int, default=5000, help="most boards pokerkit samples per spot")
    args = parser.parse_args()
    random.seed(1)
    equities("omaha-hi-lo", [parse_cards("AS 2S KD QD"), parse_cards("AH 3H 4C 5C")], parse_cards("8S 7H TD 2C"))
    print(f"{'spot':<58} {'boards':>9} {'ours s':>8} {'ours b/s':>10} {'pk s':>8} {'pk b/s':>9} {'speed-up':>8}  equity ours / pokerkit")
    for game, holes, board, joker in SPOTS:
        started = time.perf_counter()
        ours = equities(game, [parse_cards(h) for h in holes], parse_cards(board), joker=joker)
        seconds = time.perf_counter() - started
        name = f"{game}{'+joker' if joker else ''} {' | '.join(holes)} [{board}]"
        rate = ours.boards / seconds
        mine = " ".join(f"{float(p.equity):.4f}" for p in ours.players)
        if joker:
            print(f"{name:<58} {ours.boards:>9,} {seconds:>8.2f} {rate:>10,.0f} {'-':>8} {'-':>9} {'-':>8}  {mine} / (no joker)")
            continue
        samples = min(ours.boards, args.cap)
        theirs, pk_seconds = pokerkit_equities(game, holes, board, samples)
        pk_rate = samples / pk_seconds
        print(f"{name:<58} {ours.boards:>9,} {seconds:>8.2f} {rate:>10,.0f} {pk_seconds:>8.2f} {pk_rate:>9,.0f} "
              f"{rate / pk_rate:>7.0f}x  {mine} / {' '.join(f'{e:.4f}' for e in theirs)}")


if __name__ == "__main__":
    main()
