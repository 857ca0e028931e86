"""A deck's faces printed with a jumbo or a small index: the benchmark's stand-ins for such decks.

Casinos deal poker and blackjack from decks whose index is printed large, the rank
about twice the usual height with its suit under it, reaching 40 to 50% of the card
down. No artwork at hand prints one, so ``jumbo_faces`` draws each face's two index
corners ``JUMBO_SCALE`` times larger, grown away from the corner with the paper around it,
over whatever lay there (pips next to a large index lie further in on a real deck).
Many brands for bridge, poker and home play print a small index instead, the rank about 7 mm
tall and its suit under it within 15% of the card down; none of the artwork at hand does, and
``small_index_faces`` draws each corner ``SMALL_SCALE`` times the size, the paper around it.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from controller.cards import Card

__all__ = ["JUMBO_SCALE", "SMALL_SCALE", "jumbo_box", "jumbo_faces", "small_index_box", "small_index_faces"]

#: How much larger the index is drawn than the artwork prints it.
JUMBO_SCALE = 1.55
#: How much smaller a small index is drawn (the artwork's suit centres, 0.17 to 0.2 of the card down, come to
#: 0.12 to 0.14).
SMALL_SCALE = 0.65
#: The artwork's index corner that is grown (shares of the card's width and height), and the inset from the
#: card's edge it grows from: the card's own margin stays as it was.
_SOURCE = (0.2, 0.31)
_INSET = 0.03


Box = tuple[tuple[float, float], tuple[float, float]]


def jumbo_box(box: Box) -> Box:
    """Where a box of the artwork's index corner (shares of the card, from the index corner) lies once
    grown by ``jumbo_faces``: ``vision.envelope.INDEX_BOX`` grown is a jumbo card's index box."""
    return _scaled_box(box, JUMBO_SCALE)


def small_index_box(box: Box) -> Box:
    """Where a box of the artwork's index corner lies once drawn smaller by ``small_index_faces``."""
    return _scaled_box(box, SMALL_SCALE)


def _scaled_box(box: Box, scale: float) -> Box:
    def moved(share: float) -> float:
        return _INSET + (share - _INSET) * scale if share > _INSET else share

    (x0, x1), (y0, y1) = box
    return (moved(x0), moved(x1)), (moved(y0), moved(y1))


def jumbo_faces(faces: Mapping[Card, np.ndarray]) -> dict[Card, np.ndarray]:
    """Each face (BGR or BGRA, upright) with both index corners drawn ``JUMBO_SCALE`` times larger; a
    joker's corner is left as its artwork prints it."""
    return _index_scaled(faces, JUMBO_SCALE)


def small_index_faces(faces: Mapping[Card, np.ndarray]) -> dict[Card, np.ndarray]:
    """Each face with both index corners drawn ``SMALL_SCALE`` times the size; a joker's as printed."""
    return _index_scaled(faces, SMALL_SCALE)


def _index_scaled(faces: Mapping[Card, np.ndarray], scale: float) -> dict[Card, np.ndarray]:
    return {card: face if card.is_joker else _both_corners(face, scale) for card, face in faces.items()}


def _both_corners(face: np.ndarray, scale: float) -> np.ndarray:
    grown = _scale_corner(face, scale)
    return np.ascontiguousarray(_scale_corner(grown[::-1, ::-1], scale)[::-1, ::-1])


def _scale_corner(face: np.ndarray, scale: float) -> np.ndarray:
    """The face with its top-left index corner drawn ``scale`` times the size: grown over what lay there, or
    shrunk with paper where it lay."""
    out = face.copy()
    h, w = face.shape[:2]
    x0, y0 = int(round(_INSET * w)), int(round(_INSET * h))
    x1, y1 = int(round(_SOURCE[0] * w)), int(round(_SOURCE[1] * h))
    source = face[y0:y1, x0:x1, :3].copy()
    paper = np.percentile(source.reshape(-1, 3), 90, axis=0).astype(np.uint8)
    if face.shape[2] == 4:
        source[face[y0:y1, x0:x1, 3] < 128] = paper  # the rounded corner's transparency is no ink
    if scale < 1:
        out[y0:y1, x0:x1, :3] = paper
    size = (int(round((x1 - x0) * scale)), int(round((y1 - y0) * scale)))
    drawn = cv2.resize(source, size, interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA)
    xe, ye = min(w, x0 + size[0]), min(h, y0 + size[1])
    out[y0:ye, x0:xe, :3] = drawn[: ye - y0, : xe - x0]
    return out
