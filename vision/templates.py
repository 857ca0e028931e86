"""An enrolled deck: what each card's index corner looks like, and matching patches against it.

Enrolment needs one upright face image per card. From it:

* index corners: the index patch (see ``vision.geometry``) of both index
  corners, jittered the way a real frame jitters them (a corner found a pixel
  or two off, a slightly wrong scale or angle, defocus, noise). A linear
  discriminant (Fisher's LDA, in plain numpy) is fitted on these: it whitens
  the spread a card shows from frame to frame and keeps the directions that
  tell cards apart. A patch is then read as the nearest card in that space,
  and its distance says how much it looks like that card at all;
* what each card's index looks like: the mean grey patch over its jittered
  copies, which the recognizer slides a patch against to fit its pose;
* not an index: the same patch taken at the two corners without an index
  and at random places and angles on each face; a patch nearer to one of
  these than to every card is not read as a card;
* the strips beside each index (``vision.geometry.STRIPS``: the top pips or
  the picture's top, the index's suit symbol and rank seen finer, and the
  centre of the face), jittered the same way, each with a discriminant of
  its own whose classes are each card's two index corners (the two halves
  of a seven differ). At this scale a strip tells a club from a spade far
  better than the index patch's small suit symbol, and most strips are
  shared by several ranks of a suit, so a strip speaks to the suit, the
  index (and its rank seen finer) to the rank;

A feature vector is a grey patch followed by its "redness" (red minus
the larger of green and blue), so hearts and diamonds never look like spades
and clubs; each vector is centred and scaled to unit length, so light and
exposure do not matter.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from controller.cards import Card
from vision.geometry import (
    INDEX_FX,
    INDEX_FY,
    INDEX_REGIONS,
    SMALL_INDEX_REGION,
    STRIPS,
    Strip,
    card_quad_from_corner,
    index_strips,
    rotate_quad,
    sample_patch,
)
from vision.glyphs import IndexLayout, index_layouts, margin_points
from vision.upright_index import UPRIGHT_SHARE, upright_bottom_index

__all__ = [
    "INDEX_SIZE",
    "DeckTemplates",
    "IndexMatch",
    "StripModel",
    "TemplateError",
    "enrol_faces",
    "features",
]

INDEX_SIZE = (20, 36)
BACKGROUND_BGR = (60, 120, 50)
#: 13: a deck records whether it prints a small index (read in a smaller region, ``SMALL_INDEX``) and four colours
#: (read by its inks' hue, ``DeckTemplates.four_colour``); a cached artwork deck of format 12 would be read as
#: neither. 12: a deck records whether it prints its index at all four corners (``DeckTemplates.side_index``; a four-index
#: deck of format 11 would read a card twice). 11: a deck's index may be read in a larger region
#: (``DeckTemplates.index_region``; 10 was a trial branch's, never landed, and may lie in a cache); 9: always in
#: the usual one. 8: enrolled since decks that print the bottom-right index upright are refused (a file of format 7
#: may hold one, and a cached artwork deck would skip the check); 7: the index looks stored as enrolled (float32),
#: where format 6 rounded them to float16 and a deck read from its file read a few corners otherwise than the same
#: deck just enrolled.
FORMAT_VERSION = 13
JITTERS_PER_CORNER = 40
#: Patches of faces that are not an index (``_elsewhere``), at least six a face and this many a deck: a
#: deck of a few cards learns as well as a full one what is no index (two hearts of a nine read as an
#: ace of spades in a deck of eight, at six a face).
BACKGROUND_SAMPLES = 320
STRIP_JITTERS_PER_CORNER = 20
DISCRIMINANT_DIMS = 48
SHRINKAGE = 0.05
#: Spread of the index's pose left after the recognizer's pose search: shift (card widths), scale, angle (degrees).
POSE_JITTER = (0.006, 0.025, 0.8)
#: Two cards whose index looks are closer than this (in the discriminant's units, a card's own spread) are not
#: told apart by their index corners at all. Every brand tuned on keeps its closest two 6.7 or more apart
#: (anglo_modern's aces of clubs and spades; suit twins and sixes and eights come next); KDE's oxygen decks,
#: which print the rank at the top right and the suit at the top left, leave many pairs 1.0 to 4 apart, and
#: read unrefused they named cards wrong dozens of times in 500 frames.
MIN_INDEX_SEPARATION = 4.0
#: A deck more than this many of whose cards have a card alike at the index (``MIN_INDEX_SEPARATION``) is
#: refused: its index is not where the reader looks (KDE's oxygen decks: 11 to 28 such cards, read wrong
#: dozens of times). One pair, such as a four-colour deck's 8D and 9D 3.9 apart, is read as twins
#: (``TWIN_SEPARATION``).
MAX_ALIKE_CARDS = 2
#: Two cards closer than this at their index corners are *twins*: the recognizer names one only when a witness
#: beside the looks tells it from the other (the strips beside the index, or the index net). Closer than any
#: two cards of a tune deck (6.7 at the nearest), so only a deck unlike every one tuned on has twins.
TWIN_SEPARATION = 6.0
#: A deck is read in a larger index region than the usual one (``vision.geometry.INDEX_REGIONS``) when its two
#: closest cards lie this many times further apart there (``_index_region``). Tune decks printed with a jumbo
#: index (``vision.envelope.jumbo``) gain 3.4 to 4.1 times where the usual region cuts their suit
#: (kde-standard's 6.4 becomes 22.3), and read better for it (5 tune frames a deck: 81.6% right with 1 wrong
#: read, where the usual region read 80.2% with 5). As their artwork prints them, the tune decks gain 1.0 to
#: 1.16 times, but for aisleriot's ornamental, whose large index reaches under the usual region (2.1 times):
#: read in the larger region, which a fan covers more often, it read 4 cards fewer in 25.
LARGER_REGION_GAIN = 2.5
#: A deck prints a small index when every place it prints one (``vision.glyphs.index_layouts``) has its suit
#: glyph's centre within this much of the card (across, down) from the corner: a rank about 7 mm tall with a suit
#: half as tall under it, as many brands print for bridge, poker and home play. Such an index fills a quarter of
#: the usual region, and is read in ``vision.geometry.SMALL_INDEX_REGION`` instead, 1.3 times finer and clear of the
#: pips beside it, which a fan's next card covers. Every tune deck prints its suit's centre 0.19 to 0.24 down; the
#: small indexes of an outside lab's decks, 0.11 to 0.14 (0.16 a larger one, which reads the same either way).
SMALL_INDEX = (0.12, 0.17)
#: How far apart (red plus blue less twice green, 0 to 255 levels) two suits' inks lie in a four-colour deck
#: (``prints_four_colours``).
FOUR_COLOUR_HUE = 60.0
#: The median correlation of a deck's top-left index with the top right of its face above which the deck
#: prints its index at all four corners (``prints_side_index``).
SIDE_INDEX_MATCH = 0.8


class TemplateError(ValueError):
    """An enrolled deck file that is missing, damaged or of another format."""


def _corner_pixels(size: tuple[int, int]) -> np.ndarray:
    """The patch's very corner (flat indices), where a rounded card corner shows what lies beneath:
    its pixels take the value of the patch's far corner."""
    ys, xs = np.mgrid[0 : size[1], 0 : size[0]]
    return np.flatnonzero((xs + ys).ravel() < 6)


