"""Enrolled decks: matching a card's own corner, saving and loading, restricting to a deck kind."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cards import Card, no_face_deck
from vision.geometry import rotate_quad, sample_patch
from vision.templates import INDEX_SIZE, DeckTemplates, TemplateError, features


def _index_patch(face: np.ndarray, corner: int) -> np.ndarray:
    face = cv2.resize(face, None, fx=0.42, fy=0.42, interpolation=cv2.INTER_AREA)  # cards about as large as in a frame
    h, w = face.shape[:2]
    quad = rotate_quad(np.array([[0, 0], [w, 0], [w, h], [0, h]], float), corner)
    return sample_patch(face[:, :, :3], quad, INDEX_SIZE)


@pytest.mark.parametrize("code", ["AS", "6S", "9H", "TD", "QC", "JK"])
def test_each_index_corner_of_a_card_reads_as_that_card(deck: DeckTemplates, faces: dict, code: str) -> None:
    card = Card.parse(code)
    patches = [_index_patch(faces[card], 0), _index_patch(faces[card], 2)]
    for match in deck.match_index(features(np.stack(patches))):
        assert match.card is card
        assert match.runner_up > match.distance


def test_a_blank_patch_matches_no_card(deck: DeckTemplates) -> None:
    blank = np.full((INDEX_SIZE[1], INDEX_SIZE[0], 3), 250, np.uint8)
    assert deck.match_index(features(np.stack([blank])))[0].card is None


def test_a_deck_survives_saving_and_loading(deck: DeckTemplates, tmp_path: Path) -> None:
    deck.save(tmp_path / "deck.npz")
    again = DeckTemplates.load(tmp_path / "deck.npz")
    assert again.cards == deck.cards and again.name == deck.name
    assert np.allclose(again.index_projection, deck.index_projection)


def test_a_file_that_is_not_a_deck_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "deck.npz").write_bytes(b"nonsense")
    with pytest.raises(TemplateError, match="deck.npz"):
        DeckTemplates.load(tmp_path / "deck.npz")


def test_a_no_face_deck_cannot_be_read_as_a_face_card(deck: DeckTemplates, faces: dict) -> None:
    small = deck.restricted_to(set(no_face_deck()))
    assert len(small.cards) == 40 and Card.parse("KH") not in small.cards
    match = small.match_index(features(np.stack([_index_patch(faces[Card.parse("TH")], 0)])))[0]
    assert match.card is Card.parse("TH")
