"""The card recognizer: every card in a frame, read from its face or its index corner, or "unreadable".

Stages (each in its own module, each tested on small fixed images):

1. ``vision.detect``: the card mask, blobs, and card corners on each outline;
   ``vision.snap`` moves each corner onto the edges the image shows near it,
   and a corner that moved is tried both where it was found and where it
   snapped to; ``vision.glyphs`` and ``vision.seams`` add index corners no
   outline corner gives (an index's glyphs, the seams of a tight fan);
2. ``vision.hypotheses``: at each corner the card is assumed to have its index
   there; with the layout's homography and the card's size in millimetres the
   corner gives the card's whole outline, even when most of it lies under other
   cards. Hypotheses whose card would stick out of the blob, or whose visible
   edge is longer than that side of a card can be, are dropped;
3. ``vision.index_reader``: outlines from one corner are one look at one index
   patch; each look is matched against the enrolled deck (``vision.templates``)
   at its best pose, and a look that fits no card closely (its corner a few
   pixels off, its angle a few degrees) is slid and turned onto its nearest
   cards' looks first;
4. hypotheses are grouped by where their card's centre falls, and each group
   becomes one ``Read``. A group is read only when its confident matches all
   name the same card; when they disagree, or none is confident, the group is
   reported unreadable with its outline. A guess is never reported;
5. ``vision.strip_reader``: a group whose matches agree but fall short of the
   evidence is matched again at the strips beside its indexes (the top pips,
   the picture's top), which tell a suit twin far better than an index's
   small suit symbol;
6. ``vision.index_net``: a group left unreadable whose matches all point to one
   card is read when a small convolutional net, trained once on many brands'
   index corners, names the same card at its outline: two witnesses that know
   different things agree. So is a group all of whose looks lie too far from
   every card for the deck's looks to decide (glare, a fan's next card over the
   index's margin, a white balance enrolment never saw), when the net names the
   card nearest to them.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from controller.cards import JOKER, Card
from vision.calibration import Layout
from vision.detect import DOWNSCALE, UNLIKE_CLOTH, Blob, Corners, card_mask, find_blobs, half_size, least_channel
from vision.fans import CLEAR, fan_gaps
from vision.geometry import STRIPS, CardSize, points_apart, quad_center
from vision.glyphs import glyph_corners, ink_marks
from vision.hands import hand_zones
from vision.hypotheses import BRIDGE, CornerHypotheses, covered, index_corners, inside_share, side
from vision.index_net import CLASSES, net_patches, shipped_net
from vision.index_reader import IndexReader
from vision.seams import seam_corners
from vision.snap import snap_corners
from vision.strip_reader import strip_distances
from vision.templates import DeckTemplates

__all__ = ["Read", "Recognizer", "RecognizerSettings", "evidence_confidence", "evidence_needed"]

Visible = Literal["full", "corner"]

Strips = Callable[[np.ndarray], np.ndarray]
"""The distances (outlines, strips, cards) of the strips at given outlines (see ``vision.strip_reader``)."""


#: Of two reads whose centres lie within ``SAME_READ`` card widths, one card read twice, one is reported
#: (``_suppress``); an unreadable outline whose centre lies within ``ON_READ`` of a card read is another
#: look at that card (often an outline built from edges of two cards), and is not reported, nor is a second
#: read of the same card that close unless the two lie an index patch apart along the card's sides
#: (``_two_of_one_card``): two outlines of one card 12 mm apart (a guyenne king of diamonds read again from
#: a pip of the eight under it) are one card, two jacks of a multi-deck shoe laid 16 mm or more side by
#: side (each showing its index, as ``[vision] fan_mm`` and split hands lay them) are two.
SAME_READ = 0.2
ON_READ = 0.45
#: A look at a four-index deck's side index outlines a card this many card widths on along its own width from
#: the card (the index at 0.1 of the width from either side: 0.8), and at most ``SIDE_INDEX_OFF`` card heights
#: up or down (``Recognizer._read_from_a_side_index``).
SIDE_INDEX_SHIFT = (0.55, 0.95)
SIDE_INDEX_OFF = 0.12


@dataclass(frozen=True, eq=False)
class Read:
    """One card found in a frame. ``card`` is ``None`` when it could not be read with confidence."""

    card: Card | None
    polygon: np.ndarray
    visible: Visible
    confidence: float
    zone: str | None = None
    guess: Card | None = None
    """For an unreadable card whose patches all point to one card, without the evidence to name it:
    that card. Never reported as a read; a witness may let it corroborate what another witness says."""

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

    min_confidence: float = 0.99
    card_height_mm: float = 88.0
    max_distance: float = 18.0
    anchor_distance: float = 16.0
    evidence_distance: float = 22.0
    inside_share: float = 0.9
    refine_above: float = 8.0
    search_below: float = 60.0
    turn_below: float = 35.0
    weak_distance: float = 12.0
    weak_margin: float = 1.25
    tie_distance: float = 1.0
    same_card: float = 0.15
    joker_close: float = 8.0
    joker_margin: float = 2.0
    guessed_confidence: float = 0.999
    guessed_anchor: float = 12.0
    gap_anchor: float = 16.0
    strip_close: float = 16.0
    strip_margin: float = 2.0
    gainsay_look: float = 7.0
    gainsay_suit: float = 150.0
    gainsay_card: float = 500.0
    gainsay_far: float = 1500.0
    net_confirm: float | None = 0.95
    """The index net's probability that confirms an unreadable read's guess (``_confirmed``); ``None``: not asked.
    Lower than ``min_confidence``: the net is a second witness, and the card must be the deck's looks' choice too."""
    net_reach: float | None = 100.0
    """How far from its nearest card a look of a candidate with no look within ``evidence_distance`` may lie and
    still be read, when the index net names that card (``_net_reads``); ``None``: such candidates are not read."""


_log = logging.getLogger(__name__)
#: An index corner its glyphs give is kept within this many card widths of its blob's outline.
GLYPH_EDGE = 0.08
#: A frame narrower or lower than this shows no card (the least card measured is 95 px wide).
LEAST_FRAME_PX = 32
#: A blob is searched for index glyphs only when some point of it lies this many card widths inside its outline
#: (the blob twice as thick there): an index is about a fifth of a card wide.
GLYPH_BLOB = 0.05
_SQUARE3 = np.ones((3, 3), np.uint8)
#: Which strips lie beside the index, each in ``STRIPS`` order (not the centre, read only on a card lying alone).
_BESIDE_INDEX = np.array([not strip.lone for strip in STRIPS], bool)
#: Where the suit symbol of the index lies among the strips (``STRIPS`` order).
_SUIT_STRIP = next(k for k, strip in enumerate(STRIPS) if strip.suit)
#: The evidence that takes a read a factor e closer to certainty (see ``evidence_confidence``).
EVIDENCE_SCALE = 8.0


def evidence_confidence(evidence: float) -> float:
    """0..1 from the evidence for the best card over the next (a log-likelihood ratio, see ``_decide``).

    >>> round(evidence_confidence(0.0), 3), round(evidence_confidence(20.0), 3)
    (0.0, 0.918)
    """
    return float(1.0 - np.exp(-max(evidence, 0.0) / EVIDENCE_SCALE))


def evidence_needed(confidence: float) -> float:
    """The evidence that gives ``confidence`` (the inverse of ``evidence_confidence``).

    >>> round(evidence_needed(0.99), 2), round(evidence_needed(evidence_confidence(20.0)), 6)
    (36.84, 20.0)
    """
    return -EVIDENCE_SCALE * math.log1p(-confidence)


class _FrameStrips:
    """The strips of one frame at given outlines (a ``Strips``), those in the index (suit and rank) read at
    the pose each outline's index was fitted to where that is known (``IndexReader.distances``)."""

    def __init__(self, deck: DeckTemplates, frame: np.ndarray, small: np.ndarray, width_px: float) -> None:
        self.deck, self.frame, self.small, self.width_px = deck, frame, small, width_px
        self._fitted: dict[bytes, np.ndarray] = {}

    def fitted(self, outlines: np.ndarray, poses: np.ndarray) -> None:
        """Record that the index of each of ``outlines`` was fitted to the outline of ``poses``."""
        self._fitted.update(zip((outline.tobytes() for outline in outlines), poses))

    def __call__(self, outlines: np.ndarray, lone: bool = False) -> np.ndarray:
        at = np.array([self._fitted.get(outline.tobytes(), outline) for outline in outlines]).reshape(outlines.shape)
        return strip_distances(self.deck, self.frame, self.small, outlines, self.width_px, at,
                               lone=np.full(len(outlines), lone))

    def alone(self, outlines: np.ndarray) -> np.ndarray:
        """The strips of cards lying alone, the centre of the face among them."""
        return self(outlines, lone=True)

    def beyond_index(self, outlines: np.ndarray, lone: np.ndarray | None = None) -> np.ndarray:
        """The strips beyond the index only (pips and picture; the suit and rank strips infinitely far), and
        the centre of the face for the outlines of cards lying alone (``lone``)."""
        return strip_distances(self.deck, self.frame, self.small, outlines, self.width_px, in_index=False, lone=lone)