_CORNER = _corner_pixels(INDEX_SIZE)


def grey_patches(patches: np.ndarray) -> np.ndarray:
    """The grey level of BGR patches (N, h, w, 3) as float32 (N, h, w)."""
    stack = np.asarray(patches, dtype=np.float32)
    return np.asarray(stack[..., 0] * 0.114 + stack[..., 1] * 0.587 + stack[..., 2] * 0.299)


def features(patches: np.ndarray, four_colour: bool = False) -> np.ndarray:
    """Unit-length feature rows for a stack of BGR patches (N, h, w, 3); flat patches give zero rows.

    The grey level and the redness are taken with OpenCV's 8-bit operations,
    which keeps this cheap enough for the thousands of patches of a frame. For a ``four_colour`` deck
    (``prints_four_colours``) the second half is the ink's hue against green instead, red plus blue less twice
    green: black and white paper 0, red and blue above it, green below, so its green clubs are not its black
    spades (by redness both are 0, told apart by the shape of a suit a few pixels wide); its red hearts and blue
    diamonds are told apart by shape, as every deck's hearts and diamonds are.
    """
    stack = np.ascontiguousarray(patches, dtype=np.uint8)
    n, h, w = stack.shape[:3]
    flat = stack.reshape(n * h, w, 3)
    vec = np.empty((n, 2 * h * w), np.float32)
    grey, redness = vec[:, : h * w], vec[:, h * w :]
    grey[:] = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).reshape(n, h * w)
    blue, green, red = cv2.split(flat)
    if four_colour:
        hue = cv2.addWeighted(red, 0.5, blue, 0.5, 0.0, dtype=cv2.CV_32F)
        redness[:] = cv2.subtract(hue, green, dtype=cv2.CV_32F).reshape(n, h * w)
    else:
        redness[:] = cv2.subtract(red, cv2.max(blue, green)).reshape(n, h * w)
    if (h, w) == (INDEX_SIZE[1], INDEX_SIZE[0]):
        grey[:, _CORNER] = grey[:, -1:]
        redness[:, _CORNER] = redness[:, -1:]
    grey -= grey.mean(axis=1, keepdims=True)
    redness -= redness.mean(axis=1, keepdims=True)
    contrast = np.sqrt(np.einsum("ij,ij->i", grey, grey) / (h * w))
    norm = np.sqrt(np.einsum("ij,ij->i", vec, vec))
    keep = (norm > 1e-6) & (contrast > 6.0)
    vec *= np.where(keep, 1.0 / np.maximum(norm, 1e-6), 0.0).astype(np.float32)[:, None]
    return vec


