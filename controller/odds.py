"""Payouts as the seeds word them, read into exact fractions.

A payout says how much of a stake comes back to the player: a win at "8 to 5"
returns the stake and 8/5 of it, a push returns the stake, "half returned"
returns half, a loss returns nothing.

>>> parse_payout("11 to 1").multiplier
Fraction(12, 1)
>>> parse_payout("8 to 5").odds
Fraction(8, 5)
>>> parse_payout("half returned").multiplier
Fraction(1, 2)
>>> parse_payout("even money") == parse_payout("1 to 1")
True
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from fractions import Fraction


class OddsError(ValueError):
    """Wording that is not a payout this module knows."""


class Outcome(enum.Enum):
    WIN = "win"
    PUSH = "push"
    LOSE = "lose"
    PARTIAL = "partial"
    """Part of the stake comes back (Top Card's half returned on a tie)."""


@dataclass(frozen=True, slots=True)
class Payout:
    """What a settled wager returns: ``multiplier`` times the stake."""

    outcome: Outcome
    multiplier: Fraction
    text: str

    @property
    def odds(self) -> Fraction:
        """The winnings per unit staked (the "11" of "11 to 1"); negative for losses."""
        return self.multiplier - 1

    def __str__(self) -> str:
        return self.text


_TO = re.compile(r"^(\d+)\s*(?:to|:|-)\s*(\d+)$")
_FOR = re.compile(r"^(\d+)\s*for\s*(\d+)$")


def win(odds: Fraction | int, text: str | None = None) -> Payout:
    odds = Fraction(odds)
    if odds <= 0:
        raise OddsError(f"winning odds must be positive, not {odds}")
    return Payout(Outcome.WIN, odds + 1, text or f"{odds.numerator} to {odds.denominator}")


PUSH = Payout(Outcome.PUSH, Fraction(1), "push")
LOSE = Payout(Outcome.LOSE, Fraction(0), "lose")
HALF_RETURNED = Payout(Outcome.PARTIAL, Fraction(1, 2), "half returned")


def parse_payout(text: str) -> Payout:
    """Read "11 to 1", "8 to 5", "3 for 1", "even money", "push", "lose" or "half returned"."""
    words = " ".join(str(text).lower().replace("'s", "").split())
    if words in ("even money", "even"):
        return win(1, "1 to 1")
    if words in ("push", "tie"):
        return PUSH
    if words in ("lose", "loss", "lost"):
        return LOSE
    if words in ("half returned", "half", "half of the wager returned"):
        return HALF_RETURNED
    match = _TO.match(words)
    if match:
        num, den = int(match[1]), int(match[2])
        if den == 0:
            raise OddsError(f"odds {text!r} divide by zero")
        return win(Fraction(num, den), f"{num} to {den}")
    match = _FOR.match(words)
    if match:
        num, den = int(match[1]), int(match[2])
        if den == 0 or Fraction(num, den) <= 1:
            raise OddsError(f"'{text}' returns no winnings")
        return win(Fraction(num, den) - 1, f"{num} for {den}")
    raise OddsError(f"unknown payout wording {text!r}: expected e.g. '11 to 1', 'even money', 'half returned'")


def parse_odds(text: str) -> Fraction:
    """The winning odds of a "N to M" wording as a fraction."""
    payout = parse_payout(text)
    if payout.outcome is not Outcome.WIN:
        raise OddsError(f"{text!r} is not a winning payout")
    return payout.odds
