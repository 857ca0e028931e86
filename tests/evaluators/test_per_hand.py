"""The compiled per-hand evaluator gives the batch API's value for every hand it is asked about."""

from __future__ import annotations

import numpy as np
import pytest

from controller.cards import parse_cards
from controller.rules.evaluators import batch, per_hand
from controller.rules.evaluators.combos import iter_combinations
from controller.rules.evaluators.encoding import InvalidHand, encode
from controller.rules.evaluators.five_card import evaluate


def random_rows(count: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 53)), axis=1)[:, :size].astype(np.uint8)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_random_hands_with_and_without_the_joker_match_the_batch_values(size: int) -> None:
    rows = random_rows(20_000, size, seed=size)
    assert [per_hand.high_value(r) for r in rows.tolist()] == batch.high_values(rows).tolist()


@pytest.mark.parametrize("hand", ["AS KS QS JS TS 2D 3C", "JK AH AD AC AS 2D 3C", "JK 2H 7H TH 9H",
                                  "JK QH JH TH 9H 9S", "AS 2D 3H 4C JK", "KH KD 7S 7C KS"])
def test_card_hands_match_the_reference_evaluator(hand: str) -> None:
    cards = parse_cards(hand)
    assert per_hand.evaluate(cards) == evaluate(cards) == per_hand.high_value(encode(cards).tolist())


@pytest.mark.parametrize(("hand", "words"), [("AS KS QS JS", "5 or 6 or 7 cards, not 4"),
                                              ("AS AS QS JS TS", "appears twice"),
                                              ("AS KB QS JS TS", "not a card of a standard deck")])
def test_a_hand_the_evaluator_cannot_rank_is_refused_by_name(hand: str, words: str) -> None:
    with pytest.raises(InvalidHand, match=words):
        per_hand.evaluate(parse_cards(hand))


def test_codes_of_a_wrong_size_are_refused() -> None:
    with pytest.raises(InvalidHand, match="not 4"):
        per_hand.high_value([0, 1, 2, 3])


def test_every_five_card_hand_of_the_53_card_deck_matches_the_batch_values() -> None:
    for chunk in iter_combinations(53, 5):
        expected = batch.high_values(chunk, check=False).tolist()
        assert [per_hand.value5(*row) for row in chunk.tolist()] == expected


def test_a_million_seven_card_hands_match_the_batch_values() -> None:
    for seed in range(10):
        rows = random_rows(100_000, 7, seed=100 + seed)
        assert [per_hand.value7(*row) for row in rows.tolist()] == batch.high_values(rows).tolist()
