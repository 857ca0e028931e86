"""The card a fan hides between two cards read: where its outline is guessed."""

import math

import numpy as np

from vision.fans import fan_gaps
from vision.geometry import CardSize, rotate_quad

SIZE = CardSize()


def _card(centre: tuple[float, float], degrees: float) -> np.ndarray:
    """A card's outline in table mm, index corner first, its short side turned ``degrees``."""
    a = math.radians(degrees)
    u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    corner = np.array(centre) - (SIZE.width_mm * u + SIZE.height_mm * v) / 2
    return np.array([corner, corner + SIZE.width_mm * u, corner + SIZE.width_mm * u + SIZE.height_mm * v,
                     corner + SIZE.height_mm * v])


def _fan(degrees: float, turns: tuple[float, ...] = (0.0, 0.0, 0.0)) -> list[np.ndarray]:
    """Cards fanned as the benchmark's dealer lays them: each 20 mm right and 28 mm down of the last."""
    a = math.radians(degrees)
    step = np.array([20 * math.cos(a) - 28 * math.sin(a), 20 * math.sin(a) + 28 * math.cos(a)])
    return [_card(tuple(np.array([300.0, 200.0]) + i * step), degrees + turn) for i, turn in enumerate(turns)]


def test_the_middle_card_of_a_fan_lies_half_way_between_the_cards_either_side_at_either_index_corner() -> None:
    below, middle, above = _fan(30.0, (-3.0, 1.0, 5.0))
    read = np.stack([below, above])
    gaps = fan_gaps(read, read.mean(axis=1), SIZE)
    assert gaps.shape == (2, 4, 2)
    assert np.abs(gaps.mean(axis=1) - middle.mean(axis=0)).max() < 1e-9
    assert np.abs(gaps[0] - _card(tuple(middle.mean(axis=0)), 31.0)).max() < 1e-9
    assert np.abs(gaps[1] - rotate_quad(gaps[0], 2)).max() < 1e-9


def test_a_card_read_from_its_other_index_corner_is_turned_alike() -> None:
    below, middle, above = _fan(-120.0)
    gaps = fan_gaps(np.stack([below, rotate_quad(above, 2)]), np.stack([below, above]).mean(axis=1), SIZE)
    assert np.abs(gaps[0] - middle).max() < 1e-9


def test_no_gap_where_a_card_is_reported_between_two_neighbours_or_between_cards_turned_apart_or_far_apart() -> None:
    below, middle, above = _fan(10.0)
    reported = np.stack([below, middle, above]).mean(axis=1)
    assert len(fan_gaps(np.stack([below, above]), reported, SIZE)) == 0
    neighbours = np.stack([below, middle])
    assert len(fan_gaps(neighbours, neighbours.mean(axis=1), SIZE)) == 0
    turned = np.stack([below, _card(tuple(above.mean(axis=0)), 10.0 + 12.0)])
    assert len(fan_gaps(turned, turned.mean(axis=1), SIZE)) == 0
    far = np.stack([below, _card((float(below.mean(axis=0)[0]) + 140.0, float(below.mean(axis=0)[1])), 10.0)])
    assert len(fan_gaps(far, far.mean(axis=1), SIZE)) == 0
    assert len(fan_gaps(below[None], below.mean(axis=0)[None], SIZE)) == 0


def test_the_two_middle_cards_of_a_fan_of_four_lie_at_the_thirds_between_its_outer_cards() -> None:
    cards = _fan(-40.0, (0.0, 0.0, 0.0, 0.0))
    read = np.stack([cards[0], cards[3]])
    gaps = fan_gaps(read, read.mean(axis=1), SIZE)
    assert gaps.shape == (4, 4, 2)
    assert np.abs(gaps[0] - cards[1]).max() < 1e-9 and np.abs(gaps[2] - cards[2]).max() < 1e-9
    assert len(fan_gaps(np.stack(cards), np.stack(cards).mean(axis=1), SIZE)) == 0
