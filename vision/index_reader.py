"""Reading index patches against an enrolled deck, each patch's pose fitted first.

The corner an outline gives can be a few pixels off and its angle a few
degrees, and an index patch that far off looks less like its card. Outlines
from one corner (as found, as snapped, from two pairs of edges) are one
*look*: poses a pixel or two apart on nearly the same patch. Each look's pose
nearest to any card is fitted further: when it looks somewhat like a card but
not closely it is slid (``cv2.matchTemplate``) against the mean index patch
(``DeckTemplates.index_looks``) of its nearest cards, and when still not close
it is turned a little and slid again. A look that is close to a card but
whose runner-up is too near for the look alone to name it (a suit twin, a like
rank) is slid against the looks of both: at this scale the small difference
between twins is the first thing a pose a pixel off blurs. A look is read at
its one best pose, every card judged at that pose; but a pose fitted to one
card's look favours that card, so for a look that was settled so, or that
names another card once fitted than the one it was close to as found
(*turned*), each card's distance at the pose tried that suits it is given too,
for cards in a fan. A look much nearer to a part of a face that is not an
index (pips, a picture, the other corners) than to any card is not fitted at
all. All patches of a frame are warped in few ``cv2.remap`` calls.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detect import patch_source
from vision.geometry import patch_homographies, patch_outlines, warp_patches
from vision.templates import INDEX_SIZE, DeckTemplates

__all__ = ["IndexReader"]


def _turn(degrees: float) -> np.ndarray:
    """A turn of canonical patch coordinates about the patch's corner (the card's corner)."""
    c, s = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


#: How far (patch pixels) an index patch is slid each way to fit a card's look, and against how many cards.
#: A corner found a few pixels off can look nearer to three other cards than to its own; against five
#: nearest, 2,000 frames never rendered before read 5 cards more than against three and none wrong more.
SLIDE = 5
SLIDE_CARDS = 5
#: Turns (about the card's corner) tried on patches that still fit no card closely: an outline's
#: angle is least sure where little of its edges shows, as on the middle cards of a fan.
TURNS = [_turn(angle) for angle in (-4.0, -2.0, 2.0, 4.0)]
#: A look close to a card that does not alone tell it from the runner-up is slid against the looks of
#: both. A pose fitted to one card's look favours that card, so a look at a card in a fan (whose
#: outline is uncertain) then judges each of the two at the pose that suits it: a guyenne king of
#: hearts (its index a bare heart) was read as the jack at a pose fitted to the jack.
SETTLE_CARDS = 2
#: A look whose best pose lies this many times nearer to a part of a face that is not an index than to
#: any card is not fitted: on the seen decks' frames, fitting such a pose never made a card read.
FACE_MARGIN = 1.5


@dataclass(frozen=True, eq=False)
class _Fit:
    """The poses of a frame's patches as they are fitted: each row's homography, features and distances
    to every card (changed in place as better poses are found), each row's look, and per look each
    card's least distance over the poses tried (``tried``, looks x cards: its best pose as found, and
    every pose it was slid and turned to)."""

    homographies: np.ndarray
    vectors: np.ndarray
    distances: np.ndarray
    looks: np.ndarray
    tried: np.ndarray


class IndexReader:
    """Distances of index patches to every card of ``deck``, after fitting each look's pose.

    A look whose best pose is nearer than ``refine_above`` to some card is
    taken as it is; up to ``search_below`` away it is slid, and when then
    between ``anchor_distance`` and ``turn_below`` it is turned and slid again
    (patches further off are hardly ever a card's index). A look then within
    ``anchor_distance`` whose next card is nearer than ``decisive_gap`` (in
    squared distance: twice the evidence a read needs) is slid against the
    looks of both (``SETTLE_CARDS``). A look that was within ``close_distance``
    of one card before it was fitted and is nearest to another card after is
    *turned*: the pose fitted to the other card's look may favour that card
    (a guyenne king of hearts a pixel off read as the jack, 8.3 against 15.7,
    at a pose slid onto the jack's look; 10.2 against 15.9 as found).
    """

    def __init__(
        self, deck: DeckTemplates, refine_above: float, anchor_distance: float, search_below: float, turn_below: float,
        decisive_gap: float, close_distance: float,
    ) -> None:
        self.deck = deck
        self.refine_above = refine_above
        self.anchor_distance = anchor_distance
        self.search_below = search_below
        self.turn_below = turn_below
        self.decisive_gap = decisive_gap
        self.close_distance = close_distance

    def distances(
        self, frame: np.ndarray, small: np.ndarray, quads: np.ndarray, looks: np.ndarray, width_px: float,
        as_found: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For each look, its distances to every card at its best pose (looks, cards); the same with each
        card at whichever pose tried suits that card best, for the looks whose best pose may favour the
        card it names (settled looks, see ``SETTLE_CARDS``, and turned ones, see ``close_distance``);
        the index of the quad the best pose started from (before it was slid and turned); and the
        card's outline at the best pose (looks, 4, 2; frame pixels).

        ``quads`` are outlines (frame pixels, index corner first) and ``looks``
        each one's look, numbered from 0; ``as_found`` (all, when not given) says which outlines are poses
        as found, against which a look is *turned* (outlines derived otherwise are poses tried, as slid
        ones are). ``small`` is the frame at half size
        (patches of large cards come from it). Only the pose finally kept is
        judged against the parts of faces that are not an index (a patch a few
        pixels off an index can look like one of those).
        """
        region = self.deck.index_region
        image, to_source, from_source = patch_source(frame, small, width_px, INDEX_SIZE[0] / region[0])
        homographies = patch_homographies(to_source(quads), INDEX_SIZE, *region)
        vectors = self._features_at(image, homographies)
        distances, background = self.deck.index_and_background_distances(vectors)
        found = distances if as_found is None else np.where(as_found[:, None], distances, np.inf)
        first = found[_best_of_looks(found.min(axis=1), looks)]
        close = first.min(axis=1) <= self.close_distance
        fit = _Fit(homographies, vectors, distances, looks, first.copy())
        fitted = FACE_MARGIN * background >= distances.min(axis=1)
        rows = _looks_within(fit.distances, looks, fitted, self.refine_above, self.search_below)
        self._refit(image, fit, rows, [np.eye(3)], SLIDE_CARDS)
        rows = _looks_within(fit.distances, looks, fitted, self.anchor_distance, self.turn_below)
        self._refit(image, fit, rows, TURNS, 1)
        rows = _looks_within(fit.distances, looks, fitted, -np.inf, self.anchor_distance)
        rows = rows[self._undecided(fit.distances[rows])]
        own = fit.distances[rows].copy()
        self._refit(image, fit, rows, [np.eye(3)], SETTLE_CARDS, own)
        poses = _best_of_looks(fit.distances.min(axis=1), looks)
        judged = self.deck.index_distances(fit.vectors[poses])
        # A settled row stays its look's best pose, and ``poses`` holds one row per look in look order.
        each_own = judged.copy()
        each_own[looks[rows]] = np.where(np.isinf(judged[looks[rows]]), np.inf, own)
        turned = close & (judged.argmin(axis=1) != first.argmin(axis=1))
        each_own[turned] = np.where(np.isinf(judged[turned]), np.inf, fit.tried[turned])
        return judged, each_own, poses, from_source(patch_outlines(fit.homographies[poses], INDEX_SIZE, *region))

    def _undecided(self, distances: np.ndarray) -> np.ndarray:
        """Which rows of distances have the next card within ``decisive_gap`` (squared) of the nearest."""
        if distances.shape[1] < 2:
            return np.zeros(len(distances), bool)
        two = np.partition(distances, 1, axis=1)[:, :2]
        return np.asarray(two[:, 1] ** 2 - two[:, 0] ** 2 < self.decisive_gap)

    def _refit(
        self, image: np.ndarray, fit: _Fit, rows: np.ndarray, turns: list[np.ndarray], cards: int,
        own: np.ndarray | None = None,
    ) -> None:
        """Slide the poses of ``rows``, turned by every one of ``turns``, against the mean index patches of
        their ``cards`` nearest cards; keep (in place) every pose that reads nearer than before, with its
        features and distances, and lower ``fit.tried``. ``own`` (rows, cards), when given, is lowered in
        place to each card's distance at the pose tried (in this fit) that suits it best."""
        if len(rows) == 0:
            return
        turned = np.einsum("nij,tjk->ntik", fit.homographies[rows], np.stack(turns)).reshape(-1, 3, 3)
        slid, patches = self._slid(image, turned, np.repeat(fit.distances[rows], len(turns), axis=0), cards)
        tries = len(turns) * cards
        found_vectors = self.deck.features(patches)
        found = self.deck.index_distances(found_vectors, judged=False).reshape(len(rows), tries, -1)
        nearest_each = found.min(axis=1)
        # ``rows`` are the best poses of distinct looks.
        fit.tried[fit.looks[rows]] = np.minimum(fit.tried[fit.looks[rows]], nearest_each)
        if own is not None:
            np.minimum(own, nearest_each, out=own)
        pick = found.min(axis=2).argmin(axis=1)
        best = found[np.arange(len(rows)), pick]
        better = best.min(axis=1) < fit.distances[rows].min(axis=1)
        chosen = np.arange(len(rows)) * tries + pick
        fit.distances[rows[better]] = best[better]
        fit.homographies[rows[better]] = slid[chosen[better]]
        fit.vectors[rows[better]] = found_vectors[chosen[better]]

    def _slid(
        self, image: np.ndarray, homographies: np.ndarray, distances: np.ndarray, cards: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """For each patch and each of its ``cards`` nearest cards, the homography moved to where that
        card's look fits the patch best (to a fraction of a pixel), and the patch there (resampled
        from the grown patch the search ran on)."""
        w, h = INDEX_SIZE
        grown = homographies @ np.array([[1.0, 0.0, -SLIDE], [0.0, 1.0, -SLIDE], [0.0, 0.0, 1.0]])
        around = warp_patches(image, grown, (w + 2 * SLIDE, h + 2 * SLIDE))
        grey = cv2.cvtColor(around.reshape(-1, w + 2 * SLIDE, 3), cv2.COLOR_BGR2GRAY).astype(np.float32)
        grey = grey.reshape(len(around), h + 2 * SLIDE, w + 2 * SLIDE)
        looks = self.deck.index_looks
        nearest = np.argsort(distances, axis=1)[:, :cards]
        scores = np.stack([
            cv2.matchTemplate(patch, looks[card], cv2.TM_CCOEFF_NORMED) for patch, row in zip(grey, nearest) for card in row
        ])
        shifts = _peaks(scores) - SLIDE
        moves = np.tile(np.eye(3), (len(shifts), 1, 1))
        moves[:, :2, 2] = shifts
        return np.repeat(homographies, cards, axis=0) @ moves, _shifted(around, shifts.reshape(len(around), cards, 2))

    def _features_at(self, image: np.ndarray, homographies: np.ndarray) -> np.ndarray:
        return self.deck.features(warp_patches(image, homographies, INDEX_SIZE))


def _looks_within(distances: np.ndarray, looks: np.ndarray, fitted: np.ndarray, above: float, below: float) -> np.ndarray:
    """The best pose (row) of each look whose nearest card is further than ``above`` and at most ``below``
    away, among the poses that may be ``fitted``."""
    nearest = distances.min(axis=1)
    rows = _best_of_looks(nearest, looks)
    return np.asarray(rows[(nearest[rows] > above) & (nearest[rows] <= below) & fitted[rows]])


def _best_of_looks(nearest: np.ndarray, looks: np.ndarray) -> np.ndarray:
    """The row of each look (0, 1, ...) nearest to any card, in the order of the looks."""
    order = np.lexsort((nearest, looks))
    first = np.ones(len(order), bool)
    first[1:] = looks[order[1:]] != looks[order[:-1]]
    return order[first]


def _shifted(around: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """Index patches cut from grown patches (N, h + 2 SLIDE, w + 2 SLIDE, 3), each at several
    sub-pixel shifts (N, k, 2) from the middle: (N * k, h, w, 3), in few ``cv2.remap`` calls."""
    w, h = INDEX_SIZE
    n, k = shifts.shape[:2]
    tall = around.reshape(-1, around.shape[2], 3)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    per_chunk = (np.iinfo(np.int16).max - 1) // max(k * h, around.shape[1])
    parts = []
    for start in range(0, n, per_chunk):
        part = shifts[start : start + per_chunk].astype(np.float32)
        rows = (np.arange(len(part), dtype=np.float32) * around.shape[1])[:, None, None, None]
        map_x = (xs + SLIDE + part[:, :, 0, None, None]).reshape(-1, w)
        map_y = (ys + SLIDE + part[:, :, 1, None, None] + rows).reshape(-1, w)
        source = tall[start * around.shape[1] : (start + len(part)) * around.shape[1]]
        parts.append(cv2.remap(source, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    return np.concatenate(parts).reshape(n * k, h, w, 3)


def _peaks(scores: np.ndarray) -> np.ndarray:
    """Where each correlation map (M, h, w) peaks, as (x, y) to a fraction of a pixel (a parabola
    through the peak and its neighbours along each axis)."""
    m, h, w = scores.shape
    flat = scores.reshape(m, -1).argmax(axis=1)
    y, x = np.divmod(flat, w)
    rows = np.arange(m)

    def offset(before: np.ndarray, at: np.ndarray, after: np.ndarray, inner: np.ndarray) -> np.ndarray:
        curve = before - 2 * at + after
        safe = inner & (curve < 0)
        return np.where(safe, np.clip(0.5 * (before - after) / np.where(safe, curve, -1.0), -0.5, 0.5), 0.0)

    xi, yi = np.clip(x, 1, w - 2), np.clip(y, 1, h - 2)
    fx = offset(scores[rows, y, xi - 1], scores[rows, y, x], scores[rows, y, xi + 1], (x > 0) & (x < w - 1))
    fy = offset(scores[rows, yi - 1, x], scores[rows, y, x], scores[rows, yi + 1, x], (y > 0) & (y < h - 1))
    return np.stack([x + fx, y + fy], axis=1)
