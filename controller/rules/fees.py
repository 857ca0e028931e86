"""Collection fees as the card room posts them (seed 003, "California Collection Fees").

A schedule is a list of brackets: an amount up to ``upto`` cents (inclusive)
pays ``fee`` cents. The house collects fees before the deal, as flat amounts,
never as a percentage of a wager (California Penal Code, quoted in the seed).

>>> SCHEDULES["pai-gow-player"].fee(15000)
200
>>> SCHEDULES["three-card-poker-player-dealer"].fee(35000)
500
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from controller.money import Cents, format_cents


class FeeError(ValueError):
    """An amount no bracket of the posted schedule covers."""


@dataclass(frozen=True, slots=True)
class Bracket:
    upto: Cents | None
    """The largest amount (inclusive) this bracket covers; ``None`` for "and above"."""
    fee: Cents


@dataclass(frozen=True, slots=True)
class FeeSchedule:
    name: str
    basis: str
    """What the amount is: ``wager`` (each wager) or ``action`` (total action on the table)."""
    minimum: Cents
    brackets: tuple[Bracket, ...]

    def fee(self, amount: Cents) -> Cents:
        if amount < self.minimum:
            raise FeeError(f"{self.name}: {format_cents(amount)} is below the posted minimum of {format_cents(self.minimum)}")
        for bracket in self.brackets:
            if bracket.upto is None or amount <= bracket.upto:
                return bracket.fee
        top = self.brackets[-1].upto
        raise FeeError(f"{self.name}: {format_cents(amount)} is above the highest posted bracket "
                       f"({format_cents(top) if top is not None else 'none'})")


def schedule(name: str, basis: str, minimum: Cents, rows: Sequence[tuple[Cents | None, Cents]]) -> FeeSchedule:
    return FeeSchedule(name, basis, minimum, tuple(Bracket(upto, fee) for upto, fee in rows))


SCHEDULES: Mapping[str, FeeSchedule] = {
    s.name: s
    for s in (
        # Pai Gow Tiles, Pai Gow Poker, Fortune Pai Gow Poker: player fee per wager, $10-$100 $1 ... $401-$500 $5.
        schedule("pai-gow-player", "wager", 1000,
                 [(10000, 100), (20000, 200), (30000, 300), (40000, 400), (50000, 500)]),
        # The player-dealer's column of the same schedule reads "$1 $2" beside the first two brackets (the scan
        # loses the rest): read as $1 for a bank up to $100 and $2 above.
        schedule("pai-gow-player-dealer", "bank", 0, [(10000, 100), (None, 200)]),
        # No Bust 21st Century Blackjack and Pure 21.5 Blackjack: players pay nothing; the player-dealer
        # pays by the action on the table, $5-50 $0.50, $51-200 $2, $201-400 $3, $401-600 $4, $601-1,000 $5.
        schedule("blackjack-player", "wager", 500, [(None, 0)]),
        schedule("blackjack-player-dealer", "action", 0,
                 [(5000, 50), (20000, 200), (40000, 300), (60000, 400), (100000, 500)]),
        # Three Card Poker: player fee $0 per bet; player-dealer fee per hand by total table action,
        # $5-50 $0.50, $51-100 $1, $101-200 $2, $201-300 $3, $301+ $5.
        schedule("three-card-poker-player", "wager", 500, [(None, 0)]),
        schedule("three-card-poker-player-dealer", "action", 0,
                 [(5000, 50), (10000, 100), (20000, 200), (30000, 300), (None, 500)]),
    )
}
