"""Finding cards: the mask, the blobs and the card corners (virtual ones too) on small drawn images."""

import cv2
import numpy as np
import pytest

from vision.detect import (
    UNLIKE_CLOTH,
    _fitted_lines,
    _vertex_indices,
    card_mask,
    corners_of_blobs,
    find_blobs,
    find_corners,
    half_size,
    least_channel,
)
from vision.seams import seam_corners


def _felt(w: int = 400, h: int = 300) -> np.ndarray:
    image = np.zeros((h, w, 3), np.uint8)
    image[:] = (40, 120, 35)
    return image


def _card(image: np.ndarray, quad: np.ndarray) -> None:
    """A white card with a thin grey outline, antialiased."""
    cv2.fillConvexPoly(image, np.round(quad * 16).astype(np.int32), (245, 245, 245), cv2.LINE_AA, shift=4)
    cv2.polylines(image, [np.round(quad * 16).astype(np.int32)], True, (120, 120, 120), 1, cv2.LINE_AA, shift=4)


def _rect(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) @ rot.T + [cx, cy]


def test_the_felt_is_not_card_and_a_white_card_is() -> None:
    image = _felt()
    _card(image, _rect(200, 150, 60, 84, 20))
    mask = card_mask(image)
    assert mask[75, 100] == 255 and mask[5, 5] == 0


def test_a_lone_card_gives_its_four_corners_to_about_a_pixel() -> None:
    """At every angle each corner within two and a half pixels, one and a half on average (the mask is
    found at half size, and its edges are a staircase)."""
    errors = []
    for angle in range(0, 90, 5):
        image = _felt()
        quad = _rect(200, 150, 63, 88, angle)
        _card(image, quad)
        blobs, filled = find_blobs(card_mask(image), 1000)
        assert len(blobs) == 1 and filled[75, 100] == 255
        found = find_corners(blobs[0].contour, min_edge=14, reach=100).point
        errors += [np.min(np.linalg.norm(found - truth, axis=1)) for truth in quad]
    assert max(errors) < 2.5 and np.mean(errors) < 1.6


def test_felt_coloured_artwork_open_to_the_cloth_is_card_once_its_gap_is_bridged() -> None:
    """A card whose green picture reaches its edge through a gap 8 px wide: the picture is cut out of the
    mask and opens onto the felt, so it is no hole. Bridged (gaps up to 18 px), the filled mask holds
    it; the outline stays the mask's own, and felt between two cards further apart is not filled."""
    image = _felt(500, 300)
    _card(image, _rect(150, 150, 126, 176, 0))
    image[100:200, 120:180] = (40, 120, 35)
    image[190:240, 146:154] = (40, 120, 35)
    _card(image, _rect(270, 150, 126, 176, 0))
    _card(image, _rect(430, 150, 60, 84, 0))
    mask = card_mask(image)
    plain_blobs, plain = find_blobs(mask, 1000)
    bridged_blobs, bridged = find_blobs(mask, 1000, 18.0)
    picture, between = (75, 75), (75, 183)
    assert plain[picture] == 0 and bridged[picture] == 255
    assert bridged[between] == 0
    assert [b.contour.tolist() for b in plain_blobs] == [b.contour.tolist() for b in bridged_blobs]


def test_the_corners_of_several_blobs_found_at_once_are_each_blobs_own() -> None:
    image = _felt()
    quads = [_rect(100, 150, 63, 88, 10), _rect(300, 150, 63, 88, -30)]
    for quad in quads:
        _card(image, quad)
    blobs, _ = find_blobs(card_mask(image), 1000)
    contours = [blob.contour for blob in blobs]
    together, owner = corners_of_blobs(contours, min_edge=14, reach=100)
    assert sorted(set(owner.tolist())) == [0, 1]
    for b, contour in enumerate(contours):
        found = together.point[owner == b]
        assert found.tolist() == find_corners(contour, min_edge=14, reach=100).point.tolist()
        nearest = min(quads, key=lambda q: np.linalg.norm(q.mean(axis=0) - contour.mean(axis=0)))
        assert all(np.min(np.linalg.norm(found - truth, axis=1)) < 2.0 for truth in nearest)
        assert all(np.min(np.linalg.norm(nearest - point, axis=1)) < 3.0 for point in found)


