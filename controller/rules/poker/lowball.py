"""Low-ball with the joker (seed 003, "LOW-BALL", lines 1-17).

Draw poker where the lowest five-card hand wins (lines 3-4), ace-to-five:
straights and flushes do not count and 5-4-3-2-A is best (rules notes); the
joker is added and is the lowest card not already in the hand (lines 5-6).
Five cards face down to each player, a round of betting, the draw, and a final
round (lines 7-10). The betting limits "2 to 6" and "5 to 20" (lines 12-14)
are read as spread limits: any bet from the low to the high figure, a raise at
least the previous bet or raise. Blinds start the pot (the seed names none;
configured). The house's fee is time, not a drop: every 30 minutes each player
pays $3 at 2 to 6, $6 at 5 to 20 (lines 15-17), collected in advance.

The game is pure, so the half hours are counted on the table's clock, which
advances ``minutes_per_hand`` per hand dealt; a table with a wall clock sets
``clock`` before each hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.cards import Card, Rank, deck_with_joker
from controller.rules.base import Fee, OptionError, Wagers
from controller.rules.evaluators import describe_low, low_value
from controller.rules.poker.fees import TIME_RATES, TimeCollection
from controller.rules.poker.game import PokerGame
from controller.rules.poker.hand import PokerHand, Step, draw_script
from controller.rules.poker.strategy import low_discards

_DECK = deck_with_joker()


class Lowball(PokerGame):
    id = "lowball"
    title = "Low-ball with joker"
    hole_cards = 5
    spread_limit = True
    max_spots = 6
    """53 cards: six players, 30 cards dealt, a burn, and 21 left for the draw (the last card is never dealt)."""
    default_limit = "2-6"

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        if self.limit not in TIME_RATES:
            raise OptionError("limit", f"Low-ball is posted at {', '.join(TIME_RATES)}, not {self.limit!r}")
        self.time = TimeCollection(TIME_RATES[self.limit])
        self.minutes_per_hand: float = self._option("minutes_per_hand", (int, float), 2)
        self.clock: float = 0.0

    def deck(self) -> tuple[Card, ...]:
        return _DECK

    def fees(self, spots: Sequence[int], wagers: Wagers) -> tuple[Fee, ...]:
        due = self.time.due(spots, self.clock) if len(spots) >= 2 else ()
        self.clock += self.minutes_per_hand
        return due

    def table_roles(self) -> dict[str, Any]:
        """The buttons, and the table clock with each seat's time paid through, so a restart collects the same time."""
        return {**super().table_roles(), "clock": self.clock,
                "paid_until": {str(seat): until for seat, until in sorted(self.time.paid_until.items())}}

    def restore_roles(self, roles: Mapping[str, Any]) -> None:
        super().restore_roles(roles)
        self.clock = roles.get("clock", 0.0)
        self.time.paid_until = {int(seat): until for seat, until in roles.get("paid_until", {}).items()}

    def script(self, seats: tuple[int, ...]) -> list[Step]:
        return draw_script(seats, self.hole_cards)

    def high_value(self, hand: PokerHand, seat: int) -> int:
        return low_value(hand.holes[seat])

    def describe_value(self, hand: PokerHand, seat: int) -> str:
        cards = hand.holes[seat]
        return describe_low(low_value(cards)) if len(cards) == 5 else " ".join(map(str, cards))

    def strength(self, hand: PokerHand, seat: int) -> float:
        cards = hand.holes[seat]
        keep = len(cards) - len(low_discards(cards))
        if len(cards) == 5 and keep == 5:
            top = max(1 if c.rank is Rank.ACE else int(c.rank) for c in cards if not c.is_joker)
            return 1.0 - (top - 5) / 8
        return keep / 5 * 0.8


GAME = Lowball
