"""Top 5 Poker's exact edges: the seed 001 pay tables' printed house advantages, and the kernel's parts."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from controller.cards import standard_deck
from controller.rules.evaluators import evaluate
from controller.rules.evaluators.encoding import decode
from controller.rules.top_5_poker import poker_kernel as kernel
from controller.rules.top_5_poker.edge import ace_or_face_ev, counts, edges, tens_ev
from controller.rules.top_5_poker.tables import tens_row

DECK = standard_deck()


@pytest.mark.parametrize(("column", "ev"), [("1.54%", Fraction(-1, 65)), ("3.08%", Fraction(-2, 65)),
                                            ("3.85%", Fraction(-1, 26))])
def test_ace_or_face_columns_have_the_printed_house_advantage(column, ev) -> None:
    # "Ace or Face Payouts": (4 x 4 + 4 x 2 + 4 x Q + 4 x J - 36) / 52, printed 1.54% / 3.08% / 3.85%
    assert ace_or_face_ev(column) == ev
    assert f"{-float(ev):.2%}" == column


six_cards = st.permutations(range(52)).map(lambda p: p[:6])


@settings(max_examples=300, deadline=None)
@given(first=six_cards, second=six_cards)
def test_kernel_values_order_hands_as_the_shared_evaluator_does(first, second) -> None:
    a, b = kernel.best_value(np.array(first, np.int64)), kernel.best_value(np.array(second, np.int64))
    x, y = evaluate(decode(first)), evaluate(decode(second))
    assert (a > b) - (a < b) == (x > y) - (x < y)


@settings(max_examples=200, deadline=None)
@given(cards=six_cards)
def test_kernel_tens_rows_match_the_pay_table_rows(cards) -> None:
    from controller.rules.top_5_poker.edge import _tens_rows

    value = kernel.best_value(np.array(cards, np.int64))
    rows = {row for row, n in _tens_rows(np.array([value], np.int64)).items() if n}
    assert rows == ({tens_row(evaluate(decode(cards)))} - {None})


@settings(max_examples=3, deadline=None)
@given(cards=six_cards)
def test_unqualified_dealer_hands_counted_by_rank_sets_match_the_enumeration(cards) -> None:
    player, community = np.array(cards[:5], np.int64), cards[5]
    enumerated = kernel.dealer_counts(player, community, kernel.internal_value(player, community))
    assert kernel.unqualified_count(player, community) == enumerated[0]


@pytest.mark.exhaustive
def test_exact_edges_reproduce_every_house_advantage_the_seed_prints() -> None:
    # seed 001: Ace or Face 1.54 / 3.08 / 3.85 %, 10's or Better 2.17 / 3.18 / 4.47 %, Winning Bet table 3.02 %
    printed = {"column-1": ("1.54%", "2.17%"), "column-2": ("3.08%", "3.18%"), "column-3": ("3.85%", "4.47%")}
    for name, (aof, tens) in printed.items():
        result = edges(name)
        assert f"{-float(result['ace_or_face'].ev):.2%}" == aof
        assert f"{-float(result['tens_or_better'].ev):.2%}" == tens
        assert f"{-float(result['ante'].ev):.2%}" == "3.02%"
    assert tens_ev("4.47%", counts(False).tens_rows) == result["tens_or_better"].ev


@pytest.mark.exhaustive
@pytest.mark.parametrize("tie_loses", [False, True])
def test_no_pair_of_fours_or_better_is_ever_folded(tie_loses) -> None:
    # the decision helper plays a pair of fours or better without counting (top_5_poker_strategy)
    pair_of_fours = (1 << 20) | (3 << 16)
    assert counts(tie_loses).best_folded < pair_of_fours


@pytest.mark.parametrize(("hand", "community"), [("2S 2H 7D 9C KS", "4D"), ("3S 5H 7D 9C KS", "3D")])
def test_one_pair_dealer_counts_match_the_enumeration_of_all_dealer_hands(hand, community) -> None:
    # the decision helper counts only dealer hands holding a pair no higher than the player's
    from controller.cards import Card, parse_cards
    from controller.rules.evaluators.encoding import code_of, encode

    player, board = encode(parse_cards(hand)).astype(np.int64), code_of(Card.parse(community))
    value = kernel.internal_value(player, board)
    assert list(kernel.one_pair_counts(player, board, value)) == list(kernel.dealer_counts(player, board, value)[1:])
