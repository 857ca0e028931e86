"""Decks drawn here, not taken from any artwork: a large rank with its suit under it, reaching 45% of the card
down (a casino's jumbo index), so that the usual index region shows the rank alone; and a small index, the rank
about 7 mm tall and its suit under it reaching 15% of the card down."""

from __future__ import annotations

import cv2
import numpy as np

from controller.cards import Card

W, H = 240, 336
_INK = {"S": (30, 30, 30), "C": (30, 30, 30), "H": (40, 40, 210), "D": (40, 40, 210)}
#: A four-colour deck's inks (BGR): green clubs, blue diamonds.
FOUR_INKS = {"S": (30, 30, 30), "C": (40, 150, 30), "H": (40, 40, 210), "D": (200, 80, 30)}


def _suit(image: np.ndarray, suit: str, cx: float, cy: float, r: float, ink: tuple[int, int, int]) -> None:
    def poly(points: list[tuple[float, float]]) -> None:
        cv2.fillPoly(image, [np.array(points, np.int32)], ink, cv2.LINE_AA)

    def disc(x: float, y: float, radius: float) -> None:
        cv2.circle(image, (int(x), int(y)), int(radius), ink, -1, cv2.LINE_AA)

    if suit == "D":
        poly([(cx, cy - r), (cx + 0.75 * r, cy), (cx, cy + r), (cx - 0.75 * r, cy)])
    elif suit in "HS":
        up = 1 if suit == "H" else -1
        half = r * 0.5
        disc(cx - half, cy - up * half * 0.4, half)
        disc(cx + half, cy - up * half * 0.4, half)
        poly([(cx - 2 * half + 1, cy - up * half * 0.2), (cx + 2 * half - 1, cy - up * half * 0.2), (cx, cy + up * r)])
        if suit == "S":
            poly([(cx, cy), (cx + 0.4 * r, cy + r), (cx - 0.4 * r, cy + r)])
    else:
        for dx, dy in ((0, -0.55), (-0.6, 0.2), (0.6, 0.2)):
            disc(cx + dx * r, cy + dy * r, r * 0.42)
        poly([(cx, cy), (cx + 0.35 * r, cy + r), (cx - 0.35 * r, cy + r)])


def _index(image: np.ndarray, card: Card, size: float = 1.0, inks: dict[str, tuple[int, int, int]] = _INK) -> None:
    rank, suit = card.code[0], card.code[1]
    text = "10" if rank == "T" else rank
    scale = (2.6 if text != "10" else 1.9) * size
    thick = max(2, round(5 * size))
    (width, height), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
    ink = inks[suit]
    x = round(42 * size) if size < 1 else 42
    cv2.putText(image, text, (x - width // 2 + round(8 * (1 - size)), 12 + height), cv2.FONT_HERSHEY_DUPLEX, scale, ink,
                thick, cv2.LINE_AA)
    _suit(image, suit, x + 2 + round(8 * (1 - size)), 12 + height + (62 if size == 1 else 35 * size), 25 * size, ink)


def jumbo_face(card: Card) -> np.ndarray:
    """The card's face (BGR, ``W`` x ``H``): its index in two corners, its pips or its letter between them."""
    return _face(card, 1.0)


def small_index_face(card: Card, inks: dict[str, tuple[int, int, int]] = _INK) -> np.ndarray:
    """The card's face as ``jumbo_face`` draws it, its index drawn at 0.4 times the size (in ``inks``)."""
    return _face(card, 0.4, inks)


def _face(card: Card, size: float, inks: dict[str, tuple[int, int, int]] = _INK) -> np.ndarray:
    image = np.full((H, W, 3), 250, np.uint8)
    _index(image, card, size, inks)
    image = np.ascontiguousarray(image[::-1, ::-1])
    _index(image, card, size, inks)
    image = np.ascontiguousarray(image[::-1, ::-1])
    rank, suit = card.code[0], card.code[1]
    ink = inks[suit]
    if rank in "JQK":
        cv2.rectangle(image, (80, 100), (160, 236), ink, 3)
        cv2.putText(image, rank, (100, 190), cv2.FONT_HERSHEY_TRIPLEX, 2.0, ink, 4, cv2.LINE_AA)
    else:
        count = 1 if rank == "A" else 10 if rank == "T" else int(rank)
        for k in range(count):
            x = 120 if count == 1 else 100 + (k % 2) * 40
            y = 168 if count == 1 else 100 + (k // 2) * 136 / max(1, (count - 1) // 2)
            _suit(image, suit, x, y, 40 if count == 1 else 14, ink)
    return image
