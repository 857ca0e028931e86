"""Which way up a deck prints its bottom-right index, and the refusal of a deck that prints it upright."""

from pathlib import Path

import numpy as np
import pytest

from tests.vision.conftest import artwork_or_skip
from vision.enroll import enrol_artwork
from vision.geometry import INDEX_FX, INDEX_FY
from vision.templates import FORMAT_VERSION, DeckTemplates, TemplateError, _on_background, enrol_faces
from vision.upright_index import upright_bottom_index


def _printed_upright(face: np.ndarray) -> np.ndarray:
    """The face with its top-left index copied, the same way up, into its bottom-right corner."""
    out = face.copy()
    h, w = face.shape[:2]
    ph, pw = int(INDEX_FY * h), int(INDEX_FX * w)
    out[h - ph :, w - pw :] = face[:ph, :pw]
    return out


def test_a_deck_that_turns_its_bottom_index_half_round_is_not_upright(faces: dict) -> None:
    assert not upright_bottom_index([_on_background(face) for face in faces.values()]).any()


def test_a_bottom_index_printed_the_same_way_up_as_the_top_one_is_upright(faces: dict) -> None:
    assert upright_bottom_index([_printed_upright(_on_background(face)) for face in faces.values()]).all()


def test_a_deck_that_prints_its_bottom_index_upright_is_refused_at_enrolment(faces: dict) -> None:
    upright = {card: _printed_upright(_on_background(face)) for card, face in faces.items()}
    with pytest.raises(TemplateError, match=r"'upright' prints its bottom-right index upright \(53 of 53 cards"):
        enrol_faces("upright", upright)


def test_kde_ancient_egyptians_is_refused_at_enrolment() -> None:
    """KDE's ancient-egyptians prints the suit over the rank, both upright, at the bottom right. Read
    unrefused, it named 6 cards wrong in 216 frames, a six of diamonds as the nine among them."""
    egyptians = artwork_or_skip("kde-ancient-egyptians")
    with pytest.raises(TemplateError, match=r"'kde-ancient-egyptians' prints its bottom-right index upright \(51 of 52"):
        enrol_faces("kde-ancient-egyptians", egyptians)


def test_a_cached_deck_enrolled_before_the_check_is_enrolled_again_and_refused(
    deck: DeckTemplates, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An artwork deck cached by a tablectl that did not yet check (format 7) is not served from the cache."""
    artwork_or_skip("kde-ancient-egyptians")
    monkeypatch.setenv("TABLECTL_CACHE", str(tmp_path))
    cached = tmp_path / "decks" / f"kde-ancient-egyptians-format{FORMAT_VERSION}.npz"
    cached.parent.mkdir()
    deck.save(cached)
    with np.load(cached) as data:
        arrays = dict(data)
    np.savez(cached, **{**arrays, "version": np.array(7)})
    with pytest.raises(TemplateError, match="prints its bottom-right index upright"):
        enrol_artwork("kde-ancient-egyptians")
    assert not cached.exists()