@dataclass(frozen=True)
class IndexMatch:
    """The nearest card to an index patch (``None`` for a blank patch), its distance and the next card's."""

    card: Card | None
    distance: float
    runner_up: float


@dataclass(frozen=True, eq=False)
class StripModel:
    """The discriminant of one strip (``vision.geometry.STRIPS``): rows of ``centers`` are each card's
    two index corners in turn."""

    mean: np.ndarray
    projection: np.ndarray
    centers: np.ndarray

    def distances(self, vectors: np.ndarray) -> np.ndarray:
        """(N, cards): each strip's distance to each card's nearer corner; inf for blank strips."""
        dist = _distances((vectors - self.mean) @ self.projection, self.centers)
        dist = np.minimum(dist[:, 0::2], dist[:, 1::2])
        dist[~vectors.any(axis=1)] = np.inf
        return np.asarray(dist)

    def restricted_to(self, keep: list[int]) -> StripModel:
        rows = np.array([[2 * i, 2 * i + 1] for i in keep]).ravel()
        return StripModel(self.mean, self.projection, self.centers[rows])


@dataclass(frozen=True, eq=False)
class DeckTemplates:
    """One enrolled deck. ``aspect`` is its cards' width over height."""

    name: str
    aspect: float
    cards: tuple[Card, ...]
    index_mean: np.ndarray
    index_projection: np.ndarray
    index_centers: np.ndarray
    background: np.ndarray
    index_looks: np.ndarray
    strips: tuple[StripModel, ...] = ()
    """One model per ``vision.geometry.STRIPS`` entry, in that order."""
    layouts: tuple[IndexLayout, ...] = ()
    """Where the deck prints its index glyphs (``vision.glyphs``)."""
    margins: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    """The index region's points that are white on nearly every face (``vision.glyphs.margin_points``)."""
    index_region: tuple[float, float] = (INDEX_FX, INDEX_FY)
    """How far across and down from its corner (card fractions) the deck's index patch reaches: one of
    ``vision.geometry.INDEX_REGIONS``: the first, unless a larger one tells the deck's cards much better apart
    (``LARGER_REGION_GAIN``)."""

    side_index: bool = False
    """Whether the deck prints its index at all four corners (a "four-index" deck, as many casinos deal
    blackjack from): the top-right and bottom-left corners show a card's index too (``prints_side_index``)."""

    four_colour: bool = False
    """Whether the deck prints its four suits in four inks (``prints_four_colours``): its looks are taken with
    ``features(..., four_colour=True)``."""

    def features(self, patches: np.ndarray) -> np.ndarray:
        """``features`` of patches as this deck's looks were enrolled."""
        return features(patches, self.four_colour)

    @property
    def strip_layout(self) -> tuple[Strip, ...]:
        """Where each of ``strips`` is read on the card (``vision.geometry.index_strips``)."""
        return index_strips(self.index_region)

    def index_distances(self, vectors: np.ndarray, judged: bool = True) -> np.ndarray:
        """(N, cards) distances in the discriminant space, in units of a card's own spread.

        Rows of blank patches are inf, and so (unless ``judged`` is false) are
        rows of patches nearer to some part of a face that is not an index
        (``background``) than to any card.
        """
        if not judged:
            return self._index_distances(self._projected(vectors), vectors)
        dist, background = self.index_and_background_distances(vectors)
        dist[background < dist.min(axis=1)] = np.inf
        return dist

    def index_and_background_distances(self, vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``index_distances`` unjudged, and each patch's distance to the nearest part of a face that is not
        an index (inf when none was enrolled): the patches projected once for both."""
        z = self._projected(vectors)
        return self._index_distances(z, vectors), self._background_nearest(z)

    def _index_distances(self, z: np.ndarray, vectors: np.ndarray) -> np.ndarray:
        dist = _distances(z, self.index_centers)
        dist[~vectors.any(axis=1)] = np.inf
        return dist

    def _projected(self, vectors: np.ndarray) -> np.ndarray:
        return np.asarray(vectors @ self.index_projection - self.index_mean @ self.index_projection)

    def _background_nearest(self, z: np.ndarray) -> np.ndarray:
        if not len(self.background):
            return np.full(len(z), np.inf)
        return np.asarray(_distances(z, self.background).min(axis=1))

    def match_index(self, vectors: np.ndarray) -> list[IndexMatch]:
        """Nearest card to each patch, with its distance and the next card's."""
        dist = self.index_distances(vectors)
        order = np.argsort(dist, axis=1)[:, :2]
        flat = np.asarray(~vectors.any(axis=1))
        return [
            IndexMatch(None if blank else self.cards[int(o[0])], float(row[o[0]]), float(row[o[1]]))
            for row, o, blank in zip(dist, order, flat)
        ]

    def index_separation(self) -> np.ndarray:
        """(cards, cards): how far apart each two cards' index looks lie (a card's own spread as the unit;
        infinite from a card to itself)."""
        return _separation(self.index_centers)

    def twins(self) -> np.ndarray:
        """(cards, cards): which two cards are twins at their index corners (``TWIN_SEPARATION``)."""
        return np.asarray(self.index_separation() < TWIN_SEPARATION)

    def alike(self) -> list[tuple[Card, Card, float]]:
        """The pairs of cards alike at their index corners (``MIN_INDEX_SEPARATION``), closest first."""
        apart = self.index_separation()
        pairs = np.argwhere(np.triu(apart < MIN_INDEX_SEPARATION))
        return sorted(((self.cards[i], self.cards[j], float(apart[i, j])) for i, j in pairs), key=lambda p: p[2])

    def restricted_to(self, allowed: set[Card]) -> DeckTemplates:
        """The same deck with only ``allowed`` cards (a no-face deck, a shoe without jokers)."""
        keep = [i for i, c in enumerate(self.cards) if c in allowed]
        if not keep:
            raise TemplateError(f"deck {self.name!r} has none of the cards asked for")
        return DeckTemplates(
            self.name, self.aspect, tuple(self.cards[i] for i in keep), self.index_mean, self.index_projection,
            self.index_centers[keep], self.background, self.index_looks[keep],
            tuple(strip.restricted_to(keep) for strip in self.strips), self.layouts, self.margins, self.index_region,
            self.side_index, self.four_colour,
        )

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            version=np.array(FORMAT_VERSION),
            patch=np.array([*self.index_region, *INDEX_SIZE]),
            name=np.array(self.name),
            aspect=np.array(self.aspect),
            cards=np.array([c.code for c in self.cards]),
            index_mean=self.index_mean,
            index_projection=self.index_projection,
            index_centers=self.index_centers,
            background=self.background,
            index_looks=self.index_looks,
            strips=_strips_layout(self.index_region),
            layouts=np.array([[*g.rank, *g.suit, g.rank_weight, g.suit_weight] for g in self.layouts]).reshape(-1, 6),
            margins=self.margins,
            side_index=np.array(self.side_index),
            four_colour=np.array(self.four_colour),
            **{f"strip{i}_{part}": getattr(model, part) for i, model in enumerate(self.strips)
               for part in ("mean", "projection", "centers")},
        )

    @classmethod
    def load(cls, path: Path) -> DeckTemplates:
        try:
            with np.load(path, allow_pickle=False) as data:
                version = int(data["version"])
                if version != FORMAT_VERSION:
                    raise TemplateError(f"{path}: enrolled deck format {version}, expected {FORMAT_VERSION}: enrol it again")
                region = _known_region(data["patch"][:2])
                strips = _strips_layout(region) if region else np.zeros(0)
                same = data["strips"].shape == strips.shape and np.allclose(data["strips"], strips)
                if not same or region is None or not np.allclose(data["patch"][2:], INDEX_SIZE):
                    raise TemplateError(f"{path}: enrolled with other patches or strips than this version reads: enrol it again")
                deck = cls(
                    name=str(data["name"]),
                    aspect=float(data["aspect"]),
                    cards=tuple(Card.parse(str(c)) for c in data["cards"]),
                    index_mean=data["index_mean"].astype(np.float32),
                    index_projection=data["index_projection"].astype(np.float32),
                    index_centers=data["index_centers"].astype(np.float32),
                    background=data["background"].astype(np.float32),
                    index_looks=data["index_looks"].astype(np.float32),
                    strips=tuple(
                        StripModel(*(data[f"strip{i}_{part}"].astype(np.float32) for part in ("mean", "projection", "centers")))
                        for i in range(len(STRIPS))
                    ),
                    layouts=tuple(IndexLayout((float(r[0]), float(r[1])), (float(r[2]), float(r[3])), float(r[4]), float(r[5]))
                                  for r in data["layouts"]),
                    margins=data["margins"].astype(np.float64),
                    index_region=region,
                    side_index=bool(data["side_index"]),
                    four_colour=bool(data["four_colour"]),
                )
        except TemplateError:
            raise
        except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
            raise TemplateError(f"{path}: not an enrolled deck file ({error})") from error
        _refuse_alike_indexes(deck)
        return deck


