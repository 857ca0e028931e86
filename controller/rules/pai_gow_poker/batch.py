"""The Fortune Bonus rows over numpy arrays, and their exact counts over all 154,143,080 seven-card hands.

The best five-card category and the straight-flush length (with and without
the joker) come from the shared batch evaluators
(``controller.rules.evaluators.batch``); this module adds what only the Fortune pay
table asks: the royal flush with a royal match, three of a kind anywhere in
the seven cards (for the three-of-a-kind-and-straight overlap) and three pair.
``tests/paigow`` checks each row against the per-hand ``fortune.rows_held``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from controller.cards import deck_with_joker
from controller.rules.evaluators import batch
from controller.rules.evaluators.combos import iter_combinations
from controller.rules.evaluators.encoding import JOKER_CODE, encode
from controller.rules.evaluators.five_card import Category
from controller.rules.pai_gow_poker.fortune import OVERLAPS, PAYTABLES, ROWS, ROYAL_MATCH, SEVEN_SF, SEVEN_SF_JOKER, THREE_PAIR, FortunePaytable

__all__ = ["Counts", "held_rows", "paid_rows", "exhaustive_counts"]

Codes = npt.NDArray[np.uint8]
Flags = npt.NDArray[np.bool_]

_ALL = np.arange(JOKER_CODE + 1, dtype=np.uint64)
_NATURAL = _ALL < JOKER_CODE
_SUIT_BIT = np.where(_NATURAL, np.uint64(1) << (np.uint64(16) * (_ALL & np.uint64(3)) + (_ALL >> np.uint64(2))),
                     np.uint64(0)).astype(np.uint64)
"""Per card: its rank bit (deuce = bit 0, ace = bit 12) in its suit's 16-bit lane."""
_RANK_NIBBLE = (np.uint64(1) << (np.uint64(4) * np.where(_NATURAL, _ALL >> np.uint64(2), np.uint64(12)))).astype(np.uint64)
"""Per card: one in its rank's 4-bit counter; the joker counts with the aces (the bug's "as an ace")."""
_NIBBLE_LOW = np.uint64(int("1" * 13, 16))
_ROYAL = 0b1_1111_0000_0000
_KING_QUEEN = 0b0_1100_0000_0000


_POPCOUNT = np.bitwise_count(np.arange(1 << 13)).astype(np.uint8)


def held_rows(codes: Codes, values: npt.NDArray[np.int32] | None = None) -> dict[str, Flags]:
    """For each row of seven card codes, which Fortune rows the hand holds (see ``fortune.rows_held``).

    ``values`` are the rows' ``batch.high_values`` when the caller has them already.
    """
    cats = batch.categories(batch.high_values(codes, check=False) if values is None else values)
    joker = (codes == JOKER_CODE).any(axis=1)
    packed = _SUIT_BIT[codes].sum(axis=1, dtype=np.uint64)
    suits = [((packed >> np.uint64(16 * s)) & np.uint64(0x1FFF)).astype(np.int64) for s in range(4)]
    counts = _RANK_NIBBLE[codes].sum(axis=1, dtype=np.uint64)
    b0, b1, b2 = counts & _NIBBLE_LOW, (counts >> np.uint64(1)) & _NIBBLE_LOW, (counts >> np.uint64(2)) & _NIBBLE_LOW
    three_plus = b2 | (b1 & b0)
    pairs = np.bitwise_count(b1 & ~b0 & ~b2)
    seven_long = batch.straight_flush_lengths(codes, joker=True, check=False) >= 7
    royal = [(_POPCOUNT[m & _ROYAL] == 5) | ((_POPCOUNT[m & _ROYAL] == 4) & joker) for m in suits]
    match = [(m & _KING_QUEEN) == _KING_QUEEN for m in suits]
    royal_match = np.zeros(len(codes), dtype=bool)
    for s in range(4):
        for t in range(4):
            if t != s:
                royal_match |= royal[s] & match[t]
    held = {SEVEN_SF: seven_long & ~joker, ROYAL_MATCH: royal_match, SEVEN_SF_JOKER: seven_long & joker}
    by_category = {"five aces": Category.FIVE_ACES, "royal flush": Category.ROYAL_FLUSH,
                   "straight flush": Category.STRAIGHT_FLUSH, "four of a kind": Category.FOUR_OF_A_KIND,
                   "full house": Category.FULL_HOUSE, "flush": Category.FLUSH, "straight": Category.STRAIGHT}
    for name, cat in by_category.items():
        held[name] = cats == int(cat)
    held["three of a kind"] = three_plus != 0
    held[THREE_PAIR] = (pairs == 3) & (three_plus == 0)
    return held


def _priority(paytable: FortunePaytable, overlap: str) -> list[str]:
    rows = [r for r in ROWS if r in paytable.rows]
    if overlap == "higher-payout":
        return sorted(rows, key=lambda r: -paytable.rows[r].payout.multiplier)  # stable: ties keep hand order
    return rows


def paid_rows(codes: Codes, paytable: FortunePaytable, overlap: str) -> npt.NDArray[np.int8]:
    """The index in ``ROWS`` of the row each hand is paid by, or -1 for a losing hand."""
    return _paid(held_rows(codes), _priority(paytable, overlap))


def _paid(held: dict[str, Flags], order: list[str]) -> npt.NDArray[np.int8]:
    paid = np.full(len(next(iter(held.values()))), -1, dtype=np.int8)
    for name in order:
        paid = np.where((paid < 0) & held[name], np.int8(ROWS.index(name)), paid)
    return paid


@dataclass(frozen=True)
class Counts:
    """Exact counts over every seven-card hand of 53 cards."""

    rows: dict[str, dict[str | None, int]]
    """Per overlap rule: hands each Fortune row pays; ``None`` counts the losing hands."""
    held: dict[str, int]
    """Hands holding each row (a hand may hold several)."""
    categories: dict[int, int]
    """Hands by best five-card category (``Category`` number), to check against the published table."""


@cache
def exhaustive_counts(paytable: str) -> Counts:
    """Count every one of the 154,143,080 hands (a minute or two of numpy); cached per pay table."""
    table = PAYTABLES[paytable]
    orders = {overlap: _priority(table, overlap) for overlap in OVERLAPS}
    codes = encode(deck_with_joker())
    rows = {overlap: np.zeros(len(ROWS) + 1, dtype=np.int64) for overlap in OVERLAPS}
    held_totals = dict.fromkeys(ROWS, 0)
    cats = np.zeros(16, dtype=np.int64)
    for chunk in iter_combinations(len(codes), 7):
        hands = codes[chunk]
        values = batch.high_values(hands, check=False)
        held = held_rows(hands, values)
        for overlap, order in orders.items():
            rows[overlap] += np.bincount(_paid(held, order) + 1, minlength=len(ROWS) + 1)
        for name, flags in held.items():
            held_totals[name] += int(np.count_nonzero(flags))
        cats += np.bincount(batch.categories(values), minlength=16)
    paid = {overlap: {None if i == 0 else ROWS[i - 1]: int(n) for i, n in enumerate(counts)}
            for overlap, counts in rows.items()}
    return Counts(paid, held_totals,
                  {c: int(n) for c, n in enumerate(cats) if n})
