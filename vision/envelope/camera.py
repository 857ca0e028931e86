"""The envelope's camera: a pinhole over the table, a radially distorting lens, and a calibration a
little off from both.

The camera is a real pinhole: it looks at a point of the table from a height
that shows cards ``card_width_px`` wide there, tilted from the vertical by
``tilt_deg`` toward a random side and rolled about its axis by ``roll_deg``
(180 degrees: mounted upside down). World axes: table x and y, z pointing
into the table, so the camera looks along +z and a table seen from above is
never mirrored.

The lens maps an ideal (pinhole) image point ``p`` to ``c + (p - c)(1 + k1 r^2)``,
``r = |p - c| / D``, ``c`` the frame's centre and ``D`` its half-diagonal:
OpenCV's model with ``fx = fy = D`` and ``distortion = [k1, 0, 0, 0, 0]``, which
is how the calibration handed to the recognizer states it. The inverse, used
to render, is solved here by fixed-point iteration (not by OpenCV).

The calibration is what a technician measured some time ago: the table marks'
pixels under a camera zoomed by ``1 / (1 + zoom_error)`` from today's, each mark
moved by up to ``perspective_error`` of the frame, and the lens's k1 off by
``k1_error``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.envelope.conditions import Conditions

__all__ = ["FRAME", "EnvelopeCamera", "lens_distort", "lens_undistort"]

FRAME = (1920, 1080)
CENTRE = np.array([FRAME[0] / 2, FRAME[1] / 2])
HALF_DIAGONAL = math.hypot(*CENTRE)


def lens_distort(points: np.ndarray, k1: float) -> np.ndarray:
    """Ideal image points (n, 2) as the lens draws them."""
    d = (np.asarray(points, float) - CENTRE) / HALF_DIAGONAL
    r2 = (d * d).sum(axis=-1, keepdims=True)
    return np.asarray(CENTRE + d * (1.0 + k1 * r2) * HALF_DIAGONAL, np.float64)


def lens_undistort(points: np.ndarray, k1: float, iterations: int = 12) -> np.ndarray:
    """The ideal points the lens draws at ``points`` (the inverse of ``lens_distort``)."""
    d = (np.asarray(points, float) - CENTRE) / HALF_DIAGONAL
    u = d.copy()
    for _ in range(iterations):
        u = d / (1.0 + k1 * (u * u).sum(axis=-1, keepdims=True))
    return np.asarray(CENTRE + u * HALF_DIAGONAL, np.float64)


def _rotation(conditions: Conditions, rng: np.random.Generator) -> np.ndarray:
    """World-to-camera rotation: looking along +z, tilted, then rolled about the optical axis."""
    tilt, toward = math.radians(conditions.tilt_deg), rng.uniform(0, 2 * math.pi)
    axis = np.array([math.cos(toward), math.sin(toward), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    tilted = np.eye(3) + math.sin(tilt) * k + (1 - math.cos(tilt)) * k @ k
    roll = math.radians(conditions.roll_deg)
    rolled = np.array([[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]])
    return np.asarray(rolled @ tilted.T, np.float64)


@dataclass(frozen=True, eq=False)
class EnvelopeCamera:
    """Today's camera (``table_to_ideal``, ``k1``) and the calibration measured for it (``calibration``)."""

    table_to_ideal: np.ndarray
    k1: float
    calibration: dict[str, Any]
    view_mm: np.ndarray
    """The table seen: the frame's corners on the table (mm), for laying cards out."""

    @classmethod
    def draw(cls, conditions: Conditions, card_width_mm: float, rng: np.random.Generator) -> EnvelopeCamera:
        focal = HALF_DIAGONAL * float(rng.uniform(1.0, 1.6))
        height = focal * card_width_mm / conditions.card_width_px
        rotation = _rotation(conditions, rng)
        target = np.array([0.0, 0.0, 0.0])
        centre = target - height * rotation.T @ np.array([0.0, 0.0, 1.0])
        k = np.array([[focal, 0, CENTRE[0]], [0, focal, CENTRE[1]], [0, 0, 1.0]])
        translation = -rotation @ centre
        homography = k @ np.column_stack([rotation[:, 0], rotation[:, 1], translation])
        homography /= homography[2, 2]
        corners = np.array([[0, 0], [FRAME[0], 0], [FRAME[0], FRAME[1]], [0, FRAME[1]]], float)
        view = _apply(np.linalg.inv(homography), lens_undistort(corners, conditions.k1))
        calibration = _calibration(homography, view, conditions, rng)
        return cls(homography, conditions.k1, calibration, view)

    def to_image(self, table_mm: np.ndarray) -> np.ndarray:
        """Table points (mm) where today's camera draws them (frame pixels, through the lens)."""
        return lens_distort(self.to_ideal(table_mm), self.k1)

    def to_ideal(self, table_mm: np.ndarray) -> np.ndarray:
        return _apply(self.table_to_ideal, table_mm)


def _apply(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, float).reshape(-1, 2)
    h = np.column_stack([pts, np.ones(len(pts))]) @ homography.T
    return np.asarray(h[:, :2] / h[:, 2:3], np.float64).reshape(np.shape(points))


def _calibration(homography: np.ndarray, view: np.ndarray, conditions: Conditions,
                 rng: np.random.Generator) -> dict[str, Any]:
    """``[vision.calibration]`` as a technician measured it: four table marks well inside the view."""
    middle = view.mean(axis=0)
    marks = middle + 0.75 * (view - middle)
    ideal = _apply(homography, marks)
    then = CENTRE + (ideal - CENTRE) / (1.0 + conditions.zoom_error)
    then = then + rng.uniform(-1, 1, then.shape) * conditions.perspective_error * np.array(FRAME)
    k1 = conditions.k1 + conditions.k1_error
    image = lens_distort(then, k1)
    return {
        "image_points": [[round(float(x), 2), round(float(y), 2)] for x, y in image],
        "table_points": [[round(float(x), 2), round(float(y), 2)] for x, y in marks],
        "camera_matrix": [[HALF_DIAGONAL, 0.0, CENTRE[0]], [0.0, HALF_DIAGONAL, CENTRE[1]], [0.0, 0.0, 1.0]],
        "distortion": [round(k1, 5), 0.0, 0.0, 0.0, 0.0],
    }
