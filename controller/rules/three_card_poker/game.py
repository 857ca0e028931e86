"""Three Card Poker with a player-dealer (seed 003, "Three Card Poker"; rules-notes.md).

The California variant: a seated player-dealer banks the game; the house only
deals and collects a fee. Two alternating decks go through a shuffler that
dispenses stacks of three (Dealing procedures 1-3). Each player's Ante may be
joined by a Pair Plus (Bonus) wager; after looking, a player plays (a Play
wager equal to the Ante) or folds (Round of Play 3, 3a). The player-dealer
qualifies with queen high (5); unqualified, the Play gets no action and the
Ante wins even money only if the player's hand is higher, else pushes (5a-b);
qualified, the better hand wins Ante and Play at even money (5c), equal hands
push (5d). Settlement starts left of the player-dealer and goes clockwise,
Ante, Play, then Pair Plus for each player, until the player-dealer's bank is
exhausted; uncovered wagers are returned (General 8-10).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.cards import Card, standard_deck
from controller.errors import DecisionRefused, WagerRefused
from controller.money import Cents, Rounding, format_cents
from controller.odds import LOSE, PUSH, Payout, parse_payout
from controller.rules.banking import (
    Claim,
    PlayerDealerPosition,
    PlayerDealerRotation,
    bank_record,
    clockwise_from,
    settle_against_bank,
)
from controller.rules.base import Decision, Face, Fee, Game, OptionError, PendingDecision, WagerChange, Wagers, dealt_card
from controller.rules.evaluators.three_card import Category3, category3, describe3, evaluate3, value_of_ranks3
from controller.rules.fees import SCHEDULES, FeeError
from controller.settlement import Settlement
from controller.tiles import Piece

PAIR_PLUS: dict[str, dict[Category3, Payout]] = {
    # Bonus/Pair Plus rule 10: the posted pay table.
    "seed": {
        Category3.MINI_ROYAL_FLUSH: parse_payout("200 to 1"),
        Category3.STRAIGHT_FLUSH: parse_payout("40 to 1"),
        Category3.THREE_OF_A_KIND: parse_payout("30 to 1"),
        Category3.STRAIGHT: parse_payout("6 to 1"),
        Category3.FLUSH: parse_payout("3 to 1"),
        Category3.ONE_PAIR: parse_payout("1 to 1"),
    },
}
EVEN = parse_payout("1 to 1")
QUEEN_HIGH = value_of_ranks3([12, 3, 2], flush=False)
"""The lowest qualifying player-dealer hand (Round of Play 5: "a minimum of queen-high")."""
PLAY_THRESHOLD = value_of_ranks3([12, 6, 4], flush=False)
"""Simulated players play Q-6-4 or better; ``controller.rules.three_card_poker.edge`` checks it against optimal play."""


@dataclass(slots=True)
class TcpHand:
    player_dealer: int
    players: tuple[int, ...]
    """Seats with an Ante, clockwise from the player-dealer's left (Dealing procedures 2a)."""
    cards: dict[int, list[Card]] = field(default_factory=dict)
    played: set[int] = field(default_factory=set)
    folded: set[int] = field(default_factory=set)
    bank_result: dict[str, Any] = field(default_factory=dict)

    @property
    def deal_order(self) -> tuple[int, ...]:
        return (*self.players, self.player_dealer)

    @property
    def up_card(self) -> Card | None:
        """The player-dealer's stack is delivered face down, then its bottom (first dispensed) card turned up."""
        stack = self.cards.get(self.player_dealer, [])
        return stack[0] if stack else None

    def value(self, seat: int) -> int:
        return evaluate3(self.cards[seat])


