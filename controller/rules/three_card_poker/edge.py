"""Three Card Poker (player-dealer) edges, exact over every pair of disjoint three-card hands.

The Ante (with its Play) is evaluated under optimal play. The player-dealer's
bottom card is turned up before the players decide (seed 003, Dealing
procedures 2a), so the decision is the player's three cards and that up card:
for each of the 22,100 player hands and each of the 49 up cards, Play is
chosen when its exact expectation over the 1,128 player-dealer hands holding
that up card beats folding (-1 Ante). The figure of a player who ignores the
up card (every hand against all 18,424 player-dealer hands; Q-6-4, the
simulated players' threshold) is given in the assumptions.
Hands are grouped by suit pattern (hands that differ only by a renaming of
suits have the same expectation), so the work is one vector pass per class.
The figures are the player's expectation against the player-dealer, with a
bank that covers every wager; the house takes only its fee.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from controller.rules.edges import WagerEdge
from controller.rules.evaluators.three_card import category3, describe3, value_of_ranks3
from controller.rules.three_card_poker.game import PAIR_PLUS, QUEEN_HIGH

ASSUMPTIONS = ("one 52-card deck; the player-dealer's bank covers every wager; Pair Plus independent of play")
ANTE_ASSUMPTIONS = ("one 52-card deck; the player-dealer's bank covers every wager; Ante+Play per unit Ante under "
                    "the optimal play/fold decision for each hand and the player-dealer's up card (turned up before "
                    "the players decide, seed 003 Dealing procedures 2a); a player who ignores the up card and plays "
                    "{threshold} or better loses {blind} of the Ante")


def paytables() -> list[str]:
    return list(PAIR_PLUS)


def _hands() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All 22,100 hands as card triples (code = suit * 13 + rank - 2), their values and card bitmasks."""
    combos = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    ranks, suits = combos % 13 + 2, combos // 13
    values = np.array(
        [value_of_ranks3(r.tolist(), flush=bool(s[0] == s[1] == s[2])) for r, s in zip(ranks, suits)],
        dtype=np.int64,
    )
    masks = np.bitwise_or.reduce(np.left_shift(np.int64(1), combos), axis=1)
    return combos, values, masks


def _suit_class(cards: np.ndarray) -> tuple[tuple[int, int], ...]:
    """Cards with suits renamed in order of first appearance: a key shared by suit-isomorphic hands."""
    rename: dict[int, int] = {}
    out = []
    for code in sorted(cards.tolist(), key=lambda c: (c % 13, c // 13)):
        suit = rename.setdefault(code // 13, len(rename))
        out.append((code % 13, suit))
    return tuple(out)


def _ante_edge() -> tuple[Fraction, int]:
    """The Ante+Play expectation per unit Ante under optimal play, and the lowest hand worth playing."""
    combos, values, masks = _hands()
    total = Fraction(0)
    classes: dict[tuple[tuple[int, int], ...], list[int]] = defaultdict(list)
    for i, cards in enumerate(combos):
        classes[_suit_class(cards)].append(i)
    qualifies = values >= QUEEN_HIGH
    threshold = None
    for members in classes.values():
        i = members[0]
        free = (masks & masks[i]) == 0
        v, q, mine = values[free], qualifies[free], values[i]
        play = Fraction(2 * int(np.count_nonzero(q & (v < mine))) - 2 * int(np.count_nonzero(q & (v > mine)))
                        + int(np.count_nonzero(~q & (v < mine))), int(free.sum()))
        if play > -1:
            threshold = int(mine) if threshold is None else min(threshold, int(mine))
        total += max(play, Fraction(-1)) * len(members)
    return total / len(combos), threshold if threshold is not None else 0


def _ante_edge_seeing_up_card() -> Fraction:
    """The Ante+Play expectation per unit Ante when the player decides on his hand and the up card."""
    combos, values, masks = _hands()
    incidence = np.zeros((len(combos), 52), dtype=np.int64)
    incidence[np.arange(len(combos))[:, None], combos] = 1
    classes: dict[tuple[tuple[int, int], ...], list[int]] = defaultdict(list)
    for i, cards in enumerate(combos):
        classes[_suit_class(cards)].append(i)
    qualifies = values >= QUEEN_HIGH
    total = 0
    for members in classes.values():
        i = members[0]
        free = (masks & masks[i]) == 0
        mine = values[i]
        outcome = np.where(qualifies, 2 * (values < mine) - 2 * (values > mine), (values < mine).astype(np.int64))
        returns = (outcome * free) @ incidence  # the Play outcomes summed over the dealer hands holding each card
        hands = free.astype(np.int64) @ incidence  # 1,128 for each of the 49 cards the player does not hold
        seen = hands > 0
        total += int(np.maximum(returns[seen], -hands[seen]).sum()) * len(members)
    return Fraction(total, len(combos) * 49 * 1128)


def optimal_play_threshold() -> int:
    """The lowest hand value for which playing beats folding."""
    return _ante_edge()[1]


def edges(paytable: str) -> dict[str, WagerEdge]:
    _, values, _ = _hands()
    table = PAIR_PLUS[paytable]
    pair_plus = Fraction(0)
    for value in values.tolist():
        pay = table.get(category3(value))
        pair_plus += pay.odds if pay else -1
    blind, threshold = _ante_edge()
    assumptions = ANTE_ASSUMPTIONS.format(threshold=describe3(threshold), blind=f"{float(-blind):.4%}")
    return {
        "ante": WagerEdge(ev=_ante_edge_seeing_up_card(), method="exact", assumptions=assumptions),
        "pair_plus": WagerEdge(ev=pair_plus / len(values), method="exact", assumptions=ASSUMPTIONS),
    }


__all__ = ["edges", "paytables", "optimal_play_threshold"]


def paytable_of(options: Mapping[str, Any]) -> str:
    """The pay table a table's game options name (``tablectl edge --config``)."""
    return str(options.get("pair_plus", "seed"))
