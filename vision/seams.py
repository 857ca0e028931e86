"""Card corners at the seams of a fan: where the edge one card lays across the card under it meets the pile's outline.

In a tight fan the cards lie along one another, each a few millimetres past the
last, and the pile's outline runs nearly straight past their corners: no two
long edges of the outline meet at them (``vision.detect``), and the index beside
each corner, white on white, often lies too near the outline for its glyphs to
show at half size (``vision.glyphs``). What does show is the seam: the edge of
each card as a straight step in brightness across the pile, the card above
casting its rim on the card below. Where a seam reaches the outline, a card has
a corner; which of the two cards beside the seam it belongs to, and which way
its other edge runs, the corner hypotheses and the looks decide
(``vision.hypotheses``), so each seam end gives every corner it could be.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.detect import DOWNSCALE, Blob, Corners

__all__ = ["SEAM_LENGTH", "seam_corners"]

#: A blob is a pile of cards, where seams are looked for, from this many cards' area.
PILE = 1.3
#: A seam is a straight edge inside a pile at least this many card widths long.
SEAM_LENGTH = 0.3


def seam_corners(white: np.ndarray, blobs: list[Blob], filled: np.ndarray, width_px: float,
                 card_area_px: float) -> tuple[Corners, np.ndarray]:
    """Corners (full-resolution pixels) where seams inside the filled blobs of piles (``PILE`` cards' area or
    more; ``card_area_px``: a card's, full-resolution pixels) meet their outlines, and the blob each lies on;
    both ways along the outline at each seam end. ``white``: the half-size frame's least channel
    (``vision.detect.least_channel``)."""
    width = width_px / DOWNSCALE
    piles = [k for k, blob in enumerate(blobs) if blob.area >= PILE * card_area_px]
    if not piles:
        return Corners.none(), np.zeros(0, int)  # no edge would be kept, and no line found
    away = max(2, int(round(0.03 * width)))
    edges = cv2.Canny(cv2.GaussianBlur(white, (3, 3), 0), 20, 50)
    owner_map = np.zeros(filled.shape, np.int32)
    for k in piles:
        contour = np.round((blobs[k].contour - (DOWNSCALE - 1) / 2) / DOWNSCALE).astype(np.int32)
        cv2.drawContours(owner_map, [contour], -1, k + 1, cv2.FILLED)
    # Edges only well inside the filled mask (0 or 255) and on a pile: masked by OpenCV, not numpy indexing.
    inner = cv2.erode(filled, np.ones((2 * away + 1, 2 * away + 1), np.uint8))
    edges = cv2.bitwise_and(cv2.bitwise_and(edges, inner), cv2.compare(owner_map, 0, cv2.CMP_NE))  # type: ignore[call-overload]  # (scalar)
    lines = cv2.HoughLinesP(edges, 1, math.pi / 180, int(max(8, 0.15 * width)),
                            minLineLength=SEAM_LENGTH * width, maxLineGap=max(2.0, 0.03 * width))
    if lines is None:
        return Corners.none(), np.zeros(0, int)
    h, w = filled.shape
    longest = int(2.0 * width)  # steps along a seam: past a card's height (about 1.4 widths)
    # Each seam both ways: from each end (line by line, first end first) away from the other. Hough's
    # ends are whole pixels, so each direction's length is exact.
    segments = lines.reshape(-1, 4).astype(np.float64)
    ends = np.stack([segments[:, :2], segments[:, 2:]], axis=1).reshape(-1, 2)
    others = np.stack([segments[:, 2:], segments[:, :2]], axis=1).reshape(-1, 2)
    d = (others - ends) / np.sqrt(((others - ends) ** 2).sum(axis=1, keepdims=True))
    # Follow the seam out past its end to where the pile ends: the card's corner.
    steps = ends[:, None, :] - np.arange(longest)[None, :, None] * d[:, None, :]
    xs, ys = np.round(steps[..., 0]).astype(int), np.round(steps[..., 1]).astype(int)
    within = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    on = np.zeros(within.shape, bool)
    on[within] = filled[ys[within], xs[within]] > 0
    out = np.argmin(on, axis=1)
    corner = steps[np.arange(len(steps)), np.maximum(out - 1, 0)]
    owner = owner_map[np.clip(np.round(ends[:, 1]), 0, h - 1).astype(int), np.clip(np.round(ends[:, 0]), 0, w - 1).astype(int)] - 1
    ended = ~on.all(axis=1) & (owner >= 0)
    d, corner, owner = d[ended], corner[ended], owner[ended]
    # Each way across the seam (the card on either side of it), where the pile goes on.
    across = np.stack([np.stack([-d[:, 1], d[:, 0]], axis=1), -np.stack([-d[:, 1], d[:, 0]], axis=1)], axis=1)
    probe = corner[:, None, :] + 0.3 * width * (d[:, None, :] + across)
    px, py = np.round(probe[..., 0]).astype(int), np.round(probe[..., 1]).astype(int)
    inside = (px >= 0) & (px < w) & (py >= 0) & (py < h)
    shows = np.zeros(inside.shape, bool)
    shows[inside] = filled[py[inside], px[inside]] > 0
    end_of, sign_of = np.nonzero(shows)
    if not len(end_of):
        return Corners.none(), np.zeros(0, int)
    none = np.zeros(len(end_of))
    return Corners(corner[end_of] * DOWNSCALE + (DOWNSCALE - 1) / 2, d[end_of], across[end_of, sign_of], none, none), owner[end_of].astype(int)
