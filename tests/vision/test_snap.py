"""Snapping corners onto the image's edges (vision.snap), on small drawn images."""

import cv2
import numpy as np
import pytest

from vision.detect import Corners
from vision.snap import snap_corners

WIDTH = 120.0


def _card(image: np.ndarray, corner: np.ndarray, angle_deg: float) -> None:
    """A white card (width x 1.4 width) with its corner at ``corner``, its short side turned by
    ``angle_deg``, casting a soft shadow down and right as the synthetic table's cards do."""
    a = np.radians(angle_deg)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    quad = np.array([corner, corner + WIDTH * u, corner + WIDTH * u + 1.4 * WIDTH * v, corner + 1.4 * WIDTH * v])
    alpha = np.zeros(image.shape[:2], np.float32)
    cv2.fillConvexPoly(alpha, np.round(quad * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    shadow = cv2.warpAffine(cv2.GaussianBlur(alpha, (0, 0), 2.5), np.float32([[1, 0, 2], [0, 1, 2]]), alpha.shape[::-1])
    out = image.astype(np.float32) * (1 - 0.35 * shadow[:, :, None])
    out = out * (1 - alpha[:, :, None]) + 235.0 * alpha[:, :, None]
    image[:] = np.clip(out, 0, 255).astype(np.uint8)


def _corner(point: np.ndarray, dir_a: np.ndarray, dir_b: np.ndarray) -> Corners:
    return Corners(np.array([point], float), np.array([dir_a], float), np.array([dir_b], float), np.array([30.0]), np.array([40.0]))


def _off_corner(corner: np.ndarray, angle_deg: float, shift: np.ndarray, turn_deg: float) -> Corners:
    a = np.radians(angle_deg + turn_deg)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    return _corner(corner + shift, u, v)


def _felt() -> np.ndarray:
    image = np.zeros((400, 400, 3), np.uint8)
    image[:] = (40, 110, 30)
    return image


@pytest.mark.parametrize("shift, turn", [((6.0, -5.0), 0.0), ((0.0, 0.0), 4.0), ((-4.0, 5.0), -3.0)])
def test_a_corner_a_few_pixels_and_degrees_off_moves_onto_the_card_on_the_felt(shift, turn):
    image, corner = _felt(), np.array([120.0, 100.0])
    _card(image, corner, 20.0)
    snapped = snap_corners(cv2.GaussianBlur(image, (0, 0), 1.0), _off_corner(corner, 20.0, np.array(shift), turn), WIDTH)
    assert np.linalg.norm(snapped.point[0] - corner) < 1.5
    assert np.degrees(np.arccos(np.clip(np.dot(snapped.dir_a[0], [np.cos(np.radians(20)), np.sin(np.radians(20))]), -1, 1))) < 1.0


def test_a_corner_lying_on_another_card_finds_its_edges_by_the_shadow_they_cast():
    image, top = _felt(), np.array([110.0, 60.0])
    _card(image, np.array([180.0, 110.0]), 0.0)
    _card(image, top, -10.0)
    a = np.radians(-10.0)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    corner = top + WIDTH * u + 1.4 * WIDTH * v  # the corner lying on the card below, its shadow side
    turn = np.radians(3.0)
    off = _corner(corner + [5.0, -6.0], -(np.cos(turn) * u + np.sin(turn) * v), -(np.cos(turn) * v - np.sin(turn) * u))
    snapped = snap_corners(cv2.GaussianBlur(image, (0, 0), 1.0), off, WIDTH)
    assert np.linalg.norm(snapped.point[0] - corner) < 1.5


def test_an_edge_with_no_step_near_it_stays_where_it_was():
    image = _felt()
    lost = _corner(np.array([200.0, 200.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]))
    snapped = snap_corners(image, lost, WIDTH)
    assert np.allclose(snapped.point, lost.point) and np.allclose(snapped.dir_a, lost.dir_a)
