"""Reading the strips beside a card's index (``vision.geometry.STRIPS``) at its outline.

A strip is read where the outline an index look was read at puts it; its pose
is not fitted (a strip's pips are large against a pixel or two off). Strips
are warped from the half-size frame whenever it has the pixels they need.
"""

from __future__ import annotations

import numpy as np

from vision.detect import patch_source
from vision.geometry import STRIPS, patch_homographies, warp_patches
from vision.templates import DeckTemplates, features

__all__ = ["strip_distances"]


def strip_distances(deck: DeckTemplates, frame: np.ndarray, small: np.ndarray, quads: np.ndarray, width_px: float) -> np.ndarray:
    """(N, strips, cards): the distance of each outline's strips (frame pixels, index corner first) to every
    card, in units of a card's own spread (inf for a blank strip); (N, 0, cards) for a deck enrolled
    without strips."""
    out = np.full((len(quads), len(deck.strips), len(deck.cards)), np.inf)
    for k, (strip, model) in enumerate(zip(STRIPS, deck.strips)):
        image, to_source = patch_source(frame, small, width_px, strip.card_width_px)
        homographies = patch_homographies(to_source(quads), strip.size, strip.fx, strip.fy, strip.origin)
        out[:, k] = model.distances(features(warp_patches(image, homographies, strip.size)))
    return out
