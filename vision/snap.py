"""Snapping card corners onto the edges the image shows near them.

A corner found on a blob's outline is where two edge lines, fitted to the
outline, cross. In a fan those lines are often fitted far from the corner (the
stretch near it lies on another card, white on white, and is not on the
outline), so a small error in their angle moves the corner by several pixels
and turns it by degrees: enough for its index patch to look like no card.
Near the corner the edge still shows in the image, as the step from the
card's face down to the cloth or to the shadow it casts on the card below.

Each of a corner's two edges is searched, over the stretch where an index
would lie, for the straight line (a few pixels either way, a few degrees
turned) along which the image steps up most strongly into the card. The
corner moves to where the two lines found cross. An edge with no clear step
is left where it was.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import Corners

__all__ = ["snap_corners"]

#: Where along each edge (in card widths from the corner) the step is looked for: past the rounded
#: corner, over the stretch an index corner keeps clear.
ALONG = (0.07, 0.3)
SAMPLES = 12
#: How far (card widths) an edge may move, and how far (degrees) it may turn, searched in steps of
#: two pixels and two degrees; the line found is then fitted to a fraction of a pixel.
SHIFT = 0.1
TURNS_DEG = np.arange(-8.0, 8.5, 2.0)
MAX_STEP = 40.0
#: The weakest mean step (grey levels per pixel) that counts as an edge.
MIN_STEP = 4.0
#: What a move costs against the step found (grey levels per pixel moved, per degree turned): an edge
#: moves only for a clearly stronger step.
PENALTY_PX = 0.3
PENALTY_DEG = 0.3


def snap_corners(frame: np.ndarray, corners: Corners, width_px: float) -> Corners:
    """The corners moved onto the image's edges (``width_px``: a card's width in pixels)."""
    if not len(corners):
        return corners
    n = len(corners)
    both_dirs = np.concatenate([corners.dir_a, corners.dir_b])
    points, dirs = _snap_edges(frame, np.concatenate([corners.point, corners.point]), both_dirs,
                               _inward(both_dirs, np.concatenate([corners.dir_b, corners.dir_a])), width_px)
    line_a, line_b = (points[:n], dirs[:n]), (points[n:], dirs[n:])
    return Corners(_cross(line_a, line_b), line_a[1], line_b[1], corners.len_a, corners.len_b)


def _inward(direction: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The unit normal of each edge that points into the card (toward its other edge)."""
    normal = np.stack([-direction[:, 1], direction[:, 0]], axis=1)
    return np.asarray(normal * np.sign((normal * other).sum(axis=1))[:, None])


def _snap_edges(
    frame: np.ndarray, point: np.ndarray, direction: np.ndarray, inward: np.ndarray, width_px: float
) -> tuple[np.ndarray, np.ndarray]:
    """For each edge (its corner, direction and inward normal), the line near it along which the image
    steps up into the card most strongly: a point on it and its direction."""
    t = np.linspace(ALONG[0], ALONG[1], SAMPLES) * width_px
    tilt = np.tan(np.radians(TURNS_DEG))
    shifts = np.arange(-np.ceil(SHIFT * width_px / 2), np.ceil(SHIFT * width_px / 2) + 1.0) * 2.0
    reach = np.ceil(shifts[-1] + np.abs(tilt).max() * t[-1]) + 3.0
    offsets = np.arange(-reach, reach + 1.0)
    step = _steps(frame, point, direction, inward, t, offsets)
    columns = shifts[:, None, None] + tilt[None, :, None] * t[None, None, :] - offsets[0]
    score = step[:, np.arange(len(t)), np.rint(columns).astype(int)].mean(axis=3)
    score -= PENALTY_PX * np.abs(shifts)[:, None] + PENALTY_DEG * np.abs(TURNS_DEG)[None, :]
    flat = score.reshape(len(point), -1).argmax(axis=1)
    strength = score.reshape(len(point), -1)[np.arange(len(point)), flat]
    s, a = np.divmod(flat, len(tilt))
    shift, slope = _fit_line(step, t, shifts[s] - offsets[0], tilt[a])
    moved = (strength >= MIN_STEP)[:, None]
    new_point = np.where(moved, point + (shift + offsets[0])[:, None] * inward, point)
    new_dir = np.where(moved, direction + slope[:, None] * inward, direction)
    return new_point, new_dir / np.linalg.norm(new_dir, axis=1, keepdims=True)


