"""The card a fan hides between two cards read: where it lies, from the cards either side of it.

A dealer fans a hand with a steady hand: each card about one step further on from the last, turned
about as the last. The middle card of a fan lies on the card below and under the card above. Its
index corner is white on white, and its edges show on the blob's outline only where the cards
either side leave them, often too little for a corner to be found (docs/vision.md, Known limits):
on the benchmark's stored seen and tuning frames, 13 of the 18 index corners not reported at all were
the middle card of a fan whose cards either side were read. Such a card lies half way between
them (two such cards at the thirds), turned between their angles; its outline is guessed from theirs.
"""

from __future__ import annotations

import math

import numpy as np

from vision.geometry import CardSize, points_apart

__all__ = ["fan_gaps"]

#: Two cards of one fan are turned alike: each card of the simulated dealer's fan is turned up to 4
#: degrees from the fan's angle, a dealer's hand a little more.
MAX_TURN_DEG = 10.0
#: A gap's card lies at least this far (card widths) from every card read: half a fan's step from the
#: cards either side (the middle of two neighbours), and a card already read there, are no gap.
CLEAR = 0.4
#: At most this many cards are guessed between two cards read.
MAX_BETWEEN = 2


def fan_gaps(read: np.ndarray, reported: np.ndarray, size: CardSize) -> np.ndarray:
    """The outlines (table mm, index corner first) of the cards that would lie evenly between two cards
    read (``read``: their outlines in table mm, index corner first) turned alike (within
    ``MAX_TURN_DEG``): one card half way between two at most a card's height apart, two at the thirds
    between two further apart, up to one and a half card heights (a fan of four whose middle cards
    both lie hidden). Only where no card is read (``reported``: the centres of all cards read) within
    ``CLEAR`` card widths. Each gap twice in a row, with either of its index corners first:
    which one the cards above leave showing depends on the way the hand is fanned.
    """
    if len(read) < 2:
        return np.zeros((0, 4, 2))
    centres = read.mean(axis=1)
    across = read[:, 1] - read[:, 0]
    angles = np.arctan2(across[:, 1], across[:, 0])
    first, second = np.triu_indices(len(read), 1)
    turn = (angles[second] - angles[first] + math.pi / 2) % math.pi - math.pi / 2
    span = np.linalg.norm(centres[second] - centres[first], axis=1)
    alike = np.abs(turn) <= math.radians(MAX_TURN_DEG)
    places, turned = [], []
    for between in range(1, MAX_BETWEEN + 1):
        rows = np.flatnonzero(alike & (span > size.height_mm * between / 2) & (span <= size.height_mm * (between + 1) / 2))
        for share in np.arange(1, between + 1) / (between + 1):
            places.append(centres[first[rows]] + share * (centres[second[rows]] - centres[first[rows]]))
            turned.append(angles[first[rows]] + share * turn[rows])
    middle, angle = np.concatenate(places), np.concatenate(turned)
    clear = points_apart(middle, reported, CLEAR * size.width_mm)
    if not clear.any():
        return np.zeros((0, 4, 2))
    outlines = _outlines(middle[clear], angle[clear], size)
    return np.stack([outlines, np.roll(outlines, 2, axis=1)], axis=1).reshape(-1, 4, 2)


def _outlines(centres: np.ndarray, angles: np.ndarray, size: CardSize) -> np.ndarray:
    """Card outlines (index corner first, its short side along ``angles``) around ``centres``."""
    u = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    v = np.stack([-u[:, 1], u[:, 0]], axis=1)
    w, h = size.width_mm * u, size.height_mm * v
    corner = centres - (w + h) / 2
    return np.stack([corner, corner + w, corner + w + h, corner + h], axis=1)
