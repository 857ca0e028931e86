"""Card geometry: the canonical card frame, index patches and card outlines.

A card is described in its own frame with the index corner at the origin, the
short side along +x and the long side along +y (image rows grow downwards).
The index patch is the rectangle ``[0, INDEX_FX * W] x [0, INDEX_FY * H]`` of
that frame: large enough to hold the rank and suit of every deck we know.
Cards carry the index in two opposite corners, so a card turned by 180 degrees
shows the same patch from its other corner. The *strips* (``STRIPS``) are more
rectangles read as witnesses beside the index: what shows of a card's pips or
picture past its index when another card lies over the rest, and the index's
suit symbol seen finer than the index patch sees it.

Quads are 4x2 float arrays of image points in the order index corner (TL),
TR, BR, BL of the card frame.

>>> quad = card_quad_from_corner(np.array([10.0, 20.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 63, 88)
>>> quad.tolist()
[[10.0, 20.0], [73.0, 20.0], [73.0, 108.0], [10.0, 108.0]]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import cv2
import numpy as np

__all__ = [
    "INDEX_FX",
    "INDEX_FY",
    "INDEX_REGIONS",
    "SMALL_INDEX_REGION",
    "STRIPS",
    "CardSize",
    "Strip",
    "card_quad_from_corner",
    "index_strips",
    "patch_homographies",
    "patch_outlines",
    "points_apart",
    "points_inside",
    "points_within",
    "quad_center",
    "rotate_quad",
    "sample_patch",
    "warp_patches",
]

INDEX_FX = 0.22
INDEX_FY = 0.31


@dataclass(frozen=True)
class Strip:
    """A rectangle of the card frame (card fractions from ``origin``, ``fx`` by ``fy``), read at ``size`` pixels.

    A ``suit`` strip tells the suit only: its distance to a card is its
    distance to the nearest card of that suit, so it never takes a side
    between ranks; a ``rank`` strip likewise tells the rank only. A ``lone``
    strip is read only on a card lying alone: elsewhere other cards cover it.
    """

    name: str
    origin: tuple[float, float]
    fx: float
    fy: float
    size: tuple[int, int]
    suit: bool = False
    rank: bool = False
    lone: bool = False

    @property
    def in_index(self) -> bool:
        """Whether the strip lies in the index, read where the index was fitted to its card."""
        return self.suit or self.rank

    @property
    def card_width_px(self) -> float:
        """The width of the whole card in the strip's pixels."""
        return self.size[0] / self.fx


#: Beside the index: along the top edge past it, and down the long edge below it, each at about
#: 0.8 px/mm (the half-size frame's scale; pips are large). A blackjack dealer fans each card lower
#: right of the last, which leaves both in view on the cards beneath; a fan of another shape leaves one.
#: Then the index's lower half, where the suit symbol lies under the rank (in ornamental's large index
#: it lies partly below), at about 2.1 px/mm (the index patch is read at 1.4, below the camera's 1.6 to
#: 2.3): an ace's corner has no pips beside it, and its suit symbol alone tells it from its suit twin.
#: Then the index's upper half, where the rank lies, as finely: a six's and an eight's index differ by a
#: pixel or two there, and their pips beside the index not at all.
#: Last the centre of the face, at the half-size frame's scale, read only on a card lying alone (a fan
#: covers it): the middle column of pips that tells a six from an eight, an ace's large centre pip.
STRIPS = (
    Strip("top", (INDEX_FX, 0.0), 0.56, 0.24, (28, 16)),
    Strip("side", (0.0, INDEX_FY), 0.24, 0.38, (12, 26)),
    Strip("suit", (0.0, 0.145), 0.2, 0.165, (26, 30), suit=True),
    Strip("rank", (0.0, 0.0), 0.2, 0.145, (26, 26), rank=True),
    Strip("centre", (0.25, 0.25), 0.5, 0.5, (20, 30), lone=True),
)


