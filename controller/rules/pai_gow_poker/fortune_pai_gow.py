"""Fortune Pai Gow Poker (seed 003): Double-Hand Poker with the Fortune Bonus and the Envy Bonus.

Seed 003, "Betting scheme": "Players must make a standard Pai Gow Poker wager
and will then have the option to make a Fortune Bonus wager ... a minimum of $1
to a maximum of $20, in increments of $1. If a player wagers at least $5 on the
Fortune Bonus, the player qualifies for the Envy Bonus." The player-dealer
"collects all losing Bonus wagers and pays all winning Bonus wagers", and pays
the Envy Bonuses. "There shall be no additional house (or collection) fee":
the collection fee is taken on the standard wager only.

Each seat settles in turn from the action button: the standard wager, then the
Fortune Bonus. The Envy amounts a seat has won are added to its Fortune Bonus
settlement (one record per wager, as the round engine requires), so the
player-dealer's bank covers them in that order; the record's reason lists
them.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from controller.errors import WagerRefused
from controller.money import Cents, format_cents
from controller.odds import Outcome, Payout
from controller.rules.banking import Claim
from controller.rules.base import OptionError, Wagers
from controller.rules.pai_gow_poker.double_hand_poker import DoubleHandPoker, PaiGowRound
from controller.rules.pai_gow_poker.fortune import OVERLAPS, PAYTABLES, FortuneResult


class FortunePaiGow(DoubleHandPoker):
    id = "fortune-pai-gow"
    title = "Fortune Pai Gow Poker"
    wagers = ("bet", "fortune", "bank")  # type: ignore[assignment]  # one more wager than the base game

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        name = self.options.get("paytable", "FPG-04")
        if name not in PAYTABLES:
            raise OptionError("paytable", f"unknown pay table {name!r}: expected one of {', '.join(PAYTABLES)}")
        self.paytable = PAYTABLES[name]
        self.overlap = self._choice("overlap", OVERLAPS, "higher-payout")
        self.envy_threshold = self._cents("envy_threshold", 500)

    def check_spot(self, spot: int, wagers: Mapping[str, Cents]) -> None:
        super().check_spot(spot, wagers)
        fortune = wagers.get("fortune", 0)
        if fortune and not wagers.get("bet"):
            raise WagerRefused(spot, "fortune", "the Fortune Bonus needs a standard pai gow wager on the same seat")
        if fortune % 100:
            raise WagerRefused(spot, "fortune", f"the Fortune Bonus is wagered in whole dollars, not {format_cents(fortune)}")

    def fortune(self, state: PaiGowRound, seat: int) -> FortuneResult:
        """The Fortune Bonus result of the seven cards a seat received."""
        return self.paytable.result(state.hands[seat], self.overlap)

    def envy(self, state: PaiGowRound, seat: int) -> list[tuple[int, str, Cents]]:
        """The Envy amounts ``seat`` wins: one per other player's hand of four of a kind or better."""
        won = []
        for other in state.seats:
            result = self.fortune(state, other)
            if other != seat and result.envy and result.row:
                won.append((other, result.row, result.envy))
        return won

    def reveal(self, state: PaiGowRound) -> dict[str, Any]:
        shown = super().reveal(state)
        for seat in state.seats:
            shown["hands"][str(seat)]["fortune"] = self.fortune(state, seat).row
        return shown

    def claims(self, state: PaiGowRound, wagers: Wagers) -> list[Claim]:
        bets = {c.spot: c for c in super().claims(state, wagers)}
        claims = []
        for seat in state.settlement_order():
            if seat in bets:
                claims.append(bets[seat])
            stake = wagers.get((seat, "fortune"), 0)
            if stake:
                claims.append(self._fortune_claim(state, seat, stake))
        return claims

    def _fortune_claim(self, state: PaiGowRound, seat: int, stake: Cents) -> Claim:
        result = self.fortune(state, seat)
        envy = self.envy(state, seat) if stake >= self.envy_threshold else []
        envy_total = sum(amount for _, _, amount in envy)
        reason = result.row or "no paying hand"
        if not envy_total:
            return Claim(seat, "fortune", stake, result.payout, reason)
        multiplier = result.payout.multiplier + Fraction(envy_total, stake)
        outcome = Outcome.WIN if multiplier > 1 else Outcome.PUSH if multiplier == 1 else Outcome.PARTIAL
        text = f"{result.payout.text} + envy {format_cents(envy_total)}"
        listed = ", ".join(f"seat {s} {row} {format_cents(a)}" for s, row, a in envy)
        return Claim(seat, "fortune", stake, Payout(outcome, multiplier, text), f"{reason}; envy: {listed}")


GAME = FortunePaiGow
