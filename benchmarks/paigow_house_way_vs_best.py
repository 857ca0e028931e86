"""How far the House Way is from the best setting, over random player hands (prints figures; no assertions).

For each of ``HANDS`` random seven-card hands, every legal setting is scored
against the same ``SAMPLES`` House Way player-dealer hands
(``controller.rules.pai_gow_poker.best_play``); the House Way setting's score is compared
with the best one's. The best score is a maximum over noisy estimates, so the
gap printed is an upper estimate of what best play gains.

    PYTHONPATH=. python benchmarks/paigow_house_way_vs_best.py [HANDS] [SAMPLES]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from controller.cards import deck_with_joker
from controller.rules.pai_gow_poker.best_play import rank_settings
from controller.rules.pai_gow_poker.house_way import load_house_way


def main(hands: int = 100, samples: int = 300, seed: int = 1) -> None:
    way = load_house_way()
    rng = random.Random(seed)
    deck = list(deck_with_joker())
    gaps, same, house_evs, best_evs = [], 0, [], []
    start = time.perf_counter()
    for _ in range(hands):
        cards = rng.sample(deck, 7)
        ranked = rank_settings(cards, way, samples=samples, rng=rng)
        house = next(s for s in ranked if s.setting.same_as(way.set(cards).hand))
        gaps.append(ranked[0].ev - house.ev)
        same += ranked[0].setting.same_as(house.setting)
        house_evs.append(house.ev)
        best_evs.append(ranked[0].ev)
    elapsed = time.perf_counter() - start
    print(f"{hands} hands x {samples} House Way player-dealer hands each ({elapsed:.1f} s)")
    print(f"House Way EV   {statistics.mean(house_evs):+.4f}")
    print(f"best play EV   {statistics.mean(best_evs):+.4f}  (max over noisy estimates: biased up)")
    print(f"mean gap       {statistics.mean(gaps):.4f}  (stdev {statistics.pstdev(gaps):.4f})")
    print(f"House Way is the best setting in {same} of {hands} hands")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
