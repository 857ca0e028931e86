"""The Blackjack Bonus Bet and the Buster Blackjack Bonus Bet (seed 003, Casino Marysville), row by row."""

import pytest
from hypothesis import given, strategies as st

from controller.cards import parse_cards, shoe
from controller.rules.base import OptionError
from controller.rules.blackjack.side_wagers import (
    BONUS_PAYTABLES,
    BONUS_ROWS,
    BUSTER_PAYTABLES,
    bonus_bet_payout,
    bonus_bet_row,
    buster_paytable,
)
from controller.rules.blackjack.totals import count_total
from controller.rules.registry import make_game
from tests.blackjack.table import order, play, returned

SEED = BONUS_PAYTABLES["seed"]


@pytest.mark.parametrize(("hand", "dealer_blackjack", "row", "payout"), [
    ("KH 5C", False, "first card a picture", "1 to 1"),
    ("JB 2S", False, "first card a picture", "1 to 1"),
    ("KS JK", False, "first card a picture", "1 to 1"),
    ("TS KH", False, "any two card 20", "4 to 1"),
    ("AS 9H", False, "any two card 20", "4 to 1"),
    ("QB KB", False, "any two card 20", "4 to 1"),
    ("TD JD", False, "any two card suited 20", "6 to 1"),
    ("9C AC", False, "any two card suited 20", "6 to 1"),
    ("TS TS", False, "two cards of the same rank and suit", "8 to 1"),
    ("QH QH", True, "two cards of the same rank and suit", "8 to 1"),
    ("KS KS", False, "pair of kings of spades", "50 to 1"),
    ("KS KS", True, "pair of kings of spades beaten by a blackjack", "500 to 1"),
])
def test_bonus_bet_pay_scale_rows(hand, dealer_blackjack, row, payout) -> None:
    # Blackjack Bonus Bet item 7, the pay scale (rules-notes reads the same rows)
    assert bonus_bet_row(parse_cards(hand), dealer_blackjack=dealer_blackjack) == row
    assert bonus_bet_payout(SEED, row).text == payout


@pytest.mark.parametrize("hand", ["TS 9H", "5C KH", "JK KS", "9S 9S", "AS AS", "TB 9H"])
def test_bonus_bet_loses_without_a_qualifying_hand(hand) -> None:
    assert bonus_bet_row(parse_cards(hand), dealer_blackjack=True) is None
    assert bonus_bet_payout(SEED, None).text == "lose"


@pytest.mark.parametrize(("hand", "twenty_only", "any_pair"), [
    ("9S 9S", None, "two cards of the same rank and suit"),
    ("AH AH", None, "two cards of the same rank and suit"),
    ("QD QD", "two cards of the same rank and suit", "two cards of the same rank and suit"),
    ("KS KS", "pair of kings of spades", "pair of kings of spades"),
    ("TB TB", "any two card 20", "any two card 20"),
    ("JK JK", None, None),
])
def test_the_same_rank_and_suit_row_reads_as_the_pay_table_says(hand, twenty_only, any_pair) -> None:
    # item 7's "Any two cards of the same Rank & Suit (for example two 10's of Spades)": a grade of a 20
    # (pay table "seed") or any identical pair ("seed-any-identical-pair"); Bonus cards are never suited
    cards = parse_cards(hand)
    assert BONUS_PAYTABLES["seed"].row(cards, dealer_blackjack=False) == twenty_only
    assert BONUS_PAYTABLES["seed-any-identical-pair"].row(cards, dealer_blackjack=False) == any_pair


def test_the_identical_pair_reading_is_a_table_option_and_pays_a_pair_of_nines() -> None:
    game = make_game("no-bust-21", {"bonus_paytable": "seed-any-identical-pair"})
    assert "any identical pair" in game.bonus_paytable.reading
    round = play("no-bust-21", {(1, "base"): 1000, (1, "bonus"): 100}, "9S 5H 9S TD 5C", [(1, "stand")],
                 bonus_paytable="seed-any-identical-pair")
    assert returned(round)[(1, "bonus")] == 900
    seed = play("no-bust-21", {(1, "base"): 1000, (1, "bonus"): 100}, "9S 5H 9S TD 5C", [(1, "stand")])
    assert returned(seed)[(1, "bonus")] == 0


