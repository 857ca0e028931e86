"""Finding cards in a frame: the card mask, its blobs, and the card corners on each blob's outline.

Cards are told from the cloth by being whiter than it (``card_mask``), whatever
the cloth's colour: green, grey, black. The mask is computed at half
resolution, which is plenty to find outlines and keeps a 1920x1080 frame cheap.

A blob is one card or several overlapping ones. Its outline is simplified to a
polygon; two long straight edges meeting at a convex, roughly right angle
(a rounded card corner may sit between them) make a corner (a row of ``Corners``). The corner
point is where lines fitted to both edges cross, so it is found to about a
pixel even though real card corners are rounded.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Blob", "Corners", "card_mask", "corners_of_blobs", "find_blobs", "find_corners", "half_size", "least_channel"]

DOWNSCALE = 2
EDGE_OFFSET = 1.5
#: A card's white is this many times whiter (least channel) than the cloth around it, plus ``WHITER_OFFSET``:
#: a light grey felt (150) under the envelope's worst light leaves a card's border 1.29 times whiter.
WHITER = 1.18
WHITER_OFFSET = 6.0
#: A pixel a colour channel this far from the cloth's (0..255), near a card's white, is card too
#: (``card_mask``'s ``unlike_cloth``): artwork printed out to a card's edges is no whiter than the cloth.
UNLIKE_CLOTH = 40.0
UNLIKE_NEAR = 0.15
#: Bright strokes up to this many card widths across (printed lines, words) are no card.
THIN = 0.05
#: The card width (px) the mask assumes when the camera's scale is not known: the narrowest the envelope has.
DEFAULT_CARD_WIDTH_PX = 95.0


@dataclass(frozen=True, eq=False)
class Corners:
    """Convex card corners, one row each: the point (n, 2), unit directions along both edges (n, 2), and
    the edges' visible lengths in pixels (n,). Kept as arrays, not one object per corner: a frame has
    a hundred or more, and every stage works on all of them at once."""

    point: np.ndarray
    dir_a: np.ndarray
    dir_b: np.ndarray
    len_a: np.ndarray
    len_b: np.ndarray

    def __len__(self) -> int:
        return len(self.point)

    def __getitem__(self, rows: np.ndarray | slice) -> Corners:
        """The corners of ``rows`` (a boolean mask, indices or a slice)."""
        return Corners(self.point[rows], self.dir_a[rows], self.dir_b[rows], self.len_a[rows], self.len_b[rows])

    @staticmethod
    def joined(parts: list[Corners]) -> Corners:
        return Corners(*(np.concatenate([getattr(p, name) for p in parts])
                         for name in ("point", "dir_a", "dir_b", "len_a", "len_b")))

    @staticmethod
    def none() -> Corners:
        return Corners(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0), np.zeros(0))


@dataclass(frozen=True, eq=False)
class Blob:
    """A connected patch of card pixels: its outline (full-resolution pixels) and area."""

    contour: np.ndarray
    area: float


def half_size(frame: np.ndarray) -> np.ndarray:
    """The frame at half resolution, area-averaged (the fast 2x2 path of ``cv2.resize``)."""
    return cv2.resize(frame, (frame.shape[1] // DOWNSCALE, frame.shape[0] // DOWNSCALE), interpolation=cv2.INTER_AREA)


def least_channel(image: np.ndarray) -> np.ndarray:
    """Each pixel's least colour channel of a BGR image: its whiteness (a saturated felt has one channel
    low, a grey or black one all three). Split into planes first: ``cv2.min`` on the strided views of
    the channels copies each of them, at several times the cost."""
    b, g, r = cv2.split(image)
    return cv2.min(cv2.min(b, g), r)


def patch_source(
    frame: np.ndarray, small: np.ndarray, width_px: float, patch_width: float
) -> tuple[np.ndarray, Callable[[np.ndarray], np.ndarray], Callable[[np.ndarray], np.ndarray]]:
    """The image to warp patches from, for patches that put a whole card ``patch_width`` pixels wide (cards
    are ``width_px`` wide in the frame): the frame, or its ``half_size`` copy ``small`` when cards are large;
    and the maps from frame pixels to its pixels and back.

    Patches warped out of an image at much finer scale than the patch alias,
    and an aliased index looks like no card of the deck.
    """
    if patch_width / width_px > 0.6:
        return frame, lambda points: points, lambda points: points
    return small, lambda points: (points - (DOWNSCALE - 1) / 2) / DOWNSCALE, lambda points: points * DOWNSCALE + (DOWNSCALE - 1) / 2


def card_mask(frame: np.ndarray, small: np.ndarray | None = None, card_width_px: float | None = None,
              unlike_cloth: float | None = None, white: np.ndarray | None = None) -> np.ndarray:
    """Half-resolution mask (255 = card) of what is whiter than the cloth around it (``small``: the
    frame's ``half_size``; ``card_width_px``: how wide a card shows, when known), and with
    ``unlike_cloth`` (``UNLIKE_CLOTH``), what near that white differs from the cloth's colour by more.

    A card is found by what a card is, not by the felt's colour: its white border is the whitest thing
    on the table. Whiteness is a pixel's least channel (a saturated felt has one channel low, a grey
    or black felt all three), and the cloth's own whiteness is the median over a window about four
    cards wide, which a hand of cards does not fill, worked out at a sixteenth of the frame and spread
    back, so that it follows uneven light and vignetting. A pixel is card where it is ``WHITER`` times
    whiter than the cloth around it. Artwork printed out to a card's edge (a court card's coat) is no
    whiter than the cloth and opens the card onto it, and the shadow line one card casts on the next
    cuts a fan into slivers too small to be cards: with ``unlike_cloth``, pixels within ``UNLIKE_NEAR``
    card widths of that white whose colour lies that far from the cloth's (each channel's median over
    the same window) are card too. Its holes (dark artwork) are filled, and strokes thinner than
    ``THIN`` card widths (printed lines and words) are then opened away. ``white``: ``small``'s
    ``least_channel``, when already known.
    """
    small = half_size(frame) if small is None else small
    width = (card_width_px or DEFAULT_CARD_WIDTH_PX) / DOWNSCALE
    white = least_channel(small) if white is None else white
    cloth = _cloth(white, width)
    whiter = cv2.compare(white, cv2.addWeighted(cloth, WHITER, cloth, 0.0, WHITER_OFFSET), cv2.CMP_GT)
    if unlike_cloth is not None:
        whiter = cv2.bitwise_or(whiter, _unlike_cloth(small, whiter, unlike_cloth, width))
    # The outline lies where the image is half way from the cloth to the card's white (its brightest
    # near by), wherever the cloth: the edges of the mask are the card's own, on any felt.
    reach = max(3, int(round(0.12 * width)) | 1)
    paper = cv2.dilate(white, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach)))
    half_way = cv2.compare(white, cv2.addWeighted(cloth, 0.5, paper, 0.5, 0.0), cv2.CMP_GT)
    # Holes (dark artwork) are filled first: a glyph a hair from the edge is a hole only before the trim.
    filled = _holes_filled(whiter, half_way, 0.03 * width * width * 1.4, max(3, int(round(0.1 * width))))
    # Only the outer rim is trimmed: the shadow line a card casts on the card under it is no outline.
    rim = cv2.subtract(filled, cv2.erode(filled, _SQUARE, iterations=2))
    trimmed = cv2.subtract(filled, cv2.subtract(rim, half_way))
    size = max(3, 2 * int(round(THIN * width / 2)) + 1)
    opening = cv2.getStructuringElement(cv2.MORPH_RECT if size == 3 else cv2.MORPH_ELLIPSE, (size, size))
    return cv2.morphologyEx(trimmed, cv2.MORPH_OPEN, opening)


def _cloth(image: np.ndarray, width: float) -> np.ndarray:
    """The cloth under ``image`` (half size; one channel or three): each channel's median over a window
    about four cards ``width`` wide, worked out at an eighth of the image and spread back."""
    h, w = image.shape[:2]
    coarse = cv2.resize(image, (max(3, w // 8), max(3, h // 8)), interpolation=cv2.INTER_AREA)
    window = min(int(round(4 * width / 8)), min(coarse.shape[:2]) - 1)
    window = max(3, window - (1 - window % 2))
    median = cv2.merge([cv2.medianBlur(c, window) for c in cv2.split(coarse)])
    return cv2.resize(median, (w, h), interpolation=cv2.INTER_LINEAR)


def _unlike_cloth(small: np.ndarray, whiter: np.ndarray, apart: float, width: float) -> np.ndarray:
    """Pixels unlike the cloth around them (a colour channel more than ``apart`` off the cloth's, ``_cloth``)
    that lie within ``UNLIKE_NEAR`` card widths of a card's white: a court card's picture printed out to
    its edges, a card's shadowed side."""
    # Split into planes first (as ``least_channel``), and thresholded by OpenCV (an 8-bit image is over a
    # threshold where it is over its floor: the same pixels as ``> apart``).
    blue, green, red = cv2.split(cv2.absdiff(small, _cloth(small, width)))
    unlike = cv2.threshold(cv2.max(cv2.max(blue, green), red), apart, 255, cv2.THRESH_BINARY)[1]
    near = int(round(2 * UNLIKE_NEAR * width)) | 1
    return cv2.bitwise_and(unlike, cv2.dilate(whiter, cv2.getStructuringElement(cv2.MORPH_RECT, (near, near))))


def _holes_filled(mask: np.ndarray, strong: np.ndarray, small_hole: float, reach: int) -> np.ndarray:
    """``mask`` with its holes filled where, ``reach`` pixels out from the hole, ``strong`` (the card's
    white, well above the cloth's) holds for the most part: dark artwork in a card (an index glyph a hair from the card's edge, which opening
    the strokes away would open onto the cloth and cut a notch into the card), never the cloth inside
    a printed circle or box, whose outline is thinner than ``reach``. Holes under ``small_hole`` pixels
    are a glyph's or a pip's, and filled unasked."""
    h, w = mask.shape
    far = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    near = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach - 1, 2 * reach - 1))
    outside = cv2.copyMakeBorder(cv2.bitwise_not(mask), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=255)
    cv2.floodFill(outside, None, (0, 0), 0)
    holes = outside[1 : h + 1, 1 : w + 1]
    filled = cv2.bitwise_or(mask, holes)
    for contour in cv2.findContours(holes, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        x, y, bw, bh = cv2.boundingRect(contour)
        if bw * bh < small_hole or cv2.contourArea(contour) < small_hole:
            continue
        x0, y0, x1, y1 = max(x - reach - 1, 0), max(y - reach - 1, 0), min(x + bw + reach + 1, w), min(y + bh + reach + 1, h)
        hole = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.drawContours(hole, [contour - [x0, y0]], -1, 1, cv2.FILLED)
        hole &= holes[y0:y1, x0:x1] > 0
        band = cv2.dilate(hole, far) - cv2.dilate(hole, near)
        if np.count_nonzero((band > 0) & (strong[y0:y1, x0:x1] > 0)) < 0.5 * max(int(np.count_nonzero(band)), 1):
            filled[y0:y1, x0:x1][hole > 0] = mask[y0:y1, x0:x1][hole > 0]
    return filled


def find_blobs(mask: np.ndarray, min_area_px: float, bridge_px: float = 0.0) -> tuple[list[Blob], np.ndarray]:
    """Blobs of at least ``min_area_px`` (full-resolution pixels) and the mask with their holes filled,
    after closing gaps up to about ``bridge_px`` across (full-resolution pixels; none below 4).

    Artwork in the felt's colour (a court card's green coat, a deck printed green to its edges) is cut
    out of the mask. Where it reaches the card's edge, or the thin white border around it is lost at
    half size, the cut opens onto the felt and is no hole, so a card lying on it seems to stick out of
    its blob. The blobs' outlines are the mask's own; only the filled mask is closed.
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(mask)
    blobs = []
    for contour in contours:
        area = cv2.contourArea(contour) * DOWNSCALE**2
        if area < min_area_px:
            continue
        cv2.drawContours(filled, [contour], -1, 255, cv2.FILLED)
        full = contour.reshape(-1, 2).astype(np.float64) * DOWNSCALE + (DOWNSCALE - 1) / 2
        blobs.append(Blob(full, area))
    radius = int(bridge_px / DOWNSCALE / 2)
    if radius >= 1:
        for contour in cv2.findContours(_closed(mask, radius), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
            if cv2.contourArea(contour) * DOWNSCALE**2 >= min_area_px:
                cv2.drawContours(filled, [contour], -1, 255, cv2.FILLED)
    return blobs, filled


_SQUARE = np.ones((3, 3), np.uint8)
_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def _closed(mask: np.ndarray, radius: int) -> np.ndarray:
    """``mask`` closed by an octagon ``radius`` pixels from its centre to each side: nearly a disc, built
    from 3 x 3 squares and crosses, in half the time a disc's own kernel takes."""
    squares, crosses = radius - radius // 2, radius // 2
    grown = cv2.dilate(cv2.dilate(mask, _SQUARE, iterations=squares), _CROSS, iterations=crosses)
    return cv2.erode(cv2.erode(grown, _SQUARE, iterations=squares), _CROSS, iterations=crosses)


def _vertex_indices(contour: np.ndarray, epsilon: float) -> list[int]:
    """Where on the contour (float32, n x 2) ``cv2.approxPolyDP`` puts its vertices (it returns points, not
    indices), ascending; a point the outline passes twice is taken at its first index."""
    approx = cv2.approxPolyDP(contour.reshape(-1, 1, 2), epsilon, True).reshape(-1, 2)
    # Both coordinates of a point as one 64-bit word, so each vertex is found with one comparison.
    same = approx.view(np.int64) == contour.view(np.int64).T
    return sorted(set(same.argmax(axis=1)[same.any(axis=1)].tolist()))


@dataclass(frozen=True, eq=False)
class _Edges:
    """The long straight runs of outlines, one row each: a point on its line (moved out to the true
    edge), its direction, its two ends, the normal pointing into the card, and its outline."""

    point: np.ndarray
    direction: np.ndarray
    ends: np.ndarray
    inward: np.ndarray
    blob: np.ndarray


def _long_runs(contour: np.ndarray, min_edge: float, contour32: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the runs between ``approxPolyDP`` vertices at least ``min_edge`` long start on the contour,
    and how many points each holds (none when fewer than two)."""
    vertices = _vertex_indices(contour32, 1.0 * DOWNSCALE)
    none = np.zeros(0, int), np.zeros(0, int)
    if len(vertices) < 3:
        return none
    start, end = np.array(vertices), np.array(vertices[1:] + vertices[:1])
    run = contour[end] - contour[start]
    long = np.sqrt((run * run).sum(axis=1)) >= min_edge
    if np.count_nonzero(long) < 2:
        return none
    return start[long], (end[long] - start[long]) % len(contour) + 1


def _edges(contours: list[np.ndarray], min_edge: float, contours32: list[np.ndarray]) -> _Edges:
    """The long runs of all outlines, each with the least-squares line through it less an eighth of its
    points at either end (rounded card corners). Every outline's runs in one pass of array
    arithmetic: a frame has ten or more blobs."""
    runs = [_long_runs(c, min_edge, c32) for c, c32 in zip(contours, contours32)]
    blob = np.repeat(np.arange(len(runs)), [len(start) for start, _ in runs])
    start = np.concatenate([start for start, _ in runs] + [np.zeros(0, int)])
    count = np.concatenate([count for _, count in runs] + [np.zeros(0, int)])
    # Each outline twice over, all in one array, so a run that wraps past the end is one slice.
    twice = np.concatenate([np.concatenate([c, c]) for c in contours] + [np.zeros((0, 2))])
    base = np.cumsum([0] + [2 * len(c) for c in contours])[blob]
    cut = np.where(count > 8, count // 8, 0)
    kept = count - 2 * cut
    starts = np.cumsum(kept) - kept
    fitted = np.repeat(base + start + cut - starts, kept) + np.arange(int(kept.sum()))
    direction, point = _fitted_lines(twice[fitted], starts)
    tips = twice[np.stack([base + start, base + start + count - 1], axis=1)]
    direction *= np.where((direction * (tips[:, 1] - tips[:, 0])).sum(axis=1) < 0, -1.0, 1.0)[:, None]
    # The inside lies to the same side of every stretch of a contour traversed in one direction.
    side = np.array([1.0 if cv2.contourArea(c32, oriented=True) < 0 else -1.0 for c32 in contours32])[blob]
    normal = direction[:, ::-1] * np.stack([side, -side], axis=1)
    along = ((tips - point[:, None]) * direction[:, None]).sum(axis=2)
    ends = point[:, None] + along[:, :, None] * direction[:, None]
    return _Edges(point - EDGE_OFFSET * normal, direction, ends, normal, blob)


def _fitted_lines(points: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The least-squares line (perpendicular distances) through each run of ``points``, runs starting at
    ``starts``: its direction and its centroid, all runs in a few array operations.

    A run lies within ``approxPolyDP``'s tolerance (two pixels) of its chord, so it holds no point a
    robust fit would set aside. On the benchmark's seen frames these lines put the corners nearer the
    true ones than ``cv2.fitLine``'s Huber fit did (it restarts twenty times from random subsets of
    ten points and stops at 0.01 radians), and a frame's eighty-odd runs take a millisecond less.
    """
    count = np.diff(np.append(starts, len(points)))
    mean = np.add.reduceat(points, starts, axis=0) / count[:, None]
    d = points - np.repeat(mean, count, axis=0)
    spread = np.add.reduceat(np.stack([d[:, 0] * d[:, 0], d[:, 1] * d[:, 1], d[:, 0] * d[:, 1]], axis=1), starts, axis=0)
    angle = 0.5 * np.arctan2(2.0 * spread[:, 2], spread[:, 0] - spread[:, 1])
    return np.stack([np.cos(angle), np.sin(angle)], axis=1), mean


@functools.cache
def _pairs(count: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(count, 1)


def find_corners(contour: np.ndarray, min_edge: float, reach: float, outside: float | None = None) -> Corners:
    """Card corners on an outline: where two long straight edges, extended, meet at about a right angle.

    The edges need not be neighbours: in a fan, the middle cards' corners lie on
    the card below, and only the far parts of their two edges are on the
    outline. ``reach`` bounds how far (px) a corner may be from either edge,
    ``outside`` how far it may lie outside the outline (a rounded corner's
    point is outside; ``0.4 * min_edge`` by default); the card must lie on
    the inner side of both edges.
    """
    return corners_of_blobs([contour], min_edge, reach, outside)[0]


def corners_of_blobs(
    contours: list[np.ndarray], min_edge: float, reach: float, outside: float | None = None
) -> tuple[Corners, np.ndarray]:
    """``find_corners`` of all outlines at once, and the outline (its index) each corner is on."""
    outside = 0.4 * min_edge if outside is None else outside
    polygons = [contour.astype(np.float32) for contour in contours]
    edges = _edges(contours, min_edge, polygons)
    point, direction, ends, inward = edges.point, edges.direction, edges.ends, edges.inward
    if not len(point):
        return Corners.none(), np.zeros(0, int)
    counts = np.bincount(edges.blob, minlength=len(contours)).tolist()
    offsets = np.cumsum(counts) - counts
    pairs_of = [_pairs(n) for n in counts]
    first = np.concatenate([a + o for (a, _), o in zip(pairs_of, offsets)])
    second = np.concatenate([b + o for (_, b), o in zip(pairs_of, offsets)])
    owner = np.repeat(np.arange(len(contours)), [len(a) for a, _ in pairs_of])
    square = np.abs((direction[first] * direction[second]).sum(axis=1)) <= 0.26
    first, second, owner = first[square], second[square], owner[square]
    length = np.linalg.norm(ends[:, 1] - ends[:, 0], axis=1)
    run_a, run_b = _squared_up(direction[first], direction[second], length[first], length[second])
    t = _cross2(point[second] - point[first], run_b) / _cross2(run_a, run_b)
    meet = point[first] + t[:, None] * run_a
    # Both edges of every pair at once: rows [:pairs] are the first edges, [pairs:] the second.
    pairs = len(first)
    toward, far, near, one_side = _toward(np.concatenate([meet, meet]), ends[np.concatenate([first, second])],
                                          np.concatenate([run_a, run_b]))
    ok = one_side & (near <= reach) & ((toward * inward[np.concatenate([second, first])]).sum(axis=1) > 0)
    keep = np.flatnonzero(ok[:pairs] & ok[pairs:])
    near_outline = [cv2.pointPolygonTest(polygons[b].reshape(-1, 1, 2), (x, y), True) >= -outside
                    for b, (x, y) in zip(owner[keep].tolist(), meet[keep].tolist())]
    keep = keep[np.array(near_outline, bool)]
    return Corners(meet[keep], toward[keep], toward[keep + pairs], far[keep], far[keep + pairs]), owner[keep]


def _squared_up(
    dir_a: np.ndarray, dir_b: np.ndarray, len_a: np.ndarray, len_b: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The two edges' directions, the shorter one turned square to the longer when it is less than half
    as long: a short run of outline gives a poor angle, and a card's corner is square."""
    turn = np.sign(_cross2(dir_a, dir_b))[:, None]
    square_a = dir_b[:, ::-1] * (1.0, -1.0) * turn
    square_b = dir_a[:, ::-1] * (-1.0, 1.0) * turn
    return (np.where((len_a < 0.5 * len_b)[:, None], square_a, dir_a),
            np.where((len_b < 0.5 * len_a)[:, None], square_b, dir_b))


def _cross2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])


def _toward(
    meet: np.ndarray, ends: np.ndarray, direction: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each meeting point and edge: the direction from the point along the edge's line toward the
    edge, the far and near end distances, and whether the edge lies wholly to one side of the point."""
    along = ((ends - meet[:, None, :]) * direction[:, None, :]).sum(axis=2)
    low, high = along.min(axis=1), along.max(axis=1)
    ahead, behind = low >= -2.0, high <= 2.0
    sign = np.where(ahead, 1.0, -1.0)
    far = np.where(ahead, high, -low)
    near = np.where(ahead, np.maximum(low, 0.0), np.maximum(-high, 0.0))
    return direction * sign[:, None], far, near, ahead | behind