def _refuse_alike_indexes(deck: DeckTemplates) -> None:
    """Refuse a deck more than ``MAX_ALIKE_CARDS`` of whose cards look alike at their index corners: read, it
    would name one for another, and no threshold of the recognizer's is set for such a deck."""
    alike = deck.alike()
    cards = {card for pair in alike for card in pair[:2]}
    if len(cards) > MAX_ALIKE_CARDS:
        first, second, apart = alike[0]
        others = f", and so do {len(alike) - 1} other pairs of its cards" if len(alike) > 1 else ""
        raise TemplateError(
            f"deck {deck.name!r} cannot be read from its index corners: {first.code} and {second.code} "
            f"look alike there ({apart:.1f} apart, at least {MIN_INDEX_SEPARATION:.0f} needed){others}: {len(cards)} "
            f"cards in all, at most {MAX_ALIKE_CARDS} may be. The camera reads a card's rank and suit in its "
            "top-left and bottom-right corners; this deck shows them elsewhere, or not in both")


def _ink(face: np.ndarray, right: bool) -> float:
    """The share of printed pixels (dark, or strongly coloured) where the index box lies at the card's top
    left, or mirrored at its top right; kept clear of the card's edge and rounded corner."""
    h, w = face.shape[:2]
    inset = int(0.05 * w)
    x0, x1, y0, y1 = inset, int(INDEX_FX * w), inset, int(INDEX_FY * h)
    box = face[y0:y1, w - x1 : w - x0] if right else face[y0:y1, x0:x1]
    grey = cv2.cvtColor(np.ascontiguousarray(box), cv2.COLOR_BGR2GRAY)
    colour = box.max(axis=2).astype(np.int16) - box.min(axis=2)
    return float(((grey < 150) | (colour > 80)).mean()) if box.size else 0.0


