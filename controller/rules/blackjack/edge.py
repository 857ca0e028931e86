"""Edges shared by the California blackjack games: the side wagers exactly, the base game by simulation.

Why the side wagers are exact over the full shoe: whether a card goes to the
player-dealer is decided before it is seen, so the player-dealer's cards are a
predictable sampling of the shuffled shoe and have the law of cards drawn from
a full shoe, whatever the other seats do (Kallenberg's predictable sampling
theorem for exchangeable sequences). The same holds for the first two cards of
a seat. So the Blackjack Bonus Bet is exact over ordered pairs of the full
shoe's cards (with the player-dealer's first two cards from what remains), and
the Buster Bet exact over the player-dealer's draws from the full shoe. Burn
cards and the cut card change nothing (a round never runs out of cards).

The base game is played by the game's own rules and strategy on a finite
shoe, one seat, reshuffled when one deck is left: its edge is a simulation
with a stated standard error.
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from fractions import Fraction

from controller.cards import Card
from controller.money import Rounding
from controller.rules.base import Decision
from controller.rules.blackjack.play import BlackjackGame
from controller.rules.blackjack.side_wagers import KING_OF_SPADES, bonus_bet_payout
from controller.rules.blackjack.totals import points
from controller.rules.edges import WagerEdge

SIMULATED_ROUNDS = 100_000
STAKE = 1000


def bonus_bet_edge(game: BlackjackGame) -> WagerEdge:
    """Exact: the player's first two cards and, for the top row, the player-dealer's first two."""
    counts = Counter(game.deck())
    n = sum(counts.values())
    ev = Fraction(0)
    for a, na in counts.items():
        for b, nb in counts.items():
            ways = na * (nb - (a is b))
            if not ways:
                continue
            p = Fraction(ways, n * (n - 1))
            blackjack = _dealer_blackjack_chance(game, counts - Counter((a, b)), n - 2) \
                if a is b is KING_OF_SPADES else Fraction(0)
            for dealer_bj, q in ((True, blackjack), (False, 1 - blackjack)):
                if q:
                    row = game.bonus_paytable.row((a, b), dealer_blackjack=dealer_bj)
                    ev += p * q * bonus_bet_payout(game.bonus_paytable, row).odds
    return WagerEdge(ev=ev, method="exact", assumptions=f"{_shoe(game)}; the seat's first two cards and the "
                     "player-dealer's first two are a predictable sampling of the full shoe")


def _dealer_blackjack_chance(game: BlackjackGame, left: Counter[Card], n: int) -> Fraction:
    ways = sum(na * (nb - (a is b)) for a, na in left.items() for b, nb in left.items()
               if game.dealer_blackjack((a, b)))
    return Fraction(ways, n * (n - 1))


def buster_edge(game: BlackjackGame) -> WagerEdge:
    """Exact: every way the player-dealer's hand can be drawn from the full shoe, by the drawing rule."""
    by_value: Counter[Card] = Counter()
    first: dict[tuple[int, bool], Card] = {}
    for card in game.deck():
        by_value[first.setdefault((points(card), card.is_joker), card)] += 1
    size = sum(by_value.values())

    @functools.cache
    def value(hand: tuple[Card, ...]) -> Fraction:
        """The Buster Bet's expected winnings from a player-dealer hand (a sorted multiset) onwards."""
        if not game.dealer_draws_on(hand):
            over = game.dealer_over(game.total(hand, initial=len(hand) == 2))
            return game.buster_paytable.payout(len(hand)).odds if over else Fraction(-1)
        used = Counter(hand)
        return sum((Fraction(count - used[card], size - len(hand)) * value(tuple(sorted((*hand, card))))
                    for card, count in by_value.items() if count > used[card]), Fraction(0))

    return WagerEdge(ev=value(()), method="exact", assumptions=f"{_shoe(game)}; the player-dealer's cards are a "
                     "predictable sampling of the full shoe; pay table " + game.buster_paytable.name)


def base_edge(game: BlackjackGame, rounds: int = SIMULATED_ROUNDS, seed: int = 2026) -> WagerEdge:
    """Simulated: one seat playing ``game.strategy`` on a finite shoe; per unit of the initial wager."""
    rng = random.Random(seed)
    deck = list(game.deck())
    shoe: list[Card] = []
    total = squares = 0.0
    for _ in range(rounds):
        if len(shoe) < len(deck) // game.decks:
            shoe = deck[:]
            rng.shuffle(shoe)
        net = _play_one(game, shoe) / STAKE
        total += net
        squares += net * net
    mean = total / rounds
    stderr = math.sqrt((squares / rounds - mean * mean) / (rounds - 1))
    return WagerEdge(ev=mean, method="simulation", stderr=stderr, assumptions=(
        f"{_shoe(game)}, reshuffled with one deck left; one seat, {rounds} rounds (seed {seed}); decisions by "
        "the infinite-shoe strategy; insurance declined; the player-dealer's bank always covers; "
        f"the same strategy on an infinite shoe is worth {game.advisor.game_value():+.5f} per unit"))


def edges_for(game: BlackjackGame) -> dict[str, WagerEdge]:
    """Every wager of a blackjack game: base (simulated), bonus and buster (exact)."""
    return {"base": base_edge(game), "bonus": bonus_bet_edge(game), "buster": buster_edge(game)}


def _play_one(game: BlackjackGame, shoe: list[Card]) -> int:
    pd = game.player_dealer
    seat = pd % game.rotation.total_seats + 1
    wagers = {(seat, "base"): STAKE, (pd, "bank"): 100 * STAKE}
    state = game.new_hand([seat, pd], wagers)
    while True:
        target = game.next_target(state)
        if target is not None:
            game.place(state, target, shoe.pop())
            continue
        pending = game.pending_decision(state)
        if pending is not None:
            decision: Decision = game.strategy(state, pending, wagers)
            for change in game.decide(state, decision, wagers):
                wagers[(change.spot, change.wager)] = wagers.get((change.spot, change.wager), 0) + change.amount
        elif not state.revealed:
            game.reveal(state)
        else:
            return sum(r.returned - r.stake for r in game.settle(state, wagers, Rounding.PLAYER) if r.spot == seat)


def _shoe(game: BlackjackGame) -> str:
    jokers = f" with {game.jokers_per_deck} joker per deck" if game.jokers_per_deck else ""
    return f"{game.decks} {game.deck_kind} decks{jokers}"
