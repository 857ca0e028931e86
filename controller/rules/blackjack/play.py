"""A round of California blackjack against a player-dealer, whatever the variant.

Seats: the eight seats of the table, numbered clockwise. One of them is the
player-dealer's (``PlayerDealerRotation``): that spot takes only the ``bank``
wager, the posted bank the player-dealer plays against everyone else; the
others take the base game and the side wagers. Dealing starts "to the player
seated to the left of the designated Player/Dealer, in a clock-wise fashion",
and the action button counts seats clockwise from the player-dealer.

A round (seed 003, No Bust round of play 7-17, Pure 21.5 round of play 7-12):

1. one card to each spot, one to the player-dealer, a second to each spot (and,
   in Pure 21.5, the player-dealer's down card);
2. insurance when the variant offers it, then each hand in spot order: hit,
   stand, double down, split or surrender, as the chart allows;
3. ``reveal``: the player-dealer's hand is completed by its rule;
4. the action button from the player-dealer's second card; every wager settled
   clockwise from it, each seat's base hands before its side wagers, against
   the player-dealer's posted bank.

Cards may come from the shoe, the camera or the dealer's console: the rules
only ever see a card and where it goes.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from controller.cards import Card, Rank, shoe
from controller.errors import DecisionRefused, WagerRefused
from controller.money import Cents, Rounding, format_cents
from controller.odds import HALF_RETURNED, LOSE, PUSH, Payout, parse_payout
from controller.rules.banking import (
    Claim,
    PlayerDealerPosition,
    PlayerDealerRotation,
    bank_record,
    clockwise_from,
    settle_against_bank,
)
from controller.rules.base import (
    Decision,
    Face,
    Fee,
    Game,
    OptionError,
    PendingDecision,
    RuleLimit,
    WagerChange,
    Wagers,
    dealt_card,
)
from controller.rules.blackjack.side_wagers import (
    BONUS_PAYTABLES,
    BUSTER_PAYTABLES,
    BusterPaytable,
    bonus_bet_payout,
    buster_paytable,
)
from controller.rules.blackjack.state import BlackjackRound, Hand, Seat
from controller.rules.blackjack.strategy import InfiniteShoeStrategy
from controller.rules.blackjack.totals import ChartRow, Rule, Total, chart_row, dealer_draws
from controller.rules.fees import SCHEDULES, FeeError
from controller.settlement import Settlement
from controller.tiles import Piece

PLAYER_DEALER = "player-dealer"
SEATS = 8
"""An industry standard blackjack table: eight seats, the player-dealer's among them."""
INSURANCE_ACTIONS = ("insurance", "no-insurance", "even-money")
INSURANCE_PAYS = parse_payout("2 to 1")  # seed 003 Pure 21.5 "Insurance": winning insurance wagers pay 2 to 1

ACTION_BUTTON: Mapping[Rank, int] = {
    # rules-notes: the No Bust chart, counted clockwise from the player-dealer
    Rank.ACE: 1, Rank.EIGHT: 1, Rank.TWO: 2, Rank.NINE: 2, Rank.THREE: 3, Rank.TEN: 3,
    Rank.FOUR: 4, Rank.JACK: 4, Rank.FIVE: 5, Rank.QUEEN: 5, Rank.SIX: 6, Rank.KING: 6,
    Rank.SEVEN: 7, Rank.JOKER: 7,
}


def action_button(card: Card) -> int:
    """How many seats clockwise from the player-dealer settlement starts (Bonus cards by their rank)."""
    return ACTION_BUTTON[card.rank]


