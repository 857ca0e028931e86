"""Top 5 Poker's exact edges (seed 001), reproducing the house advantages the seed prints.

* Ace or Face: the Community Card is any of the 52 cards alike.
* 10's or Better: the player plays the best five of his five cards and the
  Community Card (any five of the six: his five, or four and the Community
  Card), counted over all 52 x C(51, 5) deals.
* Ante and Bet: for every deal the player takes the better of folding and
  playing that best five, where playing is valued exactly over all C(46, 5)
  dealer hands (``controller.rules.top_5_poker.poker_kernel``).

"Pay table" ``column-N`` pairs the N-th Ace or Face column with the N-th 10's
or Better column; the Ante/Bet table is the same in all three.
"""

from __future__ import annotations

import functools
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from controller.cards import standard_deck
from controller.rules.edges import WagerEdge
from controller.rules.evaluators import Category
from controller.rules.top_5_poker.tables import ACE_OR_FACE, TENS_OR_BETTER, TENS_ROWS, WINNING_BET, WINNING_HAND

COLUMNS = {f"column-{i + 1}": (aof, tens) for i, (aof, tens) in enumerate(zip(ACE_OR_FACE, TENS_OR_BETTER, strict=True))}
HANDS = 2_349_060
DEALS = 13 * HANDS
"""Deals per Community Card suit: 13 ranks times the player's five of the other 51 cards."""


@dataclass(frozen=True)
class Top5Counts:
    """What one pass over every deal yields."""

    tens_rows: dict[str, int]
    """Deals (per Community Card suit) reaching each 10's or Better row; the rest lose."""
    ante_total: int
    """Sum over deals of the best decision's Ante/Bet return, in units of Ante times dealer hands."""
    folded: int
    folded_pairs: int
    best_folded: int
    community_plays: int


def paytables() -> list[str]:
    return list(COLUMNS)


def paytable_options() -> dict[str, dict[str, Any]]:
    """Each pay table (column) as a table's options name it (``edges.paytable_for``)."""
    return {name: {"ace_or_face": ace, "tens_or_better": tens} for name, (ace, tens) in COLUMNS.items()}


def _bet_odds() -> np.ndarray:
    odds = np.full(10, int(WINNING_HAND.odds), np.int64)
    for cat, payout in WINNING_BET.items():
        odds[int(cat)] = int(payout.odds)
    return odds


def _tens_rows(values: np.ndarray) -> dict[str, int]:
    """How many of the kernel's hand values reach each 10's or Better row."""
    cat = values >> 20
    top = (values >> 16) & 0xF
    royal = (cat == 8) & (top == 13)
    named = {int(Category.STRAIGHT_FLUSH): "straight flush", int(Category.FOUR_OF_A_KIND): "four of a kind",
             int(Category.FULL_HOUSE): "full house", int(Category.FLUSH): "flush", int(Category.STRAIGHT): "straight"}
    rows = dict.fromkeys(TENS_ROWS, 0)
    rows["royal flush"] = int(royal.sum())
    for code, row in named.items():
        rows[row] += int(((cat == code) & ~royal).sum())
    rows["two pair or 3 of a kind"] = int(((cat == 2) | (cat == 3)).sum())
    rows["pair 10's or better"] = int(((cat == 1) & (top >= 9)).sum())
    return rows


def _one_rank(rank: int, tie_loses: bool) -> tuple[dict[str, int], np.ndarray]:
    """Every deal with the Community Card of ``rank`` (its suit fixed): 10's or Better rows and Ante/Bet sums."""
    from controller.rules.top_5_poker import poker_kernel as kernel

    community = 4 * rank
    hands, values = kernel.hands_with_community(community)
    levels = np.unique(values)
    q = np.searchsorted(levels, values).astype(np.int32)
    qualify_at = int(np.searchsorted(levels, 1 << 20))
    tables = kernel.dealer_tables(hands, q, len(levels), qualify_at)
    return _tens_rows(values), kernel.ante_bet_totals(community, hands, q, values, _bet_odds(), tie_loses, tables)


@functools.cache
def counts(tie_loses: bool = False) -> Top5Counts:
    """One exact pass over every Community Card rank (its suit fixed: the suits are symmetric).

    The ranks are shared among one thread per core: the kernels release the GIL.
    """
    rows = dict.fromkeys(TENS_ROWS, 0)
    totals = np.zeros(5, np.int64)
    best_folded = -1
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for tens, out in pool.map(lambda rank: _one_rank(rank, tie_loses), range(13)):
            for row, n in tens.items():
                rows[row] += n
            totals += out
            best_folded = max(best_folded, int(out[3]))
    return Top5Counts(rows, int(totals[0]), int(totals[1]), int(totals[2]), best_folded, int(totals[4]))


def ace_or_face_ev(column: str) -> Fraction:
    table = ACE_OR_FACE[column]
    deck = standard_deck()
    return sum((table.payout(c).odds for c in deck), Fraction(0)) / len(deck)


def tens_ev(column: str, rows: dict[str, int]) -> Fraction:
    table = TENS_OR_BETTER[column]
    paid = sum((n * table.rows[row].odds for row, n in rows.items()), Fraction(0))
    return (paid - (DEALS - sum(rows.values()))) / DEALS


def edges(paytable: str) -> dict[str, WagerEdge]:
    aof, tens = COLUMNS[paytable]
    result = counts(False)
    folded = Fraction(result.folded, DEALS)
    community = Fraction(result.community_plays, DEALS)
    return {
        "ace_or_face": WagerEdge(
            ace_or_face_ev(aof), "exact",
            f"Ace or Face column '{aof}' (seed prints {aof}); the Community Card is any of 52 cards alike"),
        "tens_or_better": WagerEdge(
            tens_ev(tens, result.tens_rows), "exact",
            f"10's or Better column '{tens}' (seed prints {tens}); the player plays the best five of his five cards "
            "and the Community Card (his five, or four and the Community Card: any five of the six) and never folds "
            "a hand that pays: the optimal Ante play folds nothing above a pair of threes; "
            "all 52 x C(51,5) deals enumerated"),
        "ante": WagerEdge(
            Fraction(result.ante_total, DEALS * 1_370_754), "exact",
            "Ante and Bet together, per unit of Ante (seed prints 3.02%): the player folds or plays the best five of "
            "his five and the Community Card, whichever returns more, valued exactly against all C(46,5) dealer hands "
            "(the dealer plays his best five of six, qualifies with a pair); a tie with a qualified dealer pushes "
            f"(rules-notes default); the player folds {float(folded):.4%} of deals and plays the Community Card in "
            f"{float(community):.4%}; all 52 x C(51,5) x C(46,5) deals enumerated"),
    }
