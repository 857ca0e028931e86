"""The camera's lens: stated, fitted from the table's marks, measured from a chessboard, and used by the layout.

The distorted frames are drawn by ``vision.envelope.camera`` (the generator's own
lens, solved by fixed-point iteration), never by OpenCV's model that
``vision.lens`` uses, so the two must agree by meaning, not by sharing code.
"""

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.commands.cli import main
from vision.calibration import CalibrationError, Layout, load_vision_table
from vision.envelope.camera import EnvelopeCamera, lens_distort, lens_undistort
from vision.envelope.conditions import draw_conditions
from vision.lens import Lens, LensError, fit_k1, lens_from_chessboard

FRAME = (1920, 1080)


def _marks(k1: float, homography: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A 4 x 3 grid of table marks (mm) reaching the frame's corners, and where a lens of k1 shows them."""
    table = np.stack(np.meshgrid(np.linspace(0, 1000, 4), np.linspace(0, 560, 3)), axis=-1).reshape(-1, 2)
    ideal = cv2.perspectiveTransform(table.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return table, lens_distort(ideal, k1)


HOMOGRAPHY = cv2.getPerspectiveTransform(
    np.float32([[0, 0], [1000, 0], [1000, 560], [0, 560]]), np.float32([[70, 60], [1850, 40], [1880, 1040], [40, 1020]]))


@pytest.mark.parametrize("k1", [-0.05, -0.02, 0.0, 0.03, 0.05])
def test_opencvs_model_with_the_half_diagonal_as_focal_length_is_the_issues_k1(k1: float) -> None:
    points = np.random.default_rng(0).uniform([0, 0], FRAME, (40, 2))
    lens = Lens.radial(k1, FRAME)
    assert np.abs(lens.distort(points) - lens_distort(points, k1)).max() < 1e-6
    assert np.abs(lens.undistort(points) - lens_undistort(points, k1)).max() < 1e-4


@pytest.mark.parametrize("k1", [-0.05, 0.04])
def test_k1_is_fitted_from_twelve_marks_reaching_the_corners(k1: float) -> None:
    table, image = _marks(k1, HOMOGRAPHY)
    assert fit_k1(image, table, FRAME).distortion[0] == pytest.approx(k1, abs=1e-3)


def test_fitting_the_lens_from_marks_near_the_centre_is_refused_by_name() -> None:
    table = np.stack(np.meshgrid(np.linspace(0, 100, 4), np.linspace(0, 50, 3)), axis=-1).reshape(-1, 2)
    with pytest.raises(LensError, match="corners"):
        fit_k1(table + [900, 500], table, FRAME)
    with pytest.raises(LensError, match="at least 8"):
        fit_k1(table[:5] + [100, 100], table[:5], FRAME)


def test_a_layout_with_its_lens_maps_the_cameras_own_pixels_to_the_table_and_back() -> None:
    k1 = -0.045
    table, image = _marks(k1, HOMOGRAPHY)
    with_lens = Layout.fit(image[[0, 3, 11, 8]], table[[0, 3, 11, 8]], lens=Lens.radial(k1, FRAME))
    without = Layout.fit(image[[0, 3, 11, 8]], table[[0, 3, 11, 8]])
    assert np.abs(with_lens.to_table(image) - table).max() < 0.05
    assert np.abs(without.to_table(image) - table).max() > 5.0  # the middle marks: the lens bends them mm off
    assert np.abs(with_lens.to_image(table) - image).max() < 0.01


def test_the_lens_goes_into_the_config_and_comes_back(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    table, image = _marks(0.03, HOMOGRAPHY)
    assert main(["vision", "calibrate", "--config", str(config), "--fit-lens",
                 "--image-points", " ".join(f"{x},{y}" for x, y in image),
                 "--table-points", " ".join(f"{x},{y}" for x, y in table)]) == 0
    layout = Layout.from_toml(load_vision_table(config))
    assert layout.lens is not None and layout.lens.distortion[0] == pytest.approx(0.03, abs=1e-3)
    assert np.abs(layout.to_table(image) - table).max() < 0.1


def test_a_lens_stated_wrong_in_the_config_is_named() -> None:
    with pytest.raises(CalibrationError, match="camera_matrix"):
        Layout.from_toml({"calibration": {"image_points": [[0, 0], [1, 0], [1, 1], [0, 1]],
                                          "table_points": [[0, 0], [1, 0], [1, 1], [0, 1]],
                                          "camera_matrix": [[1, 0], [0, 1]]}})


def test_points_sent_nowhere_and_no_points_at_all_come_back_without_a_traceback() -> None:
    """Issue #49: ``to_image`` of no points raised (``cv2.perspectiveTransform`` returned None)."""
    layout = Layout.fit([(0, 0), (200, 0), (200, 100), (0, 100)], [(0, 0), (100, 0), (100, 50), (0, 50)],
                        lens=Lens.radial(-0.03, FRAME))
    assert layout.to_image(np.zeros((0, 2))).shape == (0, 2)
    assert layout.to_table(np.zeros((0, 2))).shape == (0, 2)


def _chessboard_photo(k1: float, seed: int, cols: int = 9, rows: int = 6) -> np.ndarray:
    """A chessboard of ``cols`` x ``rows`` inner corners (45 mm squares) lying on the table, photographed by
    one of the envelope's pinhole cameras (tilted up to 14 degrees) through a lens of k1."""
    rng = np.random.default_rng(seed)
    conditions = dataclasses.replace(draw_conditions(rng), k1=k1, card_width_px=130.0, roll_deg=float(rng.uniform(0, 360)))
    camera = EnvelopeCamera.draw(conditions, 63.0, rng)
    square, px = 45.0, 3
    board = np.full(((rows + 3) * int(square) * px, (cols + 3) * int(square) * px), 255, np.uint8)
    for r in range(rows + 1):
        for c in range(cols + 1):
            if (r + c) % 2 == 0:
                y, x = (r + 1) * int(square) * px, (c + 1) * int(square) * px
                board[y:y + int(square) * px, x:x + int(square) * px] = 0
    h, w = board.shape
    on_table = np.array([[0, 0], [w, 0], [w, h], [0, h]], float) / px - [w / px / 2, h / px / 2]
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), camera.to_ideal(on_table).astype(np.float32))
    ideal = cv2.warpPerspective(board, m, FRAME, flags=cv2.INTER_AREA, borderValue=140)
    gy, gx = np.mgrid[0:FRAME[1], 0:FRAME[0]].astype(np.float64)
    source = lens_undistort(np.stack([gx, gy], axis=-1), k1).astype(np.float32)
    photo = cv2.remap(ideal, source[..., 0], source[..., 1], cv2.INTER_LINEAR, borderValue=140)
    return cv2.cvtColor(cv2.GaussianBlur(photo, (0, 0), 0.8), cv2.COLOR_GRAY2BGR)


def test_the_lens_is_measured_from_chessboard_photographs_on_the_table(tmp_path: Path) -> None:
    photos = [_chessboard_photo(-0.04, seed) for seed in (1, 2)]
    lens, rms = lens_from_chessboard(photos, (9, 6))
    assert rms < 1.0
    drawn = lens.distort(np.array([[400.0, 250.0], [1500.0, 850.0], [960.0, 300.0]]))
    assert np.abs(drawn - lens_distort(np.array([[400.0, 250.0], [1500.0, 850.0], [960.0, 300.0]]), -0.04)).max() < 2.5
    for k, photo in enumerate(photos):
        cv2.imwrite(str(tmp_path / f"board{k}.png"), photo)
    config = tmp_path / "table.toml"
    table, image = _marks(-0.04, HOMOGRAPHY)
    assert main(["vision", "calibrate", "--config", str(config), "--chessboard", *(str(tmp_path / f"board{k}.png") for k in range(2)),
                 "--image-points", " ".join(f"{x},{y}" for x, y in image[[0, 3, 11, 8]]),
                 "--table-points", " ".join(f"{x},{y}" for x, y in table[[0, 3, 11, 8]])]) == 0
    layout = Layout.from_toml(load_vision_table(config))
    assert np.abs(layout.to_table(image) - table).max() < 2.0  # the middle marks, 2 mm or better


def test_a_photograph_without_the_chessboard_is_named() -> None:
    with pytest.raises(LensError, match="photograph 1"):
        lens_from_chessboard([np.full((1080, 1920, 3), 128, np.uint8)], (9, 6))
