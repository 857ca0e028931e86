"""Frames labelled with the cards they show: a test lab's own set, read and scored as the benchmark scores ours.

``tablectl vision score FOLDER`` reads every frame of a folder with the table's recognizer and scores it
against the frame's label (``vision.envelope.scoring``: read right, wrong, unreadable, missed, cards invented,
faults), overall and by whatever conditions the labels name. ``benchmarks/vision.py --export DIR`` writes the
benchmark's own frames in this form. Each frame (``*.png``, ``*.jpg`` ...) has its label beside it,
``NAME.json``::

    {"cards": [{"card": "AS", "polygon": [[x, y], [x, y], [x, y], [x, y]], "visible": "full"}],
     "calibration": {"image_points": ..., "table_points": ..., "camera_matrix": ..., "distortion": ...},
     "conditions": {"felt": "grey", "glare": "glare"}}

* ``card``: the card's code (``AS``, ``TD``, ``JK``; ``10D`` and ``ace_of_spades`` will do); ``polygon``: its outline in the frame's pixels, from
  one of its two index corners round the card;
* ``visible``: ``full`` (no other card on it, all of it in the frame), ``corner`` (an index corner shows
  whole, nothing on it), ``hidden`` (neither index corner shows: not counted as readable; a read naming it
  wrong still counts as wrong); optional ``overlapped`` (another card touches it; default: not ``full``) and
  ``cut`` (part of it lies outside the frame; default: false), for the kinds of card the figures are given by;
* ``calibration`` (optional): the ``[vision.calibration]`` table of the camera that filmed the frame, else
  the config's;
* ``conditions`` (optional): a bin for each condition to report by (any names, any values).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from controller.cards import UnknownCard, card_named
from vision.envelope import EnvelopeFrame, TruthCard
from vision.sources import IMAGE_SUFFIXES

__all__ = ["LabelError", "LabelledFrame", "labelled_frames", "write_labelled"]

VISIBILITIES = ("full", "corner", "hidden")


class LabelError(ValueError):
    """A folder or label that cannot be scored, named with what is wrong."""


@dataclass(frozen=True)
class LabelledFrame:
    """One frame's file and what its label says lies in it."""

    path: Path
    truth: tuple[TruthCard, ...]
    calibration: dict[str, Any] | None
    bins: dict[str, str]


def labelled_frames(folder: Path) -> list[LabelledFrame]:
    """Every frame of ``folder`` with its label, in name order; a ``LabelError`` naming each frame without a
    label, and the first label that cannot be read, with what is wrong in it."""
    if not folder.is_dir():
        raise LabelError(f"{folder} is not a folder of labelled frames")
    images = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
    if not images:
        raise LabelError(f"{folder} holds no frames ({', '.join(IMAGE_SUFFIXES)})")
    unlabelled = [p.name for p in images if not p.with_suffix(".json").is_file()]
    if unlabelled:
        shown = ", ".join(unlabelled[:5]) + (f" and {len(unlabelled) - 5} more" if len(unlabelled) > 5 else "")
        raise LabelError(f"frames without a label beside them (NAME.json): {shown}")
    return [_frame(image) for image in images]


def _frame(image: Path) -> LabelledFrame:
    label = image.with_suffix(".json")
    try:
        data = json.loads(label.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise LabelError(f"{label.name}: not a JSON label ({error})") from None
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise LabelError(f'{label.name}: a label is a JSON object with a "cards" list')
    truth = tuple(_card(entry, f"{label.name}, card {n + 1}") for n, entry in enumerate(data["cards"]))
    calibration = data.get("calibration")
    if calibration is not None and not isinstance(calibration, dict):
        raise LabelError(f'{label.name}: "calibration" must be a [vision.calibration] table (a JSON object)')
    conditions = data.get("conditions", {})
    if not isinstance(conditions, dict):
        raise LabelError(f'{label.name}: "conditions" must map each condition to its bin')
    return LabelledFrame(image, truth, calibration, {str(k): str(v) for k, v in conditions.items()})


def _card(entry: Any, where: str) -> TruthCard:
    if not isinstance(entry, dict):
        raise LabelError(f'{where}: each card is a JSON object with "card", "polygon" and "visible"')
    code = entry.get("card")
    try:
        card = card_named(str(code))
    except UnknownCard as error:
        raise LabelError(f"{where}: {error}") from None
    try:
        polygon = np.array(entry.get("polygon"), dtype=np.float64)
    except (TypeError, ValueError):
        polygon = np.zeros(0)
    if polygon.shape != (4, 2) or not np.isfinite(polygon).all():
        raise LabelError(f"{where} ({card}): the polygon must be four [x, y] corners in pixels")
    visible = entry.get("visible")
    if visible not in VISIBILITIES:
        raise LabelError(f"{where} ({card}): visible must be one of {', '.join(VISIBILITIES)}, not {visible!r}")
    overlapped = entry.get("overlapped", visible != "full")
    cut = bool(entry.get("cut", False))
    return TruthCard(card, polygon, visible, 0, bool(overlapped), cut)


def write_labelled(folder: Path, name: str, scene: EnvelopeFrame) -> Path:
    """``scene``'s frame as ``folder/name.png`` (lossless) with its label beside it; the frame's path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    if not cv2.imwrite(str(path), scene.frame):
        raise OSError(f"cannot write {path}")
    label = {
        "cards": [{"card": t.card.code, "polygon": [[round(float(x), 3), round(float(y), 3)] for x, y in t.polygon],
                   "visible": t.visible, "overlapped": t.overlapped, "cut": t.cut} for t in scene.truth],
        "calibration": scene.calibration,
        "conditions": scene.conditions.bins(),
    }
    path.with_suffix(".json").write_text(json.dumps(label, indent=1) + "\n", encoding="utf-8")
    return path

