"""Fortune Pai Gow Poker (seed 003): Double-Hand Poker with the Fortune Bonus and the Envy Bonus.

Seed 003, "Betting scheme": "Players must make a standard Pai Gow Poker wager
and will then have the option to make a Fortune Bonus wager ... a minimum of $1
to a maximum of $20, in increments of $1. If a player wagers at least $5 on the
Fortune Bonus, the player qualifies for the Envy Bonus." The player-dealer
"collects all losing Bonus wagers and pays all winning Bonus wagers", and pays
the Envy Bonuses. "There shall be no additional house (or collection) fee":
the collection fee is taken on the standard wager only.

The bank covers them in the seed's order ("Round of Play"): every standard wager
from the action button first ("Once the standard Pai Gow Poker wagers are
settled ... the Cardroom dealer will determine if the player's hand qualifies
for the Fortune Bonus"), then every Fortune Bonus in the same order, then the
Envy Bonuses ("The player/dealer pays any Envy Bonuses at the end of the
round"). So when the bank runs out, a standard wager is never left uncovered by
a bonus paid before it. What Envy a seat is paid is added to its Fortune Bonus
settlement (one record per wager, as the round engine requires); the record's
reason lists it, and what the bank could not cover.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any, ClassVar

from controller.errors import WagerRefused
from controller.money import Cents, Rounding, format_cents
from controller.odds import Outcome, Payout
from controller.rules.banking import BankResult, Claim
from controller.rules.base import OptionError, RuleLimit, Wagers
from controller.rules.pai_gow_poker.double_hand_poker import DoubleHandPoker, PaiGowRound
from controller.rules.pai_gow_poker.fortune import OVERLAPS, PAYTABLES, FortuneResult
from controller.settlement import Settlement


class FortunePaiGow(DoubleHandPoker):
    id = "fortune-pai-gow"
    title = "Fortune Pai Gow Poker"
    rules_version = 4  # 2: every standard wager before any bonus, the Envy last (before: seat by seat, Envy in the bonus)
    voids_between_players_from = 3  # 3: a void returns its stakes between the players, not as the house's
    # 4: no Envy for a hand on another seat of the same player (``extra_seats``): it is "their own" hand
    wagers = ("bet", "fortune", "bank")  # type: ignore[assignment]  # one more wager than the base game
    rule_limits: ClassVar[Mapping[str, RuleLimit]] = {
        "fortune": RuleLimit(least=100, most=2000, unit=100, rule='seed 003, Fortune Pai Gow Poker, Betting scheme: '
                             '"The Fortune Bonus wager will be a minimum of $1 to a maximum of $20, in increments of $1"'),
    }

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
        """The Envy amounts ``seat`` wins: one per other player's hand of four of a kind or better. "A player cannot
        win an Envy Bonus for their own or for the player/dealer's hand": a player's own hands are every seat he
        bets on (general rule 12, ``extra_seats``), from rules revision 4."""
        own = {seat}
        if self.rules_version >= 4:
            own.update(s for group in self.extra_seats if seat in group for s in group)
        won = []
        for other in state.seats:
            result = self.fortune(state, other)
            if other not in own and result.envy and result.row:
                won.append((other, result.row, result.envy))
        return won

    def reveal(self, state: PaiGowRound) -> dict[str, Any]:
        shown = super().reveal(state)
        for seat in state.seats:
            shown["hands"][str(seat)]["fortune"] = self.fortune(state, seat).row
        return shown

    def claims(self, state: PaiGowRound, wagers: Wagers) -> list[Claim]:
        """Every standard wager in settlement order, then every Fortune Bonus (without Envy) in that order; rounds of
        ``rules_version`` 1, seat by seat, each Fortune Bonus with its Envy (``_seat_by_seat``)."""
        if self.rules_version < 2:
            return self._seat_by_seat(state, wagers)
        claims = super().claims(state, wagers)
        for seat in state.settlement_order():
            stake = wagers.get((seat, "fortune"), 0)
            if stake:
                result = self.fortune(state, seat)
                claims.append(Claim(seat, "fortune", stake, result.payout, result.row or "no paying hand"))
        return claims

    def _seat_by_seat(self, state: PaiGowRound, wagers: Wagers) -> list[Claim]:
        """The order of ``rules_version`` 1: each seat's standard wager, then its Fortune Bonus with its Envy added."""
        bets = {c.spot: c for c in super().claims(state, wagers)}
        claims = []
        for seat in state.settlement_order():
            if seat in bets:
                claims.append(bets[seat])
            stake = wagers.get((seat, "fortune"), 0)
            if stake:
                result = self.fortune(state, seat)
                envy = self.envy(state, seat) if stake >= self.envy_threshold else []
                total = sum(amount for _, _, amount in envy)
                reason = result.row or "no paying hand"
                if not total:
                    claims.append(Claim(seat, "fortune", stake, result.payout, reason))
                    continue
                multiplier = result.payout.multiplier + Fraction(total, stake)
                outcome = Outcome.WIN if multiplier > 1 else Outcome.PUSH if multiplier == 1 else Outcome.PARTIAL
                listed = ", ".join(f"seat {s} {row} {format_cents(a)}" for s, row, a in envy)
                claims.append(Claim(seat, "fortune", stake, Payout(outcome, multiplier, f"{result.payout.text} + envy {format_cents(total)}"),
                                    f"{reason}; envy: {listed}"))
        return claims

    def against_bank(self, state: PaiGowRound, wagers: Wagers, rounding: Rounding) -> tuple[list[Settlement], BankResult]:
        """The claims against the bank, then the Envy Bonuses from what is left of it, in settlement order."""
        records, result = super().against_bank(state, wagers, rounding)
        if self.rules_version < 2:
            return records, result
        left = result.bank - result.action
        paid = 0
        for seat in state.settlement_order():
            if wagers.get((seat, "fortune"), 0) < self.envy_threshold:
                continue
            envy = self.envy(state, seat)
            owed = sum(amount for _, _, amount in envy)
            if not owed:
                continue
            covered = min(owed, left)
            left -= covered
            paid += covered
            k = next(i for i, r in enumerate(records) if r.spot == seat and r.wager == "fortune")
            records[k] = _with_envy(records[k], envy, covered)
        result = replace(result, action=result.action + paid, net=result.net - paid,
                         exhausted=left == 0 and result.bank > 0)
        return records, result


def _with_envy(record: Settlement, envy: list[tuple[int, str, Cents]], covered: Cents) -> Settlement:
    """A Fortune Bonus settlement with the Envy the bank paid on it added."""
    owed = sum(amount for _, _, amount in envy)
    returned = record.returned + covered
    outcome = Outcome.WIN if returned > record.stake else Outcome.PUSH if returned == record.stake else (
        Outcome.PARTIAL if returned else Outcome.LOSE)
    listed = ", ".join(f"seat {s} {row} {format_cents(a)}" for s, row, a in envy)
    reason = f"{record.reason}; envy: {listed}"
    if covered < owed:
        reason += f"; bank exhausted: {format_cents(covered)} of {format_cents(owed)} envy covered"
    return replace(record, outcome=outcome, payout=f"{record.payout} + envy {format_cents(owed)}", returned=returned,
                   exact_returned=record.exact_returned + covered, reason=reason)


GAME = FortunePaiGow
