"""Layout calibration: homography round trips, zones, and the [vision] table of the config."""

import tomllib
from pathlib import Path

import numpy as np
import pytest

from controller.engine.config_edit import edit_config, set_layout
from vision.calibration import CalibrationError, Layout, Zone, load_vision_table

IMAGE = [(102.0, 80.0), (1810.0, 75.0), (1850.0, 1010.0), (70.0, 1020.0), (960.0, 540.0)]
TABLE = [(0.0, 0.0), (1100.0, 0.0), (1100.0, 620.0), (0.0, 620.0)]


def _layout() -> Layout:
    four = Layout.fit(IMAGE[:4], TABLE)
    centre = four.to_table([IMAGE[4]])[0]
    zones = [Zone("dealer", ((450, 40), (650, 40), (650, 200), (450, 200))), Zone("player-1", ((100, 400), (300, 400), (300, 600), (100, 600)))]
    return Layout.fit(IMAGE, [*TABLE, tuple(centre)], zones)


def test_image_to_table_and_back_returns_the_same_pixels() -> None:
    layout = _layout()
    pixels = np.array([[300.0, 200.0], [1500.0, 900.0], [960.0, 540.0]])
    assert np.allclose(layout.to_image(layout.to_table(pixels)), pixels, atol=1e-6)
    assert np.allclose(layout.to_table(IMAGE[:4]), TABLE, atol=1e-3)


def test_a_point_is_assigned_to_the_zone_that_holds_it() -> None:
    layout = _layout()
    dealer_px = layout.to_image([(550, 120)])[0]
    assert layout.zone_at(dealer_px) == "dealer"
    assert layout.zone_at(layout.to_image([(900, 500)])[0]) is None


def test_fewer_than_four_points_is_refused_by_name() -> None:
    with pytest.raises(CalibrationError, match="at least 4"):
        Layout.fit(IMAGE[:3], TABLE[:3])


def test_points_on_one_line_are_refused() -> None:
    with pytest.raises(CalibrationError):
        Layout.fit([(0, 0), (1, 1), (2, 2), (3, 3)], TABLE)


def test_a_mistyped_point_is_caught_by_its_reprojection_error() -> None:
    bad = [*TABLE, (500.0, 300.0)]
    image = [*IMAGE[:4], (300.0, 900.0)]
    with pytest.raises(CalibrationError, match="reprojects"):
        Layout.fit(image, bad)


def test_the_layout_round_trips_through_the_config_keeping_other_sections(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[table]\nid = "T-1"\n\n[vision]\ndeck = "aisleriot-anglo"\n')
    layout = _layout()
    written = layout.to_toml()
    edit_config(config, set_layout(written["calibration"], written["zones"]))
    data = tomllib.loads(config.read_text())
    assert data["table"] == {"id": "T-1"}
    vision = load_vision_table(config)
    assert vision["deck"] == "aisleriot-anglo"
    again = Layout.from_toml(vision)
    assert np.allclose(again.image_to_table / again.image_to_table[2, 2], layout.image_to_table / layout.image_to_table[2, 2], atol=1e-6)
    assert [z.name for z in again.zones] == ["dealer", "player-1"]


def test_a_config_without_calibration_says_what_to_run() -> None:
    with pytest.raises(CalibrationError, match="tablectl vision calibrate"):
        Layout.from_toml({"deck": "x"})


def test_a_calibration_keeps_the_size_of_its_frames_and_names_a_frame_of_another() -> None:
    points = {"image_points": [[0, 0], [1000, 0], [1000, 500], [0, 500]], "table_points": [[0, 0], [800, 0], [800, 400], [0, 400]]}
    layout = Layout.from_toml({"calibration": {**points, "image_size": [1920, 1080]}})
    assert layout.image_size == (1920, 1080) and layout.to_toml()["calibration"]["image_size"] == [1920, 1080]
    assert layout.frame_size_error(np.zeros((1080, 1920, 3), np.uint8)) is None
    assert "sends 1280x720 frames" in (layout.frame_size_error(np.zeros((720, 1280, 3), np.uint8)) or "")
    unsized = Layout.from_toml({"calibration": points})
    assert unsized.frame_size_error(np.zeros((720, 1280, 3), np.uint8)) is None and "image_size" not in unsized.to_toml()["calibration"]
    for wrong in ([1920], [1920, 0], [1920.5, 1080], "1920x1080"):
        with pytest.raises(CalibrationError, match="image_size must be"):
            Layout.from_toml({"calibration": {**points, "image_size": wrong}})
