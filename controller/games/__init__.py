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
from controller.games.base import Game

GAMES: dict[str, str] = {
    "top-card": "controller.games.top_card",
    "top-5-poker": "controller.games.top_5_poker",
    "high-card-flush": "controller.games.high_card_flush",
    "three-card-poker": "controller.games.three_card_poker",
    "two-cards-high": "controller.games.two_cards_high",
    "double-hand-poker": "controller.games.double_hand_poker",
    "fortune-pai-gow": "controller.games.fortune_pai_gow",
    "pai-gow-tiles": "controller.games.pai_gow_tiles",
    "no-bust-21": "controller.games.no_bust_21",
    "pure-21-5": "controller.games.pure_21_5",
    "lowball": "controller.games.lowball",
    "holdem": "controller.games.holdem",
    "omaha-hi-lo": "controller.games.omaha_hi_lo",
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
