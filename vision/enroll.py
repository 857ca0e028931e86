"""Deck enrolment: learn a deck from its artwork or from one image of each card, and find it again.

A casino's own brand is enrolled from a folder holding one image per card,
named by the card's code (``AS.png``, ``TD.jpg``, ``JK.png``, ``KB.png`` for a
Bonus king...; ``10D.png`` or ``ten_of_diamonds.png`` as image sets name them:
``controller.cards.card_named``). Each image is either a scan (the card fills the image) or a photograph
of the card lying on the felt; then the card is found and straightened first. Decks shipped as SVG (``vision.artwork``) are enrolled
from their artwork. Either way the result is a ``DeckTemplates`` file
(``.npz``) that the ``[vision]`` table of the config names::

    [vision]
    deck = "aisleriot-anglo"              # SVG artwork, enrolled on first use and cached
    # deck_file = "var/decks/casino.npz"  # or a deck enrolled with `tablectl vision enroll`
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from controller.cards import Card, UnknownCard, card_named
from vision.artwork import cache_dir, render_deck
from vision.detect import DOWNSCALE, card_mask
from vision.sources import IMAGE_SUFFIXES, read_image
from vision.templates import FORMAT_VERSION, DeckTemplates, TemplateError, enrol_faces

__all__ = ["EnrolmentError", "enrol_artwork", "face_from_image", "faces_from_images", "load_deck"]

FACE_HEIGHT = 336


class EnrolmentError(ValueError):
    """Images or settings that cannot make an enrolled deck."""


def enrol_artwork(name: str, advance: Callable[[int], None] | None = None) -> DeckTemplates:
    """A deck enrolled from its SVG artwork, cached under the tablectl cache folder (``advance``: as
    ``enrol_faces``'s, not called when the cache has the deck)."""
    # One file per format: tablectl versions sharing a cache (a table's and a checkout's) never overwrite
    # each other's decks; written whole under another name and renamed, so a reader never sees half a file.
    path = cache_dir() / "decks" / f"{name}-format{FORMAT_VERSION}.npz"
    if path.is_file():
        try:
            return DeckTemplates.load(path)
        except TemplateError:
            path.unlink(missing_ok=True)
    deck = enrol_faces(name, render_deck(name), advance=advance)
    partial = path.with_name(f"{path.stem}.{os.getpid()}.partial.npz")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        deck.save(partial)
        partial.replace(path)
    except OSError:
        with contextlib.suppress(OSError):  # a cache it cannot write: enrolled again at the next start (cache_dir)
            partial.unlink(missing_ok=True)
    return deck


def face_from_image(image: np.ndarray) -> np.ndarray:
    """The upright card face in an image: the whole image for a scan, the straightened card for a photo.

    A scan is an image whose edges are as white as the card (its border fills them, or a white page
    does); a photograph shows the cloth at its edges, darker than the card: the card is then the
    largest card-shaped patch of the card mask (``vision.detect.card_mask``: whiter than the cloth).
    """
    white = cv2.min(cv2.min(image[:, :, 0], image[:, :, 1]), image[:, :, 2]) if image.ndim == 3 else image
    h, w = white.shape[:2]
    ring = max(2, int(0.03 * min(h, w)))
    edges = np.concatenate([white[:ring].ravel(), white[-ring:].ravel(), white[:, :ring].ravel(), white[:, -ring:].ravel()])
    cloth, card = float(np.median(edges)), float(cv2.GaussianBlur(white, (0, 0), 2.0).max())
    if cloth < 0.75 * card:
        mask = card_mask(image)
        cards = [c for c in cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0] if _card_like(c)]
        if cards:
            largest = max(cards, key=cv2.contourArea)
            if 0.002 < cv2.contourArea(largest) / mask.size < 0.95:
                return _straighten(image, cv2.minAreaRect(largest.astype(np.float32) * DOWNSCALE))
    return np.ascontiguousarray(np.rot90(image)) if w > h else image


def _card_like(contour: np.ndarray) -> bool:
    """A patch shaped like a card: filling its least rectangle, narrower than long as a card is (not a
    printed ring of the layout, filled)."""
    (_, _), (a, b), _ = cv2.minAreaRect(contour.astype(np.float32))
    if min(a, b) < 8:
        return False
    return cv2.contourArea(contour) > 0.85 * a * b and 0.45 < min(a, b) / max(a, b) < 0.9


def _straighten(image: np.ndarray, rect: tuple[Any, ...]) -> np.ndarray:
    box = cv2.boxPoints(rect)
    order = np.argsort(box[:, 1])
    top = box[order[:2]][np.argsort(box[order[:2], 0])]
    bottom = box[order[2:]][np.argsort(box[order[2:], 0])[::-1]]
    quad = np.array([top[0], top[1], bottom[0], bottom[1]], dtype=np.float32)
    w = float(np.linalg.norm(quad[1] - quad[0]))
    h = float(np.linalg.norm(quad[3] - quad[0]))
    if w > h:
        quad = np.roll(quad, -1, axis=0)
        w, h = h, w
    size = (int(round(FACE_HEIGHT * w / h)), FACE_HEIGHT)
    target = np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], dtype=np.float32)
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad, target), size, flags=cv2.INTER_AREA)


def faces_from_images(folder: Path) -> dict[Card, np.ndarray]:
    """The upright face of each card in a folder with one image per card, each named by its card code."""
    folder = Path(folder)
    if not folder.is_dir():
        raise EnrolmentError(f"{folder} is not a folder of card images")
    faces: dict[Card, np.ndarray] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        try:
            card = card_named(path.stem)
        except UnknownCard as error:
            raise EnrolmentError(f"{path.name}: the file name must name a card ({error})") from None
        if card in faces:
            raise EnrolmentError(f"{path.name}: a second image of {card.code}")
        faces[card] = face_from_image(read_image(path))
    if len(faces) < 2:
        raise EnrolmentError(f"{folder} holds {len(faces)} card images: enrolment needs one per card of the deck")
    return faces


def load_deck(vision: Mapping[str, Any], base: Path | None = None) -> DeckTemplates:
    """The deck a config's ``[vision]`` table names (``deck_file`` or ``deck``)."""
    if "deck_file" in vision:
        path = Path(str(vision["deck_file"]))
        if base is not None and not path.is_absolute():
            path = base / path
        return DeckTemplates.load(path)
    return enrol_artwork(str(vision.get("deck", "aisleriot-anglo")))