class ThreeCardPoker(PlayerDealerPosition, Game[TcpHand]):
    id = "three-card-poker"
    title = "Three Card Poker (player-dealer)"
    rules_version = 3  # 2: forfeited wagers collected before a short bank pays anyone (Round of Play 4); 3: a void
    voids_between_players_from = 3  # returns its stakes between the players, not as the house's
    wagers = ("ante", "pair_plus", "bank")
    max_spots = 8  # "A maximum of eight players including the player-dealer position"
    device = "shuffler"
    stack_size = 3  # Dealing procedures 1: "dispense cards in stacks of three"

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        table = self.options.get("pair_plus", "seed")
        if table not in PAIR_PLUS:
            raise OptionError("pair_plus", f"unknown pay table {table!r}: expected one of {', '.join(PAIR_PLUS)}")
        self.pair_plus = PAIR_PLUS[table]
        seats = self.options.get("seats", self.max_spots)
        first = self.options.get("player_dealer_seat", 1)
        if not isinstance(first, int) or not 1 <= first <= seats:
            raise OptionError("player_dealer_seat", f"must be a seat from 1 to {seats}, not {first!r}")
        self.rotation = PlayerDealerRotation(seats, first)

    def deck(self) -> tuple[Card, ...]:
        return standard_deck()  # "standard decks of 52 cards. No jokers"

    def seat_wagers(self, spot: int) -> tuple[str, ...]:
        return ("bank",) if spot == self.player_dealer else ("ante", "pair_plus")

    def check_spot(self, spot: int, wagers: Mapping[str, Cents]) -> None:
        if "pair_plus" in wagers and "ante" not in wagers:
            # Bonus/Pair Plus 1: only with an Ante
            raise WagerRefused(spot, "pair_plus", "a Pair Plus wager needs an Ante wager on the same spot")

    def fees(self, spots: Sequence[int], wagers: Wagers) -> tuple[Fee, ...]:
        """Player fee $0 per bet; the player-dealer's fee per hand by the total action on the table."""
        action = sum(a for (s, w), a in wagers.items() if w != "bank")
        try:
            fee = SCHEDULES["three-card-poker-player-dealer"].fee(action)
        except FeeError as exc:
            raise WagerRefused(self.player_dealer, "bank", str(exc)) from None
        return (Fee(self.player_dealer, fee, f"player-dealer fee for {format_cents(action)} of table action"),)

    def new_hand(self, spots: Sequence[int], wagers: Wagers) -> TcpHand:
        pd = self.player_dealer
        with_ante = [s for s in spots if (s, "ante") in wagers]
        players = clockwise_from(pd % self.rotation.total_seats + 1, with_ante, self.rotation.total_seats)
        return TcpHand(pd, tuple(players))

    def next_target(self, state: TcpHand) -> str | None:
        if not state.players:
            return None
        for seat in state.deal_order:
            if len(state.cards.get(seat, [])) < 3:
                return f"seat{seat}"
        return None

    def face(self, state: TcpHand, target: str, card: Any, position: int) -> Face:
        """Dealing procedures 3: every stack is delivered face down, then the player-dealer's bottom card is
        turned up; the players' hands and the player-dealer's are compared at the reveal, a folded hand never."""
        seat = int(target.removeprefix("seat"))
        if seat == state.player_dealer and position == 0:
            return Face.UP
        return Face.DOWN if seat in state.folded else Face.UNTIL_REVEAL

    def hand_label(self, state: TcpHand, target: str, cards: Sequence[Any]) -> str | None:
        return describe3(evaluate3(list(cards))) if len(cards) == 3 else None

    def place(self, state: TcpHand, target: str, card: Piece) -> None:
        card = dealt_card(card)
        if target != self.next_target(state):
            raise ValueError(f"the next card goes to {self.next_target(state)}, not {target}")
        state.cards.setdefault(int(target.removeprefix("seat")), []).append(card)

    def moment_words(self, state: TcpHand | None, moment: str, pending: PendingDecision | None) -> str | None:
        return "Play or fold" if moment == "decisions" else None

    def pending_decision(self, state: TcpHand) -> PendingDecision | None:
        for seat in state.players:  # Round of Play 3: offered from the player-dealer's left, clockwise
            if seat not in state.played and seat not in state.folded:
                return PendingDecision(seat, ("play", "fold"))
        return None

    def decide(self, state: TcpHand, decision: Decision, wagers: Wagers) -> tuple[WagerChange, ...]:
        pending = self.pending_decision(state)
        if pending is None or decision.spot != pending.spot:
            expected = f"spot {pending.spot} decides first" if pending else "no decision is due"
            raise DecisionRefused(decision.spot, decision.action, f"not this spot's turn: {expected}")
        if decision.action == "fold":
            state.folded.add(decision.spot)
            return ()
        if decision.action == "play":
            ante = wagers[(decision.spot, "ante")]
            if decision.amount not in (None, ante):
                raise DecisionRefused(decision.spot, "play", f"the Play wager must equal the Ante ({format_cents(ante)})")
            state.played.add(decision.spot)
            return (WagerChange(decision.spot, "play", ante),)
        raise DecisionRefused(decision.spot, decision.action, "expected 'play' or 'fold'")

    def strategy(self, state: TcpHand, pending: PendingDecision, wagers: Wagers) -> Decision:
        action = "play" if state.value(pending.spot) >= PLAY_THRESHOLD else "fold"
        return Decision(pending.spot, action)

    def reveal(self, state: TcpHand) -> dict[str, Any]:
        if not state.players:
            return {"player_dealer": state.player_dealer, "hand": None}
        value = state.value(state.player_dealer)
        return {
            "player_dealer": state.player_dealer,
            "cards": [c.code for c in state.cards[state.player_dealer]],
            "up_card": state.up_card.code if state.up_card else None,
            "hand": describe3(value),
            "qualifies": value >= QUEEN_HIGH,
        }

    def claims(self, state: TcpHand, wagers: Wagers) -> list[Claim]:
        """What each wager is owed by the rules, in settlement order: the forfeited wagers first, collected before
        the player-dealer's hand is revealed (Round of Play 4), then from the left of the player-dealer the Ante,
        the Play and the Pair Plus of each player still in (Round of Play 8). Rounds of ``rules_version`` 1 settled
        the folds in their seats' turn."""
        claims = []
        dealer = state.value(state.player_dealer) if state.players else 0
        qualifies = dealer >= QUEEN_HIGH
        folds_first = self.rules_version >= 2
        for seat in sorted(state.players, key=lambda s: folds_first and s not in state.folded):
            mine = state.value(seat)
            for wager in ("ante", "play", "pair_plus"):
                stake = wagers.get((seat, wager))
                if stake:
                    payout, reason = self._payout(wager, seat in state.folded, mine, dealer, qualifies)
                    claims.append(Claim(seat, wager, stake, payout, reason))
        return claims

    def _payout(self, wager: str, folded: bool, mine: int, dealer: int, qualifies: bool) -> tuple[Payout, str]:
        if wager == "pair_plus":
            if folded:
                return LOSE, "folded: Pair Plus forfeited (Bonus rule 8)"
            pay = self.pair_plus.get(category3(mine))
            return (pay, category3(mine).label) if pay else (LOSE, f"{category3(mine).label} pays nothing")
        if folded:
            return LOSE, "folded (Round of Play 3)"
        if not qualifies:
            if wager == "play":
                return PUSH, "player-dealer does not qualify: Play gets no action (5a)"
            return (EVEN, "player-dealer does not qualify, player higher (5b)") if mine > dealer else (
                PUSH, "player-dealer does not qualify, player not higher (5b)")
        if mine > dealer:
            return EVEN, "player beats the qualified player-dealer (5c-i)"
        if mine < dealer:
            return LOSE, "qualified player-dealer beats the player (5c-ii)"
        return PUSH, "tie (5d)"

    def settle(self, state: TcpHand, wagers: Wagers, rounding: Rounding) -> list[Settlement]:
        bank = wagers[(state.player_dealer, "bank")]
        records, result = settle_against_bank(self.claims(state, wagers), bank, rounding)
        records.append(bank_record(state.player_dealer, result))
        state.bank_result = result.as_event()
        return records

    def settlement_summary(self, state: TcpHand) -> dict[str, Any]:
        return {"player_dealer": state.player_dealer, **state.bank_result}

    def describe(self, state: TcpHand) -> str:
        if not state.players:
            return f"P/D seat {state.player_dealer}: no players"
        dealer = state.value(state.player_dealer)
        return (f"P/D seat {state.player_dealer} {' '.join(c.code for c in state.cards[state.player_dealer])} "
                f"{describe3(dealer)}{'' if dealer >= QUEEN_HIGH else ' (no qualify)'}")


GAME = ThreeCardPoker
