"""Assembling the vision side of a table from the ``[vision]`` table of its config.

>>> settings_from({"min_confidence": 0.9}).min_confidence
0.9
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import cv2
from threadpoolctl import threadpool_limits

from controller.cards import Card, UnknownCard, deck_by_name
from vision.calibration import CalibrationError, Layout
from vision.enroll import load_deck
from vision.recognizer import Recognizer, RecognizerSettings

__all__ = ["settings_from", "layout_from", "build_recognizer", "one_core"]

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


def one_core() -> None:
    """Keep numpy's BLAS (OpenBLAS) and OpenCV to the calling thread, for the whole process.

    A frame is read in many small pieces of arithmetic. Their worker threads
    spin while they wait, so they double the CPU a frame costs, and on a
    two-core table PC they take the core the drivers and the console run on.
    With that core busy, a frame took 26.6 to 31.5 ms (once 159 ms) with
    the libraries' own threads, against 20.5 to 26.9 ms on one thread. BLAS's thread
    count can only be set by environment before numpy loads, hence
    ``threadpoolctl``, which sets it at run time.
    """
    threadpool_limits(limits=1, user_api="blas")
    cv2.setNumThreads(1)


def build_recognizer(vision: Mapping[str, Any], base: Path | None = None, dealt: Collection[Card] | None = None) -> Recognizer:
    """The recognizer a ``[vision]`` table describes, reading only cards the table can deal: ``dealt``
    (the cards of the game's shoe or deck: no joker where the game deals none) and, when given,
    ``cards = "no-face"`` (a deck kind). A card the table cannot deal is never read: a picture on a
    face can look like the joker's, which a table without jokers would otherwise read where no card
    lies. The process's arithmetic is kept to one thread from then on (``one_core``)."""
    one_core()
    deck = load_deck(vision, base)
    allowed = set(deck.cards) if dealt is None else set(dealt)
    if "cards" in vision:
        try:
            allowed &= set(deck_by_name(str(vision["cards"])))
        except UnknownCard as error:
            raise CalibrationError(f"[vision] cards: {error}") from None
    if not set(deck.cards) <= allowed:
        deck = deck.restricted_to(allowed)
    return Recognizer(deck, layout_from(vision), settings_from(vision))
