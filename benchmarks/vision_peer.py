"""The peer ``benchmarks/vision.py`` runs side by side with ours: the classic OpenCV card reader.

This is the method of Evan Juras's *OpenCV-Playing-Card-Detector*, the card
reader most OpenCV tutorials and hobby projects copy: threshold the grey
frame a fixed step above the cloth's level, take every outer contour of a
card's area that simplifies to four corners, flatten it to 200 x 300 pixels,
cut the index corner out, threshold it, take the largest shape in its top
part as the rank and in its bottom part as the suit, and name each by the
training image it differs from least (``cv2.absdiff``), or not at all when
even the least differs by too much. It reads cards lying whole and apart;
a card in a fan is part of a larger contour and goes unreported.

Written here from the method's description (it is not a package), with two
changes so that it has a fair chance on these frames: its card-area bounds
come from the camera's scale (the original's are constants for its camera),
and its index corner is the region ``vision.geometry`` reads (the decks'
indices differ in size). Its training images are cut from each deck's
artwork the same way, as the original's were cut from photographs of cards.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from controller.cards import Card
from vision.recognizer import Read

BKG_THRESH = 60
CARD_THRESH = 30
FLAT = (200, 300)
ZOOM = 4
RANK_SIZE = (70, 125)
SUIT_SIZE = (70, 100)
RANK_DIFF_MAX = 2000
SUIT_DIFF_MAX = 700
#: Where the index corner is split into rank (above) and suit (below), as a share of its height.
SPLIT = 0.55
#: The index corner of the flattened card (the original's 32 x 84 pixels).
CORNER = (32, 84)


@dataclass(frozen=True)
class _Trained:
    ranks: dict[str, np.ndarray]
    suits: dict[str, np.ndarray]


class ClassicReader:
    """Reads cards lying whole and apart, as the classic contour-and-template method does."""

    def __init__(self, faces: dict[Card, np.ndarray], card_area_px: float) -> None:
        ranks: dict[str, np.ndarray] = {}
        suits: dict[str, np.ndarray] = {}
        for card, face in sorted(faces.items(), key=lambda item: item[0].code):
            if card.is_joker or card.is_bonus:
                continue
            flat = cv2.resize(cv2.cvtColor(face[:, :, :3], cv2.COLOR_BGR2GRAY), FLAT, interpolation=cv2.INTER_AREA)
            rank, suit = _rank_and_suit(flat)
            if rank is not None:
                ranks.setdefault(card.code[0], rank)
            if suit is not None:
                suits.setdefault(card.code[1], suit)
        self.trained = _Trained(ranks, suits)
        self.min_area, self.max_area = 0.6 * card_area_px, 1.4 * card_area_px

    def read(self, frame: np.ndarray) -> list[Read]:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        blurred = cv2.GaussianBlur(grey, (5, 5), 0)
        h, w = grey.shape
        level = int(blurred[h // 100, w // 2]) + BKG_THRESH
        binary = cv2.threshold(blurred, min(level, 254), 255, cv2.THRESH_BINARY)[1]
        contours, hierarchy = cv2.findContours(binary, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
        reads = []
        for contour, (_, _, _, parent) in zip(contours, hierarchy[0] if hierarchy is not None else []):
            area = cv2.contourArea(contour)
            if parent != -1 or not self.min_area <= area <= self.max_area:
                continue
            corners = cv2.approxPolyDP(contour, 0.01 * cv2.arcLength(contour, True), True).reshape(-1, 2)
            if len(corners) != 4:
                continue
            quad = _portrait(corners.astype(np.float32))
            flat = cv2.warpPerspective(grey, cv2.getPerspectiveTransform(quad, _FLAT_CORNERS), FLAT)
            reads.append(Read(self._match(flat), quad.astype(np.float64), "full", 1.0))
        return reads

    def _match(self, flat: np.ndarray) -> Card | None:
        rank, suit = _rank_and_suit(flat)
        if rank is None or suit is None:
            return None
        rank_code, rank_diff = _least_different(rank, self.trained.ranks)
        suit_code, suit_diff = _least_different(suit, self.trained.suits)
        if rank_diff > RANK_DIFF_MAX or suit_diff > SUIT_DIFF_MAX:
            return None
        return Card.parse(rank_code + suit_code)


_FLAT_CORNERS = np.array([[0, 0], [FLAT[0] - 1, 0], [FLAT[0] - 1, FLAT[1] - 1], [0, FLAT[1] - 1]], np.float32)


def _portrait(corners: np.ndarray) -> np.ndarray:
    """The four corners ordered top left, top right, bottom right, bottom left of the card held upright:
    a short side first, turning clockwise in the image (either of the two such orders shows an index)."""
    (ax, ay), (bx, by) = corners[1] - corners[0], corners[3] - corners[0]
    if ax * by - ay * bx < 0:
        corners = corners[::-1]
    side = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    start = 0 if side[0] + side[2] <= side[1] + side[3] else 1
    return np.roll(corners, -start, axis=0)


def _rank_and_suit(flat: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The rank and suit shapes of a flattened card's index corner, each the largest shape in its part,
    cut to its bounding box and resized to the training size (``None`` where there is no shape)."""
    corner = flat[: CORNER[1], : CORNER[0]]
    zoomed = cv2.resize(corner, None, fx=ZOOM, fy=ZOOM, interpolation=cv2.INTER_LINEAR)
    white = int(zoomed[15, zoomed.shape[1] // 2])
    shapes = cv2.threshold(zoomed, max(white - CARD_THRESH, 1), 255, cv2.THRESH_BINARY_INV)[1]
    split = int(SPLIT * len(shapes))
    return _largest(shapes[20:split], RANK_SIZE), _largest(shapes[split:], SUIT_SIZE)


def _largest(part: np.ndarray, size: tuple[int, int]) -> np.ndarray | None:
    contours, _ = cv2.findContours(part, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    x, y, w, h = cv2.boundingRect(max(contours, key=cv2.contourArea))
    return cv2.resize(part[y : y + h, x : x + w], size)


def _least_different(shape: np.ndarray, trained: dict[str, np.ndarray]) -> tuple[str, float]:
    diffs = {code: float(cv2.absdiff(shape, image).sum()) / 255 for code, image in trained.items()}
    code = min(diffs, key=diffs.__getitem__)
    return code, diffs[code]