def test_the_hidden_corner_of_a_fanned_card_is_found_from_its_two_visible_edges() -> None:
    image = _felt()
    below = _rect(170, 130, 63, 88, 0)
    middle = below + [20, 28]
    top = middle + [20, 28]
    for quad in (below, middle, top):
        _card(image, quad)
    blobs, _ = find_blobs(card_mask(image), 1000)
    found = find_corners(blobs[0].contour, min_edge=14, reach=100).point
    assert np.min(np.linalg.norm(found - middle[0], axis=1)) < 2.0


@pytest.mark.parametrize("felt", [(40, 120, 35), (105, 105, 100), (28, 28, 30), (150, 150, 145), (35, 30, 130)],
                         ids=["green", "grey", "black", "light grey", "red"])
def test_a_card_is_found_by_its_white_on_any_felt_under_uneven_light(felt: tuple[int, int, int]) -> None:
    """Issue #49: grey felt read 4% where green read 60%, the mask keyed on the felt's hue. A card is the
    whiter thing, whatever the cloth's colour; the light falls off by a third across the frame."""
    image = np.zeros((300, 600, 3), np.float32)
    image[:] = felt
    _card(image, _rect(120, 150, 60, 84, 20))
    _card(image, _rect(480, 150, 60, 84, -10))
    light = np.linspace(1.0, 0.67, 600, dtype=np.float32)[None, :, None]
    image = np.clip(image * light, 0, 255).astype(np.uint8)
    mask = card_mask(image, card_width_px=60)
    assert mask[75, 60] == 255 and mask[75, 240] == 255
    assert mask[10, 10] == 0 and mask[140, 150] == 0 and mask[10, 290] == 0


def test_a_printed_line_on_the_felt_is_no_card_but_a_card_on_it_is() -> None:
    image = _felt(600, 300)
    cv2.line(image, (0, 150), (599, 150), (235, 240, 245), 2)  # 2 mm on a 63 mm card
    _card(image, _rect(300, 150, 60, 84, 0))
    mask = card_mask(image, card_width_px=60)
    assert mask[75, 150] == 255
    assert mask[75, 20] == 0 and mask[75, 280] == 0


def test_an_index_a_hair_from_the_edge_does_not_notch_the_card() -> None:
    """A glyph printed close to the card's edge is a hole in the white; the hole is card, so the strokes
    opened away never open it onto the cloth."""
    image = np.zeros((300, 400, 3), np.uint8)
    image[:] = (105, 105, 100)
    _card(image, _rect(200, 150, 126, 176, 0))
    cv2.rectangle(image, (140, 65), (150, 90), (20, 20, 20), -1)  # 3 px of white between glyph and edge
    filled = card_mask(image, card_width_px=126)
    assert filled[77 // 2, 145 // 2] == 255 and filled[77 // 2, 139 // 2] == 255


def test_vertices_are_found_where_the_outline_holds_them_first() -> None:
    """A blob with a one-pixel spike: its outline passes the spike's points twice."""
    mask = np.zeros((60, 80), np.uint8)
    mask[10:40, 10:50] = 255
    mask[25, 50:70] = 255
    contour = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0][0].reshape(-1, 2).astype(np.float32)
    approx = cv2.approxPolyDP(contour.reshape(-1, 1, 2), 2.0, True).reshape(-1, 2)
    found = _vertex_indices(contour, 2.0)
    assert found == sorted(found) and len(found) == len({tuple(p) for p in approx.tolist()})
    for index in found:
        first = np.flatnonzero((contour == contour[index]).all(axis=1))[0]
        assert first == index and (approx == contour[index]).all(axis=1).any()