#: The index regions a deck may be read in (``fx`` across and ``fy`` down from the index corner, in card
#: fractions). Nearly every brand prints rank and suit within the first; a jumbo index, the large rank with
#: its suit under it that casinos' poker and blackjack decks print, reaches 40 to 50% of the card down, and
#: in the first region shows a rank with no suit. Enrolment takes the first unless a larger one tells the
#: deck's cards much better apart (``vision.templates.LARGER_REGION_GAIN``), or the deck prints a small index
#: (``SMALL_INDEX_REGION``).
SMALL_INDEX_REGION = (0.17, 0.24)
INDEX_REGIONS: tuple[tuple[float, float], ...] = ((INDEX_FX, INDEX_FY), (0.25, 0.37), (0.28, 0.43), (0.31, 0.49),
                                                  SMALL_INDEX_REGION)


def index_strips(region: tuple[float, float]) -> tuple[Strip, ...]:
    """``STRIPS`` for a deck whose index fills ``region`` (fx, fy): the strips beside the index moved out past
    it, those in it (the suit symbol, the rank) grown with it, each read at the same pixel size."""
    fx, fy = region
    if (fx, fy) == (INDEX_FX, INDEX_FY):
        return STRIPS
    across, down = fx / INDEX_FX, fy / INDEX_FY
    moved = []
    for strip in STRIPS:
        if strip.in_index:
            strip = replace(strip, origin=(strip.origin[0] * across, strip.origin[1] * down),
                            fx=strip.fx * across, fy=strip.fy * down)
        elif strip.name == "top":
            strip = replace(strip, origin=(fx, 0.0))
        elif strip.name == "side":
            strip = replace(strip, origin=(0.0, fy))
        moved.append(strip)
    return tuple(moved)


@dataclass(frozen=True)
class CardSize:
    """A card's size on the table in millimetres (poker size by default)."""

    width_mm: float = 63.0
    height_mm: float = 88.0

    @classmethod
    def with_aspect(cls, aspect: float, height_mm: float = 88.0) -> CardSize:
        """A card of the given width/height ratio (each deck's artwork has its own)."""
        return cls(width_mm=aspect * height_mm, height_mm=height_mm)


def card_quad_from_corner(corner: np.ndarray, along_w: np.ndarray, along_h: np.ndarray, w: float, h: float) -> np.ndarray:
    """The card's four corners from its index corner and the unit directions of its two sides."""
    return np.array([corner, corner + w * along_w, corner + w * along_w + h * along_h, corner + h * along_h])


def rotate_quad(quad: np.ndarray, quarter_turns: int) -> np.ndarray:
    """The same outline started from another corner (2 = the opposite index corner)."""
    return np.roll(quad, -quarter_turns, axis=0)


def quad_center(quad: np.ndarray) -> np.ndarray:
    return np.asarray(np.asarray(quad, dtype=np.float64).mean(axis=0))


def points_within(points: np.ndarray, others: np.ndarray, distance: float) -> np.ndarray:
    """(points, others): which pairs lie nearer than ``distance``."""
    offsets = points[:, None] - others[None]
    return np.asarray(np.einsum("ijk,ijk->ij", offsets, offsets) < distance * distance)


def points_apart(points: np.ndarray, others: np.ndarray, distance: float) -> np.ndarray:
    """Which ``points`` lie at least ``distance`` from every one of ``others``."""
    return np.asarray(~points_within(points, others, distance).any(axis=1))


def points_inside(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Which ``points`` (N, 2) lie inside the convex ``quad`` (its edge included), whichever way it turns.

    >>> points_inside(np.array([[1.0, 1.0], [3.0, 1.0]]), np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])).tolist()
    [True, False]
    """
    edges = np.roll(quad, -1, axis=0) - quad
    turns = edges[None, :, 0] * (points[:, None, 1] - quad[None, :, 1]) - edges[None, :, 1] * (points[:, None, 0] - quad[None, :, 0])
    return np.asarray((turns >= 0).all(axis=1) | (turns <= 0).all(axis=1))


def _canon_corners(size: tuple[int, int], fx: float, fy: float, origin: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Corners of the whole card in a canonical image where the region ``fx x fy`` from ``origin`` fills ``size``."""
    cw, ch = size[0] / fx, size[1] / fy
    return np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], dtype=np.float32) - np.array([origin[0] * cw, origin[1] * ch], dtype=np.float32)


