"""The envelope generator: table frames across every condition a casino's table camera presents.

``envelope_frame(faces, rng)`` draws one 1920x1080 frame of a deck's faces
under freshly drawn ``Conditions`` (``vision.envelope.conditions``), through a
camera whose calibration is a little off (``vision.envelope.camera``), with
cards laid out as a dealer lays them (``vision.envelope.layouts``), drawn as a
camera sees them (``vision.envelope.render``). It returns the frame, the
``[vision.calibration]`` table a technician would have written for that
camera, and the truth of every card: its outline in the frame (index corner
first) and whether it can be read.

A card is *readable* when one of its two index corners (the box ``INDEX_BOX``
of the card, from the corner, or the box given for a deck whose index is printed
larger) lies wholly in the frame with no other card on it; ``full`` when nothing
lies on any of it and it lies wholly in the frame.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from controller.cards import Card
from vision.envelope.camera import FRAME, EnvelopeCamera
from vision.envelope.conditions import Conditions, LayoutKind, draw_conditions
from vision.envelope.layouts import Placed, lay_out
from vision.envelope.render import card_corners_mm, draw_frame
from vision.geometry import INDEX_FX, INDEX_FY

__all__ = ["INDEX_BOX", "Box", "EnvelopeFrame", "TruthCard", "envelope_frame", "region_box"]

Visibility = Literal["full", "corner", "hidden"]

Box = tuple[tuple[float, float], tuple[float, float]]
#: The index box of a card, as shares of its width and height from an index corner.
INDEX_BOX: Box = ((0.02, 0.18), (0.02, 0.27))
#: Poker-size card height (mm); the width follows each deck's artwork.
CARD_HEIGHT_MM = 88.0


@dataclass(frozen=True, eq=False)
class TruthCard:
    """A drawn card: its outline in the frame (index corner first), what shows of it, and its hand."""

    card: Card
    polygon: np.ndarray
    visible: Visibility
    hand: int
    overlapped: bool
    cut: bool
    """Whether part of the card lies outside the frame."""

    @property
    def readable(self) -> bool:
        return self.visible != "hidden"


@dataclass(frozen=True, eq=False)
class EnvelopeFrame:
    frame: np.ndarray
    truth: tuple[TruthCard, ...]
    calibration: dict[str, Any]
    conditions: Conditions
    card_mm: tuple[float, float]


def region_box(region: tuple[float, float]) -> Box:
    """The index box of a deck read in the index region ``region`` (``DeckTemplates.index_region``):
    ``INDEX_BOX`` grown as the region is from the usual one (``vision.geometry.INDEX_REGIONS``)."""
    (x0, x1), (y0, y1) = INDEX_BOX
    return (x0, x1 * (region[0] / INDEX_FX)), (y0, y1 * (region[1] / INDEX_FY))


def _grid(xs: tuple[float, float], ys: tuple[float, float], nx: int, ny: int) -> np.ndarray:
    gx, gy = np.meshgrid(np.linspace(*xs, nx), np.linspace(*ys, ny))
    return np.stack([gx.ravel(), gy.ravel()], axis=1)


_WHOLE = _grid((0.0, 1.0), (0.0, 1.0), 12, 16)


def _on_card(corners: np.ndarray, shares: np.ndarray) -> np.ndarray:
    o, u, v = corners[0], corners[1] - corners[0], corners[3] - corners[0]
    return np.asarray(o + shares[:, :1] * u + shares[:, 1:] * v, np.float64)


def _inside(corners: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Which points lie inside the convex quadrilateral ``corners`` (either winding)."""
    edges = np.roll(corners, -1, axis=0) - corners
    rel = points[:, None, :] - corners[None, :, :]
    cross = edges[None, :, 0] * rel[:, :, 1] - edges[None, :, 1] * rel[:, :, 0]
    return np.asarray((cross >= 0).all(axis=1) | (cross <= 0).all(axis=1))


def _truth(placed: list[Placed], size: tuple[float, float], camera: EnvelopeCamera, index_box: Box) -> tuple[TruthCard, ...]:
    quads = [card_corners_mm(p, size) for p in placed]
    indexes = (_grid(*index_box, 5, 8), 1.0 - _grid(*index_box, 5, 8))
    w, h = FRAME

    def in_frame(points_mm: np.ndarray) -> np.ndarray:
        px = camera.to_image(points_mm)
        return (px[:, 0] >= 3) & (px[:, 0] <= w - 4) & (px[:, 1] >= 3) & (px[:, 1] <= h - 4)

    def clear(quad: np.ndarray, later: list[np.ndarray], shares: np.ndarray) -> np.ndarray:
        """Which points of the card (``shares`` of it) the frame shows and no later card covers."""
        points = _on_card(quad, shares)
        free = in_frame(points)
        for q in later:
            free &= ~_inside(q, points)
        return free

    out = []
    for k, (p, quad) in enumerate(zip(placed, quads)):
        later = quads[k + 1:]
        others = quads[:k] + later
        whole = clear(quad, later, _WHOLE)
        index_clear = any(bool(clear(quad, later, box).all()) for box in indexes)
        visible: Visibility = "full" if whole.all() else ("corner" if index_clear else "hidden")
        overlapped = any(_inside(q, _on_card(quad, _WHOLE)).any() for q in others)
        cut = not bool(in_frame(_on_card(quad, _WHOLE)).all())
        polygon = camera.to_image(quad)
        out.append(TruthCard(p.card, polygon, visible, p.hand, overlapped, cut))
    return tuple(out)


def envelope_frame(faces: Mapping[Card, np.ndarray], rng: np.random.Generator, *, blind: bool = False,
                   layout: LayoutKind | None = None, conditions: Conditions | None = None,
                   index_box: Box = INDEX_BOX) -> EnvelopeFrame:
    """One frame of ``faces`` (a deck's artwork, BGR or BGRA, upright) across the envelope; ``index_box`` is
    where the deck prints its index (``vision.envelope.jumbo.jumbo_box`` for a jumbo index)."""
    conditions = conditions or draw_conditions(rng, blind=blind, layout=layout)
    aspect = float(np.median([f.shape[1] / f.shape[0] for f in faces.values()]))
    size = (aspect * CARD_HEIGHT_MM, CARD_HEIGHT_MM)
    camera = EnvelopeCamera.draw(conditions, size[0], rng)
    placed = lay_out(sorted(faces, key=lambda c: c.code), conditions, size, camera.view_mm, rng)
    frame = draw_frame(faces, placed, size, conditions, camera, rng)
    return EnvelopeFrame(frame, _truth(placed, size, camera, index_box), camera.calibration, conditions, size)