def _refuse_index_elsewhere(name: str, cards: tuple[Card, ...], faces: list[np.ndarray]) -> None:
    """Refuse a deck printed for the other hand: most of its cards carry their ink at the top right, where
    a deck read from the top left and bottom right (``vision.geometry``) leaves blank card."""
    indexed = [(card, face) for card, face in zip(cards, faces) if not card.is_joker]
    mirrored = [card.code for card, face in indexed if _ink(face, right=True) > 2 * _ink(face, right=False) + 0.02]
    if len(mirrored) > len(indexed) / 2:
        shown = ", ".join(mirrored[:4]) + ("..." if len(mirrored) > 4 else "")
        raise TemplateError(
            f"deck {name!r} cannot be read from its index corners: {len(mirrored)} of {len(indexed)} cards ({shown}) "
            "print their index at the top right, where the camera sees blank card. The camera reads a card's rank "
            "and suit in its top-left and bottom-right corners")


def prints_side_index(cards: tuple[Card, ...], faces: list[np.ndarray]) -> bool:
    """Whether most of a deck's cards print their top-left index again at the top right (a four-index deck): the
    top-left index (the middle of ``vision.envelope.INDEX_BOX``, clear of the card's edge and rounded corner)
    matched in the top right of the face, at a width of 200 px, correlates at least ``SIDE_INDEX_MATCH`` on the
    median card. Enrolled from images as a casino's deck is, the tune and blind decks lie at 0.26 to 0.54 (their
    top right is blank card, pips or picture), printed with four indexes (``vision.envelope.four_index``) at 0.98
    and over; so does the blind part's dondorf, which prints four."""
    scores = []
    for card, face in zip(cards, faces):
        if card.is_joker:
            continue
        grey = _at_width(face, 200.0).min(axis=2)
        h, w = grey.shape
        index = grey[int(0.05 * h) : int(0.28 * h), int(0.05 * w) : int(0.18 * w)]
        top_right = grey[: int(0.4 * h), int(0.55 * w) :]
        if index.std() < 1.0:
            continue  # a blank corner says nothing
        scores.append(float(cv2.matchTemplate(top_right, index, cv2.TM_CCOEFF_NORMED).max()))
    return bool(scores) and float(np.median(scores)) >= SIDE_INDEX_MATCH


