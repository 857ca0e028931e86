"""Builders for pai gow rounds fed by hand: stacked piles, chosen dice, House Way everywhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.cards import Card, deck_with_joker, parse_cards
from controller.engine.round import Limits, Round
from controller.money import Rounding
from controller.rules.base import Decision
from controller.rules.registry import make_game
from tests.helpers import MemoryLog

LIMITS = {"bet": (1000, 50000), "fortune": (100, 2000), "bank": (500, 500000)}


def stacked_deck(hands: Mapping[int, str]) -> list[Card]:
    """49 cards: pile N holds the cards given for it, the other piles the rest of the deck in order."""
    fixed = {pile: parse_cards(text) for pile, text in hands.items()}
    used = {c for cards in fixed.values() for c in cards}
    if len(used) != sum(len(cards) for cards in fixed.values()):
        raise ValueError(f"the stacked hands repeat a card: {hands}")
    rest = [c for c in deck_with_joker() if c not in used]
    cards: list[Card] = []
    for pile in range(1, 8):
        cards += fixed.get(pile) or [rest.pop() for _ in range(7)]
    return cards


def new_round(game_id: str = "double-hand-poker", options: Mapping[str, Any] | None = None,
              wagers: Mapping[tuple[int, str], int] | None = None, log: MemoryLog | None = None, *,
              bank: int = 100000, game: Any = None, round_id: str = "T1-R1") -> Round:
    """A round past "no more bets": the given wagers, and the player-dealer's ``bank`` on its seat."""
    game = game or make_game(game_id, options)
    limits = {w: v for w, v in LIMITS.items() if w in game.wagers}
    round = Round(round_id, game, log or MemoryLog(), spots=7, limits=Limits(limits), rounding=Rounding.PLAYER)
    round.start()
    round.place_wager(game.player_dealer, "bank", bank)
    for (spot, wager), amount in (wagers or {(2, "bet"): 2000}).items():
        round.place_wager(spot, wager, amount)
    round.close_betting()
    return round


def deal(round: Round, cards: Sequence[Card]) -> None:
    for card in cards:
        round.card(card, "test")


def play_out(round: Round, *, first_pile: int = 1, dice: tuple[int, int, int] = (1, 1, 1)) -> None:
    """Pick the pile and roll the dice as given; everyone else decides as the simulated table does."""
    round.decide(Decision(round.hand.player_dealer, "first-pile", values=(first_pile,)))
    round.decide(Decision(round.hand.player_dealer, "dice", values=dice))
    while (pending := round.pending_decision()) is not None:
        round.decide(round.game.strategy(round.hand, pending, round.wagers))
