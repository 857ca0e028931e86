"""Blackjack totals and the player-dealer's drawing rule (seed 003, No Bust and Pure 21.5 "Value of cards")."""

import pytest
from hypothesis import given, strategies as st

from controller.cards import parse_cards, pure_21_5_deck, shoe
from controller.rules.blackjack.totals import Kind, count_total, dealer_draws, no_bust_total, points, pure_total

NO_BUST_CARDS = sorted(set(shoe(1, jokers_per_deck=1)))
NATURAL = [c for c in NO_BUST_CARDS if not c.is_joker]


@pytest.mark.parametrize(("card", "value"), [("AS", 1), ("2H", 2), ("9C", 9), ("TD", 10), ("JS", 10),
                                             ("QH", 10), ("KC", 10), ("KB", 10), ("TB", 10)])
def test_value_of_cards(card, value) -> None:
    # "An Ace has a value of either 1 or 11"; 2-9 face value; pictures and Bonus cards 10
    assert points(parse_cards(card)[0]) == value


@given(st.lists(st.sampled_from(NATURAL), min_size=1, max_size=8))
def test_a_soft_total_counts_one_ace_as_11_and_never_exceeds_21(cards) -> None:
    total = count_total(cards)
    hard = sum(points(c) for c in cards)
    assert total.points == (hard + 10 if total.soft else hard)
    assert not total.soft or total.points <= 21
    assert total.soft == (any(c.rank.name == "ACE" for c in cards) and hard + 10 <= 21)


@given(st.lists(st.sampled_from(NO_BUST_CARDS), min_size=2, max_size=6))
def test_no_bust_a_joker_with_any_card_is_21_and_two_jokers_dealt_first_are_natural_22(cards) -> None:
    # game rules 1, 2 and 13
    initial = no_bust_total(cards, initial=True)
    later = no_bust_total(cards, initial=False)
    if len(cards) == 2 and all(c.is_joker for c in cards):
        assert initial.kind is Kind.NATURAL_22
    elif any(c.is_joker for c in cards):
        assert initial.kind is Kind.JOKER_21 and initial.points == 21 and not initial.soft
    if any(c.is_joker for c in cards):
        assert later.kind is Kind.JOKER_21


@given(st.lists(st.sampled_from(sorted(set(pure_21_5_deck()))), min_size=2, max_size=2))
def test_pure_21_5_blackjack_is_a_bonus_card_and_an_ace_on_the_initial_deal(cards) -> None:
    expected = {c.is_bonus for c in cards} == {True, False} and any(c.rank.name == "ACE" for c in cards)
    assert (pure_total(cards, initial=True).kind is Kind.PURE_21_5) == expected
    assert pure_total(cards, initial=False).kind is Kind.COUNT


@pytest.mark.parametrize(("hand", "draws"), [
    ("TS 6H", True), ("TS 7H", False), ("AS 6H", True), ("AS 7H", False), ("AS 5H AC", True),
    ("9S 8H", False), ("2S 3H", True), ("TS 6H 8C", False), ("AS 6H TC", False)])
def test_player_dealer_hits_soft_17_or_less_and_stands_on_hard_17_or_more(hand, draws) -> None:
    # No Bust round of play 16 and chart; Pure 21.5 chart 1B
    assert dealer_draws(count_total(parse_cards(hand))) is draws


def test_player_dealer_takes_no_card_on_a_joker_hand_or_a_natural_22() -> None:
    assert not dealer_draws(no_bust_total(parse_cards("JK 2C"), initial=True))
    assert not dealer_draws(no_bust_total(parse_cards("JK JK"), initial=True))
