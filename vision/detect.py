"""Finding cards in a frame: the card mask, its blobs, and the card corners on each blob's outline.

Cards are told from the cloth by colour: the felt's hue is the commonest hue
among saturated pixels, and anything not of that hue (or not saturated) is
card. The mask is computed at half resolution, which is plenty to find
outlines and keeps a 1920x1080 frame cheap.

A blob is one card or several overlapping ones. Its outline is simplified to a
polygon; two long straight edges meeting at a convex, roughly right angle
(a rounded card corner may sit between them) make a ``Corner``. The corner
point is where lines fitted to both edges cross, so it is found to about a
pixel even though real card corners are rounded.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Blob", "Corner", "card_mask", "find_blobs", "find_corners", "half_size"]

DOWNSCALE = 2
MIN_SATURATION = 45
HUE_TOLERANCE = 14
EDGE_OFFSET = 1.5


@dataclass(frozen=True, eq=False)
class Corner:
    """A convex card corner: its point, unit directions along both edges, and their visible lengths (px)."""

    point: np.ndarray
    dir_a: np.ndarray
    dir_b: np.ndarray
    len_a: float
    len_b: float


@dataclass(frozen=True, eq=False)
class Blob:
    """A connected patch of card pixels: its outline (full-resolution pixels) and area."""

    contour: np.ndarray
    area: float


def half_size(frame: np.ndarray) -> np.ndarray:
    """The frame at half resolution, area-averaged (the fast 2x2 path of ``cv2.resize``)."""
    return cv2.resize(frame, (frame.shape[1] // DOWNSCALE, frame.shape[0] // DOWNSCALE), interpolation=cv2.INTER_AREA)


def card_mask(frame: np.ndarray, small: np.ndarray | None = None) -> np.ndarray:
    """Half-resolution mask (255 = card) of everything that is not felt (``small``: the frame's ``half_size``)."""
    small = half_size(frame) if small is None else small
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    hue, sat = hsv[:, :, 0], hsv[:, :, 1]
    saturated = np.where(sat > 80, 255, 0).astype(np.uint8)
    felt_hue = int(np.argmax(cv2.calcHist([hue], [0], saturated, [180], [0, 180])))
    distance = np.abs(hue.astype(np.int16) - felt_hue)
    distance = np.minimum(distance, 180 - distance)
    felt = (distance <= HUE_TOLERANCE) & (sat >= MIN_SATURATION)
    mask = np.where(felt, 0, 255).astype(np.uint8)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def find_blobs(mask: np.ndarray, min_area_px: float) -> tuple[list[Blob], np.ndarray]:
    """Blobs of at least ``min_area_px`` (full-resolution pixels) and the mask with their holes filled."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(mask)
    blobs = []
    for contour in contours:
        area = cv2.contourArea(contour) * DOWNSCALE**2
        if area < min_area_px:
            continue
        cv2.drawContours(filled, [contour], -1, 255, cv2.FILLED)
        full = contour.reshape(-1, 2).astype(np.float64) * DOWNSCALE + (DOWNSCALE - 1) / 2
        blobs.append(Blob(full, area))
    return blobs, filled


def _vertex_indices(contour: np.ndarray, epsilon: float) -> list[int]:
    approx = cv2.approxPolyDP(contour.astype(np.float32).reshape(-1, 1, 2), epsilon, True).reshape(-1, 2)
    codes = contour[:, 0] * 65536.0 + contour[:, 1]
    found = (np.flatnonzero(codes == float(x) * 65536.0 + float(y)) for x, y in approx)
    return sorted({int(hit[0]) for hit in found if hit.size})


def _fit(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], dtype=np.float64), np.array([vx, vy], dtype=np.float64)


def _cross(a: np.ndarray, b: np.ndarray) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def _segment(contour: np.ndarray, start: int, end: int) -> np.ndarray:
    n = len(contour)
    idx = np.arange(start, end + (n if end < start else 0) + 1) % n
    return contour[idx]


@dataclass(frozen=True, eq=False)
class _Edge:
    """A long straight run of an outline: a point on its line (moved out to the true edge),
    its direction, its two ends, and the normal pointing into the card."""

    point: np.ndarray
    direction: np.ndarray
    ends: tuple[np.ndarray, np.ndarray]
    inward: np.ndarray


def _edges(contour: np.ndarray, min_edge: float) -> list[_Edge]:
    vertices = _vertex_indices(contour, 1.0 * DOWNSCALE)
    if len(vertices) < 3:
        return []
    polygon = contour.astype(np.float32).reshape(-1, 1, 2)
    edges = []
    for k, start in enumerate(vertices):
        end = vertices[(k + 1) % len(vertices)]
        if np.linalg.norm(contour[end] - contour[start]) < min_edge:
            continue
        point, direction = _fit(_trimmed(_segment(contour, start, end)))
        normal = np.array([-direction[1], direction[0]])
        probe = point + 3.0 * normal
        if cv2.pointPolygonTest(polygon, (float(probe[0]), float(probe[1])), False) <= 0:
            normal = -normal
        ends = (point + np.dot(contour[start] - point, direction) * direction,
                point + np.dot(contour[end] - point, direction) * direction)
        edges.append(_Edge(point - EDGE_OFFSET * normal, direction, ends, normal))
    return edges


def find_corners(contour: np.ndarray, min_edge: float, reach: float) -> list[Corner]:
    """Card corners on an outline: where two long straight edges, extended, meet at about a right angle.

    The edges need not be neighbours: in a fan, the middle cards' corners lie on
    the card below, and only the far parts of their two edges are on the
    outline. ``reach`` bounds how far (px) a corner may be from either edge;
    the card must lie on the inner side of both edges.
    """
    edges = _edges(contour, min_edge)
    polygon = contour.astype(np.float32).reshape(-1, 1, 2)
    corners = []
    for i, one in enumerate(edges):
        for other in edges[i + 1 :]:
            if abs(np.dot(one.direction, other.direction)) > 0.26:
                continue
            first, second = one, other
            denominator = _cross(first.direction, second.direction)
            t = _cross(second.point - first.point, second.direction) / denominator
            point = first.point + t * first.direction
            if cv2.pointPolygonTest(polygon, (float(point[0]), float(point[1])), True) < -0.4 * min_edge:
                continue
            along = [_toward(point, e) for e in (first, second)]
            if any(a is None for a in along):
                continue
            (dir_a, len_a, near_a), (dir_b, len_b, near_b) = along  # type: ignore[misc]
            if near_a > reach or near_b > reach:
                continue
            if np.dot(dir_b, first.inward) <= 0 or np.dot(dir_a, second.inward) <= 0:
                continue
            corners.append(Corner(point, dir_a, dir_b, len_a, len_b))
    return corners


def _toward(point: np.ndarray, edge: _Edge) -> tuple[np.ndarray, float, float] | None:
    """Direction from ``point`` along ``edge``'s line toward the edge, its far and near end distances."""
    s = sorted(float(np.dot(e - point, edge.direction)) for e in edge.ends)
    if s[0] >= -2.0:
        return edge.direction, s[1], max(s[0], 0.0)
    if s[1] <= 2.0:
        return -edge.direction, -s[0], max(-s[1], 0.0)
    return None


def _trimmed(points: np.ndarray) -> np.ndarray:
    cut = len(points) // 8
    return points[cut : len(points) - cut] if len(points) > 8 else points
