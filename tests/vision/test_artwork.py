"""The decks the recognizer knows by their artwork: the held-out ones stay out of every group tuned on,
and every further brand draws a whole deck."""

import pytest

from controller.cards import JOKER
from tests.vision.conftest import artwork_or_skip
from vision.artwork import (
    HELD_OUT_DECKS,
    KDE_DECKS,
    KNOWN_DECKS,
    MORE_DECKS,
    SEEN_DECKS,
    TUNING_DECKS,
)


def test_the_held_out_decks_are_in_no_group_tuned_on_and_every_group_is_known() -> None:
    tuned = set(SEEN_DECKS) | set(TUNING_DECKS) | set(MORE_DECKS) | set(KDE_DECKS)
    assert not set(HELD_OUT_DECKS) & tuned
    assert len(tuned) == len(SEEN_DECKS) + len(TUNING_DECKS) + len(MORE_DECKS) + len(KDE_DECKS)
    assert tuned | set(HELD_OUT_DECKS) <= set(KNOWN_DECKS)


@pytest.mark.parametrize("name", MORE_DECKS)
def test_each_further_brand_draws_fifty_two_cards_and_a_joker(name: str) -> None:
    faces = artwork_or_skip(name)
    assert len(faces) == 53 and JOKER in faces


@pytest.mark.parametrize("name", KDE_DECKS)
def test_each_kde_brand_draws_fifty_two_cards(name: str) -> None:
    faces = artwork_or_skip(name)
    assert len(faces) - (JOKER in faces) == 52
