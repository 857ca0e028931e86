"""Index corners found from the index itself: a rank glyph and the suit glyph under it.

In a fan, the index corner of a card lying on another card is white on white:
no outline passes through it, and its edges show at most as a faint shadow.
Its index, though, shows as plainly as any: a rank glyph with the suit glyph
under it, at a place of the card each deck keeps for all its cards. Two ink
marks of the right weights, the right distance apart, say where the card's index
corner is and which way the card is turned, whatever lies around them.

Enrolment measures where a deck prints them (``IndexLayout``: the centres of
the rank and suit glyphs, in card widths and heights from the index corner,
one layout per group of cards that print them alike, a ten's wider rank, say).
A frame's ink (``ink_marks``) is every patch inside the card mask much darker
or more coloured than the card's white around it, found at half size;
``glyph_corners`` pairs marks into index corners for each layout.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from controller.cards import Card

__all__ = ["IndexLayout", "InkMarks", "glyph_corners", "index_layouts", "ink_marks", "margin_points"]

#: Ink is blurred by this many card widths (about a third of a rank glyph's height) to find marks.
GLYPH_SIGMA = 0.035
#: A mark's blurred ink reaches at least this share of the card's white.
PEAK_SHARE = 0.18
#: A mark is the most ink within this many card widths (one mark per glyph).
PEAKS_APART = 0.03
#: A point of the index's margins is white on at least this share of a deck's faces (``margin_points``).
MARGIN_SHARE = 0.97
#: A margin point shows white at this share of the card's white around it, and a corner a pair of marks
#: gives is kept when this share of its margin points do.
MARGIN_WHITE = 0.75
MARGIN_CLEAR = 0.75
#: A rank mark and a suit mark pair when they lie this share nearer or further than the layout has them.
PAIR_OFF = 0.25
#: Corners a pair gives within this many card widths and degrees of each other are one corner.
SAME_CORNER = 0.04
SAME_TURN = 6.0
#: Points just beyond an index corner's top edge and its side (card fractions), and the share of either
#: row that must not show the card's white for the corner to be an edge of the card.
_BEYOND_TOP = np.stack([np.linspace(0.04, 0.2, 6), np.full(6, -0.035)], axis=1)
_BEYOND_SIDE = np.stack([np.full(6, -0.05), np.linspace(0.03, 0.28, 6)], axis=1)
EDGE_SHOWS = 0.5
#: Each corner a pair gives is also tried turned this many degrees either way.
TURN_TRIED = 5.0
#: Layouts whose glyph centres lie within this share of the card apart are one layout.
SAME_LAYOUT = 0.02
#: The card's white around a glyph: the brightest within this many card widths.
WHITE_REACH = 0.12
#: The half-size card width enrolment measures a deck's glyphs at (the camera's 95 to 185 px wide cards).
ENROL_WIDTH = 64.0


@dataclass(frozen=True)
class IndexLayout:
    """Where some of a deck's cards print their index: the rank glyph's and the suit glyph's centres (x in
    card widths, y in card heights, from the index corner) and weights (``InkMarks.weight``)."""

    rank: tuple[float, float]
    suit: tuple[float, float]
    rank_weight: float
    suit_weight: float


@dataclass(frozen=True, eq=False)
class InkMarks:
    """Ink marks of a half-size image: centres (n, 2, half-size pixels) and weights (n,: the blurred ink
    at the centre, as a share of the card's white)."""

    centre: np.ndarray
    weight: np.ndarray
    white: np.ndarray | None = None
    """The image the marks were found in, and the card's white around each pixel (``around``)."""
    around: np.ndarray | None = None


def ink_marks(white: np.ndarray, on_card: np.ndarray, width: float) -> InkMarks:
    """The ink marks inside ``on_card`` of a half-size least-channel image ``white``, cards ``width`` wide.

    Ink is how much darker a pixel is than the card's white around it. At half size a glyph's strokes
    are as thin as the shadow line a card casts on the card below, so marks are not told by their
    outlines: the ink is blurred at a glyph's scale, where a compact glyph piles up far more of it than
    a line does, and each peak is a mark.
    """
    reach = max(3, int(round(WHITE_REACH * width)) | 1)
    around = cv2.dilate(white, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach)))
    ink = cv2.bitwise_and(cv2.subtract(around, white), on_card)
    sigma = GLYPH_SIGMA * width
    weight = cv2.divide(cv2.GaussianBlur(ink.astype(np.float32), (0, 0), sigma),
                        np.maximum(cv2.GaussianBlur(around.astype(np.float32), (0, 0), sigma), np.float32(1.0)))
    apart = max(3, int(round(PEAKS_APART * width)) | 1)
    peaks = cv2.compare(weight, cv2.dilate(weight, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (apart, apart))), cv2.CMP_GE)
    ys, xs = np.nonzero(cv2.bitwise_and(peaks, cv2.compare(weight, PEAK_SHARE, cv2.CMP_GT)))  # type: ignore[call-overload]  # cv2's stubs lack its scalar form
    return InkMarks(np.stack([xs, ys], axis=1).astype(np.float64), weight[ys, xs].astype(np.float64), white, around)


