"""Top Card's exact edges from the shoe's composition.

The Home and Away cards are the first two cards after the burn. By symmetry
of a shuffled shoe, the burned card changes no probability, so the edge is
computed over ordered pairs of distinct cards of the full eight-deck shoe,
grouped by rank: P(ranks a, b) = n_a (n_b - [a = b]) / (N (N - 1)).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from controller.cards import Card
from controller.rules.edges import WagerEdge
from controller.rules.top_card.game import PAYTABLES, TopCard, TopCardHand

ASSUMPTIONS = "eight 52-card decks, Home and Away are the first two cards after the burn; burns change no probability"


def paytables() -> list[str]:
    return list(PAYTABLES)


def result_probabilities(cards: tuple[Card, ...]) -> dict[str, Fraction]:
    """P(home), P(away), P(tie) for the first two cards of a shuffled ``cards``."""
    by_rank = Counter(c.rank for c in cards)
    n = len(cards)
    pairs = n * (n - 1)
    counts: Counter[str] = Counter()
    for a, na in by_rank.items():
        for b, nb in by_rank.items():
            ways = na * (nb - (a == b))
            counts["tie" if a == b else "home" if a > b else "away"] += ways
    return {k: Fraction(v, pairs) for k, v in counts.items()}


def edges(paytable: str) -> dict[str, WagerEdge]:
    game = TopCard({"paytable": paytable})
    probs = result_probabilities(game.deck())
    return {
        wager: WagerEdge(
            ev=sum((p * game.payout(wager, result).odds for result, p in probs.items()), Fraction(0)),
            method="exact",
            assumptions=ASSUMPTIONS,
        )
        for wager in game.wagers
    }


__all__ = ["edges", "paytables", "result_probabilities", "TopCardHand"]


def paytable_of(options: Mapping[str, Any]) -> str:
    """The pay table a table's game options name (``tablectl edge --config``)."""
    return str(options.get("paytable", "standard"))
