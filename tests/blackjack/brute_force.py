"""Every round a tiny shoe can deal, played through the real game rules: an independent exact expected value.

The analysis (``controller.rules.blackjack.analysis``) reasons about classes of cards,
reorders draws by exchangeability and weights resplit patterns; none of that
is used here. This walks the game's own ``new_hand`` / ``next_target`` /
``place`` / ``pending_decision`` / ``strategy`` / ``decide`` / ``reveal`` /
``settle``, branching on every card the shoe can give next with its exact
chance, so it can only be run on shoes of a dozen cards or so.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from controller.cards import Card
from controller.money import Rounding
from controller.rules.blackjack.play import BlackjackGame
from controller.rules.blackjack.state import BlackjackRound

STAKE = 1000


def with_deck(game: BlackjackGame, cards: Sequence[Card]) -> BlackjackGame:
    """The game playing from exactly ``cards`` (its strategy computed for them too)."""
    deck = tuple(cards)
    game.deck = lambda: deck  # type: ignore[method-assign]
    game._cards = frozenset(deck)
    return game


def exact_ev(game: BlackjackGame) -> Fraction:
    """The base wager's expected value per unit, one seat, the first round off the top of ``game.deck()``."""
    pd = game.player_dealer
    seat = pd % game.rotation.total_seats + 1
    wagers = {(seat, "base"): STAKE, (pd, "bank"): 1000 * STAKE}
    state = game.new_hand([seat, pd], wagers)
    counts = Counter(game.deck())
    return _walk(game, seat, state, wagers, counts, sum(counts.values())) / STAKE


def _walk(game: BlackjackGame, seat: int, state: BlackjackRound, wagers: dict[tuple[int, str], int],
          counts: Counter[Card], left: int) -> Fraction:
    while True:
        target = game.next_target(state)
        if target is not None:
            if not left:
                raise ValueError("the shoe ran out of cards: use a larger one")
            value = Fraction(0)
            for card, n in counts.items():
                if not n:
                    continue
                branch = copy.deepcopy(state)
                game.place(branch, target, card)
                rest = counts.copy()
                rest[card] -= 1
                value += Fraction(n, left) * _walk(game, seat, branch, dict(wagers), rest, left - 1)
            return value
        pending = game.pending_decision(state)
        if pending is not None:
            decision = game.strategy(state, pending, wagers)
            for change in game.decide(state, decision, wagers):
                key = (change.spot, change.wager)
                wagers[key] = wagers.get(key, 0) + change.amount
        elif not state.revealed:
            game.reveal(state)
        else:
            return Fraction(sum(r.returned - r.stake for r in game.settle(state, wagers, Rounding.PLAYER)
                                if r.spot == seat))
