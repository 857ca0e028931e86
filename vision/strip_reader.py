"""Reading the strips beside a card's index (``vision.geometry.STRIPS``, placed for the deck's index) at its outline.

A strip of pips or picture is read where the outline an index look was read at
puts it; its pose is not fitted (pips are large against a pixel or two off).
Those strips are warped from the half-size frame whenever it has the pixels
they need. The strips in the index (its suit symbol and its rank) are read
where the index was fitted to its card: a symbol is a few pixels across, and the
outline a corner gives can lie two or three pixels off it. Even the fitted pose
is only known to about a pixel, so the suit strip says only what it says at
every pose within ``SUIT_POSE_SLACK`` of it. The rank strip is read at the
fitted pose alone: a six's rank and an eight's differ by a pixel or two, which
a pixel's move blurs (an orell six of hearts under another card, its rank strip
10.5 from the sixes and 12.1 from the eights at its pose, is 12.3 and 15.3 at
the worst of the five, where its look is a weak match that rules out neither).
"""

from __future__ import annotations

import numpy as np

from controller.cards import JOKER
from vision.detect import patch_source
from vision.geometry import Strip, patch_homographies, warp_patches
from vision.templates import DeckTemplates, StripModel

__all__ = ["SUIT_POSE_SLACK", "strip_distances"]

#: Frame pixels: the suit strip's distance to a suit is its largest at the fitted pose and at that pose
#: moved this far along each axis. At the fitted pose alone, an anglo_poker ace of clubs whose index
#: leaned to the ace of spades (10.2 against 10.8) had its suit strip put the spades at 10.3 and the
#: clubs at 14.2; a pixel and a half away, where the index fits the look of either ace best, the strip
#: put them at 16.4 and 16.3, and read so, it did not name the spade.
SUIT_POSE_SLACK = 1.0
_MOVES = np.array([[0.0, 0.0], [1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])


def strip_distances(
    deck: DeckTemplates, frame: np.ndarray, small: np.ndarray, quads: np.ndarray, width_px: float,
    fitted: np.ndarray | None = None, in_index: bool = True, lone: np.ndarray | None = None,
) -> np.ndarray:
    """(N, strips, cards): the distance of each outline's strips (frame pixels, index corner first) to every
    card, in units of a card's own spread (inf for a blank strip); (N, 0, cards) for a deck enrolled
    without strips. ``fitted``: each outline at the pose its index was fitted to (``quads`` when not
    given), where the strips in the index are read. The suit and rank strips put a joker (no suit, no
    rank) infinitely far: what lies under a joker's corner is blank card or picture, and a patch of
    blank card elsewhere would show a joker there. Without ``in_index``, only the strips beyond the
    index are read (those in it are left infinite, as for a blank strip). A strip read only on a card
    lying alone (the centre of the face) is read for the outlines ``lone`` marks, and left infinite
    for the others."""
    out = np.full((len(quads), len(deck.strips), len(deck.cards)), np.inf)
    suits = np.array([None if card is JOKER else card.suit for card in deck.cards], dtype=object)
    ranks = np.array([None if card is JOKER else card.rank for card in deck.cards], dtype=object)
    for k, (strip, model) in enumerate(zip(deck.strip_layout, deck.strips)):
        if strip.in_index and not in_index:
            continue
        image, to_source, _ = patch_source(frame, small, width_px, strip.card_width_px)
        if strip.lone:
            if lone is not None and lone.any():
                out[lone, k] = _read(deck, model, strip, image, to_source(quads[lone]))
            continue
        if not strip.in_index:
            out[:, k] = _read(deck, model, strip, image, to_source(quads))
            continue
        at = quads if fitted is None else fitted
        moves = _MOVES if strip.suit else _MOVES[:1]  # the rank strip at the fitted pose alone
        moved = (at[None] + SUIT_POSE_SLACK * moves[:, None, None]).reshape(-1, 4, 2)
        groups = suits if strip.suit else ranks
        per_move = _per_group(_read(deck, model, strip, image, to_source(moved)), groups).reshape(len(moves), len(quads), -1)
        out[:, k] = per_move.max(axis=0)
    return out


def _read(deck: DeckTemplates, model: StripModel, strip: Strip, image: np.ndarray, quads: np.ndarray) -> np.ndarray:
    homographies = patch_homographies(quads, strip.size, strip.fx, strip.fy, strip.origin)
    return model.distances(deck.features(warp_patches(image, homographies, strip.size)))


def _per_group(distances: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each card's distance made its group's nearest (its suit's, or its rank's), a joker's infinite."""
    out = np.full_like(distances, np.inf)
    for group in set(groups.tolist()) - {None}:
        mine = groups == group
        out[:, mine] = distances[:, mine].min(axis=1, keepdims=True)
    return out
