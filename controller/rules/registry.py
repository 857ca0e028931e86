"""The game registry: a game id, as written in config, CLI and logs, to the module that plays it.

Modules are imported lazily, so a table loads only its own game. Each module
exposes ``GAME``, its ``Game`` subclass.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from typing import Any

from controller.errors import GameNotAvailable
from controller.rules.base import Game

GAMES: dict[str, str] = {
    "top-card": "controller.rules.top_card.game",
    "top-5-poker": "controller.rules.top_5_poker.game",
    "high-card-flush": "controller.rules.high_card_flush.game",
    "three-card-poker": "controller.rules.three_card_poker.game",
    "two-cards-high": "controller.rules.two_cards_high.game",
    "double-hand-poker": "controller.rules.pai_gow_poker.double_hand_poker",
    "fortune-pai-gow": "controller.rules.pai_gow_poker.fortune_pai_gow",
    "pai-gow-tiles": "controller.rules.pai_gow_tiles.game",
    "no-bust-21": "controller.rules.blackjack.no_bust_21",
    "pure-21-5": "controller.rules.blackjack.pure_21_5",
    "lowball": "controller.rules.poker.lowball",
    "holdem": "controller.rules.poker.holdem",
    "omaha-hi-lo": "controller.rules.poker.omaha_hi_lo",
}


def game_class(game_id: str) -> type[Game[Any]]:
    try:
        module_name = GAMES[game_id]
    except KeyError:
        raise GameNotAvailable(f"unknown game {game_id!r}: expected one of {', '.join(GAMES)}") from None
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise GameNotAvailable(f"game {game_id!r} is not available in this build ({module_name} is missing)") from None
    cls: type[Game[Any]] = module.GAME
    return cls


def make_game(game_id: str, options: Mapping[str, Any] | None = None) -> Game[Any]:
    return game_class(game_id)(options)


def available_games() -> list[str]:
    """The game ids whose modules are present."""
    return [gid for gid, mod in GAMES.items() if importlib.util.find_spec(mod) is not None]