def sample_patch(
    image: np.ndarray, quad: np.ndarray, size: tuple[int, int], fx: float = INDEX_FX, fy: float = INDEX_FY,
    origin: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """The region ``[0, fx] x [0, fy]`` from ``origin`` (card fractions) of the card ``quad`` outlines,
    resampled to ``size`` (w, h).

    ``fx = fy = 1`` samples the whole face.
    """
    canon = _canon_corners(size, fx, fy, origin)
    to_image = cv2.getPerspectiveTransform(canon, np.asarray(quad, dtype=np.float32))
    return cv2.warpPerspective(
        image, to_image, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )



def patch_homographies(
    quads: np.ndarray, size: tuple[int, int], fx: float = INDEX_FX, fy: float = INDEX_FY,
    origin: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """For each quad, the homography from canonical patch pixels to image pixels (what ``sample_patch`` warps by).

    The unit square's map onto each quad in closed form (Heckbert's), all quads
    at once, then scaled to the canonical card's pixels.
    """
    q = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    x, y = q[..., 0], q[..., 1]
    dx1, dx2, sx = x[:, 1] - x[:, 2], x[:, 3] - x[:, 2], x[:, 0] - x[:, 1] + x[:, 2] - x[:, 3]
    dy1, dy2, sy = y[:, 1] - y[:, 2], y[:, 3] - y[:, 2], y[:, 0] - y[:, 1] + y[:, 2] - y[:, 3]
    det = dx1 * dy2 - dx2 * dy1
    g = (sx * dy2 - dx2 * sy) / det
    h = (dx1 * sy - sx * dy1) / det
    square = np.empty((len(q), 3, 3))
    square[:, 0] = np.stack([x[:, 1] - x[:, 0] + g * x[:, 1], x[:, 3] - x[:, 0] + h * x[:, 3], x[:, 0]], axis=1)
    square[:, 1] = np.stack([y[:, 1] - y[:, 0] + g * y[:, 1], y[:, 3] - y[:, 0] + h * y[:, 3], y[:, 0]], axis=1)
    square[:, 2] = np.stack([g, h, np.ones(len(q))], axis=1)
    width, height = _canon_corners(size, fx, fy)[2]
    return np.asarray(square @ np.array([[1.0 / width, 0.0, origin[0]], [0.0, 1.0 / height, origin[1]], [0.0, 0.0, 1.0]]))


def patch_outlines(
    homographies: np.ndarray, size: tuple[int, int], fx: float = INDEX_FX, fy: float = INDEX_FY,
    origin: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """The card outlines (N, 4, 2) patch homographies put in their image: ``patch_homographies`` undone.

    >>> quads = np.array([[[10.0, 20.0], [73.0, 21.0], [72.0, 110.0], [9.0, 108.0]]])
    >>> bool(np.allclose(patch_outlines(patch_homographies(quads, (20, 36)), (20, 36)), quads))
    True
    """
    corners = np.concatenate([_canon_corners(size, fx, fy, origin), np.ones((4, 1))], axis=1)
    points = np.asarray(homographies, dtype=np.float64) @ corners.T
    return np.asarray((points[:, :2] / points[:, 2:]).transpose(0, 2, 1))


@functools.cache
def _grid(size: tuple[int, int]) -> np.ndarray:
    """The pixels of a (w, h) patch as homogeneous columns (3, w * h), row by row."""
    ys, xs = np.mgrid[0 : size[1], 0 : size[0]].astype(np.float32)
    return np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size, np.float32)])


def warp_patches(image: np.ndarray, homographies: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The patch of each homography, stacked into few ``cv2.remap`` calls: (N, h, w, channels).

    The maps are computed in single precision, as ``cv2.remap`` takes them (a few ten-thousandths
    of a pixel off, against its 1/32-pixel grid); ``cv2.remap`` takes maps of fewer than 32767
    rows, hence the batches.
    """
    points = (homographies.astype(np.float32).reshape(-1, 3) @ _grid(size)).reshape(len(homographies), 3, -1)
    maps = points[:, :2]
    maps /= points[:, 2:3]
    batch = (np.iinfo(np.int16).max - 1) // size[1]
    parts = [
        cv2.remap(image, chunk[:, 0].reshape(-1, size[0]), chunk[:, 1].reshape(-1, size[0]),
                  cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        for chunk in (maps[i : i + batch] for i in range(0, len(maps), batch))
    ]
    out = np.concatenate(parts) if parts else np.zeros((0, size[0], *image.shape[2:]), image.dtype)
    return out.reshape(len(homographies), size[1], size[0], *image.shape[2:])
