"""The camera's lens: OpenCV's camera model, and measuring it.

A lens draws an ideal (pinhole) point at a distorted one; ``Lens.distort``
and ``Lens.undistort`` map camera pixels both ways through OpenCV's model
(``camera_matrix`` and ``distortion = [k1, k2, p1, p2, k3]``). The recognizer
never undistorts a whole frame (a 1080p ``cv2.remap`` costs as much as a
whole read): the layout maps points through the lens, and each patch it reads
is warped from the frame at outlines already in camera pixels.

Two ways to measure a lens (``tablectl vision calibrate``):

* ``lens_from_chessboard``: photographs of a printed chessboard lying on the
  table (any place, any turn), fitted by ``cv2.calibrateCamera`` with the
  principal point at the frame's centre, focal length and k1 fitted (the board
  should cover most of the frame: the lens bends most at its corners);
* ``fit_k1``: the table's own marks, eight or more, spread to the frame's
  corners: the k1 (focal length the frame's half-diagonal, centre the
  frame's) under which a homography fits them best.

>>> lens = Lens.radial(0.04, (1920, 1080))
>>> points = np.array([[100.0, 80.0], [960.0, 540.0], [1800.0, 1000.0]])
>>> bool(np.abs(lens.undistort(lens.distort(points)) - points).max() < 1e-3)
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

__all__ = ["Lens", "LensError", "fit_k1", "lens_from_chessboard"]


class LensError(ValueError):
    """A lens that cannot be stated or measured."""


@dataclass(frozen=True, eq=False)
class Lens:
    """OpenCV's camera model: ``camera_matrix`` (3x3) and ``distortion`` (k1, k2, p1, p2, k3)."""

    camera_matrix: np.ndarray
    distortion: np.ndarray

    @classmethod
    def radial(cls, k1: float, image_size: tuple[int, int]) -> Lens:
        """A lens bending by ``k1`` against the frame's half-diagonal, centred in the frame."""
        w, h = image_size
        d = math.hypot(w / 2, h / 2)
        return cls(np.array([[d, 0, w / 2], [0, d, h / 2], [0, 0, 1.0]]), np.array([k1, 0, 0, 0, 0], float))

    @property
    def is_ideal(self) -> bool:
        return not np.any(self.distortion)

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Camera pixels to the pixels an ideal lens would have drawn them at."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        if not len(pts) or self.is_ideal:
            return pts.reshape(np.shape(points)).astype(np.float64)
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-9)
        if hasattr(cv2, "undistortPointsIter"):  # OpenCV 4
            out = cv2.undistortPointsIter(pts, self.camera_matrix, self.distortion, None, self.camera_matrix, criteria)
        else:  # OpenCV 5 folded it into undistortPoints
            out = cv2.undistortPoints(pts, self.camera_matrix, self.distortion, R=None, P=self.camera_matrix,
                                      criteria=criteria)
        return np.asarray(out, np.float64).reshape(np.shape(points))

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Ideal pixels to where the lens draws them."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if not len(pts) or self.is_ideal:
            return pts.reshape(np.shape(points))
        k = self.camera_matrix
        normal = np.column_stack([(pts[:, 0] - k[0, 2]) / k[0, 0], (pts[:, 1] - k[1, 2]) / k[1, 1], np.ones(len(pts))])
        drawn, _ = cv2.projectPoints(normal.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), k, self.distortion)
        return drawn.reshape(np.shape(points))

    def to_toml(self) -> dict[str, Any]:
        return {
            "camera_matrix": [[round(float(v), 4) for v in row] for row in self.camera_matrix],
            "distortion": [round(float(v), 6) for v in self.distortion],
        }

    @classmethod
    def from_toml(cls, calibration: Mapping[str, Any]) -> Lens | None:
        """The lens of a ``[vision.calibration]`` table; ``None`` where it states none."""
        if "camera_matrix" not in calibration and "distortion" not in calibration:
            return None
        try:
            matrix = np.array(calibration["camera_matrix"], dtype=np.float64)
            distortion = np.array(calibration.get("distortion", [0.0] * 5), dtype=np.float64).ravel()
        except (KeyError, TypeError, ValueError) as error:
            raise LensError(f"[vision.calibration] camera_matrix and distortion: {error}") from None
        if matrix.shape != (3, 3) or not np.isfinite(matrix).all() or matrix[0, 0] <= 0 or matrix[1, 1] <= 0:
            raise LensError("[vision.calibration] camera_matrix must be [[fx, 0, cx], [0, fy, cy], [0, 0, 1]]")
        if distortion.size not in (4, 5, 8) or not np.isfinite(distortion).all():
            raise LensError("[vision.calibration] distortion must be [k1, k2, p1, p2, k3] (4, 5 or 8 numbers)")
        if np.abs(distortion[:2]).max() > 2.0:
            raise LensError(f"[vision.calibration] distortion {distortion.tolist()}: k1 and k2 beyond 2 are no camera lens")
        return cls(matrix, distortion)


