"""Hypothesis strategies for hands drawn without replacement from the games' decks."""

from __future__ import annotations

from hypothesis import strategies as st

from controller.cards import Card, deck_with_joker, no_face_deck, standard_deck

STANDARD = standard_deck()
WITH_JOKER = deck_with_joker()
NO_FACE = no_face_deck()


def hands(size: int, deck: tuple[Card, ...] = STANDARD) -> st.SearchStrategy[list[Card]]:
    """``size`` distinct cards of ``deck``, in random order."""
    return st.lists(st.sampled_from(deck), min_size=size, max_size=size, unique=True)
