"""The house's posted poker fees (seed 003, "Poker Collection Rates" lines 2118-2232 and 2593-2724).

Every fee is a fixed amount by the posted schedule, never a fraction or
percentage of wagers or winnings (line 2232). For hold'em and Omaha:

- the collection fee (by the number of players dealt in) and the jackpot fee
  are taken from the pot after the flop: "No flop, no drop" (lines 2019, 2229);
- the designated table fee is taken after the river card is put out (line 2230).

Low-ball pays time instead: every 30 minutes each seated player pays the
table's rate, in advance (lines 15-17, 2699-2714; "Collections are taken in
advance", line 24).

The schedule "per-hand" is the general Per Hand Collection table (lines
2016-2050): a collection fee only. The No-Limit schedule (line 2210) is too
garbled to rebuild and these are limit games, so it is not offered.

>>> HOLDEM.collection_fee(6), HOLDEM.collection_fee(5), HOLDEM.collection_fee(4)
(300, 200, 100)
>>> [f.amount for f in HOLDEM.drop("3-6", players=9, flop=True, river=True)]
[300, 100, 100]
>>> HOLDEM.drop("3-6", players=9, flop=False, river=False)
()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from controller.money import Cents
from controller.rules.base import Fee

__all__ = ["FeeSchedule", "SCHEDULES", "HOLDEM", "OMAHA", "PER_HAND", "TIME_RATES", "TimeCollection"]

LIMITS = ("2-4", "3-6", "4-8", "6-12", "10-20")
"""The schedule options, "Blinds $2 / $4" to "$10 / $20" (lines 2119-2132): the same fees on every row."""


@dataclass(frozen=True, slots=True)
class FeeSchedule:
    """A posted schedule: collection fee by players dealt in, the jackpot fee and the designated table fee."""

    name: str
    collection: tuple[tuple[int, Cents], ...]
    """(at least this many players, fee), most players first."""
    jackpot: Cents = 0
    table_fee: Cents = 0
    limits: tuple[str, ...] = LIMITS

    def collection_fee(self, players: int) -> Cents:
        for least, fee in self.collection:
            if players >= least:
                return fee
        return 0

    def check_limit(self, limit: str) -> None:
        if limit not in self.limits:
            raise ValueError(f"the {self.name} fee schedule has no {limit!r} game: it posts {', '.join(self.limits)}")

    def drop(self, limit: str, *, players: int, flop: bool, river: bool) -> tuple[Fee, ...]:
        """The fees taken out of the pot of a hand that saw the flop and/or the river."""
        self.check_limit(limit)
        fees = []
        if flop:
            fees.append(Fee(0, self.collection_fee(players), f"collection fee, {players} players, after the flop"))
            if self.jackpot:
                fees.append(Fee(0, self.jackpot, "jackpot fee, after the flop"))
        if river and self.table_fee:
            fees.append(Fee(0, self.table_fee, "designated table fee, after the river"))
        return tuple(f for f in fees if f.amount)


HOLDEM = FeeSchedule("holdem", ((6, 300), (5, 200), (2, 100)), jackpot=100, table_fee=100)  # lines 2118-2164
OMAHA = FeeSchedule("omaha-hi-lo", ((8, 400), (6, 300), (2, 200)), jackpot=100, table_fee=100)  # lines 2133-2188
PER_HAND = FeeSchedule("per-hand", ((7, 400), (6, 300), (2, 200)))  # lines 2016-2050
SCHEDULES: dict[str, FeeSchedule] = {s.name: s for s in (HOLDEM, OMAHA, PER_HAND)}

TIME_RATES: dict[str, Cents] = {"2-6": 300, "5-20": 600}
"""Low-ball's time collection per player every 30 minutes, by table limit (lines 15-17, 2711-2714)."""


@dataclass(slots=True)
class TimeCollection:
    """Time collected from each seat in advance, every ``period`` minutes, at ``rate``.

    Pure: the caller says what time it is (minutes on the table's clock).

    >>> time = TimeCollection(rate=300)
    >>> [f.spot for f in time.due([1, 2], now=0)], time.due([1, 2], now=29), [f.spot for f in time.due([1, 3], now=30)]
    ([1, 2], (), [1, 3])
    """

    rate: Cents
    period: int = 30
    paid_until: dict[int, float] = field(default_factory=dict)

    def due(self, seats: Sequence[int], now: float) -> tuple[Fee, ...]:
        fees = []
        for seat in seats:
            if self.paid_until.get(seat, float("-inf")) <= now:
                self.paid_until[seat] = now + self.period
                fees.append(Fee(seat, self.rate, f"time collection, {self.period} minutes in advance"))
        return tuple(fees)
