"""Pai Gow Tiles hand ranking: pairs, Wong, Gong, then baccarat points (rules-notes.md: standard ranking).

A two-tile hand ranks, from highest:

1. a pair: the Gee Joon pair (``1-2`` with ``2-4``) highest, then Teen, Day,
   Yun, ... down to the mixed pair of fives; military tiles pair by name;
2. Wong: Teen or Day with a nine; 3. Gong: Teen or Day with an eight;
4. points: the pips added, tens dropped, Gee Joon counting 3 or 6 at will.

Equal points are decided by the higher-ranking single tile of each hand (only
the highest is considered); equal again is a copy, which the player-dealer
wins (seed 003, Pai Gow Tiles "Game Rules").

>>> from controller.tiles import parse_tiles
>>> describe(hand_value(parse_tiles("6-6 4-5")))
'teen wong'
>>> hand_value(parse_tiles("1-2 2-4")) > hand_value(parse_tiles("6-6 6-6"))
True
>>> describe(hand_value(parse_tiles("1-2 4-6")))
'6 points'
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.tiles import TILE_SET, Tile

PAIR, WONG, GONG, POINTS = 3, 2, 1, 0
_NAMES = {PAIR: "pair", WONG: "wong", GONG: "gong"}

HandValue = tuple[int, int, int]
"""(class, points or the ranking tile, highest tile rank): larger is better; equal is a copy."""


def points(tiles: Sequence[Tile]) -> int:
    first, second = tiles
    return max((a + b) % 10 for a in first.point_choices for b in second.point_choices)


def hand_value(tiles: Sequence[Tile]) -> HandValue:
    if len(tiles) != 2:
        raise ValueError(f"a Pai Gow Tiles hand is two tiles, not {len(tiles)}")
    first, second = sorted(tiles, key=lambda t: t.rank, reverse=True)
    if first.name == second.name:
        pair_rank = 17 if first.is_gee_joon else first.rank
        return (PAIR, pair_rank, first.rank)
    if first.name in ("teen", "day"):
        if second.pips == 9:
            return (WONG, first.rank, first.rank)
        if second.pips == 8:
            return (GONG, first.rank, first.rank)
    return (POINTS, points((first, second)), first.rank)


def describe(value: HandValue) -> str:
    kind, middle, top = value
    if kind == POINTS:
        return f"{middle} points"
    name = next(t.name for t in TILE_SET if t.rank == top)
    return f"{name} {_NAMES[kind]}"


def compare(player: Sequence[Tile], player_dealer: Sequence[Tile]) -> int:
    """+1 when the player's hand is higher, -1 otherwise: copies go to the player-dealer."""
    return 1 if hand_value(player) > hand_value(player_dealer) else -1
