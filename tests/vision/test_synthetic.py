"""Synthetic scenes: seeded, and honest about which cards can be seen."""

import numpy as np

from controller.cards import parse_cards
from vision.synthetic import Camera, Placement, SceneRenderer, fan


def test_the_same_seed_renders_the_same_frame(faces: dict) -> None:
    renderer = SceneRenderer(faces, Camera.overhead())
    placements = [Placement(c, (300.0 + 120 * i, 300.0), 10.0 * i) for i, c in enumerate(parse_cards("AS KD 7C"))]
    one = renderer.render(placements, np.random.default_rng(4)).frame
    two = renderer.render(placements, np.random.default_rng(4)).frame
    assert np.array_equal(one, two)


def test_a_fan_leaves_the_lower_cards_index_corners_clear_and_the_top_card_whole(faces: dict) -> None:
    renderer = SceneRenderer(faces, Camera.overhead())
    scene = renderer.render(fan(parse_cards("2H 3H 4H"), (500.0, 300.0), 15.0), np.random.default_rng(0), clean=True)
    assert [t.visible for t in scene.truth] == ["corner", "corner", "full"]


def test_a_card_dropped_square_on_another_hides_it(faces: dict) -> None:
    renderer = SceneRenderer(faces, Camera.overhead())
    below, above = parse_cards("5C 6C")
    scene = renderer.render([Placement(below, (500.0, 300.0), 0.0), Placement(above, (502.0, 301.0), 0.0)], np.random.default_rng(0))
    assert [t.visible for t in scene.truth] == ["hidden", "full"]
