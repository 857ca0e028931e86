"""Pai gow hands (seed 003, Double-Hand Poker "Rank of Hands", foul hands, "Object of the Game")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from controller.cards import Card, deck_with_joker, parse_cards
from controller.rules.evaluators import InvalidHand
from controller.rules.pai_gow_poker.hands import (
    FoulHand,
    Outcome,
    SetHand,
    back_value,
    compare,
    foul_reason,
    front_value,
    legal_settings,
    set_hand,
    settings as all_settings,
)


def test_the_joker_in_front_is_an_ace() -> None:
    # seed 003: "The Joker may be used as an Ace"; in front it is nothing else
    assert front_value(parse_cards("JK AS")) == front_value(parse_cards("AH AS"))
    assert front_value(parse_cards("JK 4C")) == front_value(parse_cards("AD 4C"))


def test_a_front_pair_beats_any_front_high_card() -> None:
    assert front_value(parse_cards("2S 2H")) > front_value(parse_cards("AS KH"))


def test_five_aces_rank_above_a_royal_flush() -> None:
    # seed 003 Rank of Hands: (a) Five Aces, (b) Royal Flush
    assert back_value(parse_cards("AS AH AD AC JK")) > back_value(parse_cards("AS KS QS JS TS"))


def test_the_seed_ranks_a_2_3_4_5_as_the_low_straight() -> None:
    # seed 003 note: "5-4-3-2-A = Low straight", "A-K-Q-J-10 = High straight"
    wheel, six_high = parse_cards("AS 2H 3D 4C 5S"), parse_cards("2S 3H 4D 5C 6S")
    assert back_value(wheel) < back_value(six_high)


def test_a_card_room_may_rank_a_2_3_4_5_second_highest() -> None:
    wheel, king, ace = parse_cards("AS 2H 3D 4C 5S"), parse_cards("9S TH JD QC KS"), parse_cards("TS JH QD KC AS")
    rule = "second-highest"
    assert back_value(king, rule) < back_value(wheel, rule) < back_value(ace, rule)


def test_foul_when_the_front_is_stronger_than_the_back() -> None:
    # seed 003 foul (a)
    with pytest.raises(FoulHand, match=r"front hand \(pair of kings\) ranks above"):
        set_hand(parse_cards("KS KH AS QH 8D 7C 2S"), parse_cards("KS KH"))


def test_foul_counts_of_two_and_five() -> None:
    # seed 003 foul (b) exactly two cards in front, (c) exactly five in back
    assert "exactly two" in foul_reason(parse_cards("KS"), parse_cards("AS QH 8D 7C 2S 3S"))
    assert "exactly five" in foul_reason(parse_cards("KS 2H"), parse_cards("AS QH 8D 7C"))


def test_a_front_pair_under_the_same_pair_with_kickers_is_not_foul() -> None:
    assert foul_reason(parse_cards("8S 8H"), parse_cards("8D 8C AS KH 2D")) is None
    assert foul_reason(parse_cards("AS KH"), parse_cards("AD KC 9S 7H 2D")) is None


def test_cards_not_in_the_hand_are_refused() -> None:
    with pytest.raises(InvalidHand, match="QS not in the hand"):
        set_hand(parse_cards("KS KH AS QH 8D 7C 2S"), parse_cards("QS KH"))


def test_win_both_to_win_one_each_pushes_copies_to_the_player_dealer() -> None:
    # seed 003 "Object of the Game"; "The player/banker wins all copies"
    dealer = SetHand(tuple(parse_cards("KS QH")), tuple(parse_cards("9S 9H 5D 4C 2S")))
    win = SetHand(tuple(parse_cards("AS QD")), tuple(parse_cards("TS TH 6D 4H 3S")))
    split = SetHand(tuple(parse_cards("AS QD")), tuple(parse_cards("8S 8H 6D 4H 3S")))
    copy_front = SetHand(tuple(parse_cards("KD QC")), tuple(parse_cards("TS TH 6D 4H 3S")))
    assert compare(win, dealer).outcome is Outcome.WIN
    assert compare(split, dealer).outcome is Outcome.PUSH
    assert compare(copy_front, dealer).front == "copy"
    assert compare(copy_front, dealer).outcome is Outcome.PUSH


def test_there_are_twenty_one_ways_to_set_seven_cards() -> None:
    assert len(all_settings(parse_cards("AS KH QD JC 9S 7H 2D"))) == 21


two_hands = st.lists(st.sampled_from(deck_with_joker()), min_size=14, max_size=14, unique=True)


@settings(max_examples=200, deadline=None)
@given(two_hands, st.data())
def test_comparison_is_antisymmetric_apart_from_copies(cards: list[Card], data: st.DataObject) -> None:
    a = data.draw(st.sampled_from(legal_settings(cards[:7])))
    b = data.draw(st.sampled_from(legal_settings(cards[7:])))
    ab, ba = compare(a, b), compare(b, a)
    flip = {"win": "lose", "lose": "win", "copy": "copy"}
    assert ba.front == flip[ab.front] and ba.back == flip[ab.back]
    if "copy" not in (ab.front, ab.back):
        assert {ab.outcome, ba.outcome} in ({Outcome.WIN, Outcome.LOSE}, {Outcome.PUSH})
    else:
        assert Outcome.WIN not in (ab.outcome, ba.outcome) or ab.outcome != ba.outcome


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(deck_with_joker()), min_size=7, max_size=7, unique=True))
def test_every_hand_has_a_legal_setting_and_the_foul_check_matches_the_values(cards: list[Card]) -> None:
    legal = legal_settings(cards)
    assert legal
    for s in all_settings(cards):
        assert (s in legal) == (front_value(s.front) <= back_value(s.back))
