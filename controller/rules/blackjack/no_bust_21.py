"""No Bust 21st Century Blackjack (seed 003, "No Bust 21st Century Blackjack Standard Rules", 10/12/2006).

Two to eight decks with one joker per deck (Value of cards; round of play 2).
Every card is dealt face up; the player-dealer's second card comes only after
the players have made their hands and places the action button (round of play
7-11). Nobody busts: a total over the target is merely "over", and the game
rules 1-8 compare hands around the Natural 22. The players' chart is scrambled
in the seed; rules-notes reads it (must hit 11 or less, option 12 to 19, must
stand on 20 and 21), and says where a plain 22 falls (``over_above``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.cards import Card
from controller.odds import LOSE, PUSH, Payout, parse_payout
from controller.rules.base import OptionError
from controller.rules.blackjack.play import BlackjackGame
from controller.rules.blackjack.state import BlackjackRound
from controller.rules.blackjack.totals import ChartRow, Kind, Rule, Total, no_bust_total, points

CHART_CITE = "seed 003 No Bust round of play 9, chart as read by rules-notes"

CHART: tuple[ChartRow, ...] = (
    ChartRow("a Natural 22 takes no card", Rule.MUST_STAND, "seed 003 No Bust game rule 1",
             lambda t: t.kind is Kind.NATURAL_22),
    ChartRow("a joker with any card is a hard 21 and takes no card", Rule.MUST_STAND,
             "seed 003 No Bust game rule 13", lambda t: t.kind is Kind.JOKER_21),
    ChartRow("a total over 21 is made", Rule.MUST_STAND, "rules-notes: a total over 21 is over",
             lambda t: t.points > 21),
    ChartRow("must stand on soft & hard 20 and 21", Rule.MUST_STAND, CHART_CITE, lambda t: t.points >= 20),
    ChartRow("option on 12 through 19", Rule.OPTION, CHART_CITE, lambda t: t.points >= 12),
    ChartRow("must hit 11 or less", Rule.MUST_HIT, CHART_CITE, lambda t: True),
)

NATURAL_22_PAYS = parse_payout("2 to 1")  # seed 003 No Bust "Double-down, split, surrender & odds"
OTHER_HANDS_PAY = parse_payout("1 to 1")


class NoBust21(BlackjackGame):
    id = "no-bust-21"
    title = "No Bust 21st Century Blackjack"
    chart = CHART
    jokers_per_deck = 1
    min_decks = 2
    default_decks = 8

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.over_above = self.options.setdefault("over_above", 21)
        if self.over_above not in (21, 22):
            raise OptionError("over_above", f"a plain total above 21 or above 22 is over, not {self.over_above!r}")

    def total(self, cards: Sequence[Card], *, initial: bool) -> Total:
        return no_bust_total(cards, initial=initial)

    def can_split(self, cards: Sequence[Card]) -> bool:
        """Any pair, or two cards with a value of 10 each (Double-down, split, surrender & odds)."""
        a, b = cards
        return not a.is_joker and not b.is_joker and (a.rank is b.rank or points(a) == points(b) == 10)

    def freezes(self, up: Card) -> bool:
        return up.is_joker

    def frozen_reason(self, state: BlackjackRound) -> str:
        return ("hands are frozen: the player-dealer's first card is a joker "
                "(seed 003 No Bust round of play 14, game rules 9-10)")

    def over(self, total: Total) -> bool:
        return not total.special and total.points > self.over_above

    def dealer_over(self, dealer: Total) -> bool:
        return self.over(dealer)

    def dealer_blackjack(self, dealer_cards: Sequence[Card]) -> bool:
        first = dealer_cards[:2]
        return len(first) == 2 and sorted(points(c) for c in first) == [1, 10] and not any(c.is_joker for c in first)

    def compare(self, player: Total, dealer: Total, dealer_cards: Sequence[Card]) -> tuple[Payout, str]:
        """Game rules 1-8, with ``over_above`` deciding where a plain 22 falls."""
        if player.kind is Kind.NATURAL_22:
            if dealer.kind is Kind.NATURAL_22:
                return PUSH, "both Natural 22: push (game rule 1)"
            return NATURAL_22_PAYS, "Natural 22 beats all other hands (game rule 1)"
        if dealer.kind is Kind.NATURAL_22:
            return LOSE, "the player-dealer's Natural 22 beats all other hands (game rule 1)"
        p_over, d_over = self.over(player), self.over(dealer)
        if not p_over and d_over:
            return OTHER_HANDS_PAY, "player under, player-dealer over: player wins (game rules 3, 8)"
        if p_over and not d_over:
            return LOSE, "player over, player-dealer under: player-dealer wins (game rule 8)"
        if p_over and d_over:
            if player.points < dealer.points:
                return PUSH, "both over, the player closer: push (game rule 6b)"
            return LOSE, "both over, the player-dealer closer or tied: player-dealer wins (game rules 6a, 7)"
        p_rank, d_rank = _rank_under(player), _rank_under(dealer)
        if p_rank == d_rank:
            return PUSH, "same total under a Natural 22: push (game rule 5)"
        if p_rank > d_rank:
            return OTHER_HANDS_PAY, "closer to a Natural 22: player wins (game rules 2, 4)"
        return LOSE, "the player-dealer is closer to a Natural 22 (game rules 2, 4)"


def _rank_under(total: Total) -> float:
    """A joker hand is the second best hand (game rule 2): above every counted total."""
    return 22.5 if total.kind is Kind.JOKER_21 else total.points


GAME = NoBust21
