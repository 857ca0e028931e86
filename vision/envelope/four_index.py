"""A deck's faces printed with four indexes: the benchmark's stand-in for a casino's four-index deck.

Many casinos deal blackjack from decks that print the index at all four corners, so that a card fanned
either way shows one. The top-right index stands as the top-left one does and mirrors its place (the rank
as far from the right edge as the top-left one is from the left), and the bottom-left one is the
bottom-right one so placed. ``four_index_faces`` copies each face's top-left index corner to its top
right, and its bottom-right one to its bottom left, over whatever lay there; a joker is left as it is.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from controller.cards import Card

__all__ = ["four_index_faces"]

#: The index corner copied (shares of the card's width and height, from the card's edge).
_CORNER = ((0.03, 0.2), (0.03, 0.31))


def four_index_faces(faces: Mapping[Card, np.ndarray]) -> dict[Card, np.ndarray]:
    """Each face (BGR or BGRA, upright) with its index printed again at the top right and bottom left."""
    return {card: face if card.is_joker else _four(face) for card, face in faces.items()}


def _four(face: np.ndarray) -> np.ndarray:
    out = face.copy()
    h, w = face.shape[:2]
    x0, x1 = (int(round(share * w)) for share in _CORNER[0])
    y0, y1 = (int(round(share * h)) for share in _CORNER[1])
    out[y0:y1, w - x1 : w - x0] = face[y0:y1, x0:x1]
    out[h - y1 : h - y0, x0:x1] = face[h - y1 : h - y0, w - x1 : w - x0]
    return out
