"""Simulated players: random legal wagers, decisions by the game's strategy.

They enter their wagers and decisions through the same calls a dealer's
console uses, so a simulated session exercises every refusal path the real
table has.
"""

from __future__ import annotations

import random
from typing import Any

from controller.errors import WagerRefused
from controller.money import Cents
from controller.round import Round

CHIP = 25
"""The smallest chip, in cents: amounts are multiples of it, so odd cents arise from half returns and 3 to 2."""


class SimulatedPlayers:
    def __init__(self, rng: random.Random, *, sit_probability: float = 0.7, max_units: int = 20) -> None:
        self.rng = rng
        self.sit_probability = sit_probability
        self.max_units = max_units

    def amount(self, low: Cents, high: Cents) -> Cents:
        top = min(high, low * self.max_units)
        first = -(-low // CHIP) * CHIP
        if first > top:
            return low
        return self.rng.randrange(first, top + 1, CHIP)

    def spot_wagers(self, round: Round) -> dict[str, Cents]:
        """A random non-empty set of wagers the game accepts together, or none after 20 tries."""
        game = round.game
        for _ in range(20):
            names = [w for w in game.wagers if self.rng.random() < 0.5] or [self.rng.choice(game.wagers)]
            wagers = {}
            for name in names:
                low, high = round.limits.get(name) or (100, 10000)
                wagers[name] = self.amount(low, high)
            try:
                game.check_spot(0, wagers)
            except WagerRefused:
                continue
            return wagers
        return {}

    def place_wagers(self, round: Round) -> None:
        for spot in range(1, round.spots + 1):
            if self.rng.random() >= self.sit_probability:
                continue
            if not round.game.wagers:
                round.sit(spot)
                continue
            for name, amount in self.spot_wagers(round).items():
                round.place_wager(spot, name, amount)

    def decide(self, round: Round) -> None:
        pending = round.pending_decision()
        if pending is None:
            raise RuntimeError(f"round {round.id}: no decision is pending")
        decision: Any = round.game.strategy(round.hand, pending, round.wagers)
        round.decide(decision)
