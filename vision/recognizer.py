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

from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np

from controller.cards import Card

from vision.calibration import Layout
from vision.detect import Blob, Corner, card_mask, find_blobs, find_corners
from vision.geometry import INDEX_FX, CardSize, card_quad_from_corner, quad_center, sample_patch
from vision.templates import FACE_SIZE, INDEX_SIZE, DeckTemplates, FaceMatch, blur_patches, features

__all__ = ["Read", "RecognizerSettings", "Recognizer", "evidence_confidence", "face_confidence"]

Visible = Literal["full", "corner"]
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
    max_distance: float = 14.0
    anchor_distance: float = 10.0
    evidence_distance: float = 18.0
    inside_share: float = 0.9


def evidence_confidence(evidence: float) -> float:
    """0..1 from the evidence for the best card over the next (a log-likelihood ratio, see ``_decide``).

    >>> round(evidence_confidence(0.0), 3), round(evidence_confidence(20.0), 3)
    (0.0, 0.918)
    """
    return float(1.0 - np.exp(-max(evidence, 0.0) / 8.0))


def face_confidence(match: FaceMatch) -> float:
    """0..1 from the face correlation and its lead over the best other card."""
    strength = np.clip((match.score - 0.5) / 0.3, 0.0, 1.0)
    lead = np.clip((match.score - match.runner_up) / 0.1, 0.0, 1.0)
    return float(strength * lead)


@dataclass(eq=False)
class _Candidate:
    quad: np.ndarray
    center_mm: np.ndarray
    alone: bool
    index_rows: list[int] = field(default_factory=list)
    face_row: int | None = None


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
        mask = card_mask(frame)
        layout = self.layout or self._guess_layout(mask)
        if layout is None:
            return []
        scale = layout.px_per_mm((frame.shape[1] / 2, frame.shape[0] / 2))
        width_px = self.card_size.width_mm * scale
        blobs, filled = find_blobs(mask, 0.35 * width_px * self.card_size.height_mm * scale)
        sampled, shrink = _at_patch_scale(frame, width_px)
        candidates: list[_Candidate] = []
        index_patches: list[np.ndarray] = []
        face_patches: list[np.ndarray] = []
        for blob in blobs:
            corners = find_corners(blob.contour, MIN_EDGE * width_px, 1.1 * width_px / self.deck.aspect)
            for cand, quads in self._blob_candidates(blob, corners, layout, filled, width_px):
                for quad in quads:
                    cand.index_rows.append(len(index_patches))
                    index_patches.append(sample_patch(sampled, quad * shrink, INDEX_SIZE))
                if cand.alone:
                    cand.face_row = len(face_patches)
                    face_patches.append(sample_patch(sampled, cand.quad * shrink, FACE_SIZE, 1.0, 1.0))
                candidates.append(cand)
        if not candidates:
            return []
        distances = self.deck.index_distances(features(blur_patches(index_patches)))
        face_matches = self.deck.match_face(features(blur_patches(face_patches))) if face_patches else []
        decided = []
        for cand in candidates:
            read = self._decide(cand, distances[cand.index_rows],
                                face_matches[cand.face_row] if cand.face_row is not None else None)
            if read is not None:
                decided.append((cand.center_mm, read))
        return [Read(r.card, r.polygon, r.visible, r.confidence, layout.zone_at(quad_center(r.polygon)))
                for r in self._suppress(decided)]

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
        hypotheses = []
        for corner in corners:
            quad = self._hypothesis(corner, layout, width_px)
            if quad is not None and _inside_share(quad, filled) >= self.settings.inside_share:
                hypotheses.append(quad)
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

    def _decide(self, cand: _Candidate, distances: np.ndarray, face: FaceMatch | None) -> Read | None:
        """One read per candidate, or unreadable, or nothing when no patch looks like a card index.

        Patches that look closely like a card (nearest within ``anchor_distance``)
        must all name the same card: pooling never settles a quarrel. Patches a
        little further off (within ``max_distance``) add their evidence when
        they agree and are left out when they do not (an outline from a wrong
        corner). Within-card spread is whitened to unit variance, so the sum of
        squared distances is a log-likelihood up to a factor, and the gap
        between the named card's sum and the next card's is the evidence. A
        lone card's face vetoes the read when it confidently names another
        card (faces are never trusted to name one: an ace of spades and one
        of clubs look alike from above).
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
        used = distances[(nearest <= settings.max_distance) & (named == best)]
        totals = (used**2).sum(axis=0)
        runner_up = float(np.partition(np.delete(totals, best), 0)[0]) if len(totals) > 1 else float(totals[best])
        conf = evidence_confidence((runner_up - float(totals[best])) / 2.0)
        card = self.deck.cards[best]
        vetoed = face is not None and face.card is not card and face_confidence(face) >= 0.5
        if conf < settings.min_confidence or vetoed:
            return Read(None, cand.quad, visible, conf if conf < settings.min_confidence else 0.0)
        return Read(card, cand.quad, visible, conf)


def _at_patch_scale(frame: np.ndarray, width_px: float) -> tuple[np.ndarray, float]:
    """The frame shrunk (area-averaged) so cards are about as wide as the templates' cards, and the factor.

    Patches warped straight out of a larger image alias, and an aliased
    index looks like no card of the deck.
    """
    shrink = (INDEX_SIZE[0] / INDEX_FX) / width_px
    if shrink > 0.87:
        return frame, 1.0
    return cv2.resize(frame, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA), shrink


_GRID = np.stack(np.meshgrid(np.linspace(0.1, 0.9, 6), np.linspace(0.08, 0.92, 8)), axis=-1).reshape(-1, 2)


def _inside_share(quad: np.ndarray, filled: np.ndarray) -> float:
    """Share of a grid of points inside the card (inset from its edges) that lie on the filled card mask."""
    o, a, b = quad[0], quad[1] - quad[0], quad[3] - quad[0]
    pts = o + _GRID[:, :1] * a + _GRID[:, 1:] * b
    half = np.round((pts - 0.5) / 2).astype(int)
    h, w = filled.shape
    ok = (half[:, 0] >= 0) & (half[:, 0] < w) & (half[:, 1] >= 0) & (half[:, 1] < h)
    inside = np.zeros(len(pts), bool)
    inside[ok] = filled[half[ok, 1], half[ok, 0]] > 0
    return float(inside.mean())
