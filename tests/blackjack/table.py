"""Scripted rounds of the blackjack games on the real round engine and an in-memory log.

The player-dealer sits at seat 8 unless a test says otherwise, so seats 1 to 7 are
the players in dealing order and the action button's count names the seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from controller.cards import parse_cards
from controller.engine.round import Limits, Round
from controller.money import Rounding
from controller.rules.base import Decision
from controller.rules.registry import make_game
from tests.helpers import MemoryLog

LIMITS = {"base": (500, 100000), "bonus": (100, 2500), "buster": (100, 10000), "bank": (100, 100000)}
PD = 8


def new_round(game_id: str, log: MemoryLog | None = None, **options: Any) -> Round:
    options.setdefault("player_dealer_seat", PD)
    return Round("R1", make_game(game_id, options), log or MemoryLog(), spots=8, limits=Limits(LIMITS),
                 rounding=Rounding.PLAYER)


def play(game_id: str, wagers: Mapping[tuple[int, str], int], cards: str,
         decisions: Iterable[tuple[int, str] | tuple[int, str, int] | Decision] = (), *,
         log: MemoryLog | None = None, stop_at_decision: bool = False, bank: int = 100000,
         **options: Any) -> Round:
    """Deal ``cards`` in order and take ``decisions`` in order, as the engine asks for them."""
    round = new_round(game_id, log, **options)
    round.start()
    round.place_wager(round.game.player_dealer, "bank", bank)
    for (spot, name), amount in wagers.items():
        round.place_wager(spot, name, amount)
    round.close_betting()
    deck = list(parse_cards(cards))
    script = [d if isinstance(d, Decision) else Decision(d[0], d[1], hand=d[2] if len(d) > 2 else 0)
              for d in decisions]
    while round.state not in ("complete", "hold", "void"):
        if round.card_target() is not None:
            if not deck:
                raise AssertionError(f"the round wants a card at {round.card_target()} but the script has none")
            round.card(deck.pop(0), "console")
        elif round.pending_decision() is not None:
            if not script:
                if stop_at_decision:
                    return round
                raise AssertionError(f"the round waits for {round.pending_decision()} but the script has none")
            round.decide(script.pop(0))
        else:
            raise AssertionError(f"round stuck in {round.state}")
    assert not deck and not script, f"left over: cards {deck}, decisions {script}"
    return round


def returned(round: Round) -> dict[tuple[int, str], int]:
    """What each of the players' wagers returned (the player-dealer's bank left out)."""
    out: dict[tuple[int, str], int] = {}
    for s in round.settlements:
        if s.wager == "bank":
            continue
        out[(s.spot, s.wager)] = out.get((s.spot, s.wager), 0) + s.returned
    return out


def order(round: Round) -> list[tuple[int, str]]:
    return [(s.spot, s.wager) for s in round.settlements if s.wager != "bank"]
