"""The card vocabulary: codes, interning, and every deck the seeds use."""

import re
from collections import Counter

import pytest
from hypothesis import given, strategies as st

from controller.cards import (
    JOKER,
    Card,
    Rank,
    Suit,
    UnknownCard,
    deck_by_name,
    deck_with_joker,
    no_face_deck,
    parse_cards,
    pure_21_5_deck,
    shoe,
    standard_deck,
)


def test_a_code_names_one_interned_card() -> None:
    assert Card.parse("AS") is Card(Rank.ACE, Suit.SPADES)
    assert Card.parse(" td ").code == "TD"
    assert Card.parse("JK") is JOKER and JOKER.is_joker


def test_cards_are_immutable_and_hashable() -> None:
    card = Card.parse("QH")
    with pytest.raises(AttributeError):
        card.rank = Rank.TWO  # type: ignore[misc]
    assert len({Card.parse("QH"), Card.parse("qh")}) == 1


@pytest.mark.parametrize("code", ["", "A", "1S", "AX", "ASD", "KZ", "9B", "J-"])
def test_unknown_codes_are_refused_with_the_code_named(code: str) -> None:
    with pytest.raises(UnknownCard, match="unknown"):
        Card.parse(code)


def test_standard_deck_has_52_distinct_cards() -> None:
    deck = standard_deck()
    assert len(deck) == len(set(deck)) == 52
    assert Counter(c.suit for c in deck) == dict.fromkeys((Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS), 13)


def test_deck_with_joker_has_53() -> None:
    assert len(deck_with_joker()) == 53 and deck_with_joker().count(JOKER) == 1


def test_two_cards_high_deck_has_no_face_cards() -> None:
    # seed 004 rule 1: one deck with all face cards removed
    deck = no_face_deck()
    assert len(deck) == 40
    assert not any(c.rank.is_face for c in deck)
    assert sum(c.rank is Rank.ACE for c in deck) == 4


def test_pure_21_5_deck_has_aces_to_nines_and_sixteen_bonus_cards() -> None:
    # seed 003, Pure 21.5 "VALUE OF THE CARDS": A-9 of each suit and four each of K, Q, J, 10 Bonus cards
    deck = pure_21_5_deck()
    assert len(deck) == 52
    bonus = [c for c in deck if c.is_bonus]
    assert len(bonus) == 16
    assert Counter(c.code for c in bonus) == {"KB": 4, "QB": 4, "JB": 4, "TB": 4}
    assert not any(c.rank in (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING) for c in deck if not c.is_bonus)


@pytest.mark.parametrize("decks", range(1, 9))
def test_multi_deck_shoes_with_and_without_jokers(decks: int) -> None:
    assert len(shoe(decks)) == 52 * decks
    with_jokers = shoe(decks, jokers_per_deck=1)
    assert len(with_jokers) == 53 * decks and with_jokers.count(JOKER) == decks
    assert Counter(shoe(decks))[Card.parse("7C")] == decks


def test_shoe_sizes_outside_the_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="1 to 8 decks"):
        shoe(9)
    with pytest.raises(UnknownCard, match="unknown deck"):
        deck_by_name("tarot")


@given(st.lists(st.sampled_from(deck_with_joker() + pure_21_5_deck())))
def test_codes_round_trip(cards: list[Card]) -> None:
    assert parse_cards(" ".join(c.code for c in cards)) == cards


def test_a_card_is_named_by_its_code_by_ten_as_10_or_in_words_as_image_sets_name_their_files() -> None:
    from controller.cards import card_named

    named = {"AS": "AS", "td": "TD", "10S": "TS", "10h": "TH", "ace_of_spades": "AS", "10_of_hearts": "TH",
             "Queen of Clubs": "QC", "two-of-diamonds": "2D", "jack_of_clubs": "JC", "joker": "JK", "red_joker": "JK",
             "Black_Joker": "JK", "KB": "KB"}
    assert {name: card_named(name).code for name in named} == named
    for wrong in ("11S", "ace_of_stars", "1X", "of_spades", "ace_spades", "blue_joker_x"):
        with pytest.raises(UnknownCard, match=re.escape(repr(wrong)) + ".*10 for the ten"):
            card_named(wrong)
