"""Simulated players: random legal wagers, decisions by the game's strategy.

They give their wagers and decisions as the same commands the dealer's
console sends (``controller.engine.commands``), and the table loop carries
them out the same way, so a simulated session exercises every refusal path
the real table has.
"""

from __future__ import annotations

import random

from controller.engine.commands import Decide, PlaceWager, Sit
from controller.engine.round import Round
from controller.errors import WagerRefused
from controller.money import Cents
from controller.rules.base import Decision

CHIP = 25
"""The smallest chip, in cents: amounts are multiples of it, so odd cents arise from half returns and 3 to 2."""


class SimulatedPlayers:
    def __init__(
        self,
        rng: random.Random,
        *,
        sit_probability: float = 0.7,
        max_units: int = 20,
        take_position_probability: float = 0.5,
    ) -> None:
        self.rng = rng
        self.sit_probability = sit_probability
        self.max_units = max_units
        self.take_position_probability = take_position_probability

    def accepts_position(self, seat: int) -> bool:
        """Whether the player at ``seat`` takes the player-dealer position when it is offered."""
        return self.rng.random() < self.take_position_probability

    def amount(self, low: Cents, high: Cents) -> Cents:
        top = min(high, low * self.max_units)
        first = -(-low // CHIP) * CHIP
        if first > top:
            return low
        return self.rng.randrange(first, top + 1, CHIP)

    def spot_wagers(self, round: Round, spot: int) -> dict[str, Cents]:
        """A random non-empty set of wagers the game accepts together on ``spot``, or none after 20 tries."""
        game = round.game
        allowed = game.seat_wagers(spot)
        if not allowed:
            return {}
        for _ in range(20):
            names = [w for w in allowed if self.rng.random() < 0.5] or [self.rng.choice(allowed)]
            wagers = {}
            for name in names:
                low, high = round.limits.get(name) or (100, 10000)
                wagers[name] = self.amount(low, high)
            try:
                game.check_spot(spot, wagers)
            except WagerRefused:
                continue
            return wagers
        return {}

    def wagers(self, round: Round) -> list[PlaceWager | Sit]:
        """Wagers on the spots that have none yet (a round resumed in betting keeps what was placed), as commands."""
        taken = {spot for spot, _ in round.wagers}
        commands: list[PlaceWager | Sit] = []
        for spot in range(1, round.spots + 1):
            if spot in taken:
                continue
            if self.rng.random() >= self.sit_probability and game_needs_no_one(round, spot):
                continue
            if not round.game.wagers:
                commands.append(Sit(spot))
                continue
            commands += [PlaceWager(spot, name, amount) for name, amount in self.spot_wagers(round, spot).items()]
        return commands

    def decision(self, round: Round) -> Decide:
        """The pending decision as the game's strategy takes it, as the command the dealer's page would send."""
        pending = round.pending_decision()
        if pending is None:
            raise RuntimeError(f"round {round.id}: no decision is pending")
        decision: Decision = round.game.strategy(round.hand, pending, round.wagers)
        return Decide(decision.spot, decision.action, decision.hand, decision.amount, tuple(c.code for c in decision.cards),
                      decision.values)

    def place_wagers(self, round: Round) -> None:
        """``wagers`` placed on ``round`` directly (a round driven without a table loop, in tests)."""
        for command in self.wagers(round):
            if isinstance(command, Sit):
                round.sit(command.spot)
            else:
                round.place_wager(command.spot, command.wager, command.amount)

    def decide(self, round: Round) -> None:
        """The pending decision taken on ``round`` directly (a round driven without a table loop, in tests)."""
        pending = round.pending_decision()
        if pending is None:
            raise RuntimeError(f"round {round.id}: no decision is pending")
        round.decide(round.game.strategy(round.hand, pending, round.wagers))


def game_needs_no_one(round: Round, spot: int) -> bool:
    """True unless the game's rules need this spot in play (the player-dealer always posts a bank)."""
    return set(round.game.seat_wagers(spot)) != {"bank"}