def _face_marks(face: np.ndarray) -> tuple[InkMarks, float, float]:
    """A face's ink marks as the camera's half-size image shows them, and the face's size there."""
    h, w = face.shape[:2]
    opaque = face[:, :, 3] if face.ndim == 3 and face.shape[2] == 4 else np.full((h, w), 255, np.uint8)
    if face.ndim == 3 and face.shape[2] == 4:
        alpha = face[:, :, 3:4].astype(np.float32) / 255.0
        face = (face[:, :, :3] * alpha + 40.0 * (1 - alpha)).astype(np.uint8)
    zoom = ENROL_WIDTH / w
    size = (int(round(w * zoom)), int(round(h * zoom)))
    small = cv2.resize(face, size, interpolation=cv2.INTER_AREA)
    white = small.min(axis=2) if small.ndim == 3 else small
    border = 6
    padded = cv2.copyMakeBorder(white, border, border, border, border, cv2.BORDER_CONSTANT, value=40)
    inside = cv2.erode(cv2.resize(opaque, size, interpolation=cv2.INTER_AREA), np.ones((5, 5), np.uint8))
    on_card = cv2.copyMakeBorder(np.where(inside > 128, 255, 0).astype(np.uint8), border, border, border, border,
                                 cv2.BORDER_CONSTANT, value=0)
    marks = ink_marks(padded, on_card, small.shape[1])
    return InkMarks(marks.centre - border, marks.weight), float(small.shape[1]), float(small.shape[0])


def _pair_of(face: np.ndarray) -> IndexLayout | None:
    """The rank and suit glyphs of a face's top-left index: the topmost mark of the corner and the mark
    under it."""
    marks, w, h = _face_marks(face)
    x, y = marks.centre[:, 0] / w, marks.centre[:, 1] / h
    corner = np.flatnonzero((x > 0.03) & (x < 0.3) & (y > 0.03) & (y < 0.42))
    if len(corner) < 2:
        return None
    rank = corner[np.argmin(y[corner])]
    below = corner[(y[corner] > y[rank] + 0.02) & (np.abs(x[corner] - x[rank]) < 0.12)]
    if not len(below):
        return None
    suit = below[np.argmin(y[below])]
    return IndexLayout((float(x[rank]), float(y[rank])), (float(x[suit]), float(y[suit])),
                       float(marks.weight[rank]), float(marks.weight[suit]))


def margin_points(faces: Mapping[Card, np.ndarray]) -> np.ndarray:
    """The points of the index corner's region (card fractions, (k, 2)) that are the card's white on
    nearly every face: the margins around the index and the gaps in it, which a corner that a pair of
    marks gives must show white (``glyph_corners``)."""
    grid = np.stack(np.meshgrid(np.linspace(0.035, 0.3, 12), np.linspace(0.03, 0.36, 16)), axis=-1).reshape(-1, 2)
    white = []
    for face in faces.values():
        h, w = face.shape[:2]
        if face.ndim == 3 and face.shape[2] == 4:
            opaque = face[:, :, 3] > 128
            least = np.where(opaque, face[:, :, :3].min(axis=2), 0)
        else:
            least = face.min(axis=2) if face.ndim == 3 else face
        least = cv2.GaussianBlur(least.astype(np.float32), (0, 0), 0.01 * w)
        paper = float(np.percentile(least, 90))
        at = np.round(grid * [w - 1, h - 1]).astype(int)
        white.append(least[at[:, 1], at[:, 0]] > 0.8 * paper)
    share = np.mean(white, axis=0) if white else np.zeros(len(grid))
    return grid[share >= MARGIN_SHARE]


