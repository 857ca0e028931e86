"""A deck's faces printed with a jumbo index: the benchmark's stand-in for a casino's jumbo-index deck.

Casinos deal poker and blackjack from decks whose index is printed large, the rank
about twice the usual height with its suit under it, reaching 40 to 50% of the card
down. No artwork at hand prints one, so ``jumbo_faces`` draws each face's two index
corners ``JUMBO_SCALE`` times larger, grown away from the corner with the paper around it,
over whatever lay there (pips next to a large index lie further in on a real deck).
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from controller.cards import Card

__all__ = ["JUMBO_SCALE", "jumbo_box", "jumbo_faces"]

#: How much larger the index is drawn than the artwork prints it.
JUMBO_SCALE = 1.55
#: The artwork's index corner that is grown (shares of the card's width and height), and the inset from the
#: card's edge it grows from: the card's own margin stays as it was.
_SOURCE = (0.2, 0.31)
_INSET = 0.03


def jumbo_box(box: tuple[tuple[float, float], tuple[float, float]]) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where a box of the artwork's index corner (shares of the card, from the index corner) lies once
    grown by ``jumbo_faces``: ``vision.envelope.INDEX_BOX`` grown is a jumbo card's index box."""
    def grow(share: float) -> float:
        return _INSET + (share - _INSET) * JUMBO_SCALE if share > _INSET else share

    (x0, x1), (y0, y1) = box
    return (grow(x0), grow(x1)), (grow(y0), grow(y1))


def jumbo_faces(faces: Mapping[Card, np.ndarray]) -> dict[Card, np.ndarray]:
    """Each face (BGR or BGRA, upright) with both index corners drawn ``JUMBO_SCALE`` times larger; a
    joker's corner is left as its artwork prints it."""
    return {card: face if card.is_joker else _jumbo(face) for card, face in faces.items()}


def _jumbo(face: np.ndarray) -> np.ndarray:
    grown = _grow_corner(face)
    return np.ascontiguousarray(_grow_corner(grown[::-1, ::-1])[::-1, ::-1])


def _grow_corner(face: np.ndarray) -> np.ndarray:
    """The face with its top-left index corner grown over what lay there."""
    out = face.copy()
    h, w = face.shape[:2]
    x0, y0 = int(round(_INSET * w)), int(round(_INSET * h))
    x1, y1 = int(round(_SOURCE[0] * w)), int(round(_SOURCE[1] * h))
    source = face[y0:y1, x0:x1, :3].copy()
    paper = np.percentile(source.reshape(-1, 3), 90, axis=0).astype(np.uint8)
    if face.shape[2] == 4:
        source[face[y0:y1, x0:x1, 3] < 128] = paper  # the rounded corner's transparency is no ink
    size = (int(round((x1 - x0) * JUMBO_SCALE)), int(round((y1 - y0) * JUMBO_SCALE)))
    big = cv2.resize(source, size, interpolation=cv2.INTER_CUBIC)
    xe, ye = min(w, x0 + size[0]), min(h, y0 + size[1])
    out[y0:ye, x0:xe, :3] = big[: ye - y0, : xe - x0]
    return out
