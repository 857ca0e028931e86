"""The evaluators over numpy arrays: one hand per row of card codes, for exhaustive math and benchmarks.

Codes are those of :mod:`controller.rules.evaluators.encoding` (0..51, joker 52).
Each function returns one value per row, equal to what the per-hand
evaluator of the same ranking returns for those cards (the tests check this
on random hands). Rows must hold distinct cards; by default that is checked
(``check=False`` skips the check when the caller built the rows itself).

>>> import numpy as np
>>> from controller.cards import parse_cards
>>> from controller.rules.evaluators.encoding import encode
>>> from controller.rules.evaluators.five_card import describe
>>> rows = np.stack([encode(parse_cards(h)) for h in ("AS KS QS JS TS 2D 3C", "JK AH AD AC AS 2D 3C")])
>>> [describe(int(v)) for v in high_values(rows)]
['royal flush', 'five aces']
"""

from __future__ import annotations

from itertools import combinations, pairwise
from math import comb

import numpy as np
import numpy.typing as npt

from controller.rules.evaluators import tables
from controller.rules.evaluators.encoding import JOKER_CODE, InvalidHand
from controller.rules.evaluators.lowball import LOW_TOP

__all__ = [
    "as_codes",
    "high_values",
    "categories",
    "three_card_values",
    "low_values",
    "low_qualifies",
    "flush_values",
    "straight_flush_lengths",
    "best_two_card_values",
    "side_wager_values",
    "omaha_high_values",
    "omaha_low_values",
]

Codes = npt.NDArray[np.uint8]
Values = npt.NDArray[np.int32]
Column = npt.NDArray[np.uint8]

_NETWORKS: dict[int, tuple[tuple[int, int], ...]] = {
    2: ((0, 1),),
    3: ((0, 1), (1, 2), (0, 1)),
    4: ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)),
    5: ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)),
    6: ((1, 2), (4, 5), (0, 2), (3, 5), (0, 1), (3, 4), (2, 5), (0, 3), (1, 4), (2, 4), (1, 3), (2, 3)),
    7: ((1, 2), (3, 4), (5, 6), (0, 2), (3, 5), (4, 6), (0, 1), (4, 5), (2, 6), (0, 4), (1, 5), (0, 3),
        (2, 5), (1, 3), (2, 4), (2, 3)),
}

_ALL = np.arange(JOKER_CODE + 1)
_RANK_SYMBOL = np.where(_ALL == JOKER_CODE, 13, _ALL >> 2).astype(np.uint8)
_LOW_SYMBOL = np.where(_ALL == JOKER_CODE, 13, ((_ALL >> 2) + 1) % 13).astype(np.uint8)
_SUIT_NIBBLE = np.where(_ALL == JOKER_CODE, 0, 1 << (4 * (_ALL & 3))).astype(np.uint16)
_SUIT_BIT = np.where(_ALL == JOKER_CODE, 0, 1 << (16 * (_ALL & 3) + (_ALL >> 2))).astype(np.uint64)
_COUNT = np.where((_ALL >> 2) == 12, 1, (_ALL >> 2) + 2).astype(np.uint8)


def _flush_suit_table(threshold: int) -> npt.NDArray[np.int8]:
    nibbles = np.arange(1 << 16)[:, None] >> (4 * np.arange(4)) & 0xF
    suited = nibbles >= threshold
    return np.where(suited.any(axis=1), suited.argmax(axis=1), -1).astype(np.int8)


_FLUSH_SUIT = {5: _flush_suit_table(5), 4: _flush_suit_table(4)}


def _sorted_columns(cols: list[Column]) -> list[Column]:
    """The columns sorted within each row (by a sorting network up to seven columns)."""
    if len(cols) not in _NETWORKS:
        ordered = np.sort(np.stack(cols, axis=1), axis=1)
        return list(np.ascontiguousarray(ordered.T))
    cols = list(cols)
    for a, b in _NETWORKS[len(cols)]:
        low = np.minimum(cols[a], cols[b])
        cols[b] = np.maximum(cols[a], cols[b])
        cols[a] = low
    return cols