def index_layouts(faces: Mapping[Card, np.ndarray]) -> tuple[IndexLayout, ...]:
    """The distinct places a deck prints its index (cards whose glyphs lie within 0.02 of a card's size of
    another's share one layout, averaged)."""
    found = [layout for layout in (_pair_of(face) for face in faces.values()) if layout is not None]
    groups: list[list[IndexLayout]] = []
    for layout in found:
        for group in groups:
            first = group[0]
            if max(abs(a - b) for a, b in zip((*first.rank, *first.suit), (*layout.rank, *layout.suit))) < SAME_LAYOUT:
                group.append(layout)
                break
        else:
            groups.append([layout])
    out = []
    for group in sorted(groups, key=len, reverse=True):
        if len(group) < max(2, len(found) // 20):
            continue
        mean = np.array([[*g.rank, *g.suit, g.rank_weight, g.suit_weight] for g in group]).mean(axis=0)
        out.append(IndexLayout((mean[0], mean[1]), (mean[2], mean[3]), mean[4], mean[5]))
    return tuple(out)


def glyph_corners(marks: InkMarks, layouts: Sequence[IndexLayout], width_px: float, height_px: float,
                  margins: np.ndarray | None = None, downscale: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Index corners (full-size pixels) that pairs of ink marks give: the corner, and the unit directions of
    the card's width and height there, one per place and turn (``SAME_CORNER``, ``SAME_TURN``), kept where
    the deck's ``margins`` (``margin_points``) show the card's white."""
    none = np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2))
    w, h = width_px / downscale, height_px / downscale
    centre, weight = marks.centre, marks.weight
    if len(centre) < 2 or not layouts:
        return none
    # Every layout at once (one row each): only marks some layout's rank or suit glyph could be are paired
    # (each mark's weight against the layout's), each rank mark with the suit marks about as far from it
    # as the layout has them.
    rank_weight = np.array([layout.rank_weight for layout in layouts])
    suit_weight = np.array([layout.suit_weight for layout in layouts])
    rank_ok = (weight[None, :] > 0.4 * rank_weight[:, None]) & (weight[None, :] < 2.0 * rank_weight[:, None])
    suit_ok = (weight[None, :] > 0.4 * suit_weight[:, None]) & (weight[None, :] < 2.0 * suit_weight[:, None])
    rows, cols = np.flatnonzero(rank_ok.any(axis=0)), np.flatnonzero(suit_ok.any(axis=0))
    expected = [np.array([(layout.suit[0] - layout.rank[0]) * w, (layout.suit[1] - layout.rank[1]) * h]) for layout in layouts]
    reach = np.array([float(np.hypot(*e)) for e in expected])[:, None]
    axis = int(np.ptp(centre[:, 1]) > np.ptp(centre[:, 0]))  # along the marks' longer spread
    a, b = _within(centre[rows, axis], centre[cols, axis], float(reach.max()) * (1 + PAIR_OFF))
    offsets = centre[cols[b]] - centre[rows[a]]
    off = np.abs(np.hypot(offsets[:, 0], offsets[:, 1])[None] - reach) / reach
    k, p = np.nonzero((off < PAIR_OFF) & rank_ok[:, rows[a]] & suit_ok[:, cols[b]])
    if not len(k):
        return none
    i, off, pair = rows[a[p]], off[k, p], offsets[p]
    # Each rank mark with the two suit marks that fit it best, layout by layout.
    order = np.lexsort((off, i, k))
    k, i, pair = k[order], i[order], pair[order]
    mark = k * len(centre) + i
    first = np.arange(len(mark)) - np.searchsorted(mark, mark) < 2
    k, i, pair = k[first], i[first], pair[first]
    angle = np.array([math.atan2(e[1], e[0]) for e in expected])
    turn = np.arctan2(pair[:, 1], pair[:, 0]) - angle[k]
    u = np.stack([np.cos(turn), np.sin(turn)], axis=1)
    across = np.array([layout.rank[0] * w for layout in layouts])[k, None]
    down = np.array([layout.rank[1] * h for layout in layouts])[k, None]
    corner = centre[i] - across * u - down * np.stack([-u[:, 1], u[:, 0]], axis=1)
    # One corner per cell of SAME_CORNER card widths and SAME_TURN degrees: a glyph gives several peaks,
    # and several layouts put nearly the same corner at one pair.
    cell = np.floor(corner / (SAME_CORNER * w)).astype(np.int64) + 1
    key = (cell[:, 0] * 100_000 + cell[:, 1]) * 64 + np.floor(np.degrees(turn % (2 * np.pi)) / SAME_TURN).astype(np.int64)
    _, unique = np.unique(key, return_index=True)
    corner, turn = corner[unique], turn[unique]
    u = np.stack([np.cos(turn), np.sin(turn)], axis=1)
    v = np.stack([-u[:, 1], u[:, 0]], axis=1)
    if margins is not None and len(margins) and marks.white is not None and marks.around is not None:
        # Beyond the corner, along at least one of its two edges, lies no more of this card's white (the
        # cloth, or the dark of another card's edge): two pips inside a face give a corner that has the
        # face's white all round it. (Six points a side, tested before the margins' many.)
        beyond = np.minimum(_white_share(marks.white, marks.around, corner, u * w, v * h, _BEYOND_TOP),
                            _white_share(marks.white, marks.around, corner, u * w, v * h, _BEYOND_SIDE))
        edge = beyond <= 1.0 - EDGE_SHOWS
        corner, turn, u, v = corner[edge], turn[edge], u[edge], v[edge]
        clear = _white_share(marks.white, marks.around, corner, u * w, v * h, margins) >= MARGIN_CLEAR
        corner, turn = corner[clear], turn[clear]
    # Two marks a tenth of a card apart give the card's turn to a few degrees: each corner is also tried
    # TURN_TRIED degrees either way, about the rank glyph, and the reader keeps the pose that fits.
    rank = corner + 0.0
    corners, turns = [corner], [turn]
    for delta in (-math.radians(TURN_TRIED), math.radians(TURN_TRIED)):
        tu = np.stack([np.cos(turn), np.sin(turn)], axis=1)
        at = rank + layouts[0].rank[0] * w * tu + layouts[0].rank[1] * h * np.stack([-tu[:, 1], tu[:, 0]], axis=1)
        nu = np.stack([np.cos(turn + delta), np.sin(turn + delta)], axis=1)
        corners.append(at - layouts[0].rank[0] * w * nu - layouts[0].rank[1] * h * np.stack([-nu[:, 1], nu[:, 0]], axis=1))
        turns.append(turn + delta)
    corner, turn = np.concatenate(corners), np.concatenate(turns)
    u = np.stack([np.cos(turn), np.sin(turn)], axis=1)
    v = np.stack([-u[:, 1], u[:, 0]], axis=1)
    return corner * downscale + (downscale - 1) / 2, u, v


def _within(xs: np.ndarray, others: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i, j) with ``others[j]`` within ``reach`` of ``xs[i]`` (one coordinate), in the order of ``i``
    then ``j``: the pairs a rank and a suit glyph could make, found without taking every pair (a textured blob, a
    cloth of noise, has thousands of marks, and every pair of them took half a minute of a frame)."""
    order = np.argsort(others, kind="stable")
    ranked = others[order]
    low = np.searchsorted(ranked, xs - reach, side="left")
    high = np.searchsorted(ranked, xs + reach, side="right")
    counts = high - low
    first = np.repeat(np.arange(len(xs)), counts)
    at = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(low, counts)
    second = order[at]
    keep = np.lexsort((second, first))
    return first[keep], second[keep]


def _white_share(white: np.ndarray, around: np.ndarray, corner: np.ndarray, across: np.ndarray, down: np.ndarray,
                 margins: np.ndarray) -> np.ndarray:
    """For each corner (half-size pixels, with its card's width and height vectors), the share of the
    margin points that show the card's white (at least ``MARGIN_WHITE`` of the white around them)."""
    at = corner[:, None, :] + margins[None, :, :1] * across[:, None, :] + margins[None, :, 1:] * down[:, None, :]
    x = np.clip(np.round(at[..., 0]).astype(int), 0, white.shape[1] - 1)
    y = np.clip(np.round(at[..., 1]).astype(int), 0, white.shape[0] - 1)
    inside = (at[..., 0] >= 0) & (at[..., 0] < white.shape[1]) & (at[..., 1] >= 0) & (at[..., 1] < white.shape[0])
    shows = white[y, x] >= MARGIN_WHITE * around[y, x].astype(np.float64)
    return np.asarray(np.where(inside, shows, False).mean(axis=1), np.float64)