@given(st.lists(st.sampled_from(shoe(1, jokers_per_deck=1)), min_size=2, max_size=2), st.booleans())
def test_bonus_bet_pays_one_row_at_most(hand, dealer_blackjack) -> None:
    row = bonus_bet_row(hand, dealer_blackjack=dealer_blackjack)
    assert row is None or row in BONUS_ROWS
    if row not in (None, "first card a picture"):
        assert not any(c.is_joker for c in hand) and count_total(hand).points == 20


def test_bonus_bet_on_a_full_round_is_judged_on_the_first_two_cards_and_the_dealer_blackjack() -> None:
    # item 7 (500 to 1 row) and item 8: paid "regardless of whether the player wins or loses their base hand"
    round = play("no-bust-21", {(1, "base"): 1000, (1, "bonus"): 100}, "KS AH KS TD", [(1, "stand")])
    assert returned(round) == {(1, "base"): 0, (1, "bonus"): 50100}
    assert order(round) == [(1, "base"), (1, "bonus")]


@pytest.mark.parametrize(("cards", "payout"), [
    (3, "1 to 1"), (4, "2 to 1"), (5, "4 to 1"), (6, "10 to 1"), (7, "40 to 1"), (8, "100 to 1"), (11, "100 to 1")])
def test_buster_pay_table_by_cards_in_the_busted_hand(cards, payout) -> None:
    # "Buster Blackjack Bonus Bet Pay Table": 3 1, 4 2, 5 4, 6 10, 7 40, 8 or more 100 (all "to 1")
    assert BUSTER_PAYTABLES["seed"].payout(cards).text == payout


def test_buster_full_rounds_pay_on_a_bust_and_lose_otherwise() -> None:
    # "If the player/dealer's hand busts, all Buster ... paid"; "does not bust, all ... collected"
    bust = play("pure-21-5", {(1, "base"): 1000, (1, "buster"): 500}, "TB 2D 9H 4C 5S 2H TB", [(1, "stand")])
    assert returned(bust) == {(1, "base"): 2000, (1, "buster"): 2500}  # 2 4 5 2 10: five cards, 4 to 1
    made = play("pure-21-5", {(1, "base"): 1000, (1, "buster"): 500}, "TB 9D 9H 8C", [(1, "stand")])
    assert returned(made) == {(1, "base"): 2000, (1, "buster"): 0}


def test_buster_in_no_bust_pays_when_the_player_dealer_is_over() -> None:
    # a No Bust player-dealer "over" 21 has busted for the side wager (rules-notes threshold, configurable)
    round = play("no-bust-21", {(1, "base"): 1000, (1, "buster"): 1000}, "TS 6D 9H TC 6C", [(1, "stand")])
    assert returned(round)[(1, "buster")] == 2000
    plain_22 = play("no-bust-21", {(1, "base"): 1000, (1, "buster"): 1000}, "TS 6D 9H TC 6C", [(1, "stand")],
                    over_above=22)
    assert returned(plain_22)[(1, "buster")] == 0


def test_other_buster_tables_can_be_configured_and_bad_ones_are_named() -> None:
    game = make_game("pure-21-5", {"buster_paytable": {"3": "1 to 1", "4": "3 to 1", "8": "250 to 1"}})
    assert game.buster_paytable.payout(4).text == "3 to 1" and game.buster_paytable.payout(9).text == "250 to 1"
    assert game.buster_paytable.payout(5).text == "lose"
    with pytest.raises(OptionError, match="at least 3"):
        make_game("pure-21-5", {"buster_paytable": {"2": "1 to 1"}})
    with pytest.raises(OptionError, match="unknown payout"):
        make_game("pure-21-5", {"buster_paytable": {"3": "lots"}})
    with pytest.raises(ValueError, match="not a number of cards"):
        buster_paytable("x", {"three": "1 to 1"})
