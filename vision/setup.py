"""Assembling the vision side of a table from the ``[vision]`` table of its config.

>>> settings_from({"min_confidence": 0.9}).min_confidence
0.9
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from controller.cards import UnknownCard, deck_by_name

from vision.calibration import CalibrationError, Layout
from vision.enroll import load_deck
from vision.recognizer import Recognizer, RecognizerSettings

__all__ = ["settings_from", "layout_from", "build_recognizer"]

_FLOAT_SETTINGS = ("min_confidence", "card_height_mm", "max_distance", "anchor_distance", "evidence_distance", "inside_share")


def settings_from(vision: Mapping[str, Any]) -> RecognizerSettings:
    values: dict[str, float] = {}
    for key in _FLOAT_SETTINGS:
        if key in vision:
            value = vision[key]
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise CalibrationError(f"[vision] {key} must be a number, not {value!r}")
            values[key] = float(value)
    if not 0.0 < values.get("min_confidence", 0.9) <= 1.0:
        raise CalibrationError("[vision] min_confidence must be above 0 and at most 1")
    return RecognizerSettings(**values)


def layout_from(vision: Mapping[str, Any]) -> Layout | None:
    """The calibrated layout, or ``None`` when the config has no ``[vision.calibration]``."""
    return Layout.from_toml(vision) if "calibration" in vision else None


def build_recognizer(vision: Mapping[str, Any], base: Path | None = None) -> Recognizer:
    """The recognizer a ``[vision]`` table describes; ``cards = "no-face"`` (a deck kind) limits what it may read."""
    deck = load_deck(vision, base)
    if "cards" in vision:
        try:
            deck = deck.restricted_to(set(deck_by_name(str(vision["cards"]))))
        except UnknownCard as error:
            raise CalibrationError(f"[vision] cards: {error}") from None
    return Recognizer(deck, layout_from(vision), settings_from(vision))
