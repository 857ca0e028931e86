"""A progressive jackpot meter: what it holds, what feeds it, what it has paid.

The table owns the meter (through its game); the round only reads it and
records what it paid. Amounts are kept exactly (a contribution of 12.5 % of a
$1 wager is 12.5 cents) and shown in whole cents. The meter never resets
except by paying the whole jackpot, when it goes back to its reset amount.
Persisting it across restarts is the operations side's job: :meth:`snapshot`
and :meth:`restore` are the seam.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from controller.money import Cents


@dataclass
class ProgressiveMeter:
    """The jackpot: ``amount`` in exact cents, fed by ``rate`` of every Progressive wager."""

    reset: Cents
    rate: Fraction
    amount: Fraction = field(default=Fraction(0))
    contributed: Fraction = field(default=Fraction(0))
    paid: Fraction = field(default=Fraction(0))

    def __post_init__(self) -> None:
        if self.reset < 0 or not 0 <= self.rate < 1:
            raise ValueError(f"a meter needs a reset amount >= 0 and a rate in [0, 1), not {self.reset}, {self.rate}")
        if not self.amount:
            self.amount = Fraction(self.reset)

    @property
    def cents(self) -> Cents:
        """The amount shown on the meter, in whole cents (rounded down)."""
        return int(self.amount)

    def contribute(self, stake: Cents) -> None:
        share = self.rate * stake
        self.amount += share
        self.contributed += share

    def pay(self, share: Fraction, spot: int | None = None) -> Fraction:
        """Take ``share`` of the meter for a winner; the whole meter resets it."""
        won = share * self.amount
        self.paid += won
        self.amount = Fraction(self.reset) if share == 1 else self.amount - won
        return won

    def snapshot(self) -> dict[str, Any]:
        return {"amount": str(self.amount), "reset": self.reset, "rate": str(self.rate),
                "contributed": str(self.contributed), "paid": str(self.paid)}

    @classmethod
    def restore(cls, data: dict[str, Any]) -> ProgressiveMeter:
        return cls(int(data["reset"]), Fraction(data["rate"]), Fraction(data["amount"]),
                   Fraction(data["contributed"]), Fraction(data["paid"]))


@dataclass
class LinkedMeter:
    """The table's side of a jackpot linked across tables (``[floor] jackpot``): the meter lives on the floor.

    Contributions reach the floor's jackpot controller from the table's
    settled Progressive wagers; a hit paid from the meter is claimed through
    the round (``jackpot_claimed``) and paid with the amount the controller
    awarded (``jackpot_awarded``), which the round hands here before it
    settles. Nothing the table shows or journals depends on the floor's meter
    at that moment, so a round re-enacted from the journal settles the same.
    """

    jackpot: str
    awards: dict[int, Fraction] = field(default_factory=dict)
    """The amount awarded to each spot's claim in the round being settled."""

    @property
    def cents(self) -> None:
        """The meter is not the table's to show: the floor's pit view shows it."""
        return None

    def contribute(self, stake: Cents) -> None:
        """Contributions are counted on the floor, from the table's settled wagers."""

    def pay(self, share: Fraction, spot: int | None = None) -> Fraction:
        if spot is None or spot not in self.awards:
            raise LookupError(f"jackpot {self.jackpot}: no award for spot {spot}: the round settles only once the floor answers")
        return self.awards.pop(spot)

    def snapshot(self) -> dict[str, Any]:
        return {"linked": self.jackpot}
