"""Shared fixtures: real SVG decks rendered once per session (skipped only where the artwork is missing)."""

from __future__ import annotations

import numpy as np
import pytest

from controller.cards import Card
from vision.artwork import ArtworkMissing, render_deck
from vision.enroll import enrol_artwork
from vision.templates import DeckTemplates

DECK = "aisleriot-anglo"


@pytest.fixture(scope="session")
def faces() -> dict[Card, np.ndarray]:
    try:
        return render_deck(DECK)
    except ArtworkMissing as missing:
        pytest.skip(f"card artwork not installed: {missing}")


@pytest.fixture(scope="session")
def deck(faces: dict[Card, np.ndarray]) -> DeckTemplates:
    return enrol_artwork(DECK)
