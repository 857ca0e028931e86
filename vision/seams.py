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


def seam_corners(small: np.ndarray, blobs: list[Blob], filled: np.ndarray, width_px: float,
                 card_area_px: float) -> tuple[Corners, np.ndarray]:
    """Corners (full-resolution pixels) where seams inside the filled blobs of piles (``PILE`` cards' area or
    more; ``card_area_px``: a card's, full-resolution pixels) meet their outlines, and the blob each lies on;
    both ways along the outline at each seam end."""
    width = width_px / DOWNSCALE
    white = cv2.min(cv2.min(small[:, :, 0], small[:, :, 1]), small[:, :, 2])
    away = max(2, int(round(0.03 * width)))
    edges = cv2.Canny(cv2.GaussianBlur(white, (3, 3), 0), 20, 50)
    edges[cv2.erode(filled, np.ones((2 * away + 1, 2 * away + 1), np.uint8)) == 0] = 0
    owner_map = np.zeros(filled.shape, np.int32)
    for k, blob in enumerate(blobs):
        if blob.area >= PILE * card_area_px:
            contour = np.round((blob.contour - (DOWNSCALE - 1) / 2) / DOWNSCALE).astype(np.int32)
            cv2.drawContours(owner_map, [contour], -1, k + 1, cv2.FILLED)
    edges[owner_map == 0] = 0
    lines = cv2.HoughLinesP(edges, 1, math.pi / 180, int(max(8, 0.15 * width)),
                            minLineLength=SEAM_LENGTH * width, maxLineGap=max(2.0, 0.03 * width))
    if lines is None:
        return Corners.none(), np.zeros(0, int)
    points, along, across, owners = [], [], [], []
    h, w = filled.shape
    longest = int(2.0 * width)  # steps along a seam: past a card's height (about 1.4 widths)
    for x0, y0, x1, y1 in lines.reshape(-1, 4).astype(np.float64):
        ends = np.array([[x0, y0], [x1, y1]])
        for e, other in ((ends[0], ends[1]), (ends[1], ends[0])):
            d = (other - e) / np.linalg.norm(other - e)
            # Follow the seam out past its end to where the pile ends: the card's corner.
            steps = e - np.arange(longest)[:, None] * d
            xs, ys = np.round(steps[:, 0]).astype(int), np.round(steps[:, 1]).astype(int)
            within = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
            on = np.zeros(longest, bool)
            on[within] = filled[ys[within], xs[within]] > 0
            if on.all():
                continue
            out = int(np.argmin(on))
            corner = steps[max(out - 1, 0)]
            owner = int(owner_map[int(np.clip(round(e[1]), 0, h - 1)), int(np.clip(round(e[0]), 0, w - 1))]) - 1
            if owner < 0:
                continue
            for sign in (1.0, -1.0):
                p = sign * np.array([-d[1], d[0]])
                probe = corner + 0.3 * width * (d + p)
                px, py = int(round(probe[0])), int(round(probe[1]))
                if 0 <= px < w and 0 <= py < h and filled[py, px]:
                    points.append(corner * DOWNSCALE + (DOWNSCALE - 1) / 2)
                    along.append(d)
                    across.append(p)
                    owners.append(owner)
    if not points:
        return Corners.none(), np.zeros(0, int)
    none = np.zeros(len(points))
    return Corners(np.array(points), np.array(along), np.array(across), none, none), np.array(owners)
