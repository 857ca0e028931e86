"""Pai Gow Tiles' wager, House Way against a House Way player-dealer: exact, by counting copies.

Why copies are enough. Both hands set by the same House Way from a fair
deal, the player and the player-dealer are exchangeable: the chance that the
player beats both hands equals the chance that the player-dealer does. The
wager wins when both the player's hands are higher, loses when neither is
(copies go to the player-dealer) and pushes otherwise, so its expected value
is what the copies take::

    EV = -(P(high hands are a copy) + P(low hands are a copy)) / 2

And the ordered pairs of disjoint hands whose high hands are a copy are
counted exactly by inclusion and exclusion over the tiles two hands share:
``sum over tile sets S of (-1)^|S| * sum over values v of N_v(S)^2``, with
``N_v(S)`` the hands of high value ``v`` holding ``S`` (every hand's 16
subsets). ``tests/games/test_pai_gow_tiles_edge.py`` checks the count against
a hand-by-hand enumeration on a smaller set of tiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb

import numpy as np

from controller.rules.edges import WagerEdge, with_collection_fee
from controller.rules.fees import SCHEDULES
from controller.rules.pai_gow_tiles.house_way import house_way
from controller.rules.pai_gow_tiles.ranking import HandValue
from controller.tiles import TILE_SET, Tile


def paytables() -> list[str]:
    return ["even money"]


def _code(value: HandValue) -> int:
    kind, middle, top = value
    return (kind * 32 + middle) * 32 + top


def copy_pairs(tiles: Sequence[Tile]) -> tuple[int, int, int]:
    """Ordered pairs of disjoint four-tile hands from ``tiles``: all, those with a high copy, a low copy."""
    hands = list(combinations(range(len(tiles)), 4))
    values = [house_way([tiles[i] for i in hand]).values for hand in hands]
    masks = np.array([[sum(1 << hand[i] for i in sub) for sub in _subsets()] for hand in hands], np.int64)
    out = []
    for which in (0, 1):
        codes = np.array([_code(v[which]) for v in values], np.int64)
        keys, counts = np.unique((masks * 4096 + codes[:, None]).ravel(), return_counts=True)
        signs = 1 - 2 * (np.bitwise_count(keys >> 12).astype(np.int64) & 1)
        out.append(int((signs * counts.astype(object) ** 2).sum()))
    return len(hands) * comb(len(tiles) - 4, 4), out[0], out[1]


@cache
def _subsets() -> tuple[tuple[int, ...], ...]:
    return tuple(sub for size in range(5) for sub in combinations(range(4), size))


def wager_ev(tiles: Sequence[Tile] = TILE_SET) -> Fraction:
    """The wager's exact expected value per unit, House Way against House Way."""
    pairs, high, low = copy_pairs(tiles)
    return -Fraction(high + low, 2 * pairs)


@cache
def main_edge() -> WagerEdge:
    pairs, high, low = copy_pairs(TILE_SET)
    ev = -Fraction(high + low, 2 * pairs)
    return WagerEdge(ev=ev, method="exact", assumptions=(
        f"all {pairs:,} ordered deals of two four-tile hands from the 32 tiles; player and player-dealer both "
        "set House Way (config/house-way/pai-gow-tiles.toml, among the settings no other split beats in both "
        "hands); copies (identical hands) to the player-dealer; EV = -(P(high copy) + P(low copy)) / 2 by "
        f"exchangeability, copies counted exactly ({high:,} high, {low:,} low); no commission, collection "
        "fee not included"))


def edges(paytable: str) -> dict[str, WagerEdge]:
    main = main_edge()
    schedule = SCHEDULES["pai-gow-player"]
    return {"main": main, **{f"main with fee, ${wager // 100} wager": with_collection_fee(main, schedule, wager)
                             for wager in (schedule.minimum, 10000)}}
