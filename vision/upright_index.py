"""Which way up a deck prints the index in its bottom-right corner.

The recognizer takes every corner of a card as a possible index corner and reads it turned the
way the top-left one stands, as every deck it was tuned on prints it: the bottom-right index turned
half round. A deck that prints it the same way up as the top-left one (KDE's ancient-egyptians:
the suit symbol over the rank, the rank upright) shows that index upside down from its corner,
where a six looks like a nine; read so, that deck named 6 cards wrong in 216 frames (three seeds).
Enrolment refuses such a deck (``vision.templates.enrol_faces``).

The test is on the face images themselves: the rank at the top left (a template cut from where an
index's rank lies) is searched for in the bottom-right corner both turned half round and as it
stands (``cv2.matchTemplate``, normalised correlation), and the better fit says which way up that
corner is printed.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.artwork import CARD_HEIGHT_PX
from vision.geometry import INDEX_FX, INDEX_FY

__all__ = ["UPRIGHT_SHARE", "upright_bottom_index"]

#: A deck is refused when more of its cards than this share print the bottom-right index upright. Of the
#: decks tuned on, none has more than 2 of 53 cards whose corners fit that way (a court whose two halves
#: differ); KDE's ancient-egyptians has 51 of 52.
UPRIGHT_SHARE = 0.5
#: Where a top-left index's rank lies, as fractions of the card's width and height (x0, x1, y0, y1).
_RANK = (0.02, 0.2, 0.02, 0.15)
#: The bottom-right corner searched, in index patches (``INDEX_FX`` by ``INDEX_FY``) across and down.
_CORNER = 1.3
#: A rank template flatter than this (grey levels' standard deviation) is no rank: the card is not counted.
_FLAT = 8.0


def upright_bottom_index(faces: Sequence[np.ndarray]) -> np.ndarray:
    """For each upright face (BGR), True where its bottom-right corner fits its top-left rank better as it
    stands than turned half round, False where turned, and False too for a face with no rank to fit."""
    return np.array([_upright(face) for face in faces], bool)


def _upright(face: np.ndarray) -> bool:
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    ratio = CARD_HEIGHT_PX / grey.shape[0]  # compared at the height the artwork is drawn at
    grey = cv2.resize(grey, None, fx=ratio, fy=ratio, interpolation=cv2.INTER_AREA)
    h, w = grey.shape
    x0, x1, y0, y1 = _RANK
    rank = np.ascontiguousarray(grey[int(y0 * h) : int(y1 * h), int(x0 * w) : int(x1 * w)])
    if float(rank.std()) < _FLAT:
        return False
    corner = grey[h - int(_CORNER * INDEX_FY * h) :, w - int(_CORNER * INDEX_FX * w) :]
    as_printed = cv2.matchTemplate(np.ascontiguousarray(corner), rank, cv2.TM_CCOEFF_NORMED).max()
    turned = cv2.matchTemplate(np.ascontiguousarray(corner[::-1, ::-1]), rank, cv2.TM_CCOEFF_NORMED).max()
    return bool(as_printed > turned)