def _prepare(codes: npt.ArrayLike, *, sizes: tuple[int, ...], game: str, jokers: int = 0,
             check: bool = True, deck: npt.NDArray[np.bool_] | None = None) -> tuple[Codes, list[Column]]:
    """The hands as a 2-D ``uint8`` array and as contiguous columns, checked unless ``check`` is off."""
    arr = np.asarray(codes)
    if arr.ndim != 2 or arr.shape[1] not in sizes:
        raise InvalidHand(f"{game}: expected a 2-D array of hands of {sizes} cards, got shape {arr.shape}")
    if arr.size and (not np.issubdtype(arr.dtype, np.integer) or arr.min() < 0 or arr.max() > JOKER_CODE):
        raise InvalidHand(f"{game}: card codes must be integers 0..{JOKER_CODE}")
    arr = arr.astype(np.uint8, copy=False)
    cols = list(np.ascontiguousarray(arr.T))
    if check and arr.size:
        _check_rows(cols, game, jokers, deck)
    return arr, cols


def _check_rows(cols: list[Column], game: str, jokers: int, deck: npt.NDArray[np.bool_] | None) -> None:
    def first(bad: npt.NDArray[np.bool_]) -> int:
        return int(bad.argmax())

    joker_count = sum((c == JOKER_CODE).view(np.uint8) for c in cols)
    if (joker_count > jokers).any():
        raise InvalidHand(f"{game}: row {first(joker_count > jokers)} has more than {jokers} joker(s)")
    if deck is not None:
        outside = ~np.logical_and.reduce([deck[c] for c in cols])
        if outside.any():
            raise InvalidHand(f"{game}: row {first(outside)} has a card not in this deck")
    ordered = _sorted_columns(cols)
    repeated = np.logical_or.reduce([a == b for a, b in pairwise(ordered)])
    if repeated.any():
        raise InvalidHand(f"{game}: row {first(repeated)} holds a card twice")


def as_codes(codes: npt.ArrayLike, *, sizes: tuple[int, ...], game: str, jokers: int = 0,
             check: bool = True, deck: npt.NDArray[np.bool_] | None = None) -> Codes:
    """A 2-D ``uint8`` array of hands, or ``InvalidHand`` naming what is wrong with the input."""
    return _prepare(codes, sizes=sizes, game=game, jokers=jokers, check=check, deck=deck)[0]


def _index(cols: list[Column], count: int) -> Values:
    """The dense multiset index of the first ``count`` sorted columns."""
    terms = tables.binomial_columns(len(cols))
    index = terms[0][cols[0]]
    for i in range(1, count):
        index = index + terms[i][cols[i]]
    return index


def _suit_masks(cols: list[Column]) -> list[npt.NDArray[np.int64]]:
    packed = np.zeros(len(cols[0]), dtype=np.uint64)
    for c in cols:
        packed += _SUIT_BIT[c]
    return [((packed >> np.uint64(16 * s)) & np.uint64(0x1FFF)).astype(np.int64) for s in range(4)]


