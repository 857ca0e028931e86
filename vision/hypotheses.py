"""Corner hypotheses: the cards the blobs of a frame may hold, each an outline from one of its corners.

Every corner found on a blob's outline (``vision.detect``) is taken as a card's
index corner: with the layout's homography and the card's size in millimetres
it gives the card's whole outline, even when most of it lies under other cards.
Each corner is also taken as a plain corner of a card, whose index corners are
then guessed where they lie on the blob (in a fan the index corner of a card
lying on another is white on white, off the blob's outline), and two plain
corners of one card are outlined together. Outlines that stick out of the blob,
or whose visible side is longer than a card's, are dropped; the rest are grouped
by where their card's centre falls (``Candidate``) and, within a card, by which
patch they see (a *look*). ``vision.recognizer`` reads them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from vision.calibration import Layout
from vision.detect import DOWNSCALE, Blob, Corners, corners_of_blobs
from vision.geometry import (
    CardSize,
    points_apart,
    points_inside,
    points_within,
    quad_center,
)
from vision.snap import snap_corners

__all__ = ["BRIDGE", "Candidate", "CornerHypotheses", "covered", "groups", "index_corners", "inside_share", "side"]


#: Shortest straight run of outline (in card widths) that counts as a card edge.
MIN_EDGE = 0.12
#: How far (card widths) a corner may lie outside the blob's outline: a card's rounded corner leaves
#: the point where its edges meet outside, and the half-size mask rounds it further (0.09 missed the
#: corners of cream-faced cards, whose edges the mask eats into).
CORNER_OUTSIDE = 0.11
#: Outlines whose index corners lie within this many card widths of each other see nearly one patch:
#: they are one look. An index corner is guessed only this far from every corner found.
LOOK_APART = 0.2
#: Gaps in the card mask up to this many card widths across are closed before a card is checked to lie
#: on its blob (see ``find_blobs``): green artwork under them made 39 cards of the stored guyenne and
#: Swiss frames seem to stick out of their blobs. At 0.18 (9 pixels across at half size, for cards 90
#: to 110 px wide) all 39 were read (19 corners, 20 faces), none fewer; at 0.26 a guyenne king of
#: hearts, found at last, was read as the jack (their index is the same bare heart).
BRIDGE = 0.18
#: How far (card widths) from where one plain corner's outline puts the opposite plain corner the
#: corner found there may lie for the two to be taken as one card's (see ``_paired_plain``).
PAIR_APART = 0.25
#: A pair's outline is added as a pose of a corner found near its index corner only when the two lie
#: further apart than this (card widths): nearer, a slide reaches the pose, and a second pose a pixel
#: from the first only lets a card whose index is the same symbol as another's (guyenne's king and
#: jack of hearts) lean either way (at 0.02 one king was read as the jack; at 0.03 none).
POSE_APART = 0.03


@dataclass(eq=False)
class Candidate:
    """One card's hypotheses: outlines from its corners whose centres agree (a card's two index corners
    give the same centre), which of them start from a guessed index corner, and the frame-wide number
    of each outline's look (outlines whose index corners nearly coincide see nearly the same patch:
    they are one look, never counted twice; a look is all of guessed corners or all of corners found), and
    which outlines are poses a pair of plain corners gives a corner found (``posed``)."""

    quads: np.ndarray
    alone: bool
    guessed: np.ndarray
    posed: np.ndarray
    looks: np.ndarray = field(default_factory=lambda: np.zeros(0, int))


class CornerHypotheses:
    """The outlines a frame's corners give cards of one size (``card_size``, ``aspect`` its width over its
    height), kept where at least ``inside_share`` of the card lies on its blob."""

    def __init__(self, card_size: CardSize, aspect: float, inside_share: float) -> None:
        self.card_size = card_size
        self.aspect = aspect
        self.least_inside = inside_share

    def candidates(
        self, frame: np.ndarray, blobs: list[Blob], filled: np.ndarray, layout: Layout, width_px: float,
        glyphs: tuple[Corners, np.ndarray] | None = None,
    ) -> list[Candidate]:
        """The cards the blobs may hold: outlines grouped per card, and per look.

        Each corner found that can be an index corner, and each of those
        snapped onto the image's edges that moved, gives an outline. So does
        each guessed index corner (snapped): where a corner found can be a
        plain corner of a card, the two corners beside it are that card's
        index corners, and one that lies on the blob where no corner was
        found is guessed. In a fan, the index corner of a card lying on
        another card is white on white and not on the blob's outline, while
        its plain corners often are. A card whose two plain corners are both
        found is outlined from the two together (``_paired_plain``), which
        fixes its angle better than either corner's edges; where a corner was
        found near an index corner of that outline but further than a slide
        reaches (``POSE_APART``), the pair's outline is one more pose of that
        corner's look, a fitted pose, not one as found (see ``IndexReader``).
        """
        every, blob_of = corners_of_blobs([blob.contour for blob in blobs], MIN_EDGE * width_px,
                                          1.1 * width_px / self.aspect, CORNER_OUTSIDE * width_px)
        plain, plain_ok = self.outlines(every, layout, width_px, plain=True)
        plain, paired = _paired_plain(plain, blob_of[plain_ok], layout, self.card_size, PAIR_APART * width_px)
        from_plain = np.concatenate([np.roll(plain, 2, axis=1), plain])
        guessed, guessed_owner = _guessed_corners(
            from_plain, np.tile(blob_of[plain_ok], 2),
            every.point if glyphs is None else np.concatenate([every.point, glyphs[0].point]), filled,
            LOOK_APART * width_px, self.least_inside)
        # A pair's outline where a corner was found near its index corner, but beyond the reach of a slide:
        # another pose of that corner's look.
        nearest_found = np.sqrt(_nearest_squared(from_plain[:, 0], every.point))
        posed = np.tile(paired, 2) & (nearest_found < LOOK_APART * width_px) & (nearest_found > POSE_APART * width_px)
        posed_quads, posed_owner = from_plain[posed], np.tile(blob_of[plain_ok], 2)[posed]
        able = self.outlines(every, layout, width_px)[1]
        every, blob_of = every[able], blob_of[able]
        n = len(every)
        snapped = snap_corners(frame, Corners.joined([every, guessed]), width_px)
        moved = _moved(snapped[:n], every)
        # Index corners their glyphs give (``vision.glyphs``) are index corners found, never plain ones; they
        # lie where no edge may show (white on white), so they are not snapped.
        glyph, glyph_owner = glyphs if glyphs is not None else (Corners.none(), np.zeros(0, int))
        quads, ok = self.outlines(Corners.joined([every, snapped[:n][moved], glyph, snapped[n:]]), layout, width_px)
        owner = np.concatenate([blob_of, blob_of[moved], glyph_owner, guessed_owner])[ok]
        is_guessed = np.concatenate([np.zeros(n + int(moved.sum()) + len(glyph), bool), np.ones(len(guessed), bool)])[ok]
        quads = np.concatenate([quads, posed_quads])
        owner = np.concatenate([owner, posed_owner])
        is_guessed = np.concatenate([is_guessed, np.zeros(len(posed_quads), bool)])
        is_posed = np.arange(len(quads)) >= len(quads) - len(posed_quads)
        if not len(quads):
            return []
        inside = inside_share(quads, filled) >= self.least_inside
        inside[is_guessed] &= points_apart(quads[is_guessed, 0], quads[~is_guessed, 0], LOOK_APART * width_px)
        quads, owner, is_guessed, is_posed = quads[inside], owner[inside], is_guessed[inside], is_posed[inside]
        centers = layout.to_table(quads.mean(axis=1)) if len(quads) else quads
        candidates: list[Candidate] = []
        for b in np.unique(owner).tolist():
            mine = owner == b
            candidates.extend(self._blob_candidates(blobs[b], quads[mine], is_guessed[mine], is_posed[mine], centers[mine], layout))
        count = 0
        for cand in candidates:
            cand.looks = np.zeros(len(cand.quads), int)
            for group in groups(cand.quads[:, 0], LOOK_APART * side(cand.quads[0])):
                cand.looks[group] = count
                count += 1
        return candidates

    def _blob_candidates(
        self, blob: Blob, quads: np.ndarray, guessed: np.ndarray, posed: np.ndarray, centers: np.ndarray, layout: Layout
    ) -> list[Candidate]:
        """The cards of one blob: its hypotheses grouped by where their card's centre (table mm) falls."""
        near = groups(centers, 0.25 * self.card_size.width_mm)
        if len(near) > 1:
            return [Candidate(quads[group], False, guessed[group], posed[group]) for group in near]
        card_area = self.card_size.width_mm * self.card_size.height_mm * layout.px_per_mm(quad_center(quads[0])) ** 2
        return [Candidate(quads, blob.area < 1.12 * card_area, guessed, posed)]

    def outlines(
        self, corners: Corners, layout: Layout, width_px: float, plain: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        """The outline (index corner first) of the card each corner would be the index corner of (with
        ``plain``: a plain corner of), for the corners that can be one (and which those are).

        The side running clockwise from an index corner is the card's short
        side, from a plain corner its long side (cards are seen face up); a
        corner whose visible short side is longer than a card is wide cannot
        be a card's.
        """
        if not len(corners):
            return np.zeros((0, 4, 2)), np.zeros(0, bool)
        dir_a, dir_b = corners.dir_a, corners.dir_b
        turn = dir_a[:, 0] * dir_b[:, 1] - dir_a[:, 1] * dir_b[:, 0]
        swap = ((turn < 0) != plain)[:, None]
        along_w, along_h = np.where(swap, dir_b, dir_a), np.where(swap, dir_a, dir_b)
        len_w = np.where(swap[:, 0], corners.len_b, corners.len_a)
        points = corners.point
        table = layout.to_table(np.stack([points, points + 20 * along_w, points + 20 * along_h], axis=1)).reshape(-1, 3, 2)
        u = (table[:, 0] - table[:, 1]) if plain else (table[:, 1] - table[:, 0])
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        v = np.stack([-u[:, 1], u[:, 0]], axis=1)
        ok = (len_w <= 1.15 * width_px) & ((v * (table[:, 2] - table[:, 0])).sum(axis=1) >= 0)
        w, h = self.card_size.width_mm, self.card_size.height_mm
        origin = table[:, 0] - w * u if plain else table[:, 0]
        quads_mm = np.stack([origin, origin + w * u, origin + w * u + h * v, origin + h * v], axis=1)[ok]
        return layout.to_image(quads_mm.reshape(-1, 2)).reshape(-1, 4, 2), ok


_GRID = np.stack(np.meshgrid(np.linspace(0.1, 0.9, 6), np.linspace(0.08, 0.92, 8)), axis=-1).reshape(-1, 2)


def side(quad: np.ndarray) -> float:
    """The length of an outline's first side (the card's width, for an outline from its index corner)."""
    return float(np.hypot(*(quad[1] - quad[0])))


def groups(points: np.ndarray, within: float) -> list[list[int]]:
    """Points grouped in order: each joins the first group whose first point lies within ``within``."""
    near = points_within(points, points, within).tolist()
    found: list[list[int]] = []
    for i, row in enumerate(near):
        for group in found:
            if row[group[0]]:
                group.append(i)
                break
        else:
            found.append([i])
    return found


def _moved(snapped: Corners, corners: Corners) -> np.ndarray:
    """Which snapped corners lie more than a pixel or about half a degree from where they were found."""
    shift = np.linalg.norm(snapped.point - corners.point, axis=1)
    turn_a = np.abs((snapped.dir_a * corners.dir_b).sum(axis=1))
    turn_b = np.abs((snapped.dir_b * corners.dir_a).sum(axis=1))
    return np.asarray((shift > 1.0) | (turn_a > 0.01) | (turn_b > 0.01))


def _guessed_corners(
    outlines: np.ndarray, owner: np.ndarray, found: np.ndarray, filled: np.ndarray, apart: float, inside: float
) -> tuple[Corners, np.ndarray]:
    """The index corner of each outline (its first corner) where it lies on the filled mask, no corner was
    found within ``apart`` pixels and the outline lies ``inside`` the mask, one per place (within 3 px),
    with its blob (``owner``)."""
    points = outlines[:, 0]
    rows = np.flatnonzero(_on_mask(points, filled))
    rows = rows[points_apart(points[rows], found, apart)]
    rows = rows[inside_share(outlines[rows], filled) >= inside]
    keep = np.array([rows[group[0]] for group in groups(points[rows], 3.0)] if len(rows) else [], int)
    return index_corners(outlines[keep]), owner[keep]


def index_corners(outlines: np.ndarray) -> Corners:
    """The index corner (first corner) of each outline, its edges along the outline's (none found)."""
    along_w, along_h = outlines[:, 1] - outlines[:, 0], outlines[:, 3] - outlines[:, 0]
    along_w /= np.linalg.norm(along_w, axis=1, keepdims=True)
    along_h /= np.linalg.norm(along_h, axis=1, keepdims=True)
    return Corners(outlines[:, 0].copy(), along_w, along_h, np.zeros(len(outlines)), np.zeros(len(outlines)))


def _paired_plain(
    outlines: np.ndarray, owner: np.ndarray, layout: Layout, size: CardSize, apart: float
) -> tuple[np.ndarray, np.ndarray]:
    """The outlines of plain corners (the corner found second, index corner first), each pair of one
    card's two plain corners found replaced by the outline both give together.

    An outline from one plain corner takes its angle from that corner's edges, which in a fan are
    often short: over a card's length a degree puts its far corners a few pixels off. Two plain
    corners of one card lie across its diagonal, which fixes the card's angle and place. Two
    corners of a blob pair when each lies within ``apart`` pixels of where the other's outline puts
    the opposite plain corner, and they lie a card's diagonal apart (within 5%, in table mm).
    """
    none = np.zeros(len(outlines), bool)
    if len(outlines) < 2:
        return outlines, none
    found, opposite = outlines[:, 1], outlines[:, 3]
    near = points_within(opposite, found, apart) & (owner[:, None] == owner[None, :])
    mutual = near & near.T
    np.fill_diagonal(mutual, False)
    first, second = np.nonzero(np.triu(mutual))
    if not len(first):
        return outlines, none
    w, h = size.width_mm, size.height_mm
    top_right, bottom_left = layout.to_table(found[first]), layout.to_table(found[second])
    diagonal = bottom_left - top_right
    length = np.linalg.norm(diagonal, axis=1)
    ok = np.abs(length - math.hypot(w, h)) <= 0.05 * math.hypot(w, h)
    if not ok.any():
        return outlines, none
    first, second, diagonal, top_right, bottom_left = first[ok], second[ok], diagonal[ok], top_right[ok], bottom_left[ok]
    turn = np.arctan2(diagonal[:, 1], diagonal[:, 0]) - math.atan2(h, -w)
    u = np.stack([np.cos(turn), np.sin(turn)], axis=1)
    v = np.stack([-u[:, 1], u[:, 0]], axis=1)
    corner = (top_right + bottom_left) / 2 - u * (w / 2) - v * (h / 2)
    quads_mm = np.stack([corner, corner + w * u, corner + w * u + h * v, corner + h * v], axis=1)
    together = layout.to_image(quads_mm.reshape(-1, 2)).reshape(-1, 4, 2)
    replaced = outlines.copy()
    replaced[first] = together
    replaced[second] = np.roll(together, 2, axis=1)
    paired = none.copy()
    paired[first] = paired[second] = True
    return replaced, paired


def _nearest_squared(points: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The squared distance from each of ``points`` to the nearest of ``others`` (inf when there are none)."""
    if not len(others):
        return np.full(len(points), np.inf)
    offsets = points[:, None] - others[None]
    return np.asarray(np.einsum("ijk,ijk->ij", offsets, offsets).min(axis=1))


def covered(quad: np.ndarray, others: list[np.ndarray]) -> float:
    """The share of a grid of points inside ``quad`` that lie inside any of the (convex) ``others``."""
    if not others:
        return 0.0
    o, a, b = quad[0], quad[1] - quad[0], quad[3] - quad[0]
    pts = o + _GRID[:, :1] * a + _GRID[:, 1:] * b
    inside = np.zeros(len(pts), bool)
    for other in others:
        inside |= points_inside(pts, other)
    return float(inside.mean())


def inside_share(quads: np.ndarray, filled: np.ndarray) -> np.ndarray:
    """For each quad, the share of a grid of points inside the card (inset from its edges) that lie on the
    filled card mask, of those the frame shows: a card half out of the frame lies on its blob as far as
    the frame can tell."""
    o, a, b = quads[:, None, 0], quads[:, None, 1] - quads[:, None, 0], quads[:, None, 3] - quads[:, None, 0]
    points = o + _GRID[None, :, :1] * a + _GRID[None, :, 1:] * b
    on, shown = _on_mask_in_frame(points, filled)
    return np.asarray(on.sum(axis=1) / np.maximum(shown.sum(axis=1), 1))


def _on_mask_in_frame(points: np.ndarray, filled: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Whether each point (frame pixels, (..., 2)) lies on the half-size ``filled`` mask, and whether the
    frame shows it."""
    half = np.round((points - (DOWNSCALE - 1) / 2) / DOWNSCALE).astype(int)
    h, w = filled.shape
    ok = (half[..., 0] >= 0) & (half[..., 0] < w) & (half[..., 1] >= 0) & (half[..., 1] < h)
    on = np.zeros(ok.shape, bool)
    on[ok] = filled[half[..., 1][ok], half[..., 0][ok]] > 0
    return on, ok


def _on_mask(points: np.ndarray, filled: np.ndarray) -> np.ndarray:
    """Whether each point (frame pixels, (..., 2)) lies on the half-size ``filled`` mask."""
    return _on_mask_in_frame(points, filled)[0]