def test_each_run_gets_its_own_least_squares_line() -> None:
    """Runs of several lengths fitted at once: each line is its run's principal axis through its centroid."""
    rng = np.random.default_rng(3)
    runs = []
    for length, angle in [(40, 0.0), (7, 33.0), (120, 91.5), (2, 200.0), (60, -47.0)]:
        a = np.radians(angle)
        along = np.arange(length)[:, None] * [np.cos(a), np.sin(a)]
        runs.append(np.round(along + [50.0, 80.0]) + rng.normal(0.0, 0.4, (length, 2)))
    starts = np.cumsum([0] + [len(r) for r in runs[:-1]])
    direction, point = _fitted_lines(np.concatenate(runs), starts)
    for run, d, p in zip(runs, direction, point):
        axis = np.linalg.svd(run - run.mean(axis=0))[2][0]
        assert np.allclose(p, run.mean(axis=0)) and abs(abs(d @ axis) - 1.0) < 1e-9


def test_a_long_staircase_edge_is_fitted_to_a_tenth_of_a_degree() -> None:
    """A digital line (the outline of a half-size mask is one) at angles between the pixel axes."""
    for angle in (3.7, 12.0, 27.5, 41.0):
        a = np.radians(angle)
        xs = np.arange(0, 200, 2.0)
        stairs = np.stack([xs, 2.0 * np.round(xs * np.tan(a) / 2.0)], axis=1)
        direction, _ = _fitted_lines(stairs, np.array([0]))
        assert abs(np.degrees(np.arctan2(direction[0, 1], direction[0, 0])) - angle) < 0.1


def _grey_felt(w: int = 500, h: int = 360) -> np.ndarray:
    image = np.zeros((h, w, 3), np.uint8)
    image[:] = (120, 122, 118)
    return image


def test_a_court_picture_printed_to_the_cards_edge_is_card_when_it_is_unlike_the_cloth() -> None:
    """A card whose picture crosses it from side to side in a band of colour no whiter than a grey cloth (a
    court card's sash): by whiteness alone the card falls into two pieces, each too small to be a card;
    with ``unlike_cloth`` the band, far from the cloth's colour and beside the card's white, is card."""
    image = _grey_felt()
    quad = _rect(250, 180, 126, 176, 0)
    _card(image, quad)
    image[165:195, 187:313] = (30, 60, 170)  # a red sash, edge to edge across the card
    whiteness = card_mask(image, card_width_px=126)
    unlike = card_mask(image, card_width_px=126, unlike_cloth=UNLIKE_CLOTH)
    whole = 126 * 176 / 4  # a card's area at half size
    largest = [max((cv2.contourArea(c) for c in cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0]),
                   default=0.0) for m in (whiteness, unlike)]
    assert largest[0] < 0.5 * whole
    assert 0.9 * whole < largest[1] < 1.1 * whole
    assert unlike[5, 5] == 0 and unlike[180 // 2, 250 // 2] == 255


def test_a_print_on_the_cloth_far_from_any_card_stays_cloth() -> None:
    """Colour unlike the cloth is card only beside a card's white: a red logo printed on the felt is not."""
    image = _grey_felt()
    image[40:120, 40:200] = (30, 60, 170)
    assert not card_mask(image, card_width_px=126, unlike_cloth=UNLIKE_CLOTH).any()


def test_the_seams_of_a_tight_fan_give_its_cards_corners() -> None:
    """Five cards each laid 22 px below the last, their sides in line: the pile's outline runs straight past
    their corners, and no two long edges of it meet there. Each card's top edge, a thin grey rim across the
    card below, is a seam, and where it meets the pile's outline lies that card's corner."""
    image = _grey_felt(400, 420)
    quads = [_rect(200, 120 + 22 * k, 126, 176, 0) for k in range(5)]
    for quad in quads:
        _card(image, quad)
    small = half_size(image)
    mask = card_mask(image, small, 126, UNLIKE_CLOTH)
    blobs, filled = find_blobs(mask, 0.35 * 126 * 176)
    assert len(blobs) == 1
    corners, owners = seam_corners(least_channel(small), blobs, filled, 126.0, 126.0 * 176.0)
    assert set(owners.tolist()) == {0}
    for quad in quads[1:]:
        for corner in quad[:2]:  # each card's top corners, on the pile's straight sides
            assert np.linalg.norm(corners.point - corner, axis=1).min() < 4.0