def high_values(codes: npt.ArrayLike, *, check: bool = True) -> Values:
    """Five-card high values (``five_card`` layout) of hands of 5, 6 or 7 cards, at most one joker (the bug)."""
    hands, cols = _prepare(codes, sizes=(5, 6, 7), game="five-card poker", jokers=1, check=check)
    n = len(cols)
    ranks = _sorted_columns([_RANK_SYMBOL[c] for c in cols])
    naturals = _index(ranks, n - 1)
    values = tables.high_table(n)[naturals + tables.binomial_columns(n)[n - 1][ranks[n - 1]]]
    joker = ranks[n - 1] == 13
    any_joker = bool(joker.any())
    if any_joker:
        values[joker] = tables.bug_table(n - 1)[naturals[joker]]
    counts = sum(_SUIT_NIBBLE[c] for c in cols)
    suit = np.where(joker, _FLUSH_SUIT[4][counts], _FLUSH_SUIT[5][counts]) if any_joker else _FLUSH_SUIT[5][counts]
    rows = np.flatnonzero(suit >= 0)
    if rows.size:
        sub = hands[rows]
        in_suit = ((sub & 3) == suit[rows, None]) & (sub != JOKER_CODE)
        mask = np.where(in_suit, np.left_shift(1, sub >> 2, dtype=np.int32), 0).sum(axis=1)
        flush = np.where(joker[rows], tables.bug_flush_table()[mask], tables.flush_table()[mask])
        values[rows] = np.maximum(values[rows], flush)
    return np.asarray(values, dtype=np.int32)


