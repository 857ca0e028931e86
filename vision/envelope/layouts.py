"""Where the envelope's cards lie on the table: lone cards, blackjack fans, tight poker fans, pai gow piles.

A layout is a list of ``Placed`` cards in the order they were laid (later
cards on earlier ones), each with its centre and turn in table millimetres and
the hand it belongs to. Hands are laid inside the part of the table the camera
sees (``view``, a quadrilateral), apart from each other, except that with
``out_of_frame`` some hands are laid over the view's edge.

Fans go every way a dealer may lay them (right or left, up or down of the
card before), by any step from tight to loose; poker hands are spread in a
line or in an arc; a pai gow hand is two untidy piles. A joker may take any
place in any hand.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from controller.cards import JOKER, Card
from vision.envelope.conditions import Conditions, LayoutKind

__all__ = ["Placed", "lay_out"]


@dataclass(frozen=True)
class Placed:
    """A card on the table: centre (mm), turn (degrees, of its upright frame), its hand, and whether it
    is still sliding (drawn with motion blur)."""

    card: Card
    centre: tuple[float, float]
    angle: float
    hand: int
    sliding: bool = False


def _rotate(v: np.ndarray, degrees: float) -> np.ndarray:
    a = math.radians(degrees)
    return np.array([v[0] * math.cos(a) - v[1] * math.sin(a), v[0] * math.sin(a) + v[1] * math.cos(a)])


def _hand_sizes(kind: LayoutKind, rng: np.random.Generator) -> list[int]:
    if kind == "lone":
        return [int(rng.integers(1, 4)) for _ in range(int(rng.integers(2, 7)))]
    if kind == "blackjack":
        return [int(rng.integers(2, 7)) for _ in range(int(rng.integers(2, 6)))]
    if kind == "poker":
        return [int(rng.integers(5, 8)) for _ in range(int(rng.integers(1, 4)))]
    return [n for _ in range(int(rng.integers(1, 3))) for n in (2, 5)]


def _hand(kind: LayoutKind, count: int, size: tuple[float, float], rng: np.random.Generator) -> list[tuple[np.ndarray, float]]:
    """Offsets (mm, in the hand's own frame) and turns of ``count`` cards of one hand."""
    w, h = size
    if kind == "lone":
        gap = rng.uniform(2, 14)
        out = [(np.array([k * (w + gap), 0.0]), float(rng.uniform(-6, 6))) for k in range(count)]
        if count == 3 and rng.random() < 0.5:  # baccarat's third card, turned sideways
            out[2] = (np.array([2 * (w + gap) + (h - w) / 2, 0.0]), 90.0 + float(rng.uniform(-6, 6)))
        return out
    if kind == "blackjack":
        step = np.array([rng.uniform(10, 32) * rng.choice([-1, 1]), rng.uniform(6, 30) * rng.choice([-1, 1])])
        if rng.random() < 0.25:
            step[1] *= rng.uniform(0, 0.3)
        return [(k * step, float(rng.uniform(-6, 6))) for k in range(count)]
    if kind == "poker":
        if rng.random() < 0.5:
            step = rng.uniform(8, 16) * rng.choice([-1, 1])
            drop = rng.uniform(-2, 2)
            return [(np.array([k * step, k * drop]), float(rng.uniform(-3, 3))) for k in range(count)]
        radius, turn = rng.uniform(60, 110), rng.uniform(5, 12) * rng.choice([-1, 1])
        out = []
        for k in range(count):
            a = (k - (count - 1) / 2) * turn
            pivot = np.array([0.0, radius])
            out.append((pivot + _rotate(np.array([0.0, -radius]), a), float(a)))
        return out
    spread = rng.uniform(4, 20)
    return [(rng.uniform(-spread, spread, 2), float(rng.uniform(-25, 25))) for _ in range(count)]


def _inside(view: np.ndarray, point: np.ndarray, margin: float) -> bool:
    contour = view.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), True) >= margin


def lay_out(cards: Sequence[Card], conditions: Conditions, size: tuple[float, float], view: np.ndarray,
            rng: np.random.Generator) -> list[Placed]:
    """Cards of one frame, laid out as ``conditions.layout`` says, inside ``view`` (table mm)."""
    deck = [c for c in cards if c is not JOKER]
    order = list(rng.permutation(len(deck)))
    jokers_left = 1 if conditions.jokers and JOKER in cards else 0
    placed: list[Placed] = []
    taken: list[tuple[np.ndarray, float]] = []
    w, h = size
    edge_hands = int(rng.integers(1, 3)) if conditions.out_of_frame else 0
    for number, count in enumerate(_hand_sizes(conditions.layout, rng)):
        offsets = _hand(conditions.layout, count, size, rng)
        turn = float(rng.uniform(0, 360)) if rng.random() < 0.3 else float(rng.uniform(-35, 35))
        local = np.array([o for o, _ in offsets])
        local -= local.mean(axis=0)
        radius = float(np.max(np.linalg.norm(local, axis=1))) + math.hypot(w, h) / 2
        on_edge = number < edge_hands
        for _ in range(200):
            at = view.min(axis=0) + rng.random(2) * (view.max(axis=0) - view.min(axis=0))
            margin = -0.3 * radius if on_edge else radius * 0.9
            if on_edge and _inside(view, at, 0.6 * radius):
                continue
            if _inside(view, at, margin) and all(np.linalg.norm(at - c) > radius + r + 5 for c, r in taken):
                break
        else:
            continue
        taken.append((at, radius))
        joker_at = int(rng.integers(count)) if jokers_left and rng.random() < 0.5 else -1
        for k, (_, angle) in enumerate(offsets):
            if joker_at == k:
                card, jokers_left = JOKER, 0
            elif order:
                card = deck[order.pop()]
            else:
                break
            centre = at + _rotate(local[k], turn)
            placed.append(Placed(card, (float(centre[0]), float(centre[1])), float(angle + turn), number))
    if placed and conditions.motion_px > 0:
        last = placed[-1]
        placed[-1] = Placed(last.card, last.centre, last.angle, last.hand, sliding=True)
    return placed