class BlackjackGame(PlayerDealerPosition, Game[BlackjackRound], abc.ABC):
    """The flow every California blackjack variant shares; subclasses give the variant's rules."""

    wagers = ("base", "bonus", "buster", "bank")
    rules_version = 4  # 4: even money pays the original wager 1 to 1 to the cent (``_even_money_claims``);
    # 3: hands numbered from 1 in settlement reasons and announcements, as the card places are
    voids_between_players_from = 2  # 2: a void returns its stakes between the players, not as the house's; the
    # player-dealer's fee counts the base wagers' action alone
    max_spots = SEATS
    device = "shoe"
    rule_limits: ClassVar[Mapping[str, RuleLimit]] = {
        "bonus": RuleLimit(most=2500, rule='seed 003, Blackjack Bonus Bet: "The Blackjack Bonus Bet wager may not '
                                           'exceed $25"'),
        "buster": RuleLimit(least=100, most=10000, rule='seed 003, Buster Blackjack Bonus Bet: "The minimum Buster '
                                                         'Blackjack Bonus Bet is $1. The maximum bet is the lesser of '
                                                         'the base game wager or $100"'),
    }

    chart: tuple[ChartRow, ...]
    deck_kind: str = "standard"
    jokers_per_deck: int = 0
    min_decks: int = 1
    default_decks: int = 8
    dealer_card_in_deal: bool = False
    """Pure 21.5: the player-dealer's down card is dealt with the players' second cards."""
    double_for_less: bool = False

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.decks = self._int("decks", self.default_decks, self.min_decks, 8)
        self.max_splits = self._int("max_splits", 3, 0, 3)
        self.surrender = self._bool("surrender", True)
        self.double_after_split = self._bool("double_after_split", False)
        seats = self._int("seats", SEATS, 2, SEATS)
        self.rotation = PlayerDealerRotation(seats, self._int("player_dealer_seat", 1, 1, seats))
        self.fee_schedules = {"base": SCHEDULES["blackjack-player"]}
        """The posted collection fee of each wager taken per wager (the config's limits are checked against it)."""
        self.proposition_players = self._seats("proposition_player_seats", seats)
        bonus = self._choice("bonus_paytable", "seed", BONUS_PAYTABLES)
        self.bonus_paytable = BONUS_PAYTABLES[bonus]
        self.buster_paytable = self._buster()
        self._cards = frozenset(self.deck())

    # -- options ----------------------------------------------------------

    def _int(self, key: str, default: int, low: int, high: int) -> int:
        value = self.options.setdefault(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise OptionError(key, f"must be a whole number from {low} to {high}, not {value!r}")
        return value

    def _bool(self, key: str, default: bool) -> bool:
        value = self.options.setdefault(key, default)
        if not isinstance(value, bool):
            raise OptionError(key, f"must be true or false, not {value!r}")
        return value

    def _seats(self, key: str, seats: int) -> frozenset[int]:
        value = self.options.setdefault(key, [])
        if not isinstance(value, list) or not all(isinstance(v, int) and 1 <= v <= seats for v in value):
            raise OptionError(key, f"must be a list of seats from 1 to {seats}, not {value!r}")
        return frozenset(value)

    def _choice(self, key: str, default: str, choices: Mapping[str, Any]) -> str:
        value = self.options.setdefault(key, default)
        if value not in choices:
            raise OptionError(key, f"unknown choice {value!r}: expected one of {', '.join(choices)}")
        return str(value)

    def _buster(self) -> BusterPaytable:
        value = self.options.setdefault("buster_paytable", "seed")
        if isinstance(value, Mapping):
            try:
                return buster_paytable("custom", value)
            except ValueError as exc:
                raise OptionError("buster_paytable", str(exc)) from None
        return BUSTER_PAYTABLES[self._choice("buster_paytable", "seed", BUSTER_PAYTABLES)]

    # -- the variant's rules ------------------------------------------------

    @abc.abstractmethod
    def total(self, cards: Sequence[Card], *, initial: bool) -> Total:
        """A hand's total; ``initial`` for the first two cards as dealt."""

    @abc.abstractmethod
    def can_split(self, cards: Sequence[Card]) -> bool:
        """Whether two cards may be split."""

    @abc.abstractmethod
    def compare(self, player: Total, dealer: Total, dealer_cards: Sequence[Card]) -> tuple[Payout, str]:
        """A standing hand's payout against the player-dealer's, with the rule that decides it."""

    def dealer_hand_mark(self, dealer_cards: Sequence[Card]) -> object:
        """What of the player-dealer's final cards, besides their total, ``compare`` looks at (none here).

        The exact analysis (``controller.blackjack.analysis``) treats final hands with the same total
        and mark as one outcome; Pure 21.5 marks its 888.
        """
        return None

    @abc.abstractmethod
    def dealer_over(self, dealer: Total) -> bool:
        """The player-dealer's hand is over the target (busted, for the Buster Bet)."""

    @abc.abstractmethod
    def dealer_blackjack(self, dealer_cards: Sequence[Card]) -> bool:
        """An ace with a ten or picture as the player-dealer's first two cards (Bonus Bet top row)."""

    def freezes(self, up: Card) -> bool:
        """The player-dealer's first card leaves no player any option (No Bust: a joker)."""
        return False

    def frozen(self, state: BlackjackRound) -> bool:
        """No options for anyone this round."""
        return bool(state.dealer) and self.freezes(state.dealer[0])

    def frozen_reason(self, state: BlackjackRound) -> str:
        return "no player has options this round"

    def insurance_offered(self, state: BlackjackRound) -> bool:
        return False

    def checks_down_card(self, up: Card) -> bool:
        """Whether the player-dealer's down card is checked for a blackjack before the players act."""
        return False

    def promotions(self, state: BlackjackRound) -> list[str]:
        """Qualifying hands for the card room's optional bonuses or jackpots (announced, not paid here)."""
        return []

    # -- the deck and the wagers ------------------------------------------

    def deck(self) -> tuple[Card, ...]:
        return shoe(self.decks, jokers_per_deck=self.jokers_per_deck, kind=self.deck_kind)

    def restore_roles(self, roles: Mapping[str, Any]) -> None:
        self.rotation.restore(roles)

    def seat_wagers(self, spot: int) -> tuple[str, ...]:
        """Round of play 4-5: the player-dealer's circle holds the bank; the others the players' wagers."""
        return ("bank",) if spot == self.player_dealer else ("base", "bonus", "buster")

    def check_spot(self, spot: int, wagers: Mapping[str, Cents]) -> None:
        base = wagers.get("base", 0)
        for side in ("bonus", "buster"):
            if wagers.get(side) and not base:
                raise WagerRefused(spot, side, "a side wager needs a base game wager at the same spot")
        if wagers.get("buster", 0) > base:
            raise WagerRefused(spot, "buster", f"the Buster Bet cannot exceed the base wager ({format_cents(base)})")
        if base:
            try:
                self.fee_schedules["base"].fee(base)
            except FeeError as exc:  # below the posted players' schedule: refused before "no more bets", not after
                raise WagerRefused(spot, "base", f"no posted collection fee covers it: {exc}") from None

    def fees(self, spots: Sequence[int], wagers: Wagers) -> tuple[Fee, ...]:
        """The posted fees (seed 003, California collection fees): players $0, the player-dealer by the action.

        The action on the table is what the bank can meet: the players' base game wagers, at most the bank.
        The side wagers carry no fee of their own and add none to the player-dealer's: the Buster Bet
        "There is no additional collection fee for placing a Buster Blackjack Bonus Bet", the Bonus Bet
        "Explain if the house is retaining any type of fee: No."
        """
        player = SCHEDULES["blackjack-player"]
        fees = []
        for s in spots:
            if (s, "base") in wagers:
                try:
                    fees.append(Fee(s, player.fee(wagers[(s, "base")]), "player collection fee"))
                except FeeError as exc:  # a wager the posted schedule does not cover: refused, as the bank's is
                    raise WagerRefused(s, "base", f"no posted collection fee covers it: {exc}") from None
        pd = self.player_dealer
        counted = ("base",) if self.rules_version >= 2 else ("base", "bonus", "buster")  # revision 1 counted the side wagers
        action = min(sum(a for (_, w), a in wagers.items() if w in counted), wagers[(pd, "bank")])
        if action:
            try:
                amount = SCHEDULES["blackjack-player-dealer"].fee(action)
            except FeeError as exc:
                raise WagerRefused(pd, "bank", str(exc)) from None
            fees.append(Fee(pd, amount, f"player-dealer collection fee, action {format_cents(action)}"))
        return tuple(f for f in fees if f.amount)

    # -- dealing ------------------------------------------------------------

    def new_hand(self, spots: Sequence[int], wagers: Wagers) -> BlackjackRound:
        pd = self.player_dealer
        players = clockwise_from(pd % self.rotation.total_seats + 1, [s for s in spots if (s, "base") in wagers],
                                 self.rotation.total_seats)
        seats = {s: Seat(s, [Hand([], wagers[(s, "base")])]) for s in players}
        order = [str(s) for s in seats]
        plan = [*order, PLAYER_DEALER, *order] + ([PLAYER_DEALER] if self.dealer_card_in_deal else [])
        return BlackjackRound(seats, plan, wagers[(pd, "bank")], pd, self.rotation.bank_button)

    def card_targets(self, spots: int) -> tuple[str, ...]:
        """Where cards are dealt (the camera's zones): the player-dealer's hand and each seat (a split
        hand ``3.1`` lies in its seat's zone)."""
        return (PLAYER_DEALER, *(str(seat) for seat in range(1, spots + 1)))

    def next_target(self, state: BlackjackRound) -> str | None:
        if state.dealt < len(state.plan):
            target = state.plan[state.dealt]
            return target if target == PLAYER_DEALER else f"{target}.0"
        active = self._active(state)
        if active is not None:
            seat, index, hand = active
            return f"{seat.spot}.{index}" if hand.card_due or len(hand.cards) < 2 else None
        if state.revealed and self.dealer_draws_on(state.dealer):
            return PLAYER_DEALER
        return None

    def face(self, state: BlackjackRound, target: str, card: Any, position: int) -> Face:
        """Every card is dealt face up (seed 003: "cards are always dealt face up"), except Pure 21.5's
        player-dealer second card, which "will remain face down until all players have acted"."""
        if self.dealer_card_in_deal and target == PLAYER_DEALER and position == 1:
            return Face.UNTIL_REVEAL
        return Face.UP

    def hands_now(self, state: BlackjackRound | None, dealt: Sequence[tuple[str, Any]]) -> list[tuple[str, list[int]]]:
        """A split takes a hand's second card to a hand of its own (``3.0`` dealt 8H 8D, then 8C after a split:
        8H 8C lie at ``3.0``, 8D at ``3.1``); each seat's hands in the order they are played."""
        by_deal = super().hands_now(state, dealt)
        if state is None:
            return by_deal
        dealt_at: dict[tuple[int, Any], list[int]] = {}
        for index, (target, card) in enumerate(dealt):
            spot = self.spot_of(state, target) if target != PLAYER_DEALER else None
            if spot is not None:
                dealt_at.setdefault((spot, card), []).append(index)
        hands: list[tuple[str, list[int]]] = []
        for spot in sorted(state.seats):
            for number, hand in enumerate(state.seats[spot].hands):
                indexes = []
                for card in hand.cards:
                    free = dealt_at.get((spot, card))
                    if not free:  # not dealt to this seat (never so): show the cards where they were dealt
                        return by_deal
                    indexes.append(free.pop(0))
                if indexes:
                    hands.append((f"{spot}.{number}", sorted(indexes)))
        return [(t, i) for t, i in by_deal if self.spot_of(state, t) is None] + hands

    def decision_title(self, state: BlackjackRound, pending: PendingDecision) -> str:
        """A split seat's hands are named as the settlement names them (``Spot 3 hand 2 to act``)."""
        seat = state.seats.get(pending.spot)
        if seat is None or len(seat.hands) < 2:
            return super().decision_title(state, pending)
        return f"Spot {pending.spot} {self.hand_name(pending.hand)} to act"

    def moment_words(self, state: BlackjackRound | None, moment: str, pending: PendingDecision | None) -> str | None:
        """Insurance offered under the player-dealer's ace; the player-dealer's hand played out at the reveal."""
        if moment == "decisions" and pending is not None and "insurance" in pending.actions:
            return "Insurance offered"
        if moment == "reveal":
            return "Player-dealer's hand"
        return None

    def hand_label(self, state: BlackjackRound, target: str, cards: Sequence[Any]) -> str | None:
        """The hand's total as the drawing rule reads it (``soft 17``, ``Natural 22``); the player-dealer's
        counts only the cards face up. A split hand's first two cards are no blackjack (nor Natural 22): they are
        totalled as the hand is settled (``hand_total``)."""
        if not cards:
            return None
        initial = len(cards) == 2
        if target != PLAYER_DEALER:
            spot, _, number = target.partition(".")
            seat = state.seats.get(int(spot)) if spot.isdigit() else None
            if seat is not None and number.isdigit() and int(number) < len(seat.hands):
                initial = initial and not seat.hands[int(number)].split
        total = self.total(cards, initial=initial)
        return str(total) if target != PLAYER_DEALER or len(cards) > 1 or state.revealed else f"showing {total.points}"

    def dealer_draws_on(self, cards: Sequence[Card]) -> bool:
        """The player-dealer takes a card: to make two, then by the drawing rule."""
        return len(cards) < 2 or dealer_draws(self.total(cards, initial=len(cards) == 2))

    def place(self, state: BlackjackRound, target: str, card: Piece) -> None:
        card = dealt_card(card)
        if target != self.next_target(state):
            raise ValueError(f"no card is due at {target!r} (the next card goes to {self.next_target(state)!r})")
        if card not in self._cards:
            raise ValueError(f"{card.code} is not a card of the {self.title} deck")
        if state.dealt < len(state.plan):
            state.dealt += 1
        if target == PLAYER_DEALER:
            state.dealer.append(card)
            return
        spot, index = (int(part) for part in target.split("."))
        seat = state.seats[spot]
        hand = seat.hands[index]
        hand.cards.append(card)
        hand.card_due = False
        if len(seat.first_two) < 2:
            seat.first_two.append(card)

    # -- decisions --------------------------------------------------------

    def _active(self, state: BlackjackRound) -> tuple[Seat, int, Hand] | None:
        """The hand whose turn it is, or ``None`` when no player hand can act."""
        if state.dealt < len(state.plan) or self._insurance_pending(state) or self.frozen(state):
            return None
        for seat in state.seats.values():
            for index, hand in enumerate(seat.hands):
                if not self.finished(seat, index):
                    return seat, index, hand
        return None

    def finished(self, seat: Seat, index: int) -> bool:
        hand = seat.hands[index]
        if hand.card_due or len(hand.cards) < 2:
            return False
        if hand.stood or hand.surrendered or hand.doubled or (hand.split_aces and len(hand.cards) == 2):
            return True
        total = self.hand_total(seat, index)
        return total.special or (not chart_row(self.chart, total).rule.may_hit and self.legal(seat, index) == ["stand"])

    def hand_total(self, seat: Seat, index: int) -> Total:
        hand = seat.hands[index]
        return self.total(hand.cards, initial=not hand.split and len(hand.cards) == 2)

    def legal(self, seat: Seat, index: int) -> list[str]:
        """The actions the rules allow this hand now, in the chart's order."""
        hand = seat.hands[index]
        total = self.hand_total(seat, index)
        row = chart_row(self.chart, total)
        actions = [a for a, ok in (("hit", row.rule.may_hit), ("stand", row.rule.may_stand)) if ok]
        two = len(hand.cards) == 2 and not hand.split_aces
        if two and row.rule.may_hit and (not hand.split or self.double_after_split):
            actions.append("double")
        if two and seat.splits < self.max_splits and self.can_split(hand.cards) and not total.special:
            actions.append("split")
        if two and self.surrender and not hand.split and not total.special:
            actions.append("surrender")
        return actions

    def _insurance_pending(self, state: BlackjackRound) -> Seat | None:
        if not self.insurance_offered(state):
            return None
        return next((seat for seat in state.seats.values() if not seat.insurance_decided), None)

    def pending_decision(self, state: BlackjackRound) -> PendingDecision | None:
        if state.dealt < len(state.plan):
            return None
        seat = self._insurance_pending(state)
        if seat is not None:
            # insurance may be less than its limit, half the original wager
            return PendingDecision(seat.spot, self.insurance_actions(seat), hand=0,
                                   amounts=(("insurance", seat.hands[0].stake // 2),))
        active = self._active(state)
        if active is None or active[2].card_due or len(active[2].cards) < 2:
            return None
        seat, index, hand = active
        legal = tuple(self.legal(seat, index))
        offered = (("double", hand.stake),) if self.double_for_less and "double" in legal else ()
        return PendingDecision(seat.spot, legal, hand=index, amounts=offered)

    def insurance_actions(self, seat: Seat) -> tuple[str, ...]:
        return ("insurance", "no-insurance")

    def decide(self, state: BlackjackRound, decision: Decision, wagers: Wagers) -> tuple[WagerChange, ...]:
        pending = self.pending_decision(state)
        if pending is None:
            reason = self.frozen_reason(state) if self.frozen(state) else "no decision is pending"
            raise DecisionRefused(decision.spot, decision.action, reason)
        if (decision.spot, decision.hand) != (pending.spot, pending.hand):
            raise DecisionRefused(decision.spot, decision.action,
                                  f"it is spot {pending.spot} {self.hand_name(pending.hand)}'s turn")
        seat = state.seats[decision.spot]
        if decision.action not in pending.actions:
            raise DecisionRefused(decision.spot, decision.action, self._refusal(state, seat, decision))
        if decision.action in INSURANCE_ACTIONS:
            return self._insure(seat, decision)
        return self._play(seat, decision)

    def _refusal(self, state: BlackjackRound, seat: Seat, decision: Decision) -> str:
        if self._insurance_pending(state) is not None:
            return f"insurance is decided first: legal now {', '.join(self.insurance_actions(seat))}"
        if decision.action in INSURANCE_ACTIONS:
            return "insurance is offered only before play, when the player-dealer's up card is an ace"
        hand = seat.hands[decision.hand]
        total = self.hand_total(seat, decision.hand)
        row = chart_row(self.chart, total)
        if decision.action in ("hit", "stand", "double") and row.rule is not Rule.OPTION:
            return f"{total}: the chart says {row}"
        if decision.action == "split":
            return f"{' '.join(c.code for c in hand.cards)} cannot be split (a pair, at most {self.max_splits} splits)"
        if decision.action == "surrender":
            return "surrender only on a hand's first two cards, before any split"
        return f"{decision.action!r} is not allowed now: legal {', '.join(self.legal(seat, decision.hand))}"

    def _insure(self, seat: Seat, decision: Decision) -> tuple[WagerChange, ...]:
        seat.insurance_decided = True
        if decision.action == "no-insurance":
            return ()
        limit = seat.hands[0].stake // 2
        amount = limit if decision.action == "even-money" or decision.amount is None else decision.amount
        if not 0 < amount <= limit:
            seat.insurance_decided = False
            raise DecisionRefused(seat.spot, decision.action,
                                  f"insurance is at most half the original wager ({format_cents(limit)})")
        seat.insurance, seat.even_money = amount, decision.action == "even-money"
        return (WagerChange(seat.spot, "insurance", amount),)

    def _play(self, seat: Seat, decision: Decision) -> tuple[WagerChange, ...]:
        hand = seat.hands[decision.hand]
        action = decision.action
        if action == "hit":
            hand.card_due = True
        elif action == "stand":
            hand.stood = True
        elif action == "surrender":
            hand.surrendered = True
        elif action == "double":
            amount = hand.stake if decision.amount is None else decision.amount
            if amount != hand.stake and not (self.double_for_less and 0 < amount < hand.stake):
                rule = "at most" if self.double_for_less else "exactly"
                raise DecisionRefused(seat.spot, action, f"a double down is {rule} the original wager "
                                                         f"({format_cents(hand.stake)})")
            hand.stake += amount
            hand.doubled = hand.card_due = True
            return (WagerChange(seat.spot, "base", amount),)
        elif action == "split":
            aces = hand.cards[0].rank is Rank.ACE
            second = Hand([hand.cards.pop()], hand.stake, split=True, split_aces=aces)
            hand.split, hand.split_aces = True, aces
            seat.hands.insert(decision.hand + 1, second)
            seat.splits += 1
            return (WagerChange(seat.spot, "base", hand.stake),)
        return ()

    @functools.cached_property
    def advisor(self) -> InfiniteShoeStrategy:
        return InfiniteShoeStrategy(self)

    def strategy(self, state: BlackjackRound, pending: PendingDecision, wagers: Wagers) -> Decision:
        """Insurance declined; otherwise the action of highest infinite-shoe value (``strategy`` module)."""
        if "no-insurance" in pending.actions:
            return Decision(pending.spot, "no-insurance")
        hand = state.seats[pending.spot].hands[pending.hand]
        initial = not hand.split and len(hand.cards) == 2
        action = self.advisor.best(state.dealer[0], hand.cards, pending.actions, initial=initial)
        return Decision(pending.spot, action, hand=pending.hand)

    # -- reveal and settlement ----------------------------------------------

    def reveal(self, state: BlackjackRound) -> dict[str, Any]:
        state.revealed = True
        return {"player_dealer": [c.code for c in state.dealer], "frozen": self.frozen(state),
                "player_dealer_seat": state.player_dealer_seat, "bank_button": state.bank_button,
                "bank": state.bank}

    def dealer_total(self, state: BlackjackRound) -> Total:
        return self.total(state.dealer, initial=len(state.dealer) == 2)

    def claims(self, state: BlackjackRound, wagers: Wagers) -> list[Claim]:
        """What the rules give every wager, in settlement order (clockwise from the action button)."""
        total_seats = self.rotation.total_seats
        state.button = (state.player_dealer_seat - 1 + action_button(state.dealer[1])) % total_seats + 1
        dealer = self.dealer_total(state)
        claims = []
        for spot in clockwise_from(state.button, list(state.seats), total_seats):
            seat = state.seats[spot]
            if seat.even_money and self.rules_version >= 4:
                claims.extend(self._even_money_claims(seat, dealer))
            else:
                for index in range(len(seat.hands)):
                    claims.append(self._hand_claim(seat, index, dealer, state.dealer))
            if seat.insurance and not (seat.even_money and self.rules_version >= 4):
                won = self.dealer_blackjack(state.dealer)
                claims.append(Claim(spot, "insurance", seat.insurance, INSURANCE_PAYS if won else LOSE,
                                    ("even money: " if seat.even_money else "") + f"player-dealer {dealer}"))
            if wagers.get((spot, "bonus")):
                row = self.bonus_paytable.row(seat.first_two, dealer_blackjack=self.dealer_blackjack(state.dealer))
                claims.append(Claim(spot, "bonus", wagers[(spot, "bonus")], bonus_bet_payout(self.bonus_paytable, row),
                                    row or "no qualifying hand"))
            if wagers.get((spot, "buster")):
                over = self.dealer_over(dealer)
                payout = self.buster_paytable.payout(len(state.dealer)) if over else LOSE
                reason = f"player-dealer {'over' if over else 'not over'} with {len(state.dealer)} cards"
                claims.append(Claim(spot, "buster", wagers[(spot, "buster")], payout, reason))
        return claims

    def hand_name(self, index: int) -> str:
        """A seat's hand as the dealer counts them, ``hand 1`` and after a split ``hand 2`` (the card places'
        numbers); rounds of rules revisions before 3 were journaled counting from 0 and replay so."""
        return f"hand {index + 1 if self.rules_version >= 3 else index}"

    def _even_money_claims(self, seat: Seat, dealer: Total) -> list[Claim]:
        """Even money as the rule states its result (seed 003, Pure 21.5 "Even Money": "the Player wins an amount
        equal to the original wager"): the original wager paid 1 to 1 and the insurance wager returned, whatever
        the player-dealer's down card. Settled as insurance at 2 to 1 and a push, or as insurance lost and the
        Pure 21.5 Blackjack at 3 to 2, an original wager of an odd number of cents would win a cent less one way
        than the other (the insurance is half the wager, rounded down to the cent)."""
        hand = seat.hands[0]
        cards = " ".join(c.code for c in hand.cards)
        reason = f"even money: {self.hand_name(0)} {cards} v {dealer}"
        return [Claim(seat.spot, "base", hand.stake, parse_payout("1 to 1"), reason),
                Claim(seat.spot, "insurance", seat.insurance, PUSH, f"{reason}: the insurance wager returned")]

    def _hand_claim(self, seat: Seat, index: int, dealer: Total, dealer_cards: Sequence[Card]) -> Claim:
        hand = seat.hands[index]
        if hand.surrendered:
            return Claim(seat.spot, "base", hand.stake, HALF_RETURNED, "surrender: half the wager forfeited")
        payout, rule = self.compare(self.hand_total(seat, index), dealer, dealer_cards)
        cards = " ".join(c.code for c in hand.cards)
        return Claim(seat.spot, "base", hand.stake, payout,
                     f"{self.hand_name(index)} {cards} ({self.hand_total(seat, index)}) v {dealer}: {rule}")

    def settle(self, state: BlackjackRound, wagers: Wagers, rounding: Rounding) -> list[Settlement]:
        records, result = settle_against_bank(self.claims(state, wagers), state.bank, rounding)
        state.bank_result = result
        state.announcements = self.promotions(state)
        records.append(bank_record(state.player_dealer_seat, result))
        return records

    def pass_position(self, accepts: Callable[[int], bool]) -> dict[str, Any]:
        """Round of play 18-19: after two banks the position passes clockwise; nobody taking it stops the game.

        A third-party proposition player (game rules 16-17, No Bust; 12-13, Pure 21.5) at one of
        ``proposition_player_seats`` takes the position whenever it is offered.
        """
        return super().pass_position(lambda s: accepts(s) or s in self.proposition_players)

    def settlement_summary(self, state: BlackjackRound) -> dict[str, Any]:
        bank = state.bank_result.as_event() if state.bank_result else {}
        return {"player_dealer_seat": state.player_dealer_seat, "bank_button": state.bank_button,
                "player_dealer_cards": [c.code for c in state.dealer], "player_dealer_total": str(self.dealer_total(state)),
                "action_button": state.button, "promotions": state.announcements, **bank}

    def describe(self, state: BlackjackRound) -> str:
        cards = f"{' '.join(c.code for c in state.dealer)} ({self.dealer_total(state)})" if state.dealer else "-"
        net = f" net {format_cents(state.bank_result.net)}" if state.bank_result else ""
        return f"P/D seat {state.player_dealer_seat} {cards} button {state.button}{net}"
