"""Texas Hold'em, limit (seed 003, "TEXAS HOLD-EM", lines 1156-1190).

One 52-card deck (line 1160). Blinds in clockwise order from the button
(line 1162); two hole cards each, one at a time in rotation (line 1165); a
round of betting; the flop of three; betting; the turn; betting; the river;
a final round (lines 1166-1172). The best high hand of any five of the
player's two cards and the five on the board wins; a player may play the board
(lines 1173-1175). Fees: the posted Texas Hold'em schedule (lines 2118-2164).
"""

from __future__ import annotations

from controller.cards import Card, Rank, standard_deck
from controller.rules.evaluators import category, describe, evaluate
from controller.rules.poker.game import PokerGame
from controller.rules.poker.hand import PokerHand, Step, flop_script

_DECK = standard_deck()


class Holdem(PokerGame):
    id = "holdem"
    title = "Texas Hold'em"
    hole_cards = 2
    default_limit = "3-6"
    default_schedule = "holdem"

    def deck(self) -> tuple[Card, ...]:
        return _DECK

    def script(self, seats: tuple[int, ...]) -> list[Step]:
        return flop_script(seats, self.hole_cards)

    def high_value(self, hand: PokerHand, seat: int) -> int:
        value: int = hand.value("high", seat, lambda: evaluate([*hand.holes[seat], *hand.board]))
        return value

    def describe_value(self, hand: PokerHand, seat: int) -> str:
        cards = [*hand.holes[seat], *hand.board]
        return describe(self.high_value(hand, seat)) if len(cards) >= 5 else " ".join(map(str, cards))

    def strength(self, hand: PokerHand, seat: int) -> float:
        hole = hand.holes[seat]
        if len(hand.board) >= 3:
            return min(1.0, 0.2 + 0.2 * category(self.high_value(hand, seat)))
        ranks = sorted((int(c.rank) for c in hole), reverse=True)
        if len(ranks) == 2 and ranks[0] == ranks[1]:
            return 0.6 + ranks[0] / 40
        suited = 0.05 if len({c.suit for c in hole}) == 1 else 0.0
        return sum(ranks) / (2 * int(Rank.ACE)) * 0.8 + suited


GAME = Holdem
