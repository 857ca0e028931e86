"""The card recognizer: every card in a frame, read from its face or its index corner, or "unreadable".

Stages (each in its own module, each tested on small fixed images):

1. ``vision.detect``: the card mask, blobs, and card corners on each outline;
2. corner hypotheses: at each corner the card is assumed to have its index
   there; with the layout's homography and the card's size in millimetres the
   corner gives the card's whole outline, even when most of it lies under other
   cards. Hypotheses whose card would stick out of the blob, or whose visible
   edge is longer than that side of a card can be, are dropped;
3. ``vision.templates``: each index patch (and the face of a card lying alone)
   is matched against the enrolled deck;
4. hypotheses are grouped by where their card's centre falls, and each group
   becomes one ``Read``. A group is read only when its confident matches all
   name the same card; when they disagree, or none is confident, the group is
   reported unreadable with its outline. A guess is never reported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np

from controller.cards import Card
from vision.calibration import Layout
from vision.detect import (
    DOWNSCALE,
    Blob,
    Corner,
    card_mask,
    find_blobs,
    find_corners,
    half_size,
)
from vision.geometry import (
    INDEX_FX,
    CardSize,
    card_quad_from_corner,
    patch_homographies,
    quad_center,
    warp_patches,
)
from vision.templates import (
    BLUR_SIGMA,
    INDEX_SIZE,
    DeckTemplates,
    features,
    grey_patches,
)

__all__ = ["Read", "Recognizer", "RecognizerSettings", "evidence_confidence"]

Visible = Literal["full", "corner"]
#: How far (patch pixels) an index patch is slid each way to fit a card's look, and against how many cards.
SLIDE = 5
SLIDE_CARDS = 3
#: Shortest straight run of outline (in card widths) that counts as a card edge.
MIN_EDGE = 0.22


@dataclass(frozen=True, eq=False)
class Read:
    """One card found in a frame. ``card`` is ``None`` when it could not be read with confidence."""

    card: Card | None
    polygon: np.ndarray
    visible: Visible
    confidence: float
    zone: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "card": self.card.code if self.card is not None else None,
            "polygon": [[round(float(x), 1), round(float(y), 1)] for x, y in self.polygon],
            "visible": self.visible,
            "confidence": round(float(self.confidence), 4),
            "zone": self.zone,
        }


@dataclass(frozen=True)
class RecognizerSettings:
    """Knobs of the recognizer; ``min_confidence`` is the line between a read and "unreadable"."""

    min_confidence: float = 0.9
    card_height_mm: float = 88.0
    max_distance: float = 15.0
    anchor_distance: float = 12.0
    evidence_distance: float = 20.0
    inside_share: float = 0.9
    refine_above: float = 5.0
    search_below: float = 60.0


def evidence_confidence(evidence: float) -> float:
    """0..1 from the evidence for the best card over the next (a log-likelihood ratio, see ``_decide``).

    >>> round(evidence_confidence(0.0), 3), round(evidence_confidence(20.0), 3)
    (0.0, 0.918)
    """
    return float(1.0 - np.exp(-max(evidence, 0.0) / 8.0))


@dataclass(eq=False)
class _Candidate:
    quad: np.ndarray
    center_mm: np.ndarray
    alone: bool
    index_rows: list[int] = field(default_factory=list)


class Recognizer:
    """Reads the cards of one enrolled deck in frames seen through one calibrated layout."""

    def __init__(self, deck: DeckTemplates, layout: Layout | None = None, settings: RecognizerSettings | None = None):
        self.deck = deck
        self.layout = layout
        self.settings = settings or RecognizerSettings()
        self.card_size = CardSize.with_aspect(deck.aspect, self.settings.card_height_mm)

    def read(self, frame: np.ndarray) -> list[Read]:
        """Every card in a BGR frame, each read or marked unreadable, in no particular order."""
        if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError("a frame must be an 8-bit BGR image (height x width x 3)")
        small = half_size(frame)
        mask = card_mask(frame, small)
        layout = self.layout or self._guess_layout(mask)
        if layout is None:
            return []
        scale = layout.px_per_mm((frame.shape[1] / 2, frame.shape[0] / 2))
        width_px = self.card_size.width_mm * scale
        blobs, filled = find_blobs(mask, 0.35 * width_px * self.card_size.height_mm * scale)
        candidates: list[_Candidate] = []
        quads: list[np.ndarray] = []
        boxes: list[tuple[np.ndarray, np.ndarray]] = []
        for blob in blobs:
            corners = find_corners(blob.contour, MIN_EDGE * width_px, 1.1 * width_px / self.deck.aspect)
            for cand, cand_quads in self._blob_candidates(blob, corners, layout, filled, width_px):
                cand.index_rows.extend(range(len(quads), len(quads) + len(cand_quads)))
                quads.extend(cand_quads)
                candidates.append(cand)
                boxes.append((np.min(cand_quads, axis=(0, 1)), np.max(cand_quads, axis=(0, 1))))
        if not candidates:
            return []
        distances = self._index_distances(frame, small, np.stack(quads), boxes, width_px)
        decided = []
        for cand in candidates:
            read = self._decide(cand, distances[cand.index_rows])
            if read is not None:
                decided.append((cand.center_mm, read))
        return [Read(r.card, r.polygon, r.visible, r.confidence, layout.zone_at(quad_center(r.polygon)))
                for r in self._suppress(decided)]

    def _index_distances(
        self, frame: np.ndarray, small: np.ndarray, quads: np.ndarray, boxes: list[tuple[np.ndarray, np.ndarray]],
        width_px: float,
    ) -> np.ndarray:
        """Distances of each quad's index patch to every card, each patch slid to where it fits best.

        A corner found from the outline can be a few pixels off, and an index
        patch a few pixels off looks less like its card. A patch that looks
        somewhat like a card but not closely is slid (``cv2.matchTemplate``)
        against the look of each of its nearest few cards, and read again
        where each fits; the nearest of these reads is kept.
        """
        image, to_source = _patch_source(frame, small, width_px)
        quads = to_source(quads)
        image = _blurred_around(image, [(to_source(low), to_source(high)) for low, high in _merged(boxes)])
        homographies = patch_homographies(quads, INDEX_SIZE)
        distances = self._distances_at(image, homographies)
        nearest = distances.min(axis=1)
        rows = np.flatnonzero((nearest > self.settings.refine_above) & (nearest <= self.settings.search_below))
        if len(rows):
            slid = self._slid(image, homographies[rows], distances[rows])
            found = self._distances_at(image, slid).reshape(len(rows), SLIDE_CARDS, -1)
            pick = found.min(axis=2).argmin(axis=1)
            best = found[np.arange(len(rows)), pick]
            better = best.min(axis=1) < nearest[rows]
            distances[rows[better]] = best[better]
        return distances

    def _slid(self, image: np.ndarray, homographies: np.ndarray, distances: np.ndarray) -> np.ndarray:
        """For each patch and each of its ``SLIDE_CARDS`` nearest cards, the homography moved to where
        that card's look fits the patch best (to a fraction of a pixel)."""
        w, h = INDEX_SIZE
        grown = homographies @ _translation(-SLIDE, -SLIDE)
        around = grey_patches(warp_patches(image, grown, (w + 2 * SLIDE, h + 2 * SLIDE)))
        looks = self.deck.index_looks
        out = []
        for homography, grey, row in zip(homographies, around, distances):
            for card in np.argsort(row)[:SLIDE_CARDS]:
                score = cv2.matchTemplate(grey, looks[card], cv2.TM_CCOEFF_NORMED)
                dx, dy = _peak(score)
                out.append(homography @ _translation(dx - SLIDE, dy - SLIDE))
        return np.stack(out)

    def _distances_at(self, image: np.ndarray, homographies: np.ndarray) -> np.ndarray:
        return self.deck.index_distances(features(warp_patches(image, homographies, INDEX_SIZE)))

    def _suppress(self, decided: list[tuple[np.ndarray, Read]]) -> list[Read]:
        """Keep one read per card: read cards first, then unreadable ones that overlap no kept card.

        Corner hypotheses built from edges of two different cards outline
        a card that is not there, half over real ones; it is dropped here.
        """
        decided.sort(key=lambda cr: (cr[1].card is None, -cr[1].confidence))
        kept: list[tuple[np.ndarray, Read]] = []
        near = 0.45 * self.card_size.width_mm
        for center, read in decided:
            if all(np.linalg.norm(center - other) >= near for other, _ in kept):
                kept.append((center, read))
        return [read for _, read in kept]

    def _guess_layout(self, mask: np.ndarray) -> Layout | None:
        """Without calibration, the scale comes from cards lying alone (their long side is the card's height)."""
        blobs, _ = find_blobs(mask, 2000.0)
        sides = []
        for blob in blobs:
            rect = cv2.minAreaRect(blob.contour.astype(np.float32))
            w, h = sorted(rect[1])
            if h > 0 and abs(w / h - self.deck.aspect) < 0.06 and blob.area > 0.93 * w * h:
                sides.append(h)
        if not sides:
            return None
        return Layout.scale(float(np.median(sides)) / self.card_size.height_mm)

    def _blob_candidates(
        self, blob: Blob, corners: list[Corner], layout: Layout, filled: np.ndarray, width_px: float
    ) -> list[tuple[_Candidate, list[np.ndarray]]]:
        found = [quad for quad in (self._hypothesis(c, layout, width_px) for c in corners) if quad is not None]
        if not found:
            return []
        inside = _inside_share(np.stack(found), filled) >= self.settings.inside_share
        hypotheses = [quad for quad, ok in zip(found, inside) if ok]
        if not hypotheses:
            return []
        centers = layout.to_table([quad_center(q) for q in hypotheses])
        groups: list[list[int]] = []
        for i, c in enumerate(centers):
            for group in groups:
                if np.linalg.norm(centers[group[0]] - c) < 0.25 * self.card_size.width_mm:
                    group.append(i)
                    break
            else:
                groups.append([i])
        card_area = self.card_size.width_mm * self.card_size.height_mm * layout.px_per_mm(quad_center(hypotheses[0])) ** 2
        alone = len(groups) == 1 and blob.area < 1.12 * card_area
        out = []
        for group in groups:
            quads = [hypotheses[i] for i in group]
            out.append((_Candidate(quads[0], centers[group[0]], alone), quads))
        return out

    def _hypothesis(self, corner: Corner, layout: Layout, width_px: float) -> np.ndarray | None:
        """The outline of the card whose index corner ``corner`` would be, or ``None`` if it cannot be one."""
        along_w, along_h, len_w = corner.dir_a, corner.dir_b, corner.len_a
        if along_w[0] * along_h[1] - along_w[1] * along_h[0] < 0:
            along_w, along_h, len_w = corner.dir_b, corner.dir_a, corner.len_b
        if len_w > 1.15 * width_px:
            return None
        table = layout.to_table([corner.point, corner.point + 20 * along_w, corner.point + 20 * along_h])
        u = table[1] - table[0]
        u /= np.linalg.norm(u)
        v = np.array([-u[1], u[0]])
        if np.dot(v, table[2] - table[0]) < 0:
            return None
        quad_mm = card_quad_from_corner(table[0], u, v, self.card_size.width_mm, self.card_size.height_mm)
        return layout.to_image(quad_mm)

    def _decide(self, cand: _Candidate, distances: np.ndarray) -> Read | None:
        """One read per candidate, or unreadable, or nothing when no patch looks like a card index.

        Patches that look closely like a card (nearest within ``anchor_distance``)
        must all name the same card: pooling never settles a quarrel. Patches a
        little further off (within ``max_distance``) add their evidence when
        they agree and are left out when they do not (an outline from a wrong
        corner), except on a card lying alone, whose outline is certain: there
        they make it unreadable. Within-card spread is whitened to unit variance, so the sum of
        squared distances is a log-likelihood up to a factor, and the gap
        between the named card's sum and the next card's is the evidence.
        """
        settings = self.settings
        visible: Visible = "full" if cand.alone else "corner"
        if len(distances) == 0:
            return None
        nearest = distances.min(axis=1)
        named = distances.argmin(axis=1)
        strong = nearest <= settings.anchor_distance
        if not strong.any():
            if (nearest <= settings.evidence_distance).any():
                return Read(None, cand.quad, visible, 0.0)
            return None
        if len(set(named[strong].tolist())) > 1:
            return Read(None, cand.quad, visible, 0.0)
        best = int(named[strong][0])
        near = nearest <= settings.max_distance
        if cand.alone and (near & (named != best)).any():
            return Read(None, cand.quad, visible, 0.0)
        used = distances[near & (named == best)]
        totals = (used**2).sum(axis=0)
        runner_up = float(np.partition(np.delete(totals, best), 0)[0]) if len(totals) > 1 else float(totals[best])
        conf = evidence_confidence((runner_up - float(totals[best])) / 2.0)
        if conf < settings.min_confidence:
            return Read(None, cand.quad, visible, conf)
        return Read(self.deck.cards[best], cand.quad, visible, conf)


