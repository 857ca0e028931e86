"""Two Cards High's exact counts (seed 004): side-wager rows and the main wager's deals."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest

from controller.cards import no_face_deck
from controller.rules.evaluators import best_split
from controller.rules.two_cards_high.edge import NOT_QUALIFIED, edges, outcome_weights, side_rows


def test_side_wager_rows_count_every_five_card_hand_of_forty() -> None:
    # aces low only (rules-notes): straights A-5 .. 6-10 are six per suit pattern
    rows = side_rows()
    assert sum(rows.values()) == comb(40, 5)
    assert rows["straight flush"] == 6 * 4
    assert rows["straight"] == 6 * (4**5 - 4)
    assert rows["flush"] == 4 * (comb(10, 5) - 6)
    assert rows["four of a kind"] == 10 * 36 and rows["full house"] == 10 * 9 * 4 * 6


def test_main_wager_deals_cover_every_pair_of_hands() -> None:
    assert sum(outcome_weights().values()) == comb(40, 5) * comb(35, 5)


def test_paying_a_pair_3_to_2_on_ties_and_unqualified_dealers_is_worth_more() -> None:
    assert edges("pair-3-to-2")["main"].ev > edges("standard")["main"].ev


@pytest.mark.exhaustive
def test_player_values_by_rank_multisets_equal_every_hand_enumerated() -> None:
    enumerated: Counter[int] = Counter()
    for hand in combinations(no_face_deck(), 5):
        best = best_split(hand)
        enumerated[NOT_QUALIFIED if best is None else best[0]] += 1
    by_multiset: Counter[int] = Counter()
    for (player, _), n in outcome_weights().items():
        by_multiset[player] += n
    assert {v: n * comb(35, 5) for v, n in enumerated.items()} == dict(by_multiset)
