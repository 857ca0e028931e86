"""Edges shared by the California blackjack games: every wager exact.

Why the side wagers are exact over the full shoe: whether a card goes to the
player-dealer is decided before it is seen, so the player-dealer's cards are a
predictable sampling of the shuffled shoe and have the law of cards drawn from
a full shoe, whatever the other seats do (Kallenberg's predictable sampling
theorem for exchangeable sequences). The same holds for the first two cards of
a seat. So the Blackjack Bonus Bet is exact over ordered pairs of the full
shoe's cards (with the player-dealer's first two cards from what remains), and
the Buster Bet exact over the player-dealer's draws from the full shoe. Burn
cards and the cut card change nothing (a round never runs out of cards).

The base game: a composition-dependent combinatorial analysis of the game's
own rules and enforced decisions (``analysis``), exact as a fraction
(``mode="fast"``: float64, for sweeps). :func:`simulate_base` plays the same
rules and strategy round by round on a finite shoe, an independent check:
with one seat and a fixed strategy every round dealt before the reshuffle
has the law of the first round off the top (predictable sampling), so the
simulation estimates the same number.

Insurance and even money (Pure 21.5): the down card under the ace is, by the
same theorem, a card drawn from the shoe less the up card (and, for even
money, less the player's ace and Bonus card).
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from fractions import Fraction

from controller.cards import Card, Rank
from controller.money import Rounding
from controller.rules.base import Decision
from controller.rules.blackjack.analysis import Advance, analyse
from controller.rules.blackjack.play import INSURANCE_PAYS, BlackjackGame
from controller.rules.blackjack.pure_21_5 import Pure21_5
from controller.rules.blackjack.side_wagers import BONUS_PAYTABLES, KING_OF_SPADES, bonus_bet_payout
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
    return WagerEdge(ev=ev, method="exact", assumptions=(
        f"{_shoe(game)}; pay table {game.bonus_paytable.name}: {game.bonus_paytable.reading}; the seat's first two "
        "cards and the player-dealer's first two are a predictable sampling of the full shoe"))


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


def base_edge(game: BlackjackGame, mode: str = "exact", advance: Advance | None = None) -> WagerEdge:
    """The base wager per unit of the initial wager, by the combinatorial analysis (``analysis.analyse``)."""
    result = analyse(game, mode, advance)
    apart = (f"; of which {result.player_dealer_pure_apart:+.6f} from the player-dealer's Pure 21.5 Blackjacks "
             "settled before anyone acts" if result.player_dealer_pure_apart else "")
    return WagerEdge(ev=result.exact if result.exact is not None else result.ev,
                     method="exact" if result.exact is not None else "exact recursion, float64",
                     assumptions=(f"{_shoe(game)} ({result.shoe}); {result.method}; "
                                  + "; ".join(result.assumptions) + f"; {_options(game)}{apart}"))


def simulate_base(game: BlackjackGame, rounds: int = SIMULATED_ROUNDS, seed: int = 2026) -> WagerEdge:
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


def insurance_edges(game: BlackjackGame) -> dict[str, WagerEdge]:
    """Insurance under the player-dealer's ace, and even money over a player's Pure 21.5 Blackjack (exact).

    Insurance wins 2 to 1 when the down card makes the player-dealer's Pure 21.5 Blackjack. Per unit
    insured: over every hand (the down card drawn from the shoe less the ace), and for the player's own
    Pure 21.5 Blackjack (less the ace, and the player's ace and Bonus card), which is what even money is:
    "an insurance wager equal to 1/2 of the original wager".
    """
    if not isinstance(game, Pure21_5) or not game.insurance:
        return {}
    deck = game.deck()
    ace = next(c for c in deck if c.rank is Rank.ACE)
    pays = INSURANCE_PAYS.odds
    n = len(deck)
    completes = sum(1 for c in deck if game.dealer_blackjack((ace, c)))
    p_any = Fraction(completes, n - 1)
    p_pure = Fraction(completes - 1, n - 3)
    ev_any = pays * p_any - (1 - p_any)
    ev_pure = pays * p_pure - (1 - p_pure)
    blackjack = game.blackjack_pays.odds
    keep = (1 - p_pure) * blackjack
    return {
        "insurance": WagerEdge(ev=ev_any, method="exact", assumptions=(
            f"{_shoe(game)}; per unit insured, under the player-dealer's ace, whatever the player holds: the "
            f"down card is one of the other {n - 1} cards, {completes} of them complete a Pure 21.5 Blackjack "
            "(pays 2 to 1)")),
        "even money": WagerEdge(ev=ev_pure, method="exact", assumptions=(
            f"{_shoe(game)}; the insurance wager of half the original wager that even money is, per unit insured, "
            f"over the player's Pure 21.5 Blackjack (ace and Bonus card out, {completes - 1} completing cards of "
            f"{n - 3}); taking even money returns exactly 1 per unit of the original wager where declining is worth "
            f"{float(keep):.6f} ({keep}): taking it costs {float(keep - 1):.6f} of the original wager")),
    }


def edges_for(game: BlackjackGame, mode: str = "exact", advance: Advance | None = None) -> dict[str, WagerEdge]:
    """Every wager of a blackjack game, exact: the base game, insurance where offered, both side wagers.

    The Bonus Bet once per reading of its same-rank-and-suit row (``side_wagers.BONUS_PAYTABLES``).
    """
    out = {"base": base_edge(game, mode, advance), **insurance_edges(game)}
    for name in BONUS_PAYTABLES:
        label = "bonus" if name == game.bonus_paytable.name else f"bonus ({name})"
        variant = game if name == game.bonus_paytable.name else type(game)({**game.options, "bonus_paytable": name})
        out[label] = bonus_bet_edge(variant)
    out["buster"] = buster_edge(game)
    return out


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


def _options(game: BlackjackGame) -> str:
    shown = {k: v for k, v in sorted(game.options.items()) if k not in ("bonus_paytable", "buster_paytable",
                                                                         "player_dealer_seat", "seats",
                                                                         "proposition_player_seats")}
    return "rule options " + ", ".join(f"{k}={v}" for k, v in shown.items())


def _shoe(game: BlackjackGame) -> str:
    jokers = f" with {game.jokers_per_deck} joker per deck" if game.jokers_per_deck else ""
    return f"{game.decks} {game.deck_kind} decks{jokers}"