def _homography_residual(image: np.ndarray, table: np.ndarray) -> tuple[float, np.ndarray | None]:
    h, _ = cv2.findHomography(image, table, 0)
    if h is None:
        return math.inf, None
    back = cv2.perspectiveTransform(image.reshape(-1, 1, 2), h).reshape(-1, 2)
    return float(np.sqrt(((back - table) ** 2).sum(axis=1).mean())), h


def fit_k1(image_points: Sequence[Sequence[float]], table_points: Sequence[Sequence[float]],
           image_size: tuple[int, int]) -> Lens:
    """The radial lens (k1 against the half-diagonal, centre the frame's) under which the marks fit one
    homography best; at least 8 marks, reaching the frame's outer half, or k1 cannot be told."""
    image = np.asarray(image_points, np.float64).reshape(-1, 2)
    table = np.asarray(table_points, np.float64).reshape(-1, 2)
    if len(image) < 8:
        raise LensError(f"fitting the lens from marks needs at least 8 marks, got {len(image)}")
    w, h = image_size
    reach = np.hypot(image[:, 0] - w / 2, image[:, 1] - h / 2).max() / math.hypot(w / 2, h / 2)
    if reach < 0.5:
        raise LensError("the marks all lie near the frame's centre: mark points toward its corners to fit the lens")

    def residual(k1: float) -> float:
        return _homography_residual(Lens.radial(k1, image_size).undistort(image), table)[0]

    low, high = -0.25, 0.25
    grid = np.linspace(low, high, 51)
    best = float(grid[int(np.argmin([residual(k) for k in grid]))])
    low, high = best - 0.01, best + 0.01
    for _ in range(40):  # golden-section search around the grid's best
        a, b = high - 0.618 * (high - low), low + 0.618 * (high - low)
        if residual(a) < residual(b):
            high = b
        else:
            low = a
    return Lens.radial((low + high) / 2, image_size)


def lens_from_chessboard(images: Sequence[np.ndarray], inner_corners: tuple[int, int]) -> tuple[Lens, float]:
    """The lens from photographs of one chessboard (``inner_corners``: its inner corners across and
    down), and the RMS reprojection error in pixels."""
    object_points, image_points = [], []
    cols, rows = inner_corners
    grid = np.zeros((cols * rows, 3), np.float32)
    grid[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2)
    size: tuple[int, int] | None = None
    for k, image in enumerate(images):
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        if size is not None and grey.shape[::-1] != size:
            raise LensError(f"chessboard photograph {k + 1} is {grey.shape[1]}x{grey.shape[0]}, the first {size[0]}x{size[1]}")
        size = (grey.shape[1], grey.shape[0])
        found, corners = cv2.findChessboardCornersSB(grey, inner_corners, flags=cv2.CALIB_CB_EXHAUSTIVE)
        if not found:
            raise LensError(f"chessboard photograph {k + 1}: no {cols}x{rows} chessboard (inner corners) found")
        object_points.append(grid)
        image_points.append(corners.astype(np.float32))
    if size is None:
        raise LensError("no chessboard photograph given")
    w, h = size
    d = math.hypot(w / 2, h / 2)
    guess = np.array([[d, 0, w / 2], [0, d, h / 2], [0, 0, 1.0]])
    # The focal length starts at the half-diagonal and is fitted with k1 (k2 would bend the frame's
    # corners, beyond the board, at its whim); the principal point stays at the centre. Whatever focal length a nearly flat view settles
    # on, the distortion in pixels it gives with its k1 is what the photographs show.
    flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO
             | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3)
    rms, matrix, distortion, _, _ = cv2.calibrateCamera(object_points, image_points, size, guess, np.zeros(5), flags=flags)
    return Lens(np.asarray(matrix, np.float64), np.asarray(distortion, np.float64).ravel()[:5]), float(rms)
