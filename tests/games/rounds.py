"""Building and playing one round of a game with chosen cards, for the game tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from controller.cards import Card, parse_cards
from controller.engine.round import Limits, Round
from controller.money import Rounding
from controller.rules.base import Decision
from controller.rules.registry import make_game
from tests.helpers import MemoryLog


def new_round(game_id: str, options: Mapping[str, Any] | None = None, *, log: MemoryLog | None = None,
              rounding: Rounding = Rounding.PLAYER) -> Round:
    game = make_game(game_id, options)
    limits = Limits(dict.fromkeys(game.wagers, (1, 10000000)))
    return Round("T-R1", game, log or MemoryLog(), spots=game.max_spots, limits=limits, rounding=rounding)


def deal(round: Round, wagers: Mapping[tuple[int, str], int], cards: str | Iterable[Card]) -> Round:
    """Open betting, place ``wagers``, close betting and feed ``cards`` in dealing order."""
    round.start()
    for (spot, name), amount in wagers.items():
        round.place_wager(spot, name, amount)
    round.close_betting()
    for card in parse_cards(cards) if isinstance(cards, str) else cards:
        round.card(card)
    return round


def decide(round: Round, spot: int, action: str, cards: str = "", amount: int | None = None) -> None:
    round.decide(Decision(spot, action, amount, tuple(parse_cards(cards)) if cards else ()))


def returned(round: Round) -> dict[tuple[int, str], int]:
    return {(s.spot, s.wager): s.returned for s in round.settlements}
