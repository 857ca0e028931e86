"""Omaha High-Low Split, eight or better, with or without the joker (seed 003, lines 783-805 and 1580-1830).

Four hole cards each (line 1604); flop, turn and river as in hold'em. Each half
uses exactly two hole cards and three board cards, chosen independently (rules
4, 6-8). The best high hand wins half the pot and the best low hand, eight or
better, the other half; with no qualifying low the high hand scoops (rules 2-3,
10); the odd chip goes to the high hand (line 1632); tied hands share a half
equally (rule 13).

Option ``joker = true`` deals the 53-card game "OMAHA HI-LOW SPLIT POKER with
JOKER" (line 1580): the joker is a hole card; for high it plays as an ace or
completes a straight or flush (line 1649); for low it is the lowest rank not
already in the hand (rules notes). Fees: the posted Omaha Hi/Lo schedule
(lines 2133-2188).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.cards import Card, deck_with_joker, standard_deck
from controller.rules.evaluators import describe, describe_low, omaha_high, omaha_low
from controller.rules.poker.game import PokerGame
from controller.rules.poker.hand import PokerHand, Step, flop_script


class OmahaHiLo(PokerGame):
    id = "omaha-hi-lo"
    title = "Omaha Hi-Low Split (8 or better)"
    hole_cards = 4
    split_low = True
    default_limit = "3-6"
    default_schedule = "omaha-hi-lo"
    fix_counts = True  # dealing rule 3: an extra card is the burn, a missing one comes from the top

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.joker: bool = self._option("joker", bool, False)
        self.qualifier: int = self._option("qualifier", int, 8)
        self._deck = deck_with_joker() if self.joker else standard_deck()

    def deck(self) -> tuple[Card, ...]:
        return self._deck

    def script(self, seats: tuple[int, ...]) -> list[Step]:
        return flop_script(seats, self.hole_cards)

    def high_value(self, hand: PokerHand, seat: int) -> int:
        value: int = hand.value("high", seat, lambda: omaha_high(hand.holes[seat], hand.board)[0])
        return value

    def low_value(self, hand: PokerHand, seat: int) -> int | None:
        low = hand.value("low", seat, lambda: omaha_low(hand.holes[seat], hand.board, qualifier=self.qualifier))
        return None if low is None else int(low[0])

    def describe_value(self, hand: PokerHand, seat: int) -> str:
        if len(hand.board) < 3:
            return " ".join(map(str, hand.holes[seat]))
        low = self.low_value(hand, seat)
        return f"high {describe(self.high_value(hand, seat))}; low {describe_low(low) if low is not None else 'none'}"

    def strength(self, hand: PokerHand, seat: int) -> float:
        """Cheap on purpose (a full Omaha evaluation per decision would dominate a simulated session):
        the top two hole ranks, a pair in the hole, hole ranks the board pairs, and low cards for a low."""
        ranks = sorted((15 if c.is_joker else int(c.rank) for c in hand.holes[seat]), reverse=True)
        board = {int(c.rank) for c in hand.board}
        paired = sum(1 for r in set(ranks) if r in board)
        lows = len({r for r in ranks if r <= 8 or r == 14} | {r for r in board if r <= 8 or r == 14})
        low = 0.15 if len(hand.board) >= 3 and lows >= 5 else 0.0
        return min(1.0, (ranks[0] + ranks[1]) / 30 * 0.6 + (0.15 if len(set(ranks)) < len(ranks) else 0.0) + 0.2 * paired + low)


GAME = OmahaHiLo
