"""Finding cards: the mask, the blobs and the card corners (virtual ones too) on small drawn images."""

import cv2
import numpy as np

from vision.detect import _fitted_lines, _vertex_indices, card_mask, corners_of_blobs, find_blobs, find_corners


def _felt(w: int = 400, h: int = 300) -> np.ndarray:
    image = np.zeros((h, w, 3), np.uint8)
    image[:] = (40, 120, 35)
    return image


def _card(image: np.ndarray, quad: np.ndarray) -> None:
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


def test_felt_is_told_by_hue_around_the_hue_circle() -> None:
    """Felt is within 14 of the commonest saturated hue on OpenCV's 0..179 circle (wrapping past 0) and at
    least 45 saturated; everything else is card. Felt hues at both ends of the circle and in the middle."""
    grid = np.zeros((180, 256, 3), np.uint8)
    grid[:, :, 0] = np.arange(180)[:, None]
    grid[:, :, 1] = np.arange(256)[None, :]
    grid[:, :, 2] = 220
    for felt in (3, 90, 176):
        hsv = np.concatenate([grid, np.full((400, 256, 3), (felt, 200, 150), np.uint8)])
        image = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
        seen = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(int)
        steps = np.abs(seen[:, :, 0] - felt)
        is_felt = (np.minimum(steps, 180 - steps) <= 14) & (seen[:, :, 1] >= 45)
        expected = cv2.morphologyEx(np.where(is_felt, 0, 255).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        assert np.array_equal(card_mask(image, image), expected), felt


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
