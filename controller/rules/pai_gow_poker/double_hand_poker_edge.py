"""Double-Hand Poker's base bet, House Way against a House Way player-dealer: copies counted over random deals.

The wager wins even money when both hands beat the player-dealer's, pushes on
one each, and loses otherwise, copies going to the player-dealer; no
commission (seed: the house takes its posted collection fee, before the deal).

Why copies are enough. Both hands are set by the same House Way from a fair
deal, so the player and the player-dealer are exchangeable: the chance that
the player beats both hands equals the chance that the player-dealer does.
Everything else the wager does is what copies take from the player, so::

    EV = -(P(front hands are a copy) + P(back hands are a copy)) / 2

exactly. Counting copies over ``DEALS`` random deals (each a pair of hands
from a freshly shuffled 53-card deck, a fixed seed) gives an estimate whose
standard error is about nine times smaller than scoring the same deals win,
push or lose, because most deals contribute nothing (``stats``). Exact
enumeration of the 8.2e15 pairs of hands is out of reach; this is the
method, and the standard error is stated with the figure.

The House Way is the compiled setter (``house_way_kernel``), the same chart
and the same settings as ``house_way.HouseWay.set`` (the tests compare them
hand by hand).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from controller.rules.edges import WagerEdge, with_collection_fee
from controller.rules.fees import SCHEDULES
from controller.rules.pai_gow_poker.house_way import HouseWay, load_house_way
from controller.rules.pai_gow_poker.house_way_kernel import chart_table, deal_ties, wheel_number

DEALS = 2_000_000
SEED = 20_030


def paytables() -> list[str]:
    return ["even money"]


@dataclass(frozen=True)
class CopyCount:
    """What ``deals`` random deals showed: copies front, back and both; player wins and losses."""

    deals: int
    front: int
    back: int
    both: int
    wins: int
    losses: int

    @property
    def ev(self) -> float:
        """The copy estimate of the expected value per unit."""
        return -(self.front + self.back) / (2 * self.deals)

    @property
    def stderr(self) -> float:
        """Its standard error: the per-deal score is -(front copy + back copy) / 2."""
        n = self.deals
        mean_square = (self.front + self.back + 2 * self.both) / (4 * n)
        return math.sqrt(max(mean_square - self.ev**2, 0.0) / (n - 1))

    @property
    def scored(self) -> tuple[float, float]:
        """The plain estimate, each deal scored win (+1), push (0) or lose (-1), with its standard error."""
        n = self.deals
        mean = (self.wins - self.losses) / n
        return mean, math.sqrt(((self.wins + self.losses) / n - mean**2) / (n - 1))


def count_copies(deals: int = DEALS, seed: int = SEED, wheel: str = "lowest", way: HouseWay | None = None) -> CopyCount:
    chart = chart_table(way if way is not None else load_house_way())
    front, back, both, wins, losses = deal_ties(deals, seed, chart, wheel_number(wheel))
    return CopyCount(deals, int(front), int(back), int(both), int(wins), int(losses))


@cache
def bet_edge(wheel: str = "lowest", way: HouseWay | None = None) -> WagerEdge:
    """The base bet, both hands set by ``way`` (default: the shipped double-hand-poker chart) with ``wheel``."""
    found = count_copies(wheel=wheel, way=way)
    plain, plain_se = found.scored
    chart = "config/house-way/double-hand-poker.toml" if way is None else f"the {way.name} chart, {way.source}"
    straight = "A-2-3-4-5 the low straight" if wheel == "lowest" else "A-2-3-4-5 the second-highest straight"
    return WagerEdge(ev=found.ev, method="simulation", stderr=found.stderr, assumptions=(
        f"{found.deals:,} random deals (seed {SEED}), player and player-dealer both set House Way "
        f"({chart}), {straight}, copies to the player-dealer, "
        "no commission; EV = -(P(front copy) + P(back copy)) / 2 by exchangeability, the copies counted "
        f"({found.front:,} front, {found.back:,} back); scoring the same deals win/push/lose gives "
        f"{plain:+.5f} +/- {plain_se:.5f}; collection fee not included"))


def edges(paytable: str) -> dict[str, WagerEdge]:
    bet = bet_edge()
    schedule = SCHEDULES["pai-gow-player"]
    return {"bet": bet, **{f"bet with fee, ${wager // 100} wager": with_collection_fee(bet, schedule, wager)
                           for wager in (schedule.minimum, 10000)}}

