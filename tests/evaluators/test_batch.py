"""The numpy batch evaluators agree with the per-hand evaluators, and refuse bad arrays."""

from __future__ import annotations

from itertools import product

import numpy as np
import numpy.typing as npt
import pytest

from controller.cards import Card, deck_with_joker, no_face_deck, standard_deck
from controller.rules.evaluators import batch
from controller.rules.evaluators.encoding import InvalidHand, decode, encode
from controller.rules.evaluators.five_card import evaluate
from controller.rules.evaluators.high_card_flush import flush_value, straight_flush_length
from controller.rules.evaluators.lowball import low_value, qualifies
from controller.rules.evaluators.omaha import omaha_high, omaha_low
from controller.rules.evaluators.three_card import evaluate3
from controller.rules.evaluators.two_cards_high import best_split, side_wager_value

SAMPLES = 1_000


def random_rows(deck: tuple[Card, ...], size: int, rows: int = SAMPLES, seed: int = 5) -> npt.NDArray[np.uint8]:
    """``rows`` random hands of ``size`` distinct cards of ``deck``, as batch codes."""
    rng = np.random.default_rng(seed + size)
    codes = encode(deck)
    return codes[np.argsort(rng.random((rows, len(codes))), axis=1)[:, :size]]


@pytest.mark.parametrize("network", [2, 3, 4, 5, 6, 7])
def test_sorting_networks_sort_every_zero_one_input(network: int) -> None:
    ones = np.array(list(product((0, 1), repeat=network)), dtype=np.uint8)
    cols = batch._sorted_columns(list(ones.T.copy()))
    assert (np.stack(cols, axis=1) == np.sort(ones, axis=1)).all()


@pytest.mark.parametrize(("size", "deck"), [(5, standard_deck()), (6, standard_deck()), (7, standard_deck()),
                                            (5, deck_with_joker()), (6, deck_with_joker()), (7, deck_with_joker())])
def test_high_values_agree_with_the_per_hand_evaluator(size: int, deck: tuple[Card, ...]) -> None:
    rows = random_rows(deck, size)
    assert batch.high_values(rows).tolist() == [evaluate(decode(r)) for r in rows]


def test_joker_hands_with_flush_draws_agree() -> None:
    # random hands rarely hold four suited cards and the joker; build them on purpose
    rng = np.random.default_rng(11)
    hearts = encode(standard_deck())[1::4]
    rows = []
    for _ in range(SAMPLES):
        suited = rng.choice(hearts, size=4, replace=False)
        rest = rng.choice(np.setdiff1d(encode(standard_deck()), suited), size=2, replace=False)
        rows.append(rng.permutation(np.concatenate([suited, rest, [52]])))
    rows_array = np.array(rows, dtype=np.uint8)
    assert batch.high_values(rows_array).tolist() == [evaluate(decode(r)) for r in rows_array]
    five = rows_array[:, :5]
    assert batch.high_values(five).tolist() == [evaluate(decode(r)) for r in five]


def test_three_card_values_agree() -> None:
    rows = random_rows(standard_deck(), 3)
    assert batch.three_card_values(rows).tolist() == [evaluate3(decode(r)) for r in rows]
    assert batch.three_card_values(rows, a23_suited_is_straight_flush=False).tolist() == [
        evaluate3(decode(r), a23_suited_is_straight_flush=False) for r in rows]


def test_low_values_and_qualifier_agree() -> None:
    rows = random_rows(deck_with_joker(), 5)
    values = batch.low_values(rows)
    assert values.tolist() == [low_value(decode(r)) for r in rows]
    assert batch.low_qualifies(values).tolist() == [qualifies(int(v)) for v in values]
    assert batch.low_qualifies(values, 9).tolist() == [qualifies(int(v), 9) for v in values]


@pytest.mark.parametrize("size", [3, 7])
def test_high_card_flush_values_agree(size: int) -> None:
    rows = random_rows(standard_deck(), size)
    assert batch.flush_values(rows).tolist() == [flush_value(decode(r)) for r in rows]
    assert batch.straight_flush_lengths(rows).tolist() == [straight_flush_length(decode(r)) for r in rows]


def test_straight_flush_lengths_with_the_joker_agree() -> None:
    rows = random_rows(deck_with_joker(), 7)
    expected = [straight_flush_length(decode(r), joker=True) for r in rows]
    assert batch.straight_flush_lengths(rows, joker=True).tolist() == expected


def test_two_cards_high_values_agree() -> None:
    rows = random_rows(no_face_deck(), 5)
    splits = [best_split(decode(r)) for r in rows]
    assert batch.best_two_card_values(rows).tolist() == [-1 if s is None else s[0] for s in splits]
    assert batch.side_wager_values(rows).tolist() == [side_wager_value(decode(r)) for r in rows]


def test_omaha_values_agree() -> None:
    rows = random_rows(deck_with_joker(), 9, rows=300)
    hole, board = rows[:, :4], rows[:, 4:]
    high = batch.omaha_high_values(hole, board)
    assert high.tolist() == [omaha_high(decode(h), decode(b))[0] for h, b in zip(hole, board)]
    for qualifier in (8, None):
        lows = [omaha_low(decode(h), decode(b), qualifier=qualifier) for h, b in zip(hole, board)]
        expected = [0 if low is None else low[0] for low in lows]
        assert batch.omaha_low_values(hole, board, qualifier=qualifier).tolist() == expected


@pytest.mark.parametrize(
    ("rows", "fault"),
    [
        ([[0, 1, 2, 3]], "hands of"),
        ([[0, 1, 2, 3, 53]], "codes must be integers"),
        ([[0, 1, 2, 3, 3]], "row 0 holds a card twice"),
        ([[0, 1, 2, 3, 4], [52, 52, 1, 2, 3]], "row 1 has more than 1 joker"),
        ([0, 1, 2, 3, 4], "2-D array"),
    ],
)
def test_bad_arrays_are_refused_naming_the_fault(rows: list[int] | list[list[int]], fault: str) -> None:
    with pytest.raises(InvalidHand, match=fault):
        batch.high_values(np.array(rows))


def test_omaha_needs_two_hole_cards_and_three_board_cards() -> None:
    with pytest.raises(InvalidHand, match="at least two hole cards"):
        batch.omaha_high_values(np.array([[0]]), np.array([[1, 2, 3, 4, 5]]))


def test_face_cards_are_refused_in_two_cards_high() -> None:
    with pytest.raises(InvalidHand, match="not in this deck"):
        batch.best_two_card_values(np.array([[0, 1, 2, 3, 44]]))  # 44 is the king of spades