def prints_four_colours(cards: tuple[Card, ...], faces: list[np.ndarray]) -> bool:
    """Whether a deck prints its clubs or its diamonds in an ink of their own (a four-colour deck: green clubs, blue
    diamonds), told by the hue of the ink of its index corners: the median over a suit's cards of red plus blue
    less twice green, at the pixels darker than the paper, lying ``FOUR_COLOUR_HUE`` or more from the spades' (for
    clubs), or from the hearts' and from black (for diamonds: kde-jolly-royal prints its diamonds black, 0 where
    its hearts are 147, and is read as a two-colour deck). The blind part's two four-colour decks: clubs -77 and
    -143 where their spades are 36 and 62; an outside lab's: -199 against 0; every two-colour deck: within 5."""
    hues: dict[str, list[float]] = {"S": [], "C": [], "H": [], "D": []}
    for card, face in zip(cards, faces):
        if card.is_joker or card.suit.value not in hues:
            continue
        corner = _at_width(face, 200.0)[:, :, :3].astype(np.float32)
        h, w = corner.shape[:2]
        corner = corner[int(0.03 * h): int(0.2 * h), int(0.03 * w): int(0.15 * w)]
        grey = corner.mean(axis=2)
        ink = corner[grey < 0.7 * float(np.percentile(grey, 95))]
        if len(ink) >= 10:
            blue, green, red = ink[:, 0], ink[:, 1], ink[:, 2]
            hues[card.suit.value].append(float(np.median(red + blue - 2 * green)))
    median = {suit: float(np.median(values)) if values else 0.0 for suit, values in hues.items()}
    green_clubs = abs(median["C"] - median["S"]) >= FOUR_COLOUR_HUE
    coloured_diamonds = abs(median["D"] - median["H"]) >= FOUR_COLOUR_HUE and abs(median["D"]) >= FOUR_COLOUR_HUE
    return green_clubs or coloured_diamonds


def _refuse_upright_bottom_index(name: str, cards: tuple[Card, ...], faces: list[np.ndarray]) -> None:
    """Refuse a deck that prints the index in its bottom-right corner the same way up as the top-left one
    (``vision.upright_index``): from that corner its index shows upside down, a six as a nine."""
    upright = upright_bottom_index(faces)
    if upright.sum() > UPRIGHT_SHARE * len(cards):
        examples = [card.code for card, up in zip(cards, upright) if up]
        shown = ", ".join(examples[:4]) + ("..." if len(examples) > 4 else "")
        raise TemplateError(
            f"deck {name!r} prints its bottom-right index upright ({len(examples)} of {len(cards)} cards: {shown}), "
            "not turned half round. The camera reads a card's index from either corner, turned the way the "
            "top-left one stands; from the bottom-right corner this deck's index shows upside down, a 6 like a 9")


def _strips_layout(region: tuple[float, float]) -> np.ndarray:
    """Where and at what size the strips are read, as a deck file records it (a file enrolled with
    other strips must be enrolled again)."""
    return np.array([[*strip.origin, strip.fx, strip.fy, *strip.size, strip.suit, strip.rank, strip.lone]
                     for strip in index_strips(region)])


def _known_region(stored: np.ndarray) -> tuple[float, float] | None:
    """The index region of ``vision.geometry.INDEX_REGIONS`` a deck file records, or None for one this
    version does not read."""
    return next((region for region in INDEX_REGIONS if np.allclose(stored, region)), None)


def _distances(z: np.ndarray, points: np.ndarray) -> np.ndarray:
    d2 = (z * z).sum(axis=1, keepdims=True) - 2 * z @ points.T + (points * points).sum(axis=1)
    return np.asarray(np.sqrt(np.maximum(d2, 0.0)))


def _on_background(face: np.ndarray) -> np.ndarray:
    if face.ndim != 3 or face.shape[2] not in (3, 4):
        raise TemplateError("a card face must be a BGR or BGRA image")
    if face.shape[2] == 3:
        return face
    alpha = face[:, :, 3:4].astype(np.float32) / 255.0
    bg = np.empty_like(face[:, :, :3], dtype=np.float32)
    bg[:] = BACKGROUND_BGR
    return np.asarray((face[:, :, :3] * alpha + bg * (1 - alpha)).astype(np.uint8))


def _at_width(face: np.ndarray, width: float) -> np.ndarray:
    """The face shrunk (by area averaging, so without aliasing) to ``width`` pixels."""
    ratio = width / face.shape[1]
    return cv2.resize(face, None, fx=ratio, fy=ratio, interpolation=cv2.INTER_AREA) if ratio < 1 else face


def _upright(w: float, h: float) -> np.ndarray:
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)


def _elsewhere(face: np.ndarray, rng: np.random.Generator, count: int = 6) -> list[np.ndarray]:
    """Outlines that put the index patch anywhere but on an index: the two other corners, then at random."""
    h, w = face.shape[:2]
    quads = [
        card_quad_from_corner(np.array([w, 0.0]), np.array([0.0, 1.0]), np.array([-1.0, 0.0]), w, h),
        card_quad_from_corner(np.array([0.0, h]), np.array([0.0, -1.0]), np.array([1.0, 0.0]), w, h),
    ]
    for _ in range(count):
        angle = rng.uniform(0, 2 * np.pi)
        u = np.array([np.cos(angle), np.sin(angle)])
        corner = np.array([rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h])
        quads.append(card_quad_from_corner(corner, u, np.array([-u[1], u[0]]), w, h))
    return quads


