"""Synthetic scenes: seeded, and honest about which cards can be seen."""

import tomllib
from pathlib import Path

import numpy as np

from controller.cards import parse_cards
from vision.calibration import Layout
from vision.geometry import INDEX_FX, INDEX_FY
from vision.hands import dealt_zones, hand_zones
from vision.setup import layout_from
from vision.synthetic import FRAME_SIZE, Camera, Placement, SceneRenderer, SceneSource, fan


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


def _no_bust_21_layout() -> Layout:
    with open(Path(__file__).resolve().parents[2] / "config" / "no-bust-21.toml", "rb") as handle:
        layout = layout_from(tomllib.load(handle)["vision"])
    assert layout is not None
    return layout


def test_split_hands_at_the_tables_last_seat_stay_in_the_frame_each_index_showing_as_one_hand(faces: dict) -> None:
    """Four split hands in the last seat (and a nine-card hand in the seat above it) are laid as a
    dealer at the table's end lays them: in the frame, every index corner clear, and each seat's cards
    one hand, so the camera puts every card in the seat the shoe dealt it to."""
    layout = _no_bust_21_layout()
    source = SceneSource(faces, Camera(layout.table_to_image), zones=layout.zones, seed=3, spread=(30.0, 20.0))
    hands = {"4": parse_cards("2D 3C 4D 5S 6S 7C 8D TH 2S"), "8": parse_cards("9S 2C 5D"), "8.1": parse_cards("9S AC 2H 4C"),
             "8.2": parse_cards("9S 7D"), "8.3": parse_cards("9C 6H JH")}
    source.show(hands, lambda hand: hand.split(".")[0])
    truth = source.renderer.render(source.placements, np.random.default_rng(0), clean=True, felt=source.felt).truth
    assert len(truth) == 21 and all(t.visible != "hidden" for t in truth)
    for t in truth:
        o, across, down = t.polygon[0], t.polygon[1] - t.polygon[0], t.polygon[3] - t.polygon[0]
        index = np.array([o, o + INDEX_FX * across, o + INDEX_FX * across + INDEX_FY * down, o + INDEX_FY * down])
        assert (index >= 0).all() and (index < FRAME_SIZE).all(), f"{t.card} is laid out of the frame"
    polygons = [t.polygon for t in truth]
    dealt = {"8": [c for hand in ("8", "8.1", "8.2", "8.3") for c in hands[hand]], "4": list(hands["4"])}
    zones = dealt_zones([t.card for t in truth], polygons, hand_zones(polygons, layout), dealt, layout)
    assert zones == ["4"] * 9 + ["8"] * 12


def test_a_split_hand_with_no_face_up_card_yet_is_laid_beside_the_others_without_an_error(faces: dict) -> None:
    """A hand whose only cards lie face down is shown empty: the seat's one face-up card is laid as a lone hand."""
    layout = _no_bust_21_layout()
    source = SceneSource(faces, Camera(layout.table_to_image), zones=layout.zones, seed=3, spread=(30.0, 20.0))
    source.show({"3": parse_cards("8S"), "3.1": []}, lambda hand: hand.split(".")[0])
    assert [p.card.code for p in source.placements] == ["8S"]
