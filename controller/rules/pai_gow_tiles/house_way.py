"""Setting four tiles into a high and a low hand: the House Way (as data) and the best play.

The House Way is a list of steps loaded from a TOML file a card room can
replace (``config/house-way/pai-gow-tiles.toml``), applied to the settings no
other split beats in both hands (the seed's object of the game, see
:func:`undominated`); ``best_setting`` instead
picks the setting with the highest exact expectation against a player-dealer
who sets by the House Way, over every four tiles the player-dealer can hold.
"""

from __future__ import annotations

import functools
import itertools
import tomllib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from controller.rules.pai_gow_tiles.ranking import HandValue, hand_value
from controller.shipped import house_way_file
from controller.tiles import TILE_SET, Tile

DEFAULT_HOUSE_WAY = house_way_file("pai-gow-tiles")


@dataclass(frozen=True, slots=True)
class Setting:
    high: tuple[Tile, Tile]
    low: tuple[Tile, Tile]

    @property
    def values(self) -> tuple[HandValue, HandValue]:
        return hand_value(self.high), hand_value(self.low)

    def codes(self) -> tuple[list[str], list[str]]:
        return [t.code for t in self.high], [t.code for t in self.low]


def settings(tiles: Sequence[Tile]) -> list[Setting]:
    """The three ways to split four tiles, each with its better hand as the high hand."""
    if len(tiles) != 4:
        raise ValueError(f"a Pai Gow Tiles hand is four tiles, not {len(tiles)}")
    a = tiles[0]
    out = []
    for i in (1, 2, 3):
        one = (a, tiles[i])
        two = tuple(t for j, t in enumerate(tiles) if j not in (0, i))
        high, low = (one, two) if hand_value(one) >= hand_value(two) else (two, one)
        out.append(Setting(high, low))  # type: ignore[arg-type]
    return out


def _keep_pair(s: Setting) -> bool:
    return any(hand[0].name == hand[1].name for hand in (s.high, s.low))


def _teen_day_with_789(s: Setting) -> bool:
    def makes(hand: tuple[Tile, Tile]) -> bool:
        names = {t.name for t in hand}
        other = [t for t in hand if t.name not in ("teen", "day")]
        return bool(names & {"teen", "day"}) and len(other) == 1 and other[0].pips in (7, 8, 9)

    return makes(s.high) or makes(s.low)


def _small_tiles_789(s: Setting) -> bool:
    return any(all(t.pips < 12 for t in hand) and hand_value(hand)[1] in (7, 8, 9) and hand_value(hand)[0] == 0
               for hand in (s.high, s.low))


def _biggest_with_smallest(s: Setting) -> bool:
    tiles = [*s.high, *s.low]
    top = max(tiles, key=lambda t: t.rank)
    bottom = min(tiles, key=lambda t: t.rank)
    return any({top.code, bottom.code} == {t.code for t in hand} and top is not bottom for hand in (s.high, s.low))


RULES: dict[str, Callable[[Setting], bool]] = {
    "keep-pair": _keep_pair,
    "teen-day-with-789": _teen_day_with_789,
    "small-tiles-789": _small_tiles_789,
    "biggest-with-smallest": _biggest_with_smallest,
}


class HouseWayError(ValueError):
    """A House Way file that cannot be used: names the file, the step and the reason."""


def load_house_way(path: Path = DEFAULT_HOUSE_WAY) -> tuple[str, ...]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise HouseWayError(f"{path}: cannot read the House Way: {exc}") from None
    steps = data.get("step")
    if not isinstance(steps, list) or not steps:
        raise HouseWayError(f"{path}: step: expected a list of [[step]] tables with a rule each")
    rules = []
    for n, step in enumerate(steps, 1):
        rule = step.get("rule") if isinstance(step, dict) else None
        if rule not in RULES:
            raise HouseWayError(f"{path}: step {n}: unknown rule {rule!r}: expected one of {', '.join(RULES)}")
        rules.append(rule)
    return tuple(rules)


def _better(s: Setting) -> tuple[HandValue, HandValue]:
    high, low = s.values
    return low, high


def house_way(tiles: Sequence[Tile], steps: Sequence[str] | None = None) -> Setting:
    """Set four tiles by the House Way: the first step some setting satisfies decides.

    The steps choose among the settings no other split beats in both hands
    (:func:`undominated`): read alone, "look for two small dominoes that equal 7, 8
    or 9" and "play the biggest domino with the smallest" set 160 of the 35,960
    deals worse in both hands than another split (``6-6 1-3 5-5 1-2`` as
    ``1-3 1-2`` [7] / ``6-6 5-5`` [2] where ``6-6 1-2`` [8] / ``1-3 5-5`` [4] beats it
    in both); the seed's object of the game rules those out.
    """
    return _house_way(tuple(tiles), tuple(steps or load_house_way()))


def beaten_in_both(setting: Setting, others: Sequence[Setting]) -> bool:
    """Another split of the same tiles makes both a higher high hand and a higher low hand."""
    high, low = setting.values
    return any(o.values[0] > high and o.values[1] > low for o in others)


def undominated(tiles: Sequence[Tile]) -> list[Setting]:
    """The settings no other split of the tiles beats in both hands.

    The seed's Object of the Game: "to make two hands that both rank higher than the
    two hands made by the player/dealer", winning only when "both hands" are higher.
    A setting that another split beats in both hands does no better against any
    player-dealer hand and worse against some, so the House Way never takes it.
    """
    options = settings(tiles)
    return [s for s in options if not beaten_in_both(s, options)]


@functools.lru_cache(maxsize=65536)
def _house_way(tiles: tuple[Tile, ...], steps: tuple[str, ...]) -> Setting:
    options = undominated(tiles)
    for step in steps:
        chosen = [s for s in options if RULES[step](s)]
        if chosen:
            return max(chosen, key=_better)
    return max(options, key=_better)


def _remaining(tiles: Sequence[Tile]) -> list[Tile]:
    left = Counter(TILE_SET)
    left.subtract(tiles)
    return list(left.elements())


def expectation(setting: Setting, steps: Sequence[str] | None = None) -> Fraction:
    """Exact expected result per unit wagered against a House Way player-dealer (win +1, push 0, lose -1)."""
    steps = tuple(steps or load_house_way())
    high, low = setting.values
    total, count = 0, 0
    for other in itertools.combinations(_remaining([*setting.high, *setting.low]), 4):
        dealer = house_way(other, steps)
        d_high, d_low = dealer.values
        wins = (high > d_high) + (low > d_low)
        total += {2: 1, 1: 0, 0: -1}[wins]
        count += 1
    return Fraction(total, count)


def best_setting(tiles: Sequence[Tile], steps: Sequence[str] | None = None) -> tuple[Setting, Fraction]:
    """The setting with the highest exact expectation against the House Way, and that expectation."""
    scored = [(expectation(s, steps), s) for s in settings(tiles)]
    ev, setting = max(scored, key=lambda pair: (pair[0], _better(pair[1])))
    return setting, ev