def _jittered(face: np.ndarray, quad: np.ndarray, rng: np.random.Generator, strip: Strip | None = None,
              region: tuple[float, float] = (INDEX_FX, INDEX_FY)) -> np.ndarray:
    """The index patch (or ``strip``) as a real frame might give it once the recognizer has fitted its
    pose: a residue of shift, scale and angle, defocus, colour smeared by JPEG's half-resolution chroma,
    white balance and noise. A strip read finer than the index patch is defocused as much as the index
    on the card (its blur scaled up): a suit symbol learnt sharper than any frame shows it read a
    defocused diamond as a heart."""
    w = np.linalg.norm(quad[1] - quad[0])
    angle = np.radians(rng.normal(0, POSE_JITTER[2]))
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    scale = rng.uniform(1 - POSE_JITTER[1], 1 + POSE_JITTER[1])
    shift = rng.normal(0, POSE_JITTER[0] * w, 2)
    moved = (quad - quad[0]) @ rot.T * scale + quad[0] + shift
    sampled = sample_patch(face, moved, INDEX_SIZE, *region) if strip is None else \
        sample_patch(face, moved, strip.size, strip.fx, strip.fy, strip.origin)
    finer = 1.0 if strip is None else max(1.0, strip.card_width_px * region[0] / INDEX_SIZE[0])
    patch = cv2.GaussianBlur(sampled, (0, 0), finer * rng.uniform(0.3, 1.2))
    ycc = cv2.cvtColor(patch, cv2.COLOR_BGR2YCrCb)
    ycc[:, :, 1:] = cv2.GaussianBlur(ycc[:, :, 1:], (0, 0), rng.uniform(0.5, 1.5))
    patch = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR).astype(np.float32)
    patch = patch * rng.uniform(0.8, 1.1) * rng.uniform(0.92, 1.08, 3) + rng.normal(0, rng.uniform(1, 6), patch.shape)
    return np.clip(patch, 0, 255).astype(np.uint8)


