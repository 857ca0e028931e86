"""Layout calibration: where the table is in the camera image, and its named zones.

A technician marks four or more points whose table position is known (the
corners of the printed layout, say); a homography maps image pixels to table
millimetres and back. Zones (player spots, dealer, community cards, discard)
are polygons in table millimetres, so a read card is assigned to the zone that
holds its centre. All of it lives in the table config's ``[vision]`` table::

    [vision]
    deck = "aisleriot-anglo"
    card_height_mm = 88.0

    [vision.calibration]
    image_points = [[102.0, 80.0], [1810.0, 75.0], [1850.0, 1010.0], [70.0, 1020.0]]
    table_points = [[0.0, 0.0], [1100.0, 0.0], [1100.0, 620.0], [0.0, 620.0]]

    [vision.zones]
    dealer = [[450.0, 40.0], [650.0, 40.0], [650.0, 200.0], [450.0, 200.0]]

A real lens bends straight lines, most at the frame's corners. The lens is
OpenCV's camera model, stored beside the marks::

    [vision.calibration]
    camera_matrix = [[1101.4, 0.0, 960.0], [0.0, 1101.4, 540.0], [0.0, 0.0, 1.0]]
    distortion = [-0.03, 0.0, 0.0, 0.0, 0.0]   # k1, k2, p1, p2, k3

``tablectl vision calibrate`` measures it from photographs of a chessboard
lying on the table (``vision.lens``) or fits k1 from eight or more marks. The
marks' ``image_points`` are the pixels as the camera shows them; the
homography maps the lens-corrected pixels to the table, so ``to_table`` and
``to_image`` take and give the camera's own pixels. A lens with k1 given
against the frame's half-diagonal ``D`` (``r = |p - c| / D``, as issue #49
states it) is ``fx = fy = D`` at the frame's centre.

>>> layout = Layout.fit([(0, 0), (200, 0), (200, 100), (0, 100)], [(0, 0), (100, 0), (100, 50), (0, 50)])
>>> layout.to_table([(100, 50)]).round(3).tolist()
[[50.0, 25.0]]
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.lens import Lens, LensError

__all__ = ["CalibrationError", "Zone", "Layout", "image_size_of", "load_vision_table", "scale_warning"]

MAX_REPROJECTION_MM = 5.0
#: The least scale (pixels per table millimetre at the layout's centre) the recognizer is measured at:
#: the envelope's narrowest cards, 95 px wide for 63 mm (``vision.envelope.conditions``).
MEASURED_PX_PER_MM = 1.5


class CalibrationError(ValueError):
    """Calibration points or zones that cannot make a layout."""


Point = tuple[float, float]


@dataclass(frozen=True)
class Zone:
    """A named area of the table, a polygon in table millimetres."""

    name: str
    polygon: tuple[Point, ...]

    def contains(self, point: Point) -> bool:
        contour = np.array(self.polygon, dtype=np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0

    @property
    def center(self) -> Point:
        pts = np.array(self.polygon, dtype=np.float64)
        return (float(pts[:, 0].mean()), float(pts[:, 1].mean()))


def _points(values: Iterable[Sequence[float]], what: str) -> np.ndarray:
    try:
        pts = np.array([[float(p[0]), float(p[1])] for p in values], dtype=np.float64)
    except (TypeError, ValueError, IndexError) as error:
        raise CalibrationError(f"{what}: expected a list of [x, y] pairs ({error})") from None
    if pts.ndim != 2 or pts.shape[1] != 2 or not np.isfinite(pts).all():
        raise CalibrationError(f"{what}: expected a list of finite [x, y] pairs")
    return pts


@dataclass(frozen=True, eq=False)
class Layout:
    """The image-to-table homography, the points it was fitted on, and the zones."""

    image_points: np.ndarray
    table_points: np.ndarray
    image_to_table: np.ndarray
    zones: tuple[Zone, ...] = field(default=())
    lens: Lens | None = None
    """The camera's lens; ``image_to_table`` maps lens-corrected pixels (see the module docstring)."""
    image_size: tuple[int, int] | None = None
    """The width and height of the frames it was measured on, when known: frames of another size (a camera set to
    another resolution) put every card elsewhere, and are refused by name (``frame_size_error``)."""

    @classmethod
    def fit(
        cls, image_points: Iterable[Sequence[float]], table_points: Iterable[Sequence[float]], zones: Iterable[Zone] = (),
        lens: Lens | None = None, image_size: tuple[int, int] | None = None,
    ) -> Layout:
        """Fit the homography; four or more point pairs, not three on a line, reprojecting within 5 mm.
        ``image_points`` are camera pixels, corrected for ``lens`` before the fit."""
        img = _points(image_points, "image_points")
        tab = _points(table_points, "table_points")
        if len(img) != len(tab):
            raise CalibrationError(f"{len(img)} image points but {len(tab)} table points: they must pair up")
        if len(img) < 4:
            raise CalibrationError(f"a homography needs at least 4 point pairs, got {len(img)}")
        ideal = lens.undistort(img) if lens is not None else img
        homography, _ = cv2.findHomography(ideal, tab, 0)
        if homography is None or abs(np.linalg.det(homography)) < 1e-12:
            raise CalibrationError("calibration points are degenerate (three or more on one line?)")
        layout = cls(img, tab, homography, tuple(zones), lens, image_size)
        error = float(np.abs(layout.to_table(img) - tab).max())
        if error > MAX_REPROJECTION_MM:
            raise CalibrationError(f"calibration points disagree: a point reprojects {error:.1f} mm off (limit {MAX_REPROJECTION_MM})")
        return layout

    @classmethod
    def scale(cls, px_per_mm: float, zones: Iterable[Zone] = ()) -> Layout:
        """A layout for a camera looking straight down with ``px_per_mm``: used when nothing is calibrated."""
        img = np.array([[0, 0], [px_per_mm * 100, 0], [px_per_mm * 100, px_per_mm * 100], [0, px_per_mm * 100]])
        return cls.fit(img, img / px_per_mm, zones)

    @cached_property
    def table_to_image(self) -> np.ndarray:
        return np.linalg.inv(self.image_to_table)

    def to_table(self, points: Iterable[Sequence[float] | np.ndarray] | np.ndarray) -> np.ndarray:
        """Camera pixels (n, 2) to table millimetres."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if self.lens is not None:
            pts = self.lens.undistort(pts)
        return _transform(pts, self.image_to_table)

    def to_image(self, points: Iterable[Sequence[float] | np.ndarray] | np.ndarray) -> np.ndarray:
        """Table millimetres (n, 2) to camera pixels."""
        pts = _transform(np.asarray(points, dtype=np.float64).reshape(-1, 2), self.table_to_image)
        return self.lens.distort(pts) if self.lens is not None else pts

    def zone_at(self, image_point: Sequence[float] | np.ndarray) -> str | None:
        """The zone holding an image point (the first listed, where zones overlap)."""
        table = self.to_table([image_point])[0]
        return next((z.name for z in self.zones if z.contains((table[0], table[1]))), None)

    def zone(self, name: str) -> Zone:
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(f"no zone {name!r}: the layout has {', '.join(z.name for z in self.zones) or 'no zones'}")

    @property
    def centre_px_per_mm(self) -> float:
        """The image scale at the middle of the marked points."""
        return self.px_per_mm(self.image_points.mean(axis=0))

    def px_per_mm(self, image_point: Sequence[float] | np.ndarray) -> float:
        """The local image scale near a point (pixels per table millimetre)."""
        table = self.to_table([image_point])[0]
        ends = self.to_image([table, table + [10.0, 0.0], table + [0.0, 10.0]])
        return float((np.linalg.norm(ends[1] - ends[0]) + np.linalg.norm(ends[2] - ends[0])) / 20.0)

    def to_toml(self) -> dict[str, Any]:
        """The ``calibration`` and ``zones`` entries of the ``[vision]`` table."""
        return {
            "calibration": {
                "image_points": [[round(float(x), 3), round(float(y), 3)] for x, y in self.image_points],
                "table_points": [[round(float(x), 3), round(float(y), 3)] for x, y in self.table_points],
                **(self.lens.to_toml() if self.lens is not None else {}),
                **({"image_size": list(self.image_size)} if self.image_size is not None else {}),
            },
            "zones": {z.name: [[float(x), float(y)] for x, y in z.polygon] for z in self.zones},
        }

    @classmethod
    def from_toml(cls, vision: Mapping[str, Any]) -> Layout:
        calibration = vision.get("calibration")
        if not isinstance(calibration, Mapping):
            raise CalibrationError("[vision.calibration] is missing: run `tablectl vision calibrate`")
        zones = []
        for name, polygon in dict(vision.get("zones", {})).items():
            pts = _points(polygon, f"zone {name!r}")
            if len(pts) < 3:
                raise CalibrationError(f"zone {name!r}: a zone needs at least 3 corners, got {len(pts)}")
            zones.append(Zone(str(name), tuple((float(x), float(y)) for x, y in pts)))
        try:
            lens = Lens.from_toml(calibration)
        except LensError as error:
            raise CalibrationError(str(error)) from None
        return cls.fit(calibration.get("image_points", []), calibration.get("table_points", []), zones, lens,
                       image_size_of(calibration))

    def frame_size_error(self, frame: np.ndarray) -> str | None:
        """Why a frame cannot be read through this calibration (its size is not the one calibrated), else ``None``."""
        if self.image_size is None or (frame.shape[1], frame.shape[0]) == self.image_size:
            return None
        width, height = self.image_size
        return (f"the camera sends {frame.shape[1]}x{frame.shape[0]} frames, but [vision.calibration] was measured on "
                f"{width}x{height} frames: set the camera to {width}x{height}, or calibrate it again at its new size")


def image_size_of(calibration: Mapping[str, Any]) -> tuple[int, int] | None:
    """The ``image_size`` a ``[vision.calibration]`` table records (``None`` when it records none)."""
    value = calibration.get("image_size")
    if value is None:
        return None
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
        raise CalibrationError(f"[vision.calibration] image_size must be [width, height] in pixels, not {value!r}")
    return int(value[0]), int(value[1])


def _transform(points: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """Points (n, 2) through a homography; none in, none out; a point sent to infinity comes out far
    beyond any frame rather than as a division by zero."""
    if not len(points):
        return np.zeros((0, 2))
    h = np.column_stack([points, np.ones(len(points))]) @ homography.T
    w = h[:, 2:3]
    w = np.where(np.abs(w) < 1e-12, np.copysign(1e-12, w), w)
    return np.asarray(h[:, :2] / w, np.float64)


def load_vision_table(config: Path) -> dict[str, Any]:
    """The ``[vision]`` table of a table config (empty when the config has none)."""
    try:
        with open(config, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise CalibrationError(f"{config}: no such table config") from None
    except tomllib.TOMLDecodeError as error:
        raise CalibrationError(f"{config}: not valid TOML ({error})") from None
    vision = data.get("vision", {})
    if not isinstance(vision, dict):
        raise CalibrationError(f"{config}: `vision` must be a table")
    return vision


def scale_warning(layout: Layout) -> str | None:
    """What to tell the technician when the camera sees the cards smaller than the recognizer is
    measured at (``MEASURED_PX_PER_MM``); ``None`` when it does not."""
    scale = layout.centre_px_per_mm
    if scale >= MEASURED_PX_PER_MM:
        return None
    return (f"the camera sees the table at {scale:.2f} px/mm, below the {MEASURED_PX_PER_MM} px/mm the recognizer "
            f"is measured at: expect more unreadable cards and, further below, wrong reads; bring the camera "
            f"closer, narrow its view or raise its resolution (docs/vision.md)")