def _patch_source(frame: np.ndarray, small: np.ndarray, width_px: float) -> tuple[np.ndarray, Callable[[np.ndarray], np.ndarray]]:
    """The image to warp index patches from (the frame, or its half-size copy when cards are large) and
    the map from frame pixels to its pixels.

    Patches warped out of an image at much finer scale than the patch alias,
    and an aliased index looks like no card of the deck.
    """
    if (INDEX_SIZE[0] / INDEX_FX) / width_px > 0.6:
        return frame, lambda points: points
    return small, lambda points: (points - (DOWNSCALE - 1) / 2) / DOWNSCALE


def _merged(boxes: list[tuple[np.ndarray, np.ndarray]]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Boxes that overlap joined into one, so no stretch of the frame is blurred twice."""
    out: list[tuple[np.ndarray, np.ndarray]] = []
    for low, high in sorted(boxes, key=lambda box: float(box[0][0])):
        for k, (l2, h2) in enumerate(out):
            if (low <= h2).all() and (l2 <= high).all():
                out[k] = (np.minimum(low, l2), np.maximum(high, h2))
                break
        else:
            out.append((low, high))
    return out


def _translation(dx: float, dy: float) -> np.ndarray:
    return np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])


def _peak(score: np.ndarray) -> tuple[float, float]:
    """Where a correlation map peaks, to a fraction of a pixel (a parabola through the peak and its neighbours)."""
    _, _, _, (x, y) = cv2.minMaxLoc(score)

    def offset(before: float, at: float, after: float) -> float:
        curve = before - 2 * at + after
        return 0.0 if curve >= 0 else float(np.clip(0.5 * (before - after) / curve, -0.5, 0.5))

    h, w = score.shape
    fx = offset(score[y, x - 1], score[y, x], score[y, x + 1]) if 0 < x < w - 1 else 0.0
    fy = offset(score[y - 1, x], score[y, x], score[y + 1, x]) if 0 < y < h - 1 else 0.0
    return x + fx, y + fy


def _blurred_around(image: np.ndarray, boxes: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """A copy of ``image`` with the template blur (``BLUR_SIGMA``) applied inside each box (corner, corner).

    Blurring the cards once before warping stands in for blurring every
    warped patch, which the pose fitting would otherwise do many times a frame.
    """
    out = image.copy()
    h, w = image.shape[:2]
    margin = 8 + SLIDE
    for low, high in boxes:
        x0, y0 = np.maximum(np.floor(low).astype(int) - margin, 0)
        x1, y1 = np.minimum(np.ceil(high).astype(int) + margin, [w, h])
        if x1 > x0 and y1 > y0:
            out[y0:y1, x0:x1] = cv2.GaussianBlur(image[y0:y1, x0:x1], (0, 0), BLUR_SIGMA)
    return out


_GRID = np.stack(np.meshgrid(np.linspace(0.1, 0.9, 6), np.linspace(0.08, 0.92, 8)), axis=-1).reshape(-1, 2)


def _inside_share(quads: np.ndarray, filled: np.ndarray) -> np.ndarray:
    """For each quad, the share of a grid of points inside the card (inset from its edges) on the filled card mask."""
    o, a, b = quads[:, None, 0], quads[:, None, 1] - quads[:, None, 0], quads[:, None, 3] - quads[:, None, 0]
    pts = o + _GRID[None, :, :1] * a + _GRID[None, :, 1:] * b
    half = np.round((pts - (DOWNSCALE - 1) / 2) / DOWNSCALE).astype(int)
    h, w = filled.shape
    ok = (half[..., 0] >= 0) & (half[..., 0] < w) & (half[..., 1] >= 0) & (half[..., 1] < h)
    inside = np.zeros(ok.shape, bool)
    inside[ok] = filled[half[..., 1][ok], half[..., 0][ok]] > 0
    return inside.mean(axis=1)
