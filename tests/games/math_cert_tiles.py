"""The test lab's deal-by-deal count of Pai Gow Tiles' wager, House Way against a House Way player-dealer.

``tablectl edge pai-gow-tiles`` gets -874592/92035125 from copies alone (by exchangeability, EV = -(P(high copy) +
P(low copy)) / 2) counted by inclusion and exclusion. This count shares neither step: it scores every one of the
736,281,000 ordered deals of two four-tile hands win (both hands higher), push (one each) or lose, with its own
hand values written from seed 003 ("Game Rules") and rules-notes (standard ranking):

- pairs first: the Gee Joon pair (1-2 with 2-4) highest, then the civil pairs Teen 6-6, Day 1-1, Yun 4-4,
  Gor 1-3, Mooy 5-5, Chong 3-3, Bon 2-2, Foo 5-6, Ping 4-6, Tit 1-6, Look 1-5, then the military pairs by name
  (nines 4-5 3-6, eights 3-5 2-6, sevens 3-4 2-5, fives 1-4 2-3);
- then Wong (Teen or Day with a nine-pip tile), then Gong (Teen or Day with an eight-pip tile);
- then points, the pips added with tens dropped, a Gee Joon tile counting 3 or 6 at will;
- equal values: the hand with the higher-ranking single tile wins (only the highest considered; the tiles in the
  order above, Gee Joon lowest when single); equal again is a copy, won by the player-dealer.

Only the House Way's choice of which two tiles make the high hand is taken from the controller
(``controller.rules.pai_gow_tiles.house_way``): that is the reading under test elsewhere, not the count.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
from numba import njit

ORDER = ["6-6", "1-1", "4-4", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5",
         "4-5/3-6", "3-5/2-6", "3-4/2-5", "1-4/2-3", "1-2/2-4"]
"""Single tiles from highest to lowest; tiles of one name share a place."""
PLACE = {code: 16 - i for i, names in enumerate(ORDER) for code in names.split("/")}


def pips(code: str) -> int:
    a, b = code.split("-")
    return int(a) + int(b)


def value(first: str, second: str) -> int:
    """A two-tile hand's value as one integer: larger is better, equal is a copy."""
    top, other = sorted((first, second), key=lambda c: PLACE[c], reverse=True)
    high = PLACE[top]
    if PLACE[top] == PLACE[other]:
        return (4 << 10) | (17 if high == 1 else high)  # a pair, the Gee Joon pair highest
    if top in ("6-6", "1-1") and pips(other) in (9, 8):
        return ((3 if pips(other) == 9 else 2) << 10) | high  # Wong, Gong
    choices = [[pips(c)] if c not in ("1-2", "2-4") else [3, 6] for c in (top, other)]
    points = max((a + b) % 10 for a in choices[0] for b in choices[1])
    return (1 << 10) | (points << 5) | high


@njit(cache=True)
def _score(masks: np.ndarray, high: np.ndarray, low: np.ndarray) -> tuple[int, int, int]:
    wins = losses = deals = 0
    n = len(masks)
    for i in range(n):
        for j in range(n):
            if masks[i] & masks[j]:
                continue
            deals += 1
            up = high[i] > high[j]
            down = low[i] > low[j]
            if up and down:
                wins += 1
            elif not up and not down:
                losses += 1
    return wins, losses, deals


def wager_ev() -> tuple[Fraction, int]:
    """The wager's EV per unit, every ordered deal scored; and the number of deals."""
    from controller.rules.pai_gow_tiles.house_way import house_way
    from controller.tiles import TILE_SET

    codes = [t.code for t in TILE_SET]
    masks, highs, lows = [], [], []
    for hand in combinations(range(len(codes)), 4):
        setting = house_way([TILE_SET[i] for i in hand])
        high_codes = sorted(t.code for t in setting.high)
        rest = [codes[i] for i in hand]
        for c in high_codes:
            rest.remove(c)
        masks.append(sum(1 << i for i in hand))
        highs.append(value(*high_codes))
        lows.append(value(*rest))
    wins, losses, deals = _score(np.array(masks, np.int64), np.array(highs, np.int64), np.array(lows, np.int64))
    return Fraction(wins - losses, deals), deals
