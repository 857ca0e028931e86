"""Expected value and house edge of every wager, per pay table: ``tablectl edge GAME --json``.

The JSON shape is the contract every game follows::

    [{"game": ID, "paytable": NAME,
      "wagers": {WAGER: {"ev": float, "house_edge": float, "exact": "p/q" | null,
                         "method": "exact" | "simulation", "stderr": float | null,
                         "assumptions": str}}}]

``ev`` is per unit wagered; ``house_edge`` is ``-ev``. Each game's edge module (``EDGES``, in its family folder)
exposes ``paytables()`` and ``edges(paytable) -> dict[str, WagerEdge]``.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from controller.errors import GameNotAvailable
from controller.money import Cents, format_cents
from controller.rules.fees import FeeSchedule

EDGES: dict[str, str] = {
    "top-card": "controller.rules.top_card.edge",
    "top-5-poker": "controller.rules.top_5_poker.edge",
    "high-card-flush": "controller.rules.high_card_flush.edge",
    "no-bust-21": "controller.rules.blackjack.no_bust_21_edge",
    "pure-21-5": "controller.rules.blackjack.pure_21_5_edge",
    "three-card-poker": "controller.rules.three_card_poker.edge",
    "double-hand-poker": "controller.rules.pai_gow_poker.double_hand_poker_edge",
    "fortune-pai-gow": "controller.rules.pai_gow_poker.fortune_pai_gow_edge",
    "two-cards-high": "controller.rules.two_cards_high.edge",
    "pai-gow-tiles": "controller.rules.pai_gow_tiles.edge",
}


@dataclass(frozen=True, slots=True)
class WagerEdge:
    """The expected value of one wager per unit staked."""

    ev: Fraction | float
    method: str
    assumptions: str
    stderr: float | None = None

    def as_json(self) -> dict[str, Any]:
        exact = self.ev if isinstance(self.ev, Fraction) and self.method == "exact" else None
        return {
            "ev": float(self.ev),
            "house_edge": -float(self.ev),
            "exact": f"{exact.numerator}/{exact.denominator}" if exact is not None else None,
            "method": self.method,
            "stderr": self.stderr,
            "assumptions": self.assumptions,
        }


def with_collection_fee(edge: WagerEdge, schedule: FeeSchedule, wager: Cents) -> WagerEdge:
    """The wager's edge with the posted collection fee, paid before the deal win or lose, as a cost of it."""
    fee = schedule.fee(wager)
    cost = Fraction(fee, wager)
    ev: Fraction | float = edge.ev - cost if isinstance(edge.ev, Fraction) else edge.ev - float(cost)
    return WagerEdge(ev=ev, method=edge.method, stderr=edge.stderr, assumptions=(
        f"{edge.assumptions}; plus the posted collection fee ({schedule.name}) of {format_cents(fee)} on a "
        f"{format_cents(wager)} wager, paid win or lose"))


def _module(game_id: str) -> Any:
    try:
        return importlib.import_module(EDGES[game_id])
    except KeyError:
        raise GameNotAvailable(f"no edge calculation for {game_id!r}: available for {', '.join(EDGES)}") from None


def paytables(game_id: str) -> list[str]:
    names: list[str] = _module(game_id).paytables()
    return names


def paytable_for(game_id: str, options: Mapping[str, Any]) -> str | None:
    """The pay table (one of ``paytables(game_id)``) a round was played under, from the options its ``round_started``
    record journals; ``None`` for a game without edges here, or options that match none of its pay tables.

    A game whose pay tables are options set to given values says so (``paytable_options()``: each pay table's
    options); the pay table whose options the round's all match is it (the most particular one, where one's are a
    part of another's: no-bust-21's ``seed`` sets none). Otherwise a game's ``paytable`` option names it, or the
    game has one pay table.
    """
    if game_id not in EDGES:
        return None
    module = _module(game_id)
    names = paytables(game_id)
    if hasattr(module, "paytable_options"):
        variants: dict[str, dict[str, Any]] = module.paytable_options()
        matching = [name for name, settings in variants.items() if all(options.get(k) == v for k, v in settings.items())]
        if not matching:
            return None
        most = max(len(variants[name]) for name in matching)
        best = [name for name in matching if len(variants[name]) == most]
        return best[0] if len(best) == 1 else None
    if options.get("paytable") in names:
        return str(options["paytable"])
    return names[0] if len(names) == 1 else None


def compute(game_id: str, paytable: str | None = None, advance: Callable[[int], None] | None = None, *,
            fast: bool = False) -> list[dict[str, Any]]:
    """Every pay table's edges (or ``paytable``'s); ``advance`` is called once per pay table done.

    ``fast`` asks the games whose exact figure takes a second pass (the blackjack base games' exact
    fractions) for their float64 figure only, for sweeps; the others ignore it.
    """
    names = selected_paytables(game_id, paytable)
    module = _module(game_id)
    options = {"mode": "fast"} if fast and "mode" in inspect.signature(module.edges).parameters else {}
    out = []
    for name in names:
        out.append({"game": game_id, "paytable": name,
                    "wagers": {w: e.as_json() for w, e in module.edges(name, **options).items()}})
        if advance is not None:
            advance(1)
    return out


def table_edges(game: Any, *, fast: bool = False,
                limits: Mapping[str, tuple[int, int]] | None = None) -> dict[str, Any] | None:
    """A table's edges (``tablectl edge --config``): every wager under the game options its config sets (a six-deck
    No Bust 21 rather than the eight decks of the game's pay tables), or its configured pay table's figures where the
    pay table is all the options change. ``None`` for a game that computes neither (its pay tables are then shown).

    ``limits`` are the table's posted limits, for a game whose figures depend on the stake (``edges_of(game,
    limits=...)``). A game module's ``not_reflected(game)`` lists, in a manager's words, the settings of the table
    its figures leave out: they go under ``"not_reflected"``."""
    module = _module(game.id)
    if hasattr(module, "edges_of"):
        parameters = inspect.signature(module.edges_of).parameters
        options: dict[str, Any] = {"mode": "fast"} if fast and "mode" in parameters else {}
        if "limits" in parameters:
            options["limits"] = limits
        wagers = module.edges_of(game, **options)
    elif hasattr(module, "paytable_of"):
        (table,) = compute(game.id, module.paytable_of(game.options), fast=fast)
        return {**table, "options": dict(game.options)}
    else:
        return None
    table = {"game": game.id, "paytable": module.paytable_of(game.options), "options": dict(game.options),
             "wagers": {w: e.as_json() for w, e in wagers.items()}}
    if hasattr(module, "not_reflected"):
        table["not_reflected"] = module.not_reflected(game)
    return table


def selected_paytables(game_id: str, paytable: str | None = None) -> list[str]:
    """The pay tables ``compute`` works through: all the game's, or the one named (refused by name if unknown)."""
    names = paytables(game_id)
    if paytable is not None:
        if paytable not in names:
            raise GameNotAvailable(f"{game_id} has no pay table {paytable!r}: expected one of {', '.join(names)}")
        names = [paytable]
    return names
