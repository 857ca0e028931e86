"""Builders for poker tests: a round of a poker game on an in-memory log, cards and actions fed by hand."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from controller.cards import parse_cards
from controller.engine.round import Limits, Round
from controller.events import FeeCollected, WagerPlaced, WagerSettled
from controller.rules.base import Decision
from controller.rules.registry import make_game
from tests.helpers import MemoryLog


def poker_round(game: Any, *seats: int, log: MemoryLog | None = None, round_id: str = "P-1") -> Round:
    """A round of ``game`` (an id or a game object) with ``seats`` sat in and betting closed."""
    game = make_game(game) if isinstance(game, str) else game
    round = Round(round_id, game, log or MemoryLog(), spots=game.max_spots, limits=Limits({}))
    round.start()
    for seat in seats:
        round.sit(seat)
    round.close_betting()
    return round


def deal(round: Round, cards: str) -> list[str]:
    """Feed ``cards`` one at a time while the round wants a card; return where each went."""
    targets = []
    for card in parse_cards(cards.split()):
        targets.append(round.card(card, "test"))
    return targets


def act(round: Round, *actions: tuple[Any, ...]) -> None:
    """Decisions as (seat, action) or (seat, action, amount); each must be the one pending."""
    for seat, action, *amount in actions:
        round.decide(Decision(seat, action, amount[0] if amount else None))


def post_blinds(round: Round) -> None:
    while (pending := round.pending_decision()) is not None and pending.actions == ("post",):
        round.decide(Decision(pending.spot, "post"))


def check_down(round: Round) -> None:
    """Everyone calls or checks until a card is due or the round is over."""
    while (pending := round.pending_decision()) is not None:
        action = "check" if "check" in pending.actions else "call"
        round.decide(Decision(pending.spot, action))


def balance(log: MemoryLog) -> dict[str, tuple[int, int, int, int]]:
    """Per round: (chips placed, staked in settlements, returned, dropped from the pot)."""
    placed: dict[str, int] = defaultdict(int)
    staked: dict[str, int] = defaultdict(int)
    returned: dict[str, int] = defaultdict(int)
    dropped: dict[str, int] = defaultdict(int)
    for r in log.records():
        if r["event"] == WagerPlaced.EVENT:
            placed[r["round"]] += r["amount"]
        elif r["event"] == WagerSettled.EVENT:
            staked[r["round"]] += r["stake"]
            returned[r["round"]] += r["returned"]
        elif r["event"] == FeeCollected.EVENT and r.get("from_pot"):
            dropped[r["round"]] += r["amount"]
    return {k: (placed[k], staked[k], returned[k], dropped[k]) for k in staked}


def assert_conserved(log: MemoryLog) -> None:
    """Every hand: what was put in was settled, and what came back plus the drop is what was staked, to the cent."""
    for round_id, (placed, staked, returned, dropped) in balance(log).items():
        assert placed == staked, round_id
        assert returned + dropped == staked, round_id
