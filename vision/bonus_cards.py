"""Artwork for Pure 21.5's Bonus cards, derived from a deck that has none.

Pure 21.5 Blackjack adds sixteen Bonus cards (kings, queens, jacks and tens of
a fifth suit) that no SVG deck ships. For the simulated table and for
enrolment from artwork, each Bonus card is drawn from the spade of its rank
with the suit symbol of both index corners replaced by a bold "B". A casino
enrols its real Bonus cards from images instead (``tablectl vision enroll
--images``, files ``KB.png``, ``QB.png``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from controller.cards import BONUS_RANKS, Card, Suit
from vision.geometry import INDEX_FX, INDEX_FY

__all__ = ["NoSuitSymbol", "with_bonus_cards", "bonus_face"]


class NoSuitSymbol(ValueError):
    """The index corner of a face shows no suit symbol below its rank."""


def with_bonus_cards(faces: Mapping[Card, np.ndarray]) -> dict[Card, np.ndarray]:
    """``faces`` with a Bonus card for each Bonus rank, drawn from the spade of that rank."""
    out = dict(faces)
    for rank in BONUS_RANKS:
        spade = faces.get(Card(rank, Suit.SPADES))
        if spade is not None:
            out[Card(rank, Suit.BONUS)] = bonus_face(spade)
    return out


def bonus_face(spade: np.ndarray) -> np.ndarray:
    """The face with a "B" for the suit symbol in both index corners (the card turned half round for the second)."""
    face = _index_marked(spade.copy())
    return _index_marked(face[::-1, ::-1].copy())[::-1, ::-1].copy()


def _index_marked(face: np.ndarray) -> np.ndarray:
    h, w = face.shape[:2]
    region = face[: int(INDEX_FY * h), : int(INDEX_FX * w)]
    grey = cv2.cvtColor(region[:, :, :3], cv2.COLOR_BGR2GRAY)
    opaque = region[:, :, 3] > 200 if region.shape[2] == 4 else np.ones_like(grey, bool)
    ink = ((grey < 110) & opaque).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink)
    rows, cols = region.shape[:2]
    parts = [  # glyphs: no specks, and not the card's own border (which spans the corner)
        tuple(int(v) for v in stats[i]) for i in range(1, count)
        if stats[i, cv2.CC_STAT_AREA] >= 12 and stats[i, cv2.CC_STAT_WIDTH] < 0.9 * cols and stats[i, cv2.CC_STAT_HEIGHT] < 0.9 * rows
    ]
    if not parts:
        raise NoSuitSymbol("no ink in the index corner")
    rank = [p for p in parts if p[1] < 0.45 * rows and p[0] < 0.6 * cols]
    if not rank:
        raise NoSuitSymbol("no rank at the top of the index corner")
    left, right = min(p[0] for p in rank), max(p[0] + p[2] for p in rank)
    bottom = max(p[1] + p[3] for p in rank if p[1] == min(q[1] for q in rank))
    below = [p for p in parts if p[1] >= bottom - 1 and left - 4 <= p[0] + p[2] / 2 <= right + 4]
    if not below:
        raise NoSuitSymbol("no suit symbol below the rank of the index corner")
    x, y, bw, bh, _ = min(below, key=lambda p: p[1])
    paper = np.median(region[:, :, :3][(grey > 200) & opaque], axis=0)
    colour = np.median(region[:, :, :3][ink > 0], axis=0)
    cv2.rectangle(region, (x - 2, y - 2), (x + bw + 1, y + bh + 1), (*paper.tolist(), 255), cv2.FILLED)
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_DUPLEX, bh, max(bh // 6, 1))
    (tw, th), _ = cv2.getTextSize("B", cv2.FONT_HERSHEY_DUPLEX, scale, max(bh // 6, 1))
    origin = (x + (bw - tw) // 2, y + (bh + th) // 2)
    cv2.putText(region, "B", origin, cv2.FONT_HERSHEY_DUPLEX, scale, (*colour.tolist(), 255), max(bh // 6, 1), cv2.LINE_AA)
    return face
