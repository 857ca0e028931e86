"""Settling one wager: a payout applied to a stake, in whole cents, as a record.

Amounts follow one convention everywhere: ``stake`` is what the player put
down, ``returned`` is everything that goes back to the player (the stake with
any winnings), and the house wins ``stake - returned`` (negative when it pays).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from controller.money import Cents, Rounding
from controller.odds import Outcome, Payout


@dataclass(frozen=True, slots=True)
class Settlement:
    """The record of one settled wager, as logged and replayed."""

    spot: int
    wager: str
    stake: Cents
    outcome: Outcome
    payout: str
    returned: Cents
    exact_returned: Fraction
    reason: str = ""
    banker: str = "house"
    """Who takes the other side: ``house``, or ``player-dealer`` in California games."""

    @property
    def house_win(self) -> Cents:
        return self.stake - self.returned

    @property
    def rounded(self) -> bool:
        return self.exact_returned != self.returned

    def as_event(self) -> dict[str, object]:
        return {
            "spot": self.spot,
            "wager": self.wager,
            "stake": self.stake,
            "outcome": self.outcome.value,
            "payout": self.payout,
            "returned": self.returned,
            "exact_returned": str(self.exact_returned),
            "house_win": self.house_win,
            "reason": self.reason,
            "banker": self.banker,
            "rounded": self.rounded,
        }


def settle(
    spot: int,
    wager: str,
    stake: Cents,
    payout: Payout,
    rounding: Rounding,
    reason: str = "",
    banker: str = "house",
) -> Settlement:
    if stake < 0:
        raise ValueError(f"stake must not be negative: {stake}")
    exact = payout.multiplier * stake
    return Settlement(
        spot=spot,
        wager=wager,
        stake=stake,
        outcome=payout.outcome,
        payout=payout.text,
        returned=rounding.to_cents(exact),
        exact_returned=exact,
        reason=reason,
        banker=banker,
    )
