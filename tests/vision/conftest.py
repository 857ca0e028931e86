"""Shared fixtures: real SVG decks rendered once per session (skipped only where the artwork is missing)."""

from __future__ import annotations

import numpy as np
import pytest

from controller.cards import Card
from vision.artwork import ArtworkNotInstalled, render_deck
from vision.enroll import enrol_artwork
from vision.templates import DeckTemplates

DECK = "aisleriot-anglo"


def artwork_or_skip(name: str) -> dict[Card, np.ndarray]:
    """The faces of deck ``name``; the test is skipped, saying why, where its artwork is not installed."""
    try:
        return render_deck(name)
    except ArtworkNotInstalled as missing:
        pytest.skip(f"card artwork not installed: {missing}")


@pytest.fixture(scope="session")
def faces() -> dict[Card, np.ndarray]:
    return artwork_or_skip(DECK)


@pytest.fixture(scope="session")
def deck(faces: dict[Card, np.ndarray]) -> DeckTemplates:
    return enrol_artwork(DECK)