def _steps(
    frame: np.ndarray, point: np.ndarray, direction: np.ndarray, inward: np.ndarray, t: np.ndarray, offsets: np.ndarray
) -> np.ndarray:
    """(edges, samples, offsets): how much brighter the image gets one pixel further into the card,
    at each distance ``t`` along each edge and each offset across it (capped, so one printed line
    cannot outweigh a whole edge)."""
    n, k, m = len(point), len(t), len(offsets)
    along = (point[:, None, :] + t[None, :, None] * direction[:, None, :]).astype(np.float32)
    across = offsets.astype(np.float32)[None, :] * inward.astype(np.float32)[:, :, None]
    map_x = (along[:, :, 0, None] + across[:, None, 0, :]).reshape(n * k, m)
    map_y = (along[:, :, 1, None] + across[:, None, 1, :]).reshape(n * k, m)
    grey = cv2.cvtColor(cv2.remap(frame, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), cv2.COLOR_BGR2GRAY)
    profile = grey.astype(np.int16)
    step = np.zeros((n * k, m), np.float32)
    step[:, 1:-1] = np.minimum(cv2.subtract(profile[:, 2:], profile[:, :-2]), 2 * MAX_STEP) * 0.5
    return step.reshape(n, k, m)


def _fit_line(step: np.ndarray, t: np.ndarray, column: np.ndarray, slope: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The line found to a fraction of a pixel: at each sample, the strongest step within two pixels
    of the line ``column + slope * t`` (its peak placed by a parabola), and a line fitted through
    those peaks weighted by their strength. Returns its column at ``t = 0`` and its slope."""
    n, k, _ = step.shape
    near = np.rint(column[:, None] + slope[:, None] * t[None, :]).astype(int)[:, :, None] + np.arange(-2, 3)
    rows, samples = np.arange(n)[:, None, None], np.arange(k)[None, :, None]
    window = step[rows, samples, near]
    peak = window[:, :, 1:4].argmax(axis=2) + 1
    at = np.take_along_axis(window, peak[:, :, None] + np.arange(-1, 2), axis=2)
    curve = at[:, :, 0] - 2 * at[:, :, 1] + at[:, :, 2]
    frac = np.where(curve < 0, 0.5 * (at[:, :, 0] - at[:, :, 2]) / np.where(curve < 0, curve, -1.0), 0.0)
    found = near[:, :, 0] + peak + np.clip(frac, -0.5, 0.5)
    weight = np.maximum(at[:, :, 1], 0.0)
    sw = weight.sum(axis=1)
    st, sd = (weight * t).sum(axis=1), (weight * found).sum(axis=1)
    stt, std = (weight * t * t).sum(axis=1), (weight * t * found).sum(axis=1)
    det = sw * stt - st * st
    ok = det > 1e-6 * np.maximum(sw, 1.0) ** 2 * (t[-1] - t[0]) ** 2
    safe = np.where(ok, det, 1.0)
    fitted_slope = np.where(ok, (sw * std - st * sd) / safe, slope)
    fitted_column = np.where(ok, (stt * sd - st * std) / safe, column)
    return fitted_column, fitted_slope


def _cross(line_a: tuple[np.ndarray, np.ndarray], line_b: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Where each pair of lines (point, direction) crosses."""
    (pa, da), (pb, db) = line_a, line_b
    det = da[:, 0] * db[:, 1] - da[:, 1] * db[:, 0]
    diff = pb - pa
    t = (diff[:, 0] * db[:, 1] - diff[:, 1] * db[:, 0]) / np.where(np.abs(det) < 1e-9, 1.0, det)
    return np.asarray(pa + t[:, None] * da)
