"""Pure 21.5 Blackjack's edges: every wager exact (``blackjack.edge``).

A "pay table" here is a set of the game's rule options: ``seed`` (players over
21.5 push against the player-dealer's 888, game rule 8a) and ``888-option``
(they win).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.rules.blackjack.edge import edges_for
from controller.rules.blackjack.pure_21_5 import Pure21_5
from controller.rules.edges import WagerEdge

VARIANTS: dict[str, dict[str, Any]] = {"seed": {}, "888-option": {"rule_888": "win"}}


def paytables() -> list[str]:
    return list(VARIANTS)


def paytable_options() -> dict[str, dict[str, Any]]:
    """Each variant as a table's options name it (``edges.paytable_for``)."""
    return {name: dict(settings) for name, settings in VARIANTS.items()}


def edges(paytable: str, mode: str = "exact") -> dict[str, WagerEdge]:
    """Every wager under the variant's rules; ``mode="fast"`` computes the base game in float64 (sweeps)."""
    return edges_for(Pure21_5(VARIANTS[paytable]), mode)


def paytable_of(options: Mapping[str, Any]) -> str:
    """The variant a table's game options come under (its other options, the decks among them, may differ)."""
    return "888-option" if options.get("rule_888") == "win" else "seed"


def edges_of(game: Pure21_5, mode: str = "exact") -> dict[str, WagerEdge]:
    """Every wager under a table's own game options (``tablectl edge --config``): its decks, seats and rules."""
    return edges_for(game, mode)
