"""The peer the vision benchmark runs beside ours (``benchmarks/vision_peer.py``) is the classic method
working as it should, not a straw man: it reads a clean card lying alone at any turn, and a fan is one
contour it cannot read."""

import importlib.util
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cards import Card

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "vision_peer.py"


@pytest.fixture(scope="module")
def peer():
    spec = importlib.util.spec_from_file_location("vision_peer", _PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules["vision_peer"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def faces():
    from tests.vision.conftest import artwork_or_skip

    return artwork_or_skip("aisleriot-anglo")


def _table(faces, placed: list[tuple[str, float, tuple[int, int]]], height: int = 200) -> tuple[np.ndarray, float]:
    """Felt with cards pasted on it (code, turn in degrees, centre), each ``height`` pixels tall."""
    frame = np.zeros((1080, 1920, 3), np.uint8)
    frame[:] = (40, 110, 30)
    area = 0.0
    for code, angle, (x, y) in placed:
        face = faces[Card.parse(code)]
        scaled = cv2.resize(face, None, fx=height / face.shape[0], fy=height / face.shape[0], interpolation=cv2.INTER_AREA)
        area = scaled.shape[0] * scaled.shape[1]
        turn = cv2.getRotationMatrix2D((scaled.shape[1] / 2, scaled.shape[0] / 2), angle, 1.0)
        turn[:, 2] += (x - scaled.shape[1] / 2, y - scaled.shape[0] / 2)
        warped = cv2.warpAffine(scaled, turn, (1920, 1080), borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3:4] / 255.0
        frame = (frame * (1 - alpha) + warped[:, :, :3] * alpha).astype(np.uint8)
    return frame, area


@pytest.mark.parametrize("angle", [0.0, 15.0, 180.0, 260.0])
def test_the_peer_reads_a_clean_card_lying_alone_at_any_turn(peer, faces, angle) -> None:
    frame, area = _table(faces, [("5H", angle, (900, 500)), ("7C", 0.0, (400, 300))])
    reads = peer.ClassicReader(faces, area).read(frame)
    codes = sorted(read.card.code for read in reads if read.card is not None)
    assert codes == ["5H", "7C"]


def test_the_peer_cannot_read_the_cards_of_a_fan(peer, faces) -> None:
    frame, area = _table(faces, [("5H", 0.0, (900, 500)), ("9C", 0.0, (930, 540)), ("2D", 0.0, (960, 580))])
    assert peer.ClassicReader(faces, area).read(frame) == []