def categories(values: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    """The ``five_card.Category`` number of each value."""
    return (np.asarray(values) >> 20).astype(np.int32)


def three_card_values(codes: npt.ArrayLike, *, a23_suited_is_straight_flush: bool = True,
                      check: bool = True) -> Values:
    """Three Card Poker values (``three_card`` layout) of three-card rows."""
    _, cols = _prepare(codes, sizes=(3,), game="three card poker", check=check)
    suits = [c & 3 for c in cols]
    suited = (suits[0] == suits[1]) & (suits[1] == suits[2])
    cols = _sorted_columns([_RANK_SYMBOL[c] for c in cols])
    offset = suited.astype(np.int32) * comb(tables.SYMBOLS + 2, 3)
    return np.asarray(tables.three_card_table(a23_suited_is_straight_flush)[_index(cols, 3) + offset], dtype=np.int32)


def low_values(codes: npt.ArrayLike, *, check: bool = True) -> Values:
    """Ace-to-five low values (``lowball`` layout, larger is better) of five-card rows, joker allowed."""
    _, cols = _prepare(codes, sizes=(5,), game="ace-to-five low", jokers=1, check=check)
    cols = _sorted_columns([_LOW_SYMBOL[c] for c in cols])
    naturals = _index(cols, 4)
    values = tables.low_table(5)[naturals + tables.binomial_columns(5)[4][cols[4]]]
    joker = cols[4] == 13
    if joker.any():
        values[joker] = tables.low_table(4)[naturals[joker]]
    return np.asarray(values, dtype=np.int32)


def low_qualifies(values: npt.NDArray[np.integer], limit: int = 8) -> npt.NDArray[np.bool_]:
    """Which low values are five unpaired cards none above ``limit`` (eight or better by default)."""
    badness = LOW_TOP - np.asarray(values, dtype=np.int64)
    return np.asarray(((badness >> 20) == 0) & (((badness >> 16) & 0xF) <= limit), dtype=np.bool_)


def flush_values(codes: npt.ArrayLike, *, check: bool = True) -> npt.NDArray[np.int64]:
    """High Card Flush values (``high_card_flush`` layout) of rows of 2 to 7 natural cards."""
    _, cols = _prepare(codes, sizes=tuple(range(2, 8)), game="high card flush", check=check)
    table = tables.hcf_table()
    return np.asarray(np.maximum.reduce([table[m] for m in _suit_masks(cols)]), dtype=np.int64)


def straight_flush_lengths(codes: npt.ArrayLike, *, joker: bool = False, check: bool = True) -> npt.NDArray[np.uint8]:
    """Longest straight flush of each row (High Card Flush § 678a.6(d)), ace high or low.

    With ``joker=True`` a row may hold the joker, which fills one gap or extends a run.
    """
    _, cols = _prepare(codes, sizes=tuple(range(2, 8)), game="straight flush", jokers=int(joker), check=check)
    masks = _suit_masks(cols)
    lengths = np.maximum.reduce([tables.straight_length_table()[m] for m in masks])
    if joker:
        has_joker = np.logical_or.reduce([c == JOKER_CODE for c in cols])
        with_joker = np.maximum.reduce([tables.straight_length_table(1)[m] for m in masks])
        lengths = np.where(has_joker, with_joker, lengths)
    return np.asarray(lengths, dtype=np.uint8)


_NO_FACE = np.isin(_ALL >> 2, (9, 10, 11), invert=True) & (_ALL != JOKER_CODE)


def best_two_card_values(codes: npt.ArrayLike, *, check: bool = True) -> npt.NDArray[np.int8]:
    """Two Cards High: the best two-card value over qualifying sets of each five-card row, -1 if none."""
    hands = as_codes(codes, sizes=(5,), game="two cards high", check=check, deck=_NO_FACE)
    counts = _COUNT[hands].astype(np.int16)
    pair_table = tables.two_card_table()
    best = np.full(len(hands), -1, dtype=np.int8)
    for trio in combinations(range(5), 3):
        a, b = (i for i in range(5) if i not in trio)
        qualifies = counts[:, list(trio)].sum(axis=1) % 10 == 0
        value = pair_table[10 * counts[:, a] + counts[:, b]]
        best = np.maximum(best, np.where(qualifies, value, -1).astype(np.int8))
    return best


def side_wager_values(codes: npt.ArrayLike, *, check: bool = True) -> Values:
    """Two Cards High side-wager values (``five_card`` layout, aces low only) of five-card rows."""
    _, cols = _prepare(codes, sizes=(5,), game="two cards high", check=check, deck=_NO_FACE)
    suited = np.logical_and.reduce([(c & 3) == (cols[0] & 3) for c in cols])
    cols = _sorted_columns([_COUNT[c] - 1 for c in cols])
    offset = suited.astype(np.int32) * comb(tables.SYMBOLS + 4, 5)
    return np.asarray(tables.side_wager_table()[_index(cols, 5) + offset], dtype=np.int32)


def _omaha_rows(hole: npt.ArrayLike, board: npt.ArrayLike) -> list[Codes]:
    holes = np.asarray(hole)
    boards = np.asarray(board)
    if holes.ndim != 2 or boards.ndim != 2 or len(holes) != len(boards):
        raise InvalidHand(f"omaha: hole and board must be 2-D arrays with one row per hand, got {holes.shape} "
                          f"and {boards.shape}")
    if holes.shape[1] < 2 or boards.shape[1] < 3:
        raise InvalidHand(f"omaha: need at least two hole cards and three board cards, got {holes.shape[1]} "
                          f"and {boards.shape[1]}")
    as_codes(np.hstack([holes, boards]), sizes=tuple(range(5, 12)), game="omaha", jokers=1)
    return [np.hstack([holes[:, list(two)], boards[:, list(three)]]).astype(np.uint8)
            for two in combinations(range(holes.shape[1]), 2)
            for three in combinations(range(boards.shape[1]), 3)]


def omaha_high_values(hole: npt.ArrayLike, board: npt.ArrayLike) -> Values:
    """Best high value using exactly two hole cards and three board cards, per row."""
    best = np.zeros(len(np.asarray(hole)), dtype=np.int32)
    for rows in _omaha_rows(hole, board):
        best = np.maximum(best, high_values(rows, check=False))
    return best


def omaha_low_values(hole: npt.ArrayLike, board: npt.ArrayLike, *, qualifier: int | None = 8) -> Values:
    """Best low value (two hole plus three board cards) per row; 0 where no hand qualifies."""
    best = np.zeros(len(np.asarray(hole)), dtype=np.int32)
    for rows in _omaha_rows(hole, board):
        values = low_values(rows, check=False)
        if qualifier is not None:
            values = np.where(low_qualifies(values, qualifier), values, 0)
        best = np.maximum(best, values)
    return best
