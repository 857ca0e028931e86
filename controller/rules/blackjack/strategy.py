"""Decisions for the option zone, computed by dynamic programming over an infinite shoe.

The shoe is taken as infinite with the card probabilities of the game's full
shoe (e.g. eight 52-card decks and eight jokers): every card has the same
chance whatever has been dealt. For each player-dealer up card the player-dealer's
final hands are enumerated by the drawing rule (in Pure 21.5 conditioned on no
Pure 21.5 Blackjack under an ace or Bonus card, as the players act only then),
and each action's expected value per unit of the hand's wager is:

- stand: the game's own ``compare`` against every final player-dealer hand;
- hit: each next card, then the best the chart allows (must hit, must stand, option);
- double: twice the value of standing after one card;
- split: twice the value of a hand of one of the cards plus a card (aces one
  card only, a further split valued as none: an approximation);
- surrender: -1/2.

The values use the game's totals, chart and comparison functions, so the
strategy follows any configured option (the 888 rule, ``over_above``,
double after split). Insurance and even money are declined: under an ace the
chance of a Bonus card is at most 16/51, below the 1/3 that 2 to 1 needs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from controller.cards import Card, Rank
from controller.odds import Payout
from controller.rules.blackjack.state import Hand, Seat
from controller.rules.blackjack.totals import ChartRow, Kind, Rule, Total, chart_row, dealer_draws, points


class BlackjackRules(Protocol):
    """What the strategy asks of a blackjack game (``play.BlackjackGame`` answers it)."""

    chart: tuple[ChartRow, ...]
    double_after_split: bool

    def deck(self) -> tuple[Card, ...]: ...
    def total(self, cards: Sequence[Card], *, initial: bool) -> Total: ...
    def compare(self, player: Total, dealer: Total, dealer_cards: Sequence[Card]) -> tuple[Payout, str]: ...
    def checks_down_card(self, up: Card) -> bool: ...
    def dealer_blackjack(self, dealer_cards: Sequence[Card]) -> bool: ...
    def freezes(self, up: Card) -> bool: ...
    def finished(self, seat: Seat, index: int) -> bool: ...
    def legal(self, seat: Seat, index: int) -> list[str]: ...

DealerOutcome = tuple[Total, tuple[Card, ...]]


def card_classes(deck: Sequence[Card]) -> list[tuple[Card, float]]:
    """One representative card per playing value (ace, 2-9, ten-valued, joker) with its probability."""
    groups: Counter[tuple[int, bool]] = Counter((points(c), c.is_joker) for c in deck)
    first: dict[tuple[int, bool], Card] = {}
    for card in deck:
        first.setdefault((points(card), card.is_joker), card)
    return [(first[key], n / len(deck)) for key, n in sorted(groups.items())]


class InfiniteShoeStrategy:
    """Expected values of a hand's actions for one game and its options."""

    def __init__(self, game: BlackjackRules) -> None:
        self.game = game
        self.classes = card_classes(game.deck())
        self._class_of = {(points(c), c.is_joker): c for c, _ in self.classes}
        self.stand = lru_cache(maxsize=None)(self._stand)
        self._play_total = lru_cache(maxsize=None)(self._play)
        self.dealer = lru_cache(maxsize=None)(self._dealer)
        self._best = lru_cache(maxsize=None)(self._best_uncached)
        self._hands: dict[Total, tuple[Card, ...]] = {}
        """A hand for each total met: with an infinite shoe the future depends on the total only."""

    def representative(self, card: Card) -> Card:
        return self._class_of[(points(card), card.is_joker)]

    def key(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        return tuple(sorted(self.representative(c) for c in cards))

    # -- the player-dealer ------------------------------------------------

    def _dealer(self, up: Card) -> tuple[tuple[DealerOutcome, float], ...]:
        """Final player-dealer hands (total, cards) with their probabilities, given the up card."""
        finals: dict[DealerOutcome, float] = {}

        def draw(cards: tuple[Card, ...], p: float) -> None:
            total = self.game.total(cards, initial=len(cards) == 2)
            if len(cards) >= 2 and not dealer_draws(total):
                outcome = (total, cards if total.points == 24 and len(cards) == 3 else ())
                finals[outcome] = finals.get(outcome, 0.0) + p
                return
            for card, q in self.classes:
                draw((*cards, card), p * q)

        draw((up,), 1.0)
        if self.game.checks_down_card(up):
            finals = {o: p for o, p in finals.items() if o[0].kind is not Kind.PURE_21_5}
        mass = sum(finals.values())
        return tuple((o, p / mass) for o, p in finals.items())

    # -- the player ---------------------------------------------------------

    def _stand(self, up: Card, total: Total) -> float:
        return sum(p * float(self.game.compare(total, d_total, d_cards)[0].odds)
                   for (d_total, d_cards), p in self.dealer(up))

    def play(self, up: Card, cards: tuple[Card, ...]) -> float:
        """A hand past its first decision: hit or stand as the chart allows, best value."""
        total = self.game.total(cards, initial=False)
        self._hands.setdefault(total, cards)
        return self._play_total(up, total)

    def _play(self, up: Card, total: Total) -> float:
        cards = self._hands[total]
        rule = Rule.MUST_STAND if total.special else chart_row(self.game.chart, total).rule
        stand = self.stand(up, total)
        if rule is Rule.MUST_STAND:
            return stand
        hit = sum(q * self.play(up, self.key((*cards, c))) for c, q in self.classes)
        return hit if rule is Rule.MUST_HIT else max(hit, stand)

    def action_values(self, up: Card, cards: Sequence[Card], actions: Sequence[str], *,
                      initial: bool, split_aces: bool = False) -> dict[str, float]:
        """The value of each of ``actions`` for a hand of ``cards`` against ``up``."""
        up = self.representative(up)
        hand = self.key(cards)
        values = {}
        for action in actions:
            if action == "stand":
                values[action] = self.stand(up, self.game.total(hand, initial=initial))
            elif action == "hit":
                values[action] = sum(q * self.play(up, self.key((*hand, c))) for c, q in self.classes)
            elif action == "double":
                values[action] = 2 * sum(q * self.stand(up, self.game.total((*hand, c), initial=False))
                                         for c, q in self.classes)
            elif action == "surrender":
                values[action] = -0.5
            elif action == "split":
                values[action] = 2 * sum(q * self._split_hand(up, (hand[0], c)) for c, q in self.classes)
        return values

    def _split_hand(self, up: Card, cards: tuple[Card, Card]) -> float:
        hand = self.key(cards)
        if cards[0].rank is Rank.ACE:
            return self.stand(up, self.game.total(hand, initial=False))
        actions = ["stand", "hit"] + (["double"] if self.game.double_after_split else [])
        total = self.game.total(hand, initial=False)
        rule = Rule.MUST_STAND if total.special else chart_row(self.game.chart, total).rule
        allowed = [a for a in actions if (a == "stand" and rule.may_stand) or (a != "stand" and rule.may_hit)]
        return max(self.action_values(up, hand, allowed, initial=False).values())

    def best(self, up: Card, cards: Sequence[Card], actions: Sequence[str], *, initial: bool) -> str:
        """The legal action of highest value (the first of equals, in ``actions`` order)."""
        return self._best(self.representative(up), self.key(cards), tuple(actions), initial)

    def _best_uncached(self, up: Card, hand: tuple[Card, ...], actions: tuple[str, ...], initial: bool) -> str:
        values = self.action_values(up, hand, actions, initial=initial)
        return max(actions, key=lambda a: values.get(a, float("-inf")))

    def game_value(self) -> float:
        """The base wager's expected value per unit under this strategy, on the infinite shoe."""
        return sum(pu * p1 * p2 * self._initial_value(up, (c1, c2))
                   for up, pu in self.classes for c1, p1 in self.classes for c2, p2 in self.classes)

    def _initial_value(self, up: Card, cards: tuple[Card, Card]) -> float:
        if not self.game.checks_down_card(up):
            return self._decision_value(up, cards)
        blackjack = sum(q for c, q in self.classes if self.game.dealer_blackjack((up, c)))
        player_pure = self.game.total(cards, initial=True).kind is Kind.PURE_21_5
        return blackjack * (0.0 if player_pure else -1.0) + (1 - blackjack) * self._decision_value(up, cards)

    def _decision_value(self, up: Card, cards: tuple[Card, Card]) -> float:
        seat = Seat(1, [Hand(list(cards), 1)])
        if self.game.freezes(up) or self.game.finished(seat, 0):
            return self.stand(up, self.game.total(cards, initial=True))
        return max(self.action_values(up, cards, self.game.legal(seat, 0), initial=True).values())
