"""Two Cards High's exact edges (seed 004).

The main wager depends only on ranks (aces count one, suits never matter), so
it is counted over rank multisets: a player's five ranks with the number of
ways to pick their suits, times the dealer's five ranks from what is left,
about two thousand squared pairs instead of C(40,5) x C(35,5) deals. Both
hands take their best qualifying split (the player's best choice: a higher
two-card hand never wins less; the dealer's by rule).

The side wager is counted over the C(40,5) five-card hands: rank multisets
with their suit choices, five different ranks splitting into the four one-suit
choices (flush or straight flush) and the 1020 others.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb
from typing import Any

import numpy as np

from controller.cards import Card, Rank, Suit
from controller.rules.edges import WagerEdge
from controller.rules.evaluators import best_split, side_wager_value
from controller.rules.two_cards_high.game import TwoCardsHigh, side_row

PAYTABLES = {"standard": {"pair_without_win": "1 to 1"}, "pair-3-to-2": {"pair_without_win": "3 to 2"}}
RANKS = (Rank.ACE, *(Rank(r) for r in range(2, 11)))
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
HANDS = comb(40, 5)
DEALER_HANDS = comb(35, 5)
NOT_QUALIFIED = -1


def paytables() -> list[str]:
    return list(PAYTABLES)


def paytable_options() -> dict[str, dict[str, Any]]:
    """Each pay table as a table's options name it (``edges.paytable_for``)."""
    return {name: dict(settings) for name, settings in PAYTABLES.items()}


def rank_multisets() -> Iterator[tuple[int, ...]]:
    """Five ranks (indexes into ``RANKS``), at most four of each, in sorted order."""
    for ranks in combinations_with_replacement(range(len(RANKS)), 5):
        if max(ranks.count(r) for r in set(ranks)) <= 4:
            yield ranks


def _cards(ranks: tuple[int, ...], suits: tuple[Suit, ...] | None = None) -> list[Card]:
    """Cards with the given ranks; repeated ranks get different suits."""
    seen: dict[int, int] = {}
    cards = []
    for i, r in enumerate(ranks):
        suit = suits[i] if suits else SUITS[seen.get(r, 0)]
        seen[r] = seen.get(r, 0) + 1
        cards.append(Card(RANKS[r], suit))
    return cards


@functools.cache
def main_tables() -> tuple[np.ndarray, np.ndarray]:
    """Rank-count vectors of every five-rank multiset and the best two-card value (``NOT_QUALIFIED`` if none)."""
    counts, values = [], []
    for ranks in rank_multisets():
        counts.append([ranks.count(r) for r in range(len(RANKS))])
        best = best_split(_cards(ranks))
        values.append(NOT_QUALIFIED if best is None else best[0])
    return np.array(counts, np.int64), np.array(values, np.int64)


def outcome_weights() -> dict[tuple[int, int], int]:
    """Deals (player hand, dealer hand) by (player value, dealer value)."""
    counts, values = main_tables()
    choose = np.array([[comb(n, k) for k in range(5)] for n in range(5)], np.int64)
    player_ways = np.prod(choose[4, counts], axis=1)
    left = 4 - counts
    dealer_ways = np.ones((len(counts), len(counts)), np.int64)
    for r in range(len(RANKS)):
        dealer_ways *= choose[left[:, r][:, None], counts[:, r][None, :]]
    joint = player_ways[:, None] * dealer_ways
    levels = np.unique(values)
    index = np.searchsorted(levels, values)
    table = np.zeros((len(levels), len(levels)), np.int64)
    np.add.at(table, (index[:, None].repeat(len(values), 1), index[None, :].repeat(len(values), 0)), joint)
    return {(int(a), int(b)): int(table[i, j]) for i, a in enumerate(levels) for j, b in enumerate(levels) if table[i, j]}


def main_ev(game: TwoCardsHigh) -> Fraction:
    total = Fraction(0)
    weights = outcome_weights()
    for (player, dealer), n in weights.items():
        payout, _ = game.main_payout(None if player == NOT_QUALIFIED else player,
                                     None if dealer == NOT_QUALIFIED else dealer)
        total += n * payout.odds
    assert sum(weights.values()) == HANDS * DEALER_HANDS
    return total / (HANDS * DEALER_HANDS)


def side_rows() -> dict[str | None, int]:
    """Five-card hands of the 40-card deck by side-wager row (``None``: the wager loses)."""
    rows: dict[str | None, int] = {}
    for ranks in rank_multisets():
        ways = 1
        for r in set(ranks):
            ways *= comb(4, ranks.count(r))
        if len(set(ranks)) == 5:
            suited = side_row(side_wager_value(_cards(ranks, (Suit.SPADES,) * 5)))
            rows[suited] = rows.get(suited, 0) + 4
            ways -= 4
            row = side_row(side_wager_value(_cards(ranks, (Suit.SPADES,) * 4 + (Suit.HEARTS,))))
        else:
            row = side_row(side_wager_value(_cards(ranks)))
        rows[row] = rows.get(row, 0) + ways
    return rows


def edges(paytable: str) -> dict[str, WagerEdge]:
    game = TwoCardsHigh(PAYTABLES[paytable])
    rows = side_rows()
    side = sum((n * (game.side_table[row].odds if row else -1) for row, n in rows.items()), Fraction(0)) / HANDS
    return {
        "main": WagerEdge(main_ev(game), "exact", (
            "every deal of five cards to the player and five to the dealer from the 40-card deck; both set their "
            "best two-card hand over the qualifying three-card sets; a player who cannot qualify loses; a winning "
            f"pair 3 to 2 (6a); a pair on a tie or against an unqualified dealer {game.pair_without_win} "
            f"({'rules-notes default' if paytable == 'standard' else 'the 3 to 2 reading of seed 6a'})")),
        "five_card": WagerEdge(side, "exact", "the seed's five-card side wager table on the player's five cards, aces low only"),
    }
