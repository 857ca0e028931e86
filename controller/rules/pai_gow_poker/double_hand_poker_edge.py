"""Double-Hand Poker's edge: a player setting House Way against a House Way player-dealer, simulated.

The wager wins even money when both hands beat the player-dealer's, pushes on
one each, and loses otherwise, copies going to the player-dealer; there is no
commission (the house takes its posted collection fee instead, which is not a
part of the wager and is not counted here). ``ROUNDS`` rounds of two hands
from a freshly shuffled 53-card deck, with a fixed seed, give the estimate and
its standard error.
"""

from __future__ import annotations

import math
import random
from functools import cache

from controller.cards import deck_with_joker
from controller.rules.edges import WagerEdge
from controller.rules.pai_gow_poker.hands import Outcome, compare
from controller.rules.pai_gow_poker.house_way import load_house_way

ROUNDS = 20_000
SEED = 20_030
SCORE = {Outcome.WIN: 1, Outcome.PUSH: 0, Outcome.LOSE: -1}


def paytables() -> list[str]:
    return ["even money"]


def simulate(rounds: int = ROUNDS, seed: int = SEED, wheel: str = "lowest") -> tuple[float, float]:
    """Mean result per unit and its standard error, House Way against House Way."""
    way = load_house_way()
    rng = random.Random(seed)
    deck = list(deck_with_joker())
    total = squares = 0
    for _ in range(rounds):
        cards = rng.sample(deck, 14)
        player, dealer = way.set(cards[:7], wheel).hand, way.set(cards[7:], wheel).hand
        score = SCORE[compare(player, dealer, wheel).outcome]
        total += score
        squares += score * score
    mean = total / rounds
    variance = (squares - rounds * mean * mean) / (rounds - 1)
    return mean, math.sqrt(variance / rounds)


@cache
def bet_edge() -> WagerEdge:
    mean, stderr = simulate()
    return WagerEdge(ev=mean, method="simulation", stderr=stderr,
                     assumptions=(f"{ROUNDS:,} simulated rounds (seed {SEED}), player and player-dealer both set "
                                  "House Way (config/house-way/double-hand-poker.toml), A-2-3-4-5 the low straight, "
                                  "copies to the player-dealer, no commission; collection fees not included"))


def edges(paytable: str) -> dict[str, WagerEdge]:
    return {"bet": bet_edge()}
