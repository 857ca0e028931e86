"""Pai Gow Tiles' wager edge: the copy count and the exchangeability identity, checked by enumeration."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from controller.rules.edges import compute
from controller.rules.pai_gow_tiles.edge import copy_pairs, wager_ev
from controller.rules.pai_gow_tiles.house_way import house_way
from controller.tiles import TILE_SET


@pytest.mark.parametrize("size", [9, 11])
def test_copies_and_the_wager_match_a_deal_by_deal_enumeration(size: int) -> None:
    # every ordered pair of disjoint hands of a smaller set of tiles, settled by the rules:
    # both hands higher wins, neither higher loses (copies to the player-dealer), one each pushes
    tiles = TILE_SET[3:3 + size]
    hands = list(combinations(range(size), 4))
    values = {h: house_way([tiles[i] for i in h]).values for h in hands}
    deals = high = low = net = 0
    for p in hands:
        for d in hands:
            if set(p) & set(d):
                continue
            (ph, pl), (dh, dl) = values[p], values[d]
            deals += 1
            high += ph == dh
            low += pl == dl
            net += 1 if ph > dh and pl > dl else -1 if ph <= dh and pl <= dl else 0
    assert copy_pairs(tiles) == (deals, high, low)
    assert wager_ev(tiles) == Fraction(net, deals)


def test_the_edge_json_gives_the_exact_wager_and_the_fee_at_both_ends_of_the_first_bracket() -> None:
    (table,) = compute("pai-gow-tiles")
    main = table["wagers"]["main"]
    assert main["method"] == "exact" and Fraction(main["exact"]) == wager_ev()
    assert Fraction(table["wagers"]["main with fee, $10 wager"]["exact"]) == wager_ev() - Fraction(1, 10)
    assert Fraction(table["wagers"]["main with fee, $100 wager"]["exact"]) == wager_ev() - Fraction(1, 100)
