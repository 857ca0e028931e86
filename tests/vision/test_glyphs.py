"""Index corners found from the index's own glyphs, where no outline passes through them."""

import math

import cv2
import numpy as np

from controller.cards import Card, parse_cards
from vision.detect import DOWNSCALE, card_mask, half_size
from vision.glyphs import glyph_corners, index_layouts, ink_marks, margin_points


def test_a_deck_prints_its_rank_above_its_suit_near_the_corner(faces: dict[Card, np.ndarray]) -> None:
    layouts = index_layouts(faces)
    assert layouts
    main = layouts[0]
    assert 0.03 < main.rank[0] < 0.15 and 0.04 < main.rank[1] < 0.15
    assert abs(main.suit[0] - main.rank[0]) < 0.05 and 0.06 < main.suit[1] - main.rank[1] < 0.16
    margins = margin_points(faces)
    assert len(margins) > 20 and (margins[:, 0] < 0.06).any()


def _card_at(frame: np.ndarray, face: np.ndarray, corner: np.ndarray, turn: float, width: float) -> np.ndarray:
    """Draw ``face`` with its index corner at ``corner``, turned by ``turn`` degrees; its outline."""
    h, w = face.shape[:2]
    height = width * h / w
    a = math.radians(turn)
    u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    quad = np.array([corner, corner + width * u, corner + width * u + height * v, corner + height * v])
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad.astype(np.float32))
    warped = cv2.warpPerspective(face, m, frame.shape[1::-1], flags=cv2.INTER_AREA)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    frame[:] = (frame * (1 - alpha) + warped[:, :, :3] * alpha).astype(np.uint8)
    return quad


def test_the_index_corner_of_a_card_in_a_tight_fan_is_found_from_its_glyphs(faces: dict[Card, np.ndarray]) -> None:
    """Seven cards spread 12 mm apart on grey felt: each index corner but the top card's lies on the card
    under it, white on white. Their glyphs put a corner within a few pixels of each, turned right."""
    frame = np.full((700, 1200, 3), (105, 105, 100), np.uint8)
    width, turn = 130.0, 25.0
    step = np.array([math.cos(math.radians(turn)), math.sin(math.radians(turn))]) * width * 12 / 63
    quads = [_card_at(frame, faces[card], np.array([350.0, 150.0]) + k * step, turn, width)
             for k, card in enumerate(parse_cards("2S 7H TD QC 4S AH 9D"))]
    small = half_size(frame)
    white = cv2.min(cv2.min(small[:, :, 0], small[:, :, 1]), small[:, :, 2])
    on_card = card_mask(frame, small, width)
    marks = ink_marks(white, on_card, width / DOWNSCALE)
    points, along_w, _ = glyph_corners(marks, index_layouts(faces), width, width * 88 / 63, margin_points(faces))
    u = np.array([math.cos(math.radians(turn)), math.sin(math.radians(turn))])
    for quad in quads:
        near = np.linalg.norm(points - quad[0], axis=1) < 0.06 * width
        assert (near & (along_w @ u > math.cos(math.radians(3)))).any()
    assert len(points) < 120


def test_glyph_pairs_are_taken_within_reach_along_one_axis_and_none_is_missed() -> None:
    """The rank and suit marks a glyph pair could be are found without taking every pair of marks (a cloth of noise
    has thousands, and every pair took half a minute of a frame): the same pairs, in the same order, as all pairs
    within reach."""
    from vision.glyphs import _within

    rng = np.random.default_rng(3)
    for n, m, reach in ((0, 5, 3.0), (7, 0, 3.0), (40, 60, 5.0), (300, 200, 1.5), (50, 50, 1000.0)):
        xs, others = rng.uniform(0, 100, n), rng.uniform(0, 100, m)
        every = [(i, j) for i in range(n) for j in range(m) if abs(others[j] - xs[i]) <= reach]
        first, second = _within(xs, others, reach)
        assert list(zip(first.tolist(), second.tolist())) == every
