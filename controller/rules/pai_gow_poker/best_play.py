"""The setting that maximises a player's expected result against the player-dealer, to compare with the House Way.

For one seven-card hand, every legal setting (of the 21 ways to put two
cards in front) is scored against the same ``samples`` player-dealer hands,
each dealt at random from the 46 cards left and set by the House Way (the
player-dealer's hand is "opened and set" by the house dealer, seed 003). A
win scores +1, a push 0, a loss (copies included) -1. Using the same
player-dealer hands for every setting makes the comparison between settings
far sharper than the standard error of each estimate.

>>> import random
>>> from controller.cards import parse_cards
>>> from controller.rules.pai_gow_poker.house_way import load_house_way
>>> ranked = rank_settings(parse_cards("AS AH KD KC 7S 4H 2D"), load_house_way(), samples=60, rng=random.Random(1))
>>> len(ranked) <= 21 and ranked[0].ev >= ranked[-1].ev
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from controller.cards import Card, deck_with_joker
from controller.rules.pai_gow_poker.hands import SetHand, back_value, front_value, legal_settings
from controller.rules.pai_gow_poker.house_way import HouseWay

__all__ = ["ScoredSetting", "rank_settings", "best_setting"]


@dataclass(frozen=True, slots=True)
class ScoredSetting:
    setting: SetHand
    ev: float
    """Mean result per unit wagered against the sampled player-dealer hands."""
    stderr: float


def _dealer_values(cards: Sequence[Card], way: HouseWay, samples: int, rng: random.Random,
                   wheel: str) -> list[tuple[int, int]]:
    rest = [c for c in deck_with_joker() if c not in cards]
    values = []
    for _ in range(samples):
        hand = way.set(rng.sample(rest, 7), wheel).hand
        values.append((front_value(hand.front), back_value(hand.back, wheel)))
    return values


def rank_settings(cards: Sequence[Card], way: HouseWay, *, samples: int = 500, rng: random.Random | None = None,
                  wheel: str = "lowest") -> list[ScoredSetting]:
    """Every legal setting of ``cards`` with its estimated EV, best first."""
    dealers = _dealer_values(cards, way, samples, rng or random.Random(), wheel)
    scored = []
    for setting in legal_settings(cards, wheel):
        front, back = front_value(setting.front), back_value(setting.back, wheel)
        results = [(front > df) + (back > db) - 1 for df, db in dealers]
        mean = sum(results) / samples
        variance = sum((r - mean) ** 2 for r in results) / max(samples - 1, 1)
        scored.append(ScoredSetting(setting, mean, math.sqrt(variance / samples)))
    return sorted(scored, key=lambda s: -s.ev)


def best_setting(cards: Sequence[Card], way: HouseWay, *, samples: int = 500, rng: random.Random | None = None,
                 wheel: str = "lowest") -> ScoredSetting:
    """The legal setting with the highest estimated EV."""
    return rank_settings(cards, way, samples=samples, rng=rng, wheel=wheel)[0]
