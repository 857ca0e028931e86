"""Which zone a card is in: the zone of the hand it lies in, not of wherever its centre fell.

A dealer lays a hand's first card in its zone and fans the rest over it; a
fanned hand, or a split hand laid beside the first, can cross the zone's line.
Cards whose outlines overlap are one hand (``hands``), and every card of a
hand is in the zone that holds most of the hand's cards' centres; where two
zones hold as many, the zone that holds most of the hand's cards' faces.

``dealt_zones`` goes one step further for a witness that knows where the
shoe sent each card: a card read in a zone it was not dealt to, whose outline
still reaches into the zone it was dealt to, is in that zone; and so is one
that lies on such a card, or on another card of its hand in that zone (a
long hand's last cards laid past the line: the ninth card of a No Bust 21
hand lay wholly in the next seat, on the eighth, which reached back).

>>> from vision.calibration import Layout, Zone
>>> layout = Layout.scale(1.0, [Zone("1", ((0, 0), (250, 0), (250, 200), (0, 200))),
...                             Zone("2", ((250, 0), (500, 0), (500, 200), (250, 200)))])
>>> fan = [np.array([[x, 50], [x + 63, 50], [x + 63, 138], [x, 138]], float) for x in (170, 200, 230)]
>>> [layout.zone_at(f.mean(axis=0)) for f in fan], hand_zones(fan, layout)
(['1', '1', '2'], ['1', '1', '1'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from controller.cards import Card
from vision.calibration import Layout
from vision.geometry import points_inside

__all__ = ["dealt_zones", "hand_zones", "hands"]

_GRID = np.stack(np.meshgrid(np.linspace(0.05, 0.95, 7), np.linspace(0.05, 0.95, 9)), axis=-1).reshape(-1, 2)


def _points(quad: np.ndarray) -> np.ndarray:
    o, a, b = quad[0], quad[1] - quad[0], quad[3] - quad[0]
    return np.asarray(o + _GRID[:, :1] * a + _GRID[:, 1:] * b, np.float64)


def hands(polygons: Sequence[np.ndarray]) -> list[list[int]]:
    """Cards grouped into hands: cards whose outlines overlap, and so on."""
    n = len(polygons)
    inside = np.zeros((n, n))
    for i in range(n):
        points = _points(polygons[i])
        for j in range(n):
            if i != j:
                inside[i, j] = points_inside(points, polygons[j]).mean()
    touching = (inside > 0.02) | (inside.T > 0.02)
    group = list(range(n))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for i, j in zip(*np.nonzero(np.triu(touching, 1))):
        group[root(int(i))] = root(int(j))
    found: dict[int, list[int]] = {}
    for i in range(n):
        found.setdefault(root(i), []).append(i)
    return list(found.values())


def hand_zones(polygons: Sequence[np.ndarray], layout: Layout) -> list[str | None]:
    """The zone of each card (image outlines): the zone of its hand (see the module docstring)."""
    own = [layout.zone_at(np.asarray(p).mean(axis=0)) for p in polygons]
    out = list(own)
    for group in hands(polygons):
        if len(group) < 2:
            continue
        counts = Counter(own[i] for i in group)
        most = max(counts.values())
        tied = [zone for zone, count in counts.items() if count == most]
        if len(tied) > 1:
            faces = Counter(layout.zone_at(point) for i in group for point in _points(np.asarray(polygons[i])))
            tied = [max(tied, key=lambda zone: faces[zone])]
        for i in group:
            out[i] = tied[0]
    return out


def dealt_zones(cards: Sequence[Card | None], polygons: Sequence[np.ndarray], zones: Sequence[str | None],
                dealt: Mapping[str, Sequence[Card]], layout: Layout) -> list[str | None]:
    """Each card's zone, moved to the zone the shoe dealt it to where it was read in a zone it was not
    dealt to and its outline reaches into the zone it was."""
    dealt_to: dict[Card, set[str]] = {}
    for target, cards_there in dealt.items():
        for card in cards_there:
            dealt_to.setdefault(card, set()).add(target)
    out = list(zones)
    for k, (seen, polygon, zone) in enumerate(zip(cards, polygons, zones)):
        if seen is None or (zone is not None and zone in dealt_to.get(seen, {zone})):
            continue
        table = layout.to_table(_points(np.asarray(polygon)))
        reached = [z for z in sorted(dealt_to.get(seen, set())) if any(layout.zone(z).contains((x, y)) for x, y in table)]
        if reached:
            out[k] = reached[0]
    for group in hands(polygons):
        for k in group:
            seen = cards[k]
            if seen is None or out[k] in dealt_to.get(seen, {out[k]}):
                continue
            beside = sorted({z for z in (out[j] for j in group if j != k) if z is not None} & dealt_to.get(seen, set()))
            if beside:
                out[k] = beside[0]
    return out
