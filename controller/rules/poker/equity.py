"""Exact all-in equities for hold'em and Omaha hi-lo (with or without the joker), by enumerating every board.

Given every player's hole cards, the board so far and any dead cards, every
completion of the board from the remaining deck is dealt once (exact, not
sampled) and evaluated with the shared batch evaluators. A player's equity is
the share of the pot he takes on average: on a board where a low qualifies,
half to the high hand(s) and half to the low hand(s), split equally between
tied hands; otherwise the whole pot to the high hand(s) (seed 003 Omaha Hi-Low
rules 3, 12, 13). Shares are exact fractions; the odd chip is not modelled.

>>> from controller.cards import parse_cards
>>> result = equities("holdem", [parse_cards("AS AH"), parse_cards("KS KH")], parse_cards("2C 7D 9H QS"))
>>> result.boards, [str(p.equity) for p in result.players]
(44, ['21/22', '1/22'])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from controller.cards import Card, deck_with_joker, standard_deck
from controller.rules.evaluators.batch import high_values, omaha_high_values, omaha_low_values
from controller.rules.evaluators.combos import iter_combinations
from controller.rules.evaluators.encoding import encode

__all__ = ["GAMES", "PlayerEquity", "Equities", "equities", "boards_to_deal"]

GAMES = ("holdem", "omaha-hi-lo")
BOARD = 5


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    hole: tuple[Card, ...]
    high: Fraction
    """Average share of the high half (of the whole pot when no low qualifies), over all boards."""
    low: Fraction
    """Average share of the low half, over all boards (zero in hold'em)."""
    equity: Fraction
    """Average share of the whole pot."""


@dataclass(frozen=True, slots=True)
class Equities:
    game: str
    joker: bool
    board: tuple[Card, ...]
    boards: int
    """How many board completions were dealt."""
    low_boards: int
    """On how many of them a low qualified."""
    players: tuple[PlayerEquity, ...]


def _check(game: str, holes: Sequence[Sequence[Card]], board: Sequence[Card], dead: Sequence[Card], joker: bool) -> None:
    if game not in GAMES:
        raise ValueError(f"no equities for {game!r}: expected one of {', '.join(GAMES)}")
    if joker and game != "omaha-hi-lo":
        raise ValueError("only Omaha hi-lo is dealt with the joker")
    size = 2 if game == "holdem" else 4
    if len(holes) < 2 or any(len(h) != size for h in holes):
        raise ValueError(f"{game}: give two or more players, {size} hole cards each")
    if len(board) > BOARD or len(board) in (1, 2):
        raise ValueError(f"the board holds 0, 3, 4 or 5 cards, not {len(board)}")
    known = [c for h in holes for c in h] + list(board) + list(dead)
    deck = set(deck_with_joker() if joker else standard_deck())
    for card in known:
        if card not in deck:
            raise ValueError(f"{card} is not in the {'53' if joker else '52'}-card deck")
    repeated = sorted({c.code for c in known if known.count(c) > 1})
    if repeated:
        raise ValueError(f"cards named twice: {' '.join(repeated)}")


def _boards(board: Sequence[Card], rest: npt.NDArray[np.uint8], chunk_rows: int) -> Iterator[npt.NDArray[np.uint8]]:
    """Every completion of ``board`` from ``rest``, as chunks of five-card rows."""
    missing = BOARD - len(board)
    known = encode(board)
    if missing == 0:
        yield known[None, :]
        return
    prefix = 1 if missing == BOARD else 0  # chunks of at most C(52, 4) rows, few enough calls to keep numpy busy
    for picks in iter_combinations(len(rest), missing, prefix=prefix):
        for start in range(0, len(picks), chunk_rows):
            drawn = rest[picks[start:start + chunk_rows]]
            yield np.hstack([np.broadcast_to(known, (len(drawn), len(known))), drawn]).astype(np.uint8)


def _shares(values: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_]) -> list[Fraction]:
    """Per player, the sum over boards in ``mask`` of his share of the best value (ties split)."""
    best = values.max(axis=0)
    winners = (values == best) & mask & (best > 0)
    count = winners.sum(axis=0)
    out = []
    for row in winners:
        total = Fraction(0)
        for ties in range(1, len(values) + 1):
            hits = int((row & (count == ties)).sum())
            if hits:
                total += Fraction(hits, ties)
        out.append(total)
    return out


def equities(game: str, holes: Sequence[Sequence[Card]], board: Sequence[Card] = (), *,
             dead: Sequence[Card] = (), joker: bool = False, chunk_rows: int = 200_000,
             advance: Callable[[int], None] | None = None) -> Equities:
    """Exact equities of each player all-in now. ``ValueError`` names any bad input.

    ``advance`` (a progress bar's) is called with the number of boards of each chunk dealt; they add
    up to ``boards_to_deal(...)``."""
    _check(game, holes, board, dead, joker)
    known = {c for h in holes for c in h} | set(board) | set(dead)
    rest = encode([c for c in (deck_with_joker() if joker else standard_deck()) if c not in known])
    hole_codes = [encode(h) for h in holes]
    high = [Fraction(0)] * len(holes)
    low = [Fraction(0)] * len(holes)
    pot = [Fraction(0)] * len(holes)
    boards = low_boards = 0
    for rows in _boards(board, rest, chunk_rows):
        n = len(rows)
        held = np.vstack([np.broadcast_to(h, (n, len(h))) for h in hole_codes])
        boards_all = np.tile(rows, (len(holes), 1))
        highs = _high(game, held, boards_all).astype(np.int64).reshape(len(holes), n)
        lows = (omaha_low_values(held, boards_all).astype(np.int64).reshape(len(holes), n)
                if game == "omaha-hi-lo" else np.zeros_like(highs))
        split = lows.max(axis=0) > 0
        everywhere = np.ones(n, dtype=bool)
        high_all, high_split, low_split = _shares(highs, everywhere), _shares(highs, split), _shares(lows, split)
        for i in range(len(holes)):
            high[i] += high_all[i]
            low[i] += low_split[i]
            pot[i] += high_all[i] - high_split[i] / 2 + low_split[i] / 2
        boards += n
        low_boards += int(split.sum())
        if advance is not None:
            advance(n)
    players = tuple(PlayerEquity(tuple(h), high[i] / boards, low[i] / boards, pot[i] / boards) for i, h in enumerate(holes))
    return Equities(game, joker, tuple(board), boards, low_boards, players)


def boards_to_deal(holes: Sequence[Sequence[Card]], board: Sequence[Card] = (), *, dead: Sequence[Card] = (),
                   joker: bool = False) -> int:
    """How many completions of the board ``equities`` deals for these cards (what its ``advance`` adds up to)."""
    known = {c for h in holes for c in h} | set(board) | set(dead)
    left = len(deck_with_joker() if joker else standard_deck()) - len(known)
    return math.comb(left, max(BOARD - len(board), 0))


def _high(game: str, held: npt.NDArray[np.uint8], rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.int32]:
    """High values of every player's hole cards (stacked rows) with the matching boards, in one batch call."""
    if game == "holdem":
        return high_values(np.hstack([held, rows]), check=False)
    return omaha_high_values(held, rows)
