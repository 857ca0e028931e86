"""Pure 21.5 Blackjack (seed 003, "Pure 21.5 Blackjack").

One to eight decks of aces through nines and sixteen Bonus cards per deck
(Value of the cards; round of play 2). The player-dealer's second card is dealt
face down and, under an ace or a Bonus card, checked for a Pure 21.5 Blackjack
before the players act (game rule 2); it places the action button when turned
(round of play 10-11; the seed's Diagram #1 is lost, so the No Bust chart is
used with Bonus cards by their rank). Players follow chart 1A; the
player-dealer chart 1B. Over 21.5 a player loses, except against the
player-dealer's 888 (game rule 8; the "888 Option" makes it a win).
Insurance and even money as the seed's "Insurance" paragraphs; surrender, whose
text the scan lost, as a late surrender that can be switched off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.cards import Card, Rank, Suit
from controller.odds import LOSE, PUSH, Payout, parse_payout
from controller.rules.base import OptionError
from controller.rules.blackjack.play import BlackjackGame
from controller.rules.blackjack.state import BlackjackRound, Seat
from controller.rules.blackjack.totals import ChartRow, Kind, Rule, Total, pure_total

CHART_1A = "seed 003 Pure 21.5 chart 1A"

CHART: tuple[ChartRow, ...] = (
    ChartRow("a Pure 21.5 Blackjack takes no card", Rule.MUST_STAND, "seed 003 Pure 21.5 game rule 1",
             lambda t: t.kind is Kind.PURE_21_5),
    ChartRow("a total over 21.5 is over", Rule.MUST_STAND, "seed 003 Pure 21.5 object of the game",
             lambda t: t.points > 21),
    ChartRow("must stand on hard 19 or more (may split two Bonus cards)", Rule.MUST_STAND, CHART_1A,
             lambda t: not t.soft and t.points >= 19),
    ChartRow("must hit on hard 11 or less", Rule.MUST_HIT, CHART_1A, lambda t: not t.soft and t.points <= 11),
    ChartRow("option on all other counts", Rule.OPTION, CHART_1A, lambda t: True),
)

BLACKJACK_PAYS = ("3 to 2", "7 to 5", "6 to 5")
RULE_888 = ("push", "win")
"""Players over 21.5 against the player-dealer's 888: push (game rule 8a) or win (the "888 Option")."""
WIN = parse_payout("1 to 1")
PLAYER_BONUS_HANDS: dict[tuple[Rank, ...], str] = {
    (Rank.SEVEN, Rank.SEVEN, Rank.SEVEN): "777", (Rank.SIX, Rank.SEVEN, Rank.EIGHT): "678"}
"""The seed's "Suited 777, Suited 678, and Unsuited 777" and "Same color 777 and same color 678" bonuses."""


