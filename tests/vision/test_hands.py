"""A card is in the zone its dealer laid its hand in, even where a fanned hand crosses the zone's line."""

import numpy as np

from controller.cards import parse_cards
from vision.calibration import Zone
from vision.hands import dealt_zones, hand_zones, hands
from vision.recognizer import Recognizer
from vision.synthetic import Camera, SceneRenderer, fan

ZONES = [Zone("1", ((0, 200), (250, 200), (250, 400), (0, 400))), Zone("2", ((250, 200), (500, 200), (500, 400), (250, 400)))]


def _card(x: float, y: float) -> np.ndarray:
    return np.array([[x, y], [x + 63, y], [x + 63, y + 88], [x, y + 88]], float)


def test_cards_whose_outlines_overlap_are_one_hand() -> None:
    cards = [_card(0, 0), _card(25, 20), _card(50, 40), _card(400, 0), _card(90, 130)]
    assert sorted(map(sorted, hands(cards))) == [[0, 1, 2], [3], [4]]


def test_a_hand_split_evenly_by_the_line_is_in_the_zone_holding_more_of_its_faces() -> None:
    from vision.calibration import Layout

    layout = Layout.scale(1.0, ZONES)
    pair = [_card(175, 250), _card(205, 260)]  # centres 206.5 (zone 1) and 236.5... both in 1
    assert hand_zones(pair, layout) == ["1", "1"]
    split = [_card(200, 250), _card(230, 260)]  # centres 231.5 (1) and 261.5 (2); most of the faces in 1
    assert hand_zones(split, layout) == ["1", "1"]


def test_a_fanned_hand_crossing_the_zone_line_is_read_in_its_zone(faces, deck) -> None:
    """Issue #49: round 84 of ``tablectl run --config config/no-bust-21.toml --rounds 200 --seed 3`` was held
    because the last card of a fan in seat 1 had its centre in seat 2."""
    camera = Camera.overhead(view_mm=(800.0, 450.0))
    scene = SceneRenderer(faces, camera).render(
        fan(parse_cards("9H 4C 7S 2D 5C"), (170.0, 270.0), 0.0, spread=(30.0, 8.0)), np.random.default_rng(3))
    layout = camera.layout(ZONES)
    centres = [layout.zone_at(t.polygon.mean(axis=0)) for t in scene.truth]
    assert "2" in centres and centres.count("1") > centres.count("2")
    reads = Recognizer(deck, layout).read(scene.frame)
    assert len(reads) == 5 and {r.zone for r in reads} == {"1"}


def test_a_card_read_in_the_next_zone_is_where_the_shoe_dealt_it_while_it_reaches_into_that_zone() -> None:
    from vision.calibration import Layout

    layout = Layout.scale(1.0, ZONES)
    two, nine = parse_cards("2D 9H")
    over_the_line = _card(220, 250)  # centre at x = 251.5: in zone 2, reaching 30 mm into zone 1
    far_away = _card(330, 250)
    zones = dealt_zones([two, nine], [layout.to_image(over_the_line), layout.to_image(far_away)], ["2", "2"],
                        {"1": [two, nine]}, layout)
    assert zones == ["1", "2"]
    assert hand_zones([layout.to_image(over_the_line)], layout) == ["2"]


def test_a_long_hands_last_card_laid_wholly_past_the_line_is_in_its_hand_s_zone() -> None:
    """``tablectl``'s simulated No Bust 21, seed 11, round 29: seat 2's hand of nine cards, its eighth card
    reaching back over the line and its ninth lying wholly in seat 3 on the eighth. Both are seat 2's."""
    from vision.calibration import Layout

    layout = Layout.scale(1.0, ZONES + [Zone("3", ((500, 200), (750, 200), (750, 400), (500, 400)))])
    jack, ace, four = parse_cards("JS AH 4C")
    eighth, ninth = _card(475, 210), _card(503, 232)  # eighth: x 475 to 538 (in 2 and 3); ninth: 503 to 566
    others = _card(640, 300)  # seat 3's own card, away from seat 2's hand
    outlines = [layout.to_image(c) for c in (eighth, ninth, others)]
    zones = dealt_zones([jack, ace, four], outlines, ["3", "3", "3"], {"2": [jack, ace], "3": [four]}, layout)
    assert zones == ["2", "2", "3"]
    alone = dealt_zones([ace], [layout.to_image(ninth)], ["3"], {"2": [ace]}, layout)
    assert alone == ["3"]  # laid in seat 3 on nothing of seat 2's: the camera says so