@dataclass(frozen=True, eq=False)
class _Found:
    """A candidate's read, how closely its closest look fits a card, the outlines of the looks the read
    rests on (those that put its card within ``tie_distance`` of their nearest), whose strips are heard
    last (``_gainsaid``), and whether they gainsaid it."""

    read: Read
    closest: float
    heard: np.ndarray
    gainsaid: bool = False
    far_guess: Card | None = None
    """For an unreadable read whose looks all lie past ``anchor_distance``: the card they point to, which
    only the index net hears (``_confirmed``); the read itself carries no guess."""


class Recognizer:
    """Reads the cards of one enrolled deck in frames seen through one calibrated layout."""

    def __init__(self, deck: DeckTemplates, layout: Layout | None = None, settings: RecognizerSettings | None = None) -> None:
        self.deck = deck
        self.layout = layout
        self.settings = settings or RecognizerSettings()
        self.failures = 0
        """Frames ``read`` could not work through (each logged as ``recognizer_failed``)."""
        self.card_size = CardSize.with_aspect(deck.aspect, self.settings.card_height_mm)
        self.hypotheses = CornerHypotheses(self.card_size, deck.aspect, self.settings.inside_share)
        self._suits = np.array([card.suit for card in deck.cards])
        self._ranks = np.array([card.rank for card in deck.cards])
        # The net's classes this deck has, and "no index" (``_confirmed``).
        self._net_cards = frozenset(deck.cards) & frozenset(CLASSES)
        self._net_allowed = np.array([card in self._net_cards for card in CLASSES] + [True])
        self._twins = deck.twins()
        # A look alone names its card when its runner-up's squared distance exceeds its own by twice the
        # evidence a read needs (see ``_decide``); looks short of that have their pose fitted further. A
        # look within ``weak_distance`` of a card is a close match, whose evidence the Gaussian model does
        # not overstate: one that names another card once fitted is judged as a look whose pose is unsure.
        self.reader = IndexReader(deck, self.settings.refine_above, self.settings.anchor_distance,
                                  self.settings.search_below, self.settings.turn_below,
                                  2.0 * evidence_needed(self.settings.min_confidence), self.settings.weak_distance)

    def read(self, frame: np.ndarray) -> list[Read]:
        """Every card in a BGR frame, each read or marked unreadable, in no particular order.

        A frame the recognizer cannot work through (a fault of its own, never the frame's) reads as no
        card at all, which a witness takes as cards it cannot see: the fault is logged with its
        traceback as ``recognizer_failed`` and counted in ``failures``, and the table goes on.
        """
        if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError("a frame must be an 8-bit BGR image (height x width x 3)")
        if min(frame.shape[:2]) < LEAST_FRAME_PX:
            return []  # too small to show a card (a camera's broken frame): no card seen, and no fault of ours
        try:
            return self._read(frame)
        except Exception:  # noqa: BLE001 - every fault: a frame unread holds a round, a traceback stops the table
            self.failures += 1
            _log.exception("recognizer_failed", extra={"frame_shape": frame.shape})
            return []

    def _read(self, frame: np.ndarray) -> list[Read]:
        small = half_size(frame)
        white = least_channel(small)
        layout = self.layout
        if layout is not None:
            scale = layout.px_per_mm((frame.shape[1] / 2, frame.shape[0] / 2))
            mask = card_mask(frame, small, self.card_size.width_mm * scale, UNLIKE_CLOTH, white)
        else:
            mask = card_mask(frame, small, unlike_cloth=UNLIKE_CLOTH, white=white)
            layout = self._guess_layout(mask)
            if layout is None:
                return []
            scale = layout.px_per_mm((frame.shape[1] / 2, frame.shape[0] / 2))
        width_px = self.card_size.width_mm * scale
        blobs, filled = find_blobs(mask, 0.35 * width_px * self.card_size.height_mm * scale, BRIDGE * width_px)
        candidates = self.hypotheses.candidates(frame, blobs, filled, layout, width_px,
                                                self._index_corners(white, blobs, filled, width_px, scale))
        if not candidates:
            return []
        quads = np.concatenate([c.quads for c in candidates])
        look_of = np.concatenate([c.looks for c in candidates])
        posed = np.concatenate([c.posed for c in candidates])
        distances, each_own, poses, fitted = self.reader.distances(frame, small, quads, look_of, width_px, ~posed)
        guessed = np.zeros(len(distances), bool)
        guessed[look_of[np.concatenate([c.guessed for c in candidates])]] = True
        # A look further than ``evidence_distance`` from every card takes part in no decision: only
        # candidates with a look nearer than that are decided, and only on such looks.
        telling = distances.min(axis=1) <= self.settings.evidence_distance
        found: list[_Found] = []
        strips = _FrameStrips(self.deck, frame, small, width_px)
        strips.fitted(quads[poses], fitted)
        far: list[tuple[bool, np.ndarray]] = []
        for cand in candidates:
            every = np.unique(cand.looks)
            looks = every[telling[every]]
            if len(looks):
                # A card lying alone has a certain outline; one in a fan judges each card at its own pose.
                judged = distances if cand.alone else each_own
                found.extend(self._reads(cand.alone, judged[looks], quads[poses[looks]], guessed[looks],
                                         strips.alone if cand.alone else strips))
            elif self.settings.net_reach is not None:
                far.append((cand.alone, every[distances[every].min(axis=1) <= self.settings.net_reach]))
        found.extend(self._net_reads(frame, far, distances, quads[poses]))
        if not found:
            return []
        found.extend(self._fan_reads(frame, small, filled, layout, width_px, found, strips))
        found = self._gainsaid(found, strips.beyond_index, (frame.shape[1], frame.shape[0]))
        found = self._confirmed(frame, found)
        centers = layout.to_table(np.array([quad_center(f.read.polygon) for f in found]))
        decided = [(center, f.read, f.closest) for center, f in zip(centers, found)]
        kept = self._suppress(decided, layout)
        zones = hand_zones([r.polygon for r in kept], layout) if layout.zones else [None] * len(kept)
        return [Read(r.card, r.polygon, r.visible, r.confidence, zone, r.guess) for r, zone in zip(kept, zones)]

    def _fan_reads(
        self, frame: np.ndarray, small: np.ndarray, filled: np.ndarray, layout: Layout, width_px: float,
        found: list[_Found], strips: _FrameStrips,
    ) -> list[_Found]:
        """The middle cards of fans that no corner found outlines (``vision.fans``): each gap between two
        cards read is outlined from theirs, at either index corner (a look each), the corner snapped to
        the edges near it, and read as a guessed index corner is (its outline is no surer than one:
        confidence ``guessed_confidence``), but with its closest look within ``gap_anchor`` (as a corner
        found's) rather than ``guessed_anchor``: a guessed corner is tried beside every plain corner
        found, on every face of a fan, while a gap is tried only where two cards read leave room for a
        card between them."""
        read = np.array([f.read.polygon for f in found if f.read.card is not None])
        if len(read) < 2:
            return []
        centres = layout.to_table(read.mean(axis=1))
        gaps = fan_gaps(layout.to_table(read.reshape(-1, 2)).reshape(-1, 4, 2), centres, self.card_size)
        if not len(gaps):
            return []
        outlines = layout.to_image(gaps.reshape(-1, 2)).reshape(-1, 4, 2)
        snapped, ok = self.hypotheses.outlines(snap_corners(frame, index_corners(outlines), width_px), layout, width_px)
        quads = np.concatenate([outlines, snapped])
        outline_of = np.concatenate([np.arange(len(outlines)), np.flatnonzero(ok)])
        inside = inside_share(quads, filled) >= self.settings.inside_share
        quads, outline_of = quads[inside], outline_of[inside]
        if not len(quads):
            return []
        tried, look_of = np.unique(outline_of, return_inverse=True)
        distances, each_own, poses, fitted = self.reader.distances(frame, small, quads, look_of, width_px)
        strips.fitted(quads[poses], fitted)
        telling = distances.min(axis=1) <= self.settings.evidence_distance
        gap_of = tried // 2
        reads: list[_Found] = []
        for gap in np.unique(gap_of).tolist():
            looks = np.flatnonzero((gap_of == gap) & telling)
            if len(looks):
                reads.extend(self._reads(False, each_own[looks], quads[poses[looks]], np.ones(len(looks), bool), strips,
                                         self.settings.gap_anchor))
        # A card reported unreadable there whose patches point to another card gainsays the gap's read. An
        # unreadable outline that lies on a card read is not reported (``_suppress``): another look at that card.
        unread = [f.read for f in found if f.read.card is None and f.read.guess is not None]
        if unread:
            off_reads = points_apart(layout.to_table(np.array([quad_center(r.polygon) for r in unread])), centres,
                                     ON_READ * self.card_size.width_mm)
            unread = [r for r, apart in zip(unread, off_reads) if apart]
        guesses = [(r.guess, quad_center(r.polygon)) for r in unread]
        near = CLEAR * width_px
        return [f for f in reads if f.read.card is None or not any(
            guess is not f.read.card and math.dist(centre, quad_center(f.read.polygon)) < near for guess, centre in guesses)]

    def _net_reads(
        self, frame: np.ndarray, far: list[tuple[bool, np.ndarray]], distances: np.ndarray, outlines: np.ndarray
    ) -> list[_Found]:
        """Reads of the candidates none of whose looks lies within ``evidence_distance`` of a card (each given as
        whether it lies alone and its looks within ``net_reach``), which the deck's looks alone never read: a
        look is read when the index net (``vision.index_net``) gives the card nearest to it at least
        ``net_confirm`` of the probability at its outline as found. Two witnesses that know different things
        agree: the deck's looks, that this card is the likeliest (an index partly in glare, a fan's next
        card over its margin, a white balance enrolment never saw put it further off than a close match),
        the net, trained on many brands under many lights, that it is this card. A candidate whose looks
        the net confirms as two different cards is not read; never a joker."""
        if self.settings.net_confirm is None or not far:
            return []
        rows = [(k, look) for k, (_, looks) in enumerate(far) for look in looks.tolist()
                if self.deck.cards[int(distances[look].argmin())] in self._net_cards
                and self.deck.cards[int(distances[look].argmin())] is not JOKER]
        if not rows:
            return []
        looks = np.array([look for _, look in rows])
        probabilities = shipped_net().probabilities(net_patches(frame, outlines[looks])) * self._net_allowed
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        confirmed: dict[int, list[tuple[Card, int, float]]] = {}
        for (k, look), row in zip(rows, probabilities):
            card = self.deck.cards[int(distances[look].argmin())]
            net = float(row[CLASSES.index(card)])
            if net >= self.settings.net_confirm:
                confirmed.setdefault(k, []).append((card, look, net))
        out = []
        for k, named in confirmed.items():
            if len({card for card, _, _ in named}) != 1:
                continue
            card, look, net = max(named, key=lambda entry: entry[2])
            visible: Visible = "full" if far[k][0] else "corner"
            out.append(_Found(Read(card, outlines[look], visible, net), float(distances[look].min()), outlines[look][None]))
        return out

    def _suppress(self, decided: list[tuple[np.ndarray, Read, float]], layout: Layout) -> list[Read]:
        """Keep one read per card: read cards first, then unreadable ones that overlap no kept card.

        Each entry is a read's centre (table mm, through ``layout``), the read,
        and how closely its best look fits a card. Two reads of one card (outlines whose
        centres nearly coincide) keep the read card whose look fits most
        closely (a clear read's confidence is all but 1 and tells them
        apart no further), or else the more confident unreadable one; a card
        read again within ``ON_READ`` is one card, unless the two lie an index
        patch apart along its sides (``_two_of_one_card``). Corner
        hypotheses built from edges of two different cards outline a card
        that is not there, half over real ones: such an outline found
        unreadable is dropped when a read card lies within half a card's
        width of it, or when read cards cover half of it and none of its
        patches points to a card. Read cards in a fan lie closer together
        than that and are all kept.
        """
        decided.sort(key=lambda entry: (0, entry[2]) if entry[1].card is not None else (1, -entry[1].confidence))
        kept: list[tuple[tuple[float, float], Read]] = []
        again = ON_READ * self.card_size.width_mm
        for center, read, _ in decided:
            near = (SAME_READ if read.card is not None else ON_READ) * self.card_size.width_mm
            x, y = center.tolist()
            if read.card is not None and self.deck.side_index and self._read_from_a_side_index(center, read, kept, layout):
                continue
            if any(math.hypot(x - ox, y - oy) < near or (
                    read.card is not None and other.card == read.card and math.hypot(x - ox, y - oy) < again
                    and not self._two_of_one_card(np.array([x - ox, y - oy]), layout.to_table(other.polygon)))
                   for (ox, oy), other in kept):
                continue
            if read.card is None and read.guess is None and \
                    covered(read.polygon, [r.polygon for _, r in kept if r.card is not None]) >= 0.5:
                continue
            kept.append(((x, y), read))
        return [read for _, read in kept]

    def _read_from_a_side_index(self, center: np.ndarray, read: Read, kept: list[tuple[tuple[float, float], Read]],
                                layout: Layout) -> bool:
        """A four-index deck (``DeckTemplates.side_index``) shows a card's index at its top right and bottom left
        too, and a look there is taken as an index corner of a card lying beside the real one: its outline lies
        ``SIDE_INDEX_SHIFT`` card widths on along its own width. Of two reads of one card so placed, the one ahead
        is that read: when ``read`` is, it is dropped (True); when a kept read is, ``read`` takes its place."""
        outline = layout.to_table(read.polygon)
        for k, ((ox, oy), other) in enumerate(kept):
            if other.card != read.card:
                continue
            other_outline = layout.to_table(other.polygon)
            offset = center - np.array([ox, oy])
            if self._beside_by_side_index(offset, outline):
                return True
            if self._beside_by_side_index(-offset, other_outline):
                kept[k] = ((float(center[0]), float(center[1])), read)
                return True
        return False

    def _beside_by_side_index(self, offset: np.ndarray, polygon: np.ndarray) -> bool:
        """Whether a read whose outline is ``polygon`` (table mm, index corner first) lies ``offset`` from another
        read of its card as a read from the card's side index lies from a read of its card."""
        across, down = polygon[1] - polygon[0], polygon[3] - polygon[0]
        along = float(offset @ across) / max(float(np.linalg.norm(across)), 1e-9) / self.card_size.width_mm
        below = abs(float(offset @ down)) / max(float(np.linalg.norm(down)), 1e-9) / self.card_size.height_mm
        low, high = SIDE_INDEX_SHIFT
        return low <= along <= high and below <= SIDE_INDEX_OFF

    def _two_of_one_card(self, offset: np.ndarray, polygon: np.ndarray) -> bool:
        """Whether two reads of one card whose centres lie ``offset`` (table mm) apart can be two copies of
        it, each showing an index: one lies at least an index patch's width across or its height down
        (``DeckTemplates.index_region``) from the other, along the sides of ``polygon`` (the kept read's outline in
        table mm, index corner first: in image px a rolled camera turns its sides away from the offset's).
        Nearer, the card on top would cover the index of the card under it."""
        across, down = polygon[1] - polygon[0], polygon[3] - polygon[0]
        along = abs(float(offset @ across)) / max(float(np.linalg.norm(across)), 1e-9) / self.card_size.width_mm
        below = abs(float(offset @ down)) / max(float(np.linalg.norm(down)), 1e-9) / self.card_size.height_mm
        index_fx, index_fy = self.deck.index_region
        return along >= index_fx or below >= index_fy

    def _index_corners(self, white: np.ndarray, blobs: list[Blob], filled: np.ndarray, width_px: float,
                       scale: float) -> tuple[Corners, np.ndarray] | None:
        """Index corners no outline corner gives, and their blob: from the index's glyphs (``_glyph_corners``)
        and from the seams of piles (``vision.seams``: where one card's edge across the card under it meets
        the pile's outline, the corners of a tight fan). ``white``: the half-size frame's least channel."""
        glyphs = self._glyph_corners(white, blobs, filled, width_px)
        if not blobs:
            return glyphs
        seams = seam_corners(white, blobs, filled, width_px, width_px * self.card_size.height_mm * scale)
        if not len(seams[0]):
            return glyphs
        if glyphs is None:
            return seams
        return Corners.joined([glyphs[0], seams[0]]), np.concatenate([glyphs[1], seams[1]])

    def _glyph_corners(self, white: np.ndarray, blobs: list[Blob], filled: np.ndarray,
                       width_px: float) -> tuple[Corners, np.ndarray] | None:
        """Index corners that pairs of ink marks on each blob give (``vision.glyphs``), and their blob
        (``white``: the half-size frame's least channel)."""
        if not self.deck.layouts or not blobs:
            return None
        height_px = width_px / self.deck.aspect
        pad = int(0.2 * width_px / DOWNSCALE) + 2
        found: list[Corners] = []
        owners: list[np.ndarray] = []
        on_card = cv2.erode(filled, _SQUARE3)
        for k, blob in enumerate(blobs):
            x0, y0 = np.floor(blob.contour.min(axis=0) / DOWNSCALE).astype(int) - pad
            x1, y1 = np.ceil(blob.contour.max(axis=0) / DOWNSCALE).astype(int) + pad
            x0, y0 = max(x0, 0), max(y0, 0)
            x1, y1 = min(x1, filled.shape[1]), min(y1, filled.shape[0])
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            mine = np.zeros((y1 - y0, x1 - x0), np.uint8)
            contour = np.round((blob.contour - (DOWNSCALE - 1) / 2) / DOWNSCALE).astype(np.int32) - [x0, y0]
            cv2.drawContours(mine, [contour], -1, 255, cv2.FILLED)
            inside = cv2.distanceTransform(mine, cv2.DIST_L2, 3)
            if float(inside.max()) < GLYPH_BLOB * width_px / DOWNSCALE:
                continue  # no index fits (a stripe of a patterned cloth; its every mark paired cost seconds)
            marks = ink_marks(white[y0:y1, x0:x1], cv2.bitwise_and(mine, on_card[y0:y1, x0:x1]), width_px / DOWNSCALE)
            points, along_w, along_h = glyph_corners(marks, self.deck.layouts, width_px, height_px, self.deck.margins)
            # An index corner shows where the card ends: on its blob's outline, or just inside it (a card's
            # corner lying on the card under it, at the edge of the pile). Pairs of pips deep in a face
            # make corners far inside, which no card has.
            at = np.clip(np.round((points - (DOWNSCALE - 1) / 2) / DOWNSCALE - [x0, y0]).astype(int),
                         0, [inside.shape[1] - 1, inside.shape[0] - 1]) if len(points) else np.zeros((0, 2), int)
            near_edge = inside[at[:, 1], at[:, 0]] <= GLYPH_EDGE * width_px / DOWNSCALE
            points, along_w, along_h = points[near_edge], along_w[near_edge], along_h[near_edge]
            if len(points):
                none = np.zeros(len(points))
                found.append(Corners(points + [x0 * DOWNSCALE, y0 * DOWNSCALE], along_w, along_h, none, none))
                owners.append(np.full(len(points), k))
        if not found:
            return None
        return Corners.joined(found), np.concatenate(owners)

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

    def _reads(
        self, alone: bool, looks: np.ndarray, outlines: np.ndarray, guessed: np.ndarray | None = None,
        strips: Strips | None = None, guessed_anchor: float | None = None,
    ) -> list[_Found]:
        """A candidate's reads, each with how closely its closest look fits a card and the outlines it rests
        on: its looks split by the card they are of (``_same_card``), each card decided. ``guessed``:
        which looks are of a guessed index corner (none when not given); ``strips``: the strips'
        distances at given outlines; ``guessed_anchor``: see ``_decide``."""
        guessed = np.zeros(len(looks), bool) if guessed is None else guessed
        reads = []
        while len(looks):
            same = self._same_card(looks, outlines) if len(looks) > 1 else np.ones(1, bool)
            read, far_guess = self._decided(alone, looks[same], outlines[same], guessed[same], strips, guessed_anchor)
            if read is not None:
                heard = outlines[same][self._resting(looks[same], read.card)] if read.card is not None else outlines[:0]
                reads.append(_Found(read, float(looks[same].min()), heard, far_guess=far_guess))
            looks, outlines, guessed = looks[~same], outlines[~same], guessed[~same]
        return reads

    def _resting(self, looks: np.ndarray, card: Card) -> np.ndarray:
        """Which looks a read of ``card`` rests on: those near a card (within ``max_distance``, or
        ``evidence_distance`` when none lies within ``anchor_distance``) that put ``card`` within
        ``tie_distance`` of their nearest."""
        nearest = looks.min(axis=1)
        return np.asarray((nearest <= self._reach(nearest)) & (looks[:, self.deck.cards.index(card)] - nearest <= self.settings.tie_distance))

    def _reach(self, nearest: np.ndarray) -> float:
        """How far from its nearest card a look may lie and still take part in a read (agree or dissent):
        ``max_distance``, or ``evidence_distance`` for a candidate none of whose looks (``nearest``: each
        look's distance to its nearest card) lies within ``anchor_distance``."""
        far = nearest.min() > self.settings.anchor_distance
        return self.settings.evidence_distance if far else self.settings.max_distance

    def _gainsaid(
        self, found: list[_Found], beyond_index: Callable[[np.ndarray, np.ndarray], np.ndarray], frame_size: tuple[int, int]
    ) -> list[_Found]:
        """The reads, each one whose strips beyond the index (``beyond_index``, given the outlines and which
        of them are of cards lying alone: pips and picture, and for a card lying alone the centre of its
        face; not the suit and rank strips, the index's own halves and no witnesses beside it) say plainly
        that it is another card (``_strips_gainsay``) made unreadable, its card the guess. They are heard
        in one batch per frame, for every read but two kinds: one whose closest look lies within
        ``gainsay_look`` of its card with twice the evidence a read needs (the index speaks for itself,
        and the strips are the noisier witness; the wrong reads they stop on fresh tuning and more frames
        rest on looks 7.4 to 15.3 off), and a joker, whose picture is heard when it is named
        (``_joker_shown``). A strip far from every card is heeded (``_strips_gainsay``) beside a card lying
        alone, a read resting on no look within ``anchor_distance``, and a card whose outline leaves the frame
        (``frame_size``: width, height), whose index may be a patch of what the frame cut off."""
        sure = evidence_confidence(2.0 * evidence_needed(self.settings.min_confidence))
        asked = [i for i, f in enumerate(found) if f.read.card not in (None, JOKER) and len(f.heard)
                 and (f.closest > self.settings.gainsay_look or f.read.confidence < sure)]
        if not asked:
            return found
        lone = np.concatenate([np.full(len(found[i].heard), found[i].read.visible == "full") for i in asked])
        rows = beyond_index(np.concatenate([found[i].heard for i in asked]), lone)
        out, start = list(found), 0
        for i in asked:
            f = found[i]
            heeds_far = (f.read.visible == "full" or f.closest > self.settings.anchor_distance
                         or _leaves_frame(f.read.polygon, frame_size))
            if self._strips_gainsay(rows[start : start + len(f.heard)], self.deck.cards.index(f.read.card), heeds_far):
                out[i] = _Found(Read(None, f.read.polygon, f.read.visible, 0.0, guess=f.read.card), f.closest, f.heard, True)
            start += len(f.heard)
        return out

    def _confirmed(self, frame: np.ndarray, found: list[_Found]) -> list[_Found]:
        """The reads, each unreadable one whose looks all point to one card (its guess, or for looks all past
        a close match the card they point to all the same, ``_Found.far_guess``) read as that card when the
        index net (``vision.index_net``) names it too: at the read's outline, the net gives it at least
        ``net_confirm`` of the probability it leaves to the deck's cards and to "no index". Two witnesses
        that know different things agree: the deck's looks know this brand, the net the shapes of many.
        Never a joker (every brand draws its own, and the net knows only those it was trained on), nor a
        read the strips beside the index gainsaid (they said plainly it is another card)."""
        if self.settings.net_confirm is None:
            return found
        guesses = [f.read.guess if f.read.guess is not None else f.far_guess for f in found]
        asked = [i for i, (f, guess) in enumerate(zip(found, guesses)) if f.read.card is None
                 and guess in self._net_cards and guess is not JOKER and not f.gainsaid]
        if not asked:
            return found
        patches = net_patches(frame, np.array([found[i].read.polygon for i in asked]))
        probabilities = shipped_net().probabilities(patches) * self._net_allowed
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        out = list(found)
        for i, row in zip(asked, probabilities):
            f, guess = found[i], guesses[i]
            net = float(row[CLASSES.index(guess)])
            if net >= self.settings.net_confirm:
                confidence = 1.0 - (1.0 - f.read.confidence) * (1.0 - net)
                out[i] = _Found(Read(guess, f.read.polygon, f.read.visible, confidence), f.closest, f.heard)
        return out

    def _strips_gainsay(self, strips: np.ndarray, best: int, heeds_far: bool) -> bool:
        """Whether a strip beside the looks says plainly that the card is not ``best``: one that looks closely
        like a card (within ``strip_close``) puts every card of ``best``'s suit ``gainsay_suit`` further
        off than its nearest card, or ``best`` itself ``gainsay_card`` further (in squared distance over 2,
        the units of evidence, see ``_decide``); or, when the read ``heeds_far`` strips and no strip has
        ``best`` for its nearest card, one puts it ``gainsay_far`` further, however far it lies from every
        card (a strip partly covered, or lying across other cards, is far from every card, and a little
        further from one card than from another says nothing there; a guyenne queen of clubs read from a club pip, where no such card
        lies, has its picture strip 61 from the nearest card and 89 from the queen, while a guyenne
        queen of diamonds lying alone has one top strip 56 from the nearest card and 84 from the queen,
        and her other strips nearest to her). The centre of a face is no such witness: a card taken
        for one lying alone may have another card over its middle (a guyenne five of diamonds whose
        centre lay 64 from every card and 85 from the five), so far from every card it says nothing.
        A suit twin read from an index whose suit symbol is a few pixels across is gainsaid by the pips
        beside it; a card whose index is the same bare symbol as another's by its picture. A strip is
        shared by several ranks of a suit, and some ranks' strips vary more than their spread enrolled
        says (an ace's ornament, a picture that differs at its two corners), so a strip gainsays one
        card only by much more than a suit.

        A card in a fan read from an index that looks closely like it, lying whole in the frame, does not heed
        such far strips (``_gainsaid`` says who does): the strips beside its index mostly lie under the next
        card, and on the tune part they gainsaid 52 right reads of such cards and no wrong one."""
        rows = strips.reshape(-1, strips.shape[-1])
        nearest = rows.min(axis=1)
        suit = self._suits == self._suits[best]
        with np.errstate(invalid="ignore"):
            against_card = (rows[:, best] ** 2 - nearest**2) / 2.0
            against_suit = (rows[:, suit].min(axis=1) ** 2 - nearest**2) / 2.0
        plainly = (against_card >= self.settings.gainsay_card) | (against_suit >= self.settings.gainsay_suit)
        if (plainly & (nearest <= self.settings.strip_close)).any():
            return True
        if not heeds_far:
            return False
        beside_index = np.tile(_BESIDE_INDEX[: strips.shape[1]], len(strips))
        far = (against_card >= self.settings.gainsay_far) & beside_index
        return not (against_card <= 0.0).any() and bool(far.any())

    def _same_card(self, looks: np.ndarray, outlines: np.ndarray) -> np.ndarray:
        """Which of a candidate's looks are of the card its closest look is of: those whose outline puts the
        card's centre within ``same_card`` card widths of that look's. A candidate groups outlines by
        centre loosely, and in a tight fan the centres of two cards lie closer than that grouping.

        When the closest look is a joker's, all are: a joker has no index, a patch of its picture
        anywhere looks like its corner, and an outline across a joker and the card beside it must still
        answer to that card's looks.
        """
        closest, card = divmod(int(looks.argmin()), looks.shape[1])
        if self.deck.cards[card] is JOKER:
            return np.ones(len(looks), bool)
        centres = outlines.mean(axis=1)
        offsets = centres - centres[closest]
        return np.asarray(np.einsum("ij,ij->i", offsets, offsets) <= (self.settings.same_card * side(outlines[closest])) ** 2)

    def _weak_rivals(self, rows: np.ndarray) -> np.ndarray | None:
        """When a read rests on a weak match (its closest patch far from the card, where the Gaussian
        evidence overstates the gap, and the next card not clearly further), the cards near that patch's
        card (a mask over the cards, that card among them); else ``None``."""
        closest = rows[int(rows.min(axis=1).argmin())]
        first, second = np.partition(closest, 1)[:2]
        if first > self.settings.weak_distance and second < self.settings.weak_margin * first:
            return np.asarray(closest < self.settings.weak_margin * first)
        return None

    def _joker_shown(self, looks: np.ndarray, outlines: np.ndarray, joker: int, strips: Strips | None) -> bool:
        """Whether the looks show a joker: two corners look closely like it, or one corner (all that
        shows of a joker under another card) looks very closely like it (within ``joker_close``)
        while every card is at least ``joker_margin`` times further off, or that corner looks like it
        less closely (as far as any look that takes part in a decision, ``evidence_distance``: a joker
        lying under another card shows a corner of its picture that no enrolled corner quite matches,
        an orell joker's 17.8 off, every card 71 or more) and its strips show the joker
        (``_strips_show``)."""
        settings = self.settings
        nearest, named = looks.min(axis=1), looks.argmin(axis=1)
        if int(((nearest <= settings.anchor_distance) & (named == joker)).sum()) >= 2:
            return True
        others = np.delete(looks, joker, axis=1).min(axis=1)
        apart = (named == joker) & (others >= settings.joker_margin * nearest)
        if (apart & (nearest <= settings.joker_close)).any():
            return True
        near = apart & (nearest <= settings.evidence_distance)
        return strips is not None and bool(near.any()) and self._strips_show(strips(outlines[near]), joker)

    def _strips_show(self, strips: np.ndarray, card: int) -> bool:
        """Whether the strips beside some looks (``vision.geometry.STRIPS``) show ``card`` past its index:
        none that looks closely like a card (within ``strip_close``) puts another nearer than ``card`` (a
        suit strip puts every card of a suit as near, a rank strip every card of a rank), and one names
        ``card`` with every other at least ``strip_margin`` times further off. A joker's picture runs
        past its corner, where a card's pips or picture would be; a patch of another picture that looks
        like a joker's corner has no joker beside it, nor has a patch of another card's face that looks
        somewhat like an index the pips of that index's card beside it."""
        rows = strips.reshape(-1, strips.shape[-1])
        nearest = rows.min(axis=1)
        close = nearest <= self.settings.strip_close
        if (close & (rows[:, card] > nearest)).any():
            return False
        others = np.delete(rows, card, axis=1).min(axis=1)
        return bool((close & (others >= self.settings.strip_margin * nearest)).any())

    def _strips_show_suit(self, strips: np.ndarray, card: int) -> bool:
        """Whether the strips beside some looks show ``card``'s suit: none that looks closely like a card
        (within ``strip_close``) puts ``card`` more than ``weak_margin`` times as far as its nearest card
        (the top pips of a five of hearts lie 7.7 from the five and 7.8 from the eight: a strip is shared
        by the ranks of a suit), and one puts every card of another suit at least ``strip_margin`` times
        as far as its nearest."""
        rows = strips.reshape(-1, strips.shape[-1])
        nearest = rows.min(axis=1)
        close = nearest <= self.settings.strip_close
        if (close & (rows[:, card] > self.settings.weak_margin * nearest)).any():
            return False
        others = rows[:, self._suits != self._suits[card]].min(axis=1)
        return bool((close & (others >= self.settings.strip_margin * nearest)).any())

    def _strip_evidence(
        self, strips: np.ndarray, totals: np.ndarray, best: int, needed: float, rivals: np.ndarray | None = None
    ) -> float:
        """The evidence for ``best`` over every other card once the strips (``vision.geometry.STRIPS``) beside
        the agreeing looks' indexes are heard, or 0 when they do not settle it.

        ``totals`` are the looks' summed squared distances per card. Strips that look like a card at all
        (within ``evidence_distance``) are pooled with the looks. Every card the looks alone do not rule out
        (by ``needed``), and every one of ``rivals`` (a mask over the cards, when given), must be ruled
        out by the strips alone, both by those that look closely like a card (within ``strip_close``) and
        by all of them: a strip of a blank stretch of card, or one the card above covers in part, must
        neither name a card nor hide a dissent. A strip far from every card (beyond ``weak_distance``) is
        a weak match, as a look is (see ``_decide``): it rules out none of the cards within ``weak_margin``
        of its nearest. A strip is shared by several ranks of a suit (the top pips of a four and a nine),
        so it mostly speaks to the suit.
        """
        rows = strips.reshape(-1, strips.shape[-1]).copy()
        nearest = rows.min(axis=1)
        weak = (nearest > self.settings.weak_distance)[:, None] & (rows < self.settings.weak_margin * nearest[:, None])
        rows[weak] = np.minimum(rows, rows[:, best : best + 1])[weak]
        telling = rows[nearest <= self.settings.evidence_distance]
        close = rows[nearest <= self.settings.strip_close]
        looks_gap, open_ = _left_open(totals, best, needed, rivals)
        told = ((telling**2).sum(axis=0) - (telling[:, best] ** 2).sum()) / 2.0
        closely = ((close**2).sum(axis=0) - (close[:, best] ** 2).sum()) / 2.0
        if (open_ & ((told < needed) | (closely < needed))).any():
            return 0.0
        return max(float(np.delete(looks_gap + told, best).min()), 0.0)

    def _suit_evidence(
        self, strips: np.ndarray, totals: np.ndarray, best: int, needed: float, rivals: np.ndarray | None = None
    ) -> float:
        """The evidence for ``best`` when the looks leave open only its suit twins (its rank in another suit)
        and the suit strip tells the suit, or 0.

        ``totals``, ``needed`` and ``rivals`` are as for ``_strip_evidence``. The looks must rule out every
        card of another rank by ``needed`` themselves, and every card they do not, and every one of
        ``rivals``, must be of ``best``'s rank: the index's rank is then settled, and only its suit
        symbol, a few pixels across, is in doubt (an anglo ace of spades whose look is 8.5 off the spade
        and 11.3 off the club). The suit strip, read at the pose the index was fitted to, must then look
        closely like ``best``'s suit (within ``strip_close``) and put every other suit further by the
        evidence a read needs on its own. The other strips beside an index are not heard here: an
        ace's are blank card, whose spread enrolled is too small for its noise (that ace's top strip put
        the ace of clubs at 14.0 and the spade at 18.4), and a strip that says plainly that the card is
        another is heard anyway (``_gainsaid``)."""
        if strips.shape[1] <= _SUIT_STRIP:
            return 0.0
        looks_gap, open_ = _left_open(totals, best, needed, rivals)
        if not open_.any() or (self._ranks[open_] != self._ranks[best]).any():
            return 0.0
        suit = strips[:, _SUIT_STRIP]
        own = suit[:, best]
        other = suit[:, self._suits != self._suits[best]].min(axis=1)
        with np.errstate(invalid="ignore"):
            told = np.where(own <= self.settings.strip_close, (other**2 - own**2) / 2.0, -np.inf).max()
        if not told >= needed:
            return 0.0
        return max(float(np.delete(np.where(open_, looks_gap + told, looks_gap), best).min()), 0.0)

    def _decide(
        self, alone: bool, looks: np.ndarray, outlines: np.ndarray, guessed: np.ndarray | None = None,
        strips: Strips | None = None, guessed_anchor: float | None = None,
    ) -> Read | None:
        """One read per candidate, or unreadable, or nothing when no look is like a card index.

        ``looks`` are the candidate's looks' distances to every card (one row
        per corner, each at its best pose) and ``outlines`` the outline of
        each look's pose; the outline reported is the one the read rests on.
        Looks that look closely like a card (nearest within ``anchor_distance``)
        must all name the same card: pooling never settles a quarrel. Looks a
        little further off (within ``max_distance``) add their evidence when
        they agree and are left out when they do not (an outline from a wrong
        corner), except on a card lying alone, whose outline is certain: there
        they make it unreadable. A look that names another card but puts the
        closest look's card within ``tie_distance`` of it (a suit twin at
        10.6 against 10.9) does not take sides: it neither quarrels nor adds
        evidence. Nor does the closest look when it ties two cards itself:
        if the card it leans to is not read, the one it leans from is, when
        the other looks and the strips rule out the first by themselves. A
        joker has no index, only its picture in the corner, which other
        pictures resemble: it is named only when two of
        its corners look closely like it, or one very closely and unlike
        every card, or one a little less closely with the strips beside it
        showing the joker (else it is unreadable, its guess the joker).
        Within-card spread is whitened to unit variance, so the sum of squared
        distances is a log-likelihood up to a factor, and the gap between the
        named card's sum and the next card's is the evidence. A look far from
        every card (beyond ``weak_distance``) lies where the Gaussian model
        overstates the evidence: a read resting on it needs the next card at
        least ``weak_margin`` times further off. A read whose close looks are
        all of ``guessed`` index corners (no corner was found there) needs
        ``guessed_confidence``, and its closest look within ``guessed_anchor`` (the
        settings', unless given: a fan gap's, ``gap_anchor``, see ``_fan_reads``)
        (or the strips beside it showing the card, see ``_strips_show``):
        a guessed corner can lie anywhere on a fan, and a patch of another
        card's face there can look somewhat like an index. A read short of
        the evidence, or resting on a weak match, asks the ``strips`` beside
        the agreeing looks' indexes (see ``_strip_evidence``), or, when the
        looks leave only its suit twins open, the suit strip alone
        (``_suit_evidence``); for a weak match they must rule out the cards
        near its closest look themselves, and for a card with twins
        (``vision.templates.TWIN_SEPARATION``: cards its index hardly tells
        it from) its twins.
        A candidate whose looks all lie past ``anchor_distance`` (one within
        ``evidence_distance``) is read only as one resting on a guessed
        corner past its anchor is: when the strips beside its agreeing looks
        show the card (a fanned paris queen of hearts whose one look is 18.4
        off the queen, the ace of hearts 81.8, her side strip 15.2 off hers),
        or, when the looks alone have the evidence, show its suit
        (``_strips_show_suit``: a strip beside the index is shared by the
        ranks of a suit, so the rank is the looks' to tell, and as the cards
        near a weak match must still be ruled out by the strips, one of the
        same suit leaves it unreadable); else it is unreadable, without a guess.
        """
        return self._decided(alone, looks, outlines, guessed, strips, guessed_anchor)[0]

    def _decided(
        self, alone: bool, looks: np.ndarray, outlines: np.ndarray, guessed: np.ndarray | None = None,
        strips: Strips | None = None, guessed_anchor: float | None = None,
    ) -> tuple[Read | None, Card | None]:
        """``_decide``, and for a candidate whose looks all lie past ``anchor_distance`` left unreadable
        without a guess, the card they point to all the same (for the index net's word, ``_confirmed``)."""
        settings = self.settings
        visible: Visible = "full" if alone else "corner"
        if len(looks) == 0:
            return None, None
        nearest = looks.min(axis=1)
        outline = outlines[int(nearest.argmin())]
        closest = looks[int(nearest.argmin())]
        best = int(closest.argmin())
        if not (nearest <= settings.anchor_distance).any():
            if not (nearest <= settings.evidence_distance).any():
                return None, None
            read = self._named(best, alone, looks, outline, outlines, guessed, strips)
            return (read, None) if read.card is not None else (Read(None, outline, visible, 0.0), read.guess)
        read = self._named(best, alone, looks, outline, outlines, guessed, strips, guessed_anchor=guessed_anchor)
        runner_up = int(np.argsort(closest)[1]) if len(closest) > 1 else best
        if read.card is None and runner_up != best and closest[runner_up] - closest[best] <= settings.tie_distance:
            # The closest look ties two cards: it takes neither side, and the other looks and the strips
            # may name the one it leans from, when they rule out the one it leans to by themselves.
            other = self._named(runner_up, alone, looks, outline, outlines, guessed, strips, True, guessed_anchor)
            if other.card is not None:
                return other, None
        return read, None

    def _named(
        self, best: int, alone: bool, looks: np.ndarray, outline: np.ndarray, outlines: np.ndarray,
        guessed: np.ndarray | None, strips: Strips | None, tie: bool = False, guessed_anchor: float | None = None,
    ) -> Read:
        """``_decide`` for the card ``best``: read, or unreadable (with ``best`` for a guess when the evidence
        falls short). With ``tie``, the looks that put ``best`` within ``tie_distance`` of their nearest card
        agree with it (``best`` is the card a look that ties leans from)."""
        settings = self.settings
        visible: Visible = "full" if alone else "corner"
        nearest, named = looks.min(axis=1), looks.argmin(axis=1)
        strong = nearest <= settings.anchor_distance
        with np.errstate(invalid="ignore"):
            ties = looks[:, best] - nearest <= settings.tie_distance
        dissent = (named != best) & ~ties
        if (strong & dissent).any():
            return Read(None, outline, visible, 0.0)
        if self.deck.cards[best] is JOKER and not self._joker_shown(looks, outlines, best, strips):
            return Read(None, outline, visible, 0.0, guess=JOKER)
        near = nearest <= self._reach(nearest)
        if alone and (near & dissent).any():
            return Read(None, outline, visible, 0.0)
        agree = near & ((named == best) | (ties & tie))
        totals = (looks[agree] ** 2).sum(axis=0)
        conf = evidence_confidence(_gap(totals, best) / 2.0)
        guessed_only = guessed is not None and not (strong & agree & ~guessed).any()
        line = settings.guessed_confidence if guessed_only else settings.min_confidence
        looks_settle = conf >= line
        rivals = self._weak_rivals(looks[agree])
        if self._twins[best].any():
            # Its index does not tell the card from its twins (``vision.templates.TWIN_SEPARATION``): the strips
            # must rule them out, or the index net name it (``_confirmed``).
            rivals = self._twins[best] if rivals is None else rivals | self._twins[best]
        weak = rivals is not None
        shown = None  # the strips beside the agreeing looks, read when first asked for
        if (conf < line or weak) and strips is not None:
            # A weak match's own gap overstates the evidence: the cards near it are for the strips to rule out.
            shown = strips(outlines[agree])
            needed = evidence_needed(line)
            evidence = max(self._strip_evidence(shown, totals, best, needed, rivals),
                           self._suit_evidence(shown, totals, best, needed, rivals))
            heard = evidence_confidence(evidence)
            if heard >= line:
                conf, weak = heard, False
        anchor = settings.guessed_anchor if guessed_anchor is None else guessed_anchor
        loose = nearest[agree].min() > (anchor if guessed_only else settings.anchor_distance)
        if loose and conf >= line and not weak and strips is not None:
            shown = strips(outlines[agree]) if shown is None else shown
            far = nearest[agree].min() > settings.anchor_distance
            loose = not (self._strips_show(shown, best) or (far and looks_settle and self._strips_show_suit(shown, best)))
        if conf < line or weak or loose:
            return Read(None, outline, visible, conf, guess=self.deck.cards[best])
        return Read(self.deck.cards[best], outline, visible, conf)


def _leaves_frame(polygon: np.ndarray, frame_size: tuple[int, int]) -> bool:
    """Whether an outline (frame pixels) reaches past a frame of ``frame_size`` (width, height)."""
    width, height = frame_size
    return bool(((polygon < 0.0) | (polygon > (width - 1.0, height - 1.0))).any())


def _left_open(
    totals: np.ndarray, best: int, needed: float, rivals: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """The looks' evidence for ``best`` over each card (``totals``: summed squared distances per card), and
    the cards they leave open: short of ``needed``, or among ``rivals`` (a mask, when given); never ``best``."""
    looks_gap = (totals - totals[best]) / 2.0
    open_ = looks_gap < needed
    if rivals is not None:
        open_ |= rivals
    open_[best] = False
    return looks_gap, open_


def _gap(totals: np.ndarray, best: int) -> float:
    """How much further (summed squared distances) the runner-up to ``best`` lies: the evidence, twice."""
    if len(totals) < 2:
        return 0.0
    return float(np.delete(totals, best).min() - totals[best])