def _discriminant(x: np.ndarray, y: np.ndarray, classes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fisher's LDA with shrinkage: (mean, projection D x k, class centres k-dimensional)."""
    mean = x.mean(axis=0)
    centers = np.stack([x[y == c].mean(axis=0) for c in range(classes)])
    within = x - centers[y]
    sw = within.T @ within / len(x)
    sw = (1 - SHRINKAGE) * sw + SHRINKAGE * np.trace(sw) / sw.shape[0] * np.eye(sw.shape[0])
    evals, evecs = np.linalg.eigh(sw)
    whiten = evecs / np.sqrt(np.maximum(evals, 1e-9))
    between = (centers - mean) @ whiten
    _, _, vt = np.linalg.svd(between, full_matrices=False)
    k = min(DISCRIMINANT_DIMS, classes - 1, vt.shape[0])
    projection = (whiten @ vt[:k].T).astype(np.float32)
    return mean.astype(np.float32), projection, ((centers - mean) @ projection).astype(np.float32)


#: The steps ``enrol_faces`` reports to its ``advance`` callable: the index discriminant, then one per strip.
ENROL_STEPS = 1 + len(STRIPS)


def enrol_faces(name: str, faces: Mapping[Card, np.ndarray], seed: int = 0,
                advance: Callable[[int], None] | None = None) -> DeckTemplates:
    """Templates for a deck from one upright face image per card (BGR or BGRA, cropped to the card).

    ``advance`` (a progress bar's, ``controller.commands.progress``) is called once per fitted
    discriminant, ``ENROL_STEPS`` times in all: they take nearly all of the time."""
    step = advance or (lambda steps: None)
    if len(faces) < 2:
        raise TemplateError(f"deck {name!r}: enrolment needs at least two card faces, got {len(faces)}")
    rng = np.random.default_rng(seed)
    cards = tuple(sorted(faces))
    originals = [_on_background(faces[card]) for card in cards]
    _refuse_index_elsewhere(name, cards, originals)
    _refuse_upright_bottom_index(name, cards, originals)
    layouts = index_layouts(faces)
    four = prints_four_colours(cards, originals)
    index = _enrol_index(originals, _index_region(originals, seed, layouts, four), rng, four_colour=four)
    step(1)
    deck = DeckTemplates(
        name=name,
        aspect=float(np.median([original.shape[1] / original.shape[0] for original in originals])),
        cards=cards,
        index_mean=index.mean,
        index_projection=index.projection,
        index_centers=index.centers,
        background=index.background,
        index_looks=index.looks,
        strips=tuple(_enrol_strip(strip, originals, rng, step, index.region, four) for strip in index_strips(index.region)),
        layouts=layouts,
        margins=margin_points(faces),
        index_region=index.region,
        side_index=prints_side_index(cards, originals),
        four_colour=four,
    )
    _refuse_alike_indexes(deck)
    return deck


@dataclass(frozen=True, eq=False)
class _IndexModel:
    """A deck's index discriminant in one region (``vision.geometry.INDEX_REGIONS``), before the deck is built."""

    region: tuple[float, float]
    mean: np.ndarray
    projection: np.ndarray
    centers: np.ndarray
    looks: np.ndarray
    background: np.ndarray


def _index_region(originals: list[np.ndarray], seed: int, layouts: Sequence[IndexLayout],
                  four_colour: bool = False) -> tuple[float, float]:
    """The region of ``vision.geometry.INDEX_REGIONS`` to read the deck's index in: the usual one, unless a larger
    one sets its two closest cards ``LARGER_REGION_GAIN`` times further apart (a jumbo index, whose suit lies
    under the usual region), or the deck prints a small index (``SMALL_INDEX``: the smaller region). Each larger
    region is judged on a quarter of enrolment's jitters, from a generator of its own, so that a deck read in the
    usual region is enrolled as it always was."""
    larger = [region for region in INDEX_REGIONS if region[0] >= INDEX_FX]
    least = [_separation(_enrol_index(originals, region, np.random.default_rng([seed, k]), JITTERS_PER_CORNER // 4,
                                      four_colour).centers).min()
             for k, region in enumerate(larger)]
    best = int(np.argmax(least))
    if least[best] >= LARGER_REGION_GAIN * least[0]:
        return larger[best]
    small = bool(layouts) and all(layout.suit[0] <= SMALL_INDEX[0] and layout.suit[1] <= SMALL_INDEX[1] for layout in layouts)
    return SMALL_INDEX_REGION if small else INDEX_REGIONS[0]


def _enrol_index(originals: list[np.ndarray], region: tuple[float, float], rng: np.random.Generator,
                 jitters: int = JITTERS_PER_CORNER, four_colour: bool = False) -> _IndexModel:
    """The index discriminant of ``jitters`` patches that ``region`` cuts from each index corner of each face,
    with each card's mean look and the projected patches of the faces where no index lies."""
    index_patches: list[np.ndarray] = []
    index_labels: list[int] = []
    background_patches: list[np.ndarray] = []
    for label, original in enumerate(originals):
        face = _at_width(original, INDEX_SIZE[0] / region[0])
        upright = _upright(*face.shape[1::-1])
        for quad in (upright, rotate_quad(upright, 2)):
            for _ in range(jitters):
                index_patches.append(_jittered(face, quad, rng, region=region))
                index_labels.append(label)
        background_patches.extend(_jittered(face, quad, rng, region=region)
                                  for quad in _elsewhere(face, rng, max(6, -(-BACKGROUND_SAMPLES // len(originals)))))
    patches = np.stack(index_patches)
    labels = np.array(index_labels)
    mean, projection, centers = _discriminant(features(patches, four_colour), labels, len(originals))
    grey = grey_patches(patches)
    looks = np.stack([grey[labels == label].mean(axis=0) for label in range(len(originals))])
    background = (features(np.stack(background_patches), four_colour) - mean) @ projection
    return _IndexModel(region, mean, projection, centers, looks.astype(np.float32), background.astype(np.float32))


def _separation(centers: np.ndarray) -> np.ndarray:
    """(cards, cards): how far apart each two cards' index looks lie (a card's own spread as the unit;
    infinite from a card to itself)."""
    centers = centers.astype(np.float64)
    apart = _distances(centers, centers)
    apart[np.diag_indices_from(apart)] = np.inf
    return np.asarray(apart)


def _enrol_strip(strip: Strip, faces: list[np.ndarray], rng: np.random.Generator,
                 advance: Callable[[int], None], region: tuple[float, float], four_colour: bool = False) -> StripModel:
    """The discriminant of one strip over ``faces`` (one per card, in the deck's card order)."""
    patches: list[np.ndarray] = []
    labels: list[int] = []
    for label, original in enumerate(faces):
        face = _at_width(original, strip.card_width_px)
        upright = _upright(*face.shape[1::-1])
        for corner, quad in enumerate((upright, rotate_quad(upright, 2))):
            patches.extend(_jittered(face, quad, rng, strip, region) for _ in range(STRIP_JITTERS_PER_CORNER))
            labels.extend([2 * label + corner] * STRIP_JITTERS_PER_CORNER)
    mean, projection, centers = _discriminant(features(np.stack(patches), four_colour), np.array(labels), 2 * len(faces))
    advance(1)
    return StripModel(mean, projection, centers)
