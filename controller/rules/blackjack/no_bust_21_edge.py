"""No Bust 21st Century Blackjack's edges: every wager exact (``blackjack.edge``).

A "pay table" here is a set of the game's rule options: ``seed`` as rules-notes
reads the seed (a plain total over 21 is over), ``plain-22-under`` with a plain
22 counted under a Natural 22.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.rules.blackjack.edge import edges_for
from controller.rules.blackjack.no_bust_21 import NoBust21
from controller.rules.edges import WagerEdge

VARIANTS: dict[str, dict[str, Any]] = {"seed": {}, "plain-22-under": {"over_above": 22}}


def paytables() -> list[str]:
    return list(VARIANTS)


def paytable_options() -> dict[str, dict[str, Any]]:
    """Each variant as a table's options name it (``edges.paytable_for``)."""
    return {name: dict(settings) for name, settings in VARIANTS.items()}


def edges(paytable: str, mode: str = "exact") -> dict[str, WagerEdge]:
    """Every wager under the variant's rules; ``mode="fast"`` computes the base game in float64 (sweeps)."""
    return edges_for(NoBust21(VARIANTS[paytable]), mode)


def paytable_of(options: Mapping[str, Any]) -> str:
    """The variant a table's game options come under (its other options, the decks among them, may differ)."""
    return "plain-22-under" if options.get("over_above") == 22 else "seed"


def edges_of(game: NoBust21, mode: str = "exact") -> dict[str, WagerEdge]:
    """Every wager under a table's own game options (``tablectl edge --config``): its decks, seats and rules."""
    return edges_for(game, mode)
