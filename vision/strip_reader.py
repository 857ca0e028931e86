"""Reading the strips beside a card's index (``vision.geometry.STRIPS``) at its outline.

A strip of pips or picture is read where the outline an index look was read at
puts it; its pose is not fitted (pips are large against a pixel or two off).
Those strips are warped from the half-size frame whenever it has the pixels
they need. The suit strip is read where the index was fitted to its card: its
symbol is a few pixels across, and the outline a corner gives can lie two or
three pixels off it.
"""

from __future__ import annotations

import numpy as np

from controller.cards import Suit
from vision.detect import patch_source
from vision.geometry import STRIPS, patch_homographies, warp_patches
from vision.templates import DeckTemplates, features

__all__ = ["strip_distances"]


def strip_distances(
    deck: DeckTemplates, frame: np.ndarray, small: np.ndarray, quads: np.ndarray, width_px: float,
    fitted: np.ndarray | None = None,
) -> np.ndarray:
    """(N, strips, cards): the distance of each outline's strips (frame pixels, index corner first) to every
    card, in units of a card's own spread (inf for a blank strip); (N, 0, cards) for a deck enrolled
    without strips. ``fitted``: each outline at the pose its index was fitted to (``quads`` when not
    given), where suit strips are read. A suit strip puts a card without a suit (a joker) infinitely far:
    what lies under a joker's corner is blank card or picture, and a patch of blank card elsewhere
    would show a joker there."""
    out = np.full((len(quads), len(deck.strips), len(deck.cards)), np.inf)
    suits = np.array([card.suit for card in deck.cards])
    for k, (strip, model) in enumerate(zip(STRIPS, deck.strips)):
        image, to_source, _ = patch_source(frame, small, width_px, strip.card_width_px)
        at = fitted if strip.suit and fitted is not None else quads
        homographies = patch_homographies(to_source(at), strip.size, strip.fx, strip.fy, strip.origin)
        out[:, k] = model.distances(features(warp_patches(image, homographies, strip.size)))
        if strip.suit:
            for suit in set(suits.tolist()) - {Suit.NONE}:
                mine = suits == suit
                out[:, k, mine] = out[:, k, mine].min(axis=1, keepdims=True)
            out[:, k, suits == Suit.NONE] = np.inf
    return out
