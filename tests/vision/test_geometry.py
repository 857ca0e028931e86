"""Card geometry: outlines from a corner, and patches cut from an outline."""

import numpy as np

from vision.geometry import card_quad_from_corner, quad_center, rotate_quad, sample_patch


def test_a_card_outline_follows_the_two_side_directions_from_its_index_corner() -> None:
    quad = card_quad_from_corner(np.array([100.0, 50.0]), np.array([0.0, 1.0]), np.array([-1.0, 0.0]), 63, 88)
    assert quad.tolist() == [[100, 50], [100, 113], [12, 113], [12, 50]]
    assert quad_center(quad).tolist() == [56.0, 81.5]


def test_rotating_a_quad_by_two_starts_it_at_the_opposite_corner() -> None:
    quad = np.array([[0, 0], [1, 0], [1, 2], [0, 2]], float)
    assert rotate_quad(quad, 2).tolist() == [[1, 2], [0, 2], [0, 0], [1, 0]]


def test_the_index_patch_is_the_top_left_region_of_the_card_whatever_its_angle() -> None:
    image = np.zeros((200, 200, 3), np.uint8)
    image[20:40, 20:30] = 255  # top-left of a card spanning 20..120 x 20..160
    upright = np.array([[20, 20], [120, 20], [120, 160], [20, 160]], float)
    patch = sample_patch(image, upright, (20, 40), fx=0.1, fy=1 / 7)
    assert patch.mean() > 200
    turned = rotate_quad(upright, 2)
    assert sample_patch(image, turned, (20, 40), fx=0.1, fy=1 / 7).mean() < 5