class Pure21_5(BlackjackGame):
    id = "pure-21-5"
    title = "Pure 21.5 Blackjack"
    chart = CHART
    deck_kind = "pure-21.5"
    min_decks = 1
    default_decks = 6
    dealer_card_in_deal = True
    double_for_less = True  # Double-down, split and surrender 1: "Doubling down for less is allowed."

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        pays = self.options.setdefault("blackjack_pays", "3 to 2")
        if pays not in BLACKJACK_PAYS:
            raise OptionError("blackjack_pays", f"expected one of {', '.join(BLACKJACK_PAYS)}, not {pays!r}")
        self.blackjack_pays = parse_payout(pays)
        self.rule_888 = self.options.setdefault("rule_888", "push")
        if self.rule_888 not in RULE_888:
            raise OptionError("rule_888", f"expected one of {', '.join(RULE_888)}, not {self.rule_888!r}")
        self.insurance = self._bool("insurance", True)
        if self.insurance and pays != "3 to 2":
            raise OptionError("insurance", f"insurance may not be offered where a Pure 21.5 Blackjack pays {pays}")

    def total(self, cards: Sequence[Card], *, initial: bool) -> Total:
        return pure_total(cards, initial=initial)

    def can_split(self, cards: Sequence[Card]) -> bool:
        """Any pair or two Bonus cards (Double-down, split and surrender 2)."""
        a, b = cards
        return a.rank is b.rank or (a.is_bonus and b.is_bonus)

    def checks_down_card(self, up: Card) -> bool:
        """Game rule 2: the down card is checked when the up card is an ace or a Bonus card."""
        return up.rank is Rank.ACE or up.is_bonus

    def frozen(self, state: BlackjackRound) -> bool:
        return (len(state.dealer) >= 2 and self.checks_down_card(state.dealer[0])
                and self.total(state.dealer, initial=True).kind is Kind.PURE_21_5)

    def frozen_reason(self, state: BlackjackRound) -> str:
        return "the player-dealer has a Pure 21.5 Blackjack: no player options (seed 003 Pure 21.5 game rule 2)"

    def insurance_offered(self, state: BlackjackRound) -> bool:
        return self.insurance and bool(state.dealer) and state.dealer[0].rank is Rank.ACE

    def insurance_actions(self, seat: Seat) -> tuple[str, ...]:
        pure = self.total(seat.hands[0].cards, initial=True).kind is Kind.PURE_21_5
        return ("insurance", "no-insurance", "even-money") if pure else ("insurance", "no-insurance")

    def dealer_hand_mark(self, dealer_cards: Sequence[Card]) -> object:
        """The 888 rule: three eights are settled apart from other totals of 24."""
        return is_888(dealer_cards)

    def dealer_over(self, dealer: Total) -> bool:
        return not dealer.special and dealer.points > 21

    def dealer_blackjack(self, dealer_cards: Sequence[Card]) -> bool:
        return self.total(dealer_cards[:2], initial=True).kind is Kind.PURE_21_5

    def compare(self, player: Total, dealer: Total, dealer_cards: Sequence[Card]) -> tuple[Payout, str]:
        """Game rules 1 and 4-8 with the 888 rule chosen by ``rule_888``."""
        if player.kind is Kind.PURE_21_5:
            if dealer.kind is Kind.PURE_21_5:
                return PUSH, "both Pure 21.5 Blackjack: push (game rule 1)"
            return self.blackjack_pays, "Pure 21.5 Blackjack (object of the game)"
        if dealer.kind is Kind.PURE_21_5:
            return LOSE, "the player-dealer's Pure 21.5 Blackjack is the best hand (game rule 1)"
        p_over, d_over = player.points > 21, self.dealer_over(dealer)
        if p_over and d_over and is_888(dealer_cards):
            if self.rule_888 == "win":
                return WIN, "over 21.5 against the player-dealer's 888: win (888 Option)"
            return PUSH, "over 21.5 against the player-dealer's 888: push (game rule 8a)"
        if p_over:
            return LOSE, "player over 21.5 (game rules 5, 8b)"
        if d_over:
            return WIN, "player under, player-dealer over 21.5: player wins (game rule 4)"
        if player.points == dealer.points:
            return PUSH, "same total under 21.5: push (game rule 6)"
        if player.points > dealer.points:
            return WIN, "closer to 21.5: player wins (game rule 7)"
        return LOSE, "the player-dealer is closer to 21.5 (game rule 7)"

    def promotions(self, state: BlackjackRound) -> list[str]:
        """The seed's optional bonuses and jackpots: hands that qualify are announced; amounts are the room's."""
        found = []
        if is_888(state.dealer):
            found.append("player-dealer 888" + _colour_grade(state.dealer))
        for seat in state.seats.values():
            for index, hand in enumerate(seat.hands):
                name = PLAYER_BONUS_HANDS.get(tuple(sorted(c.rank for c in hand.cards)))
                if name:
                    found.append(f"spot {seat.spot} {self.hand_name(index)}: {name}{_colour_grade(hand.cards)}")
                if len(hand.cards) >= 7 and self.total(hand.cards, initial=False).points <= 21:
                    found.append(f"spot {seat.spot} {self.hand_name(index)}: seven card charlie")
        return found


def is_888(cards: Sequence[Card]) -> bool:
    return len(cards) == 3 and all(c.rank is Rank.EIGHT for c in cards)


def _colour_grade(cards: Sequence[Card]) -> str:
    if len({c.suit for c in cards}) == 1:
        return " (suited)"
    red = {c.suit in (Suit.HEARTS, Suit.DIAMONDS) for c in cards}
    return " (same colour)" if len(red) == 1 else ""


GAME = Pure21_5
