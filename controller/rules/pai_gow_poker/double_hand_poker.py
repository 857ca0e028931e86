"""Double-Hand Poker (seed 003): pai gow poker with the joker, banked by a player-dealer.

The round, as the seed's "Game Description" and general rules give it:

1. The player-dealer posts a bank (the ``bank`` wager, on the player-dealer's
   seat only); collections are taken in advance (general rule 2): ``fees()``
   by the posted pai gow schedules, on each wager and on the bank.
2. 53 cards from the shuffler, dealt as seven piles of seven.
3. The player-dealer picks the first pile; three dice pick the seat that gets
   it, counting the player-dealer as 1, 8 and 15; the other piles follow
   clockwise. At a real table the dealer enters both; a simulated table draws
   them at random, seeded by the shuffle (``strategy``). Both are logged.
4. Each player sets his hand (two cards front, five back, never foul) or asks
   for the House Way. A player wagering on more than one seat plays one hand;
   the others are played House Way (general rule 12; ``extra_seats``).
5. The player-dealer's hand is opened last and set.
6. Each hand is compared front to front and back to back: win both to win,
   one each is a push, copies go to the player-dealer.
7. Settlement starts at the action button and goes clockwise, each wager
   taking its action from the player-dealer's posted bank until it is
   exhausted; uncovered wagers are returned (general rule 6).
8. The player-dealer position passes clockwise after two banks (rule 5).

A misdeal (``controller.rules.pai_gow_poker.deal``) voids the round: every wager returned.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.cards import Card, deck_with_joker
from controller.errors import DecisionRefused, WagerRefused
from controller.money import Cents, Rounding, format_cents
from controller.odds import LOSE, PUSH, Payout, parse_payout
from controller.rules.banking import (
    BankResult,
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
    HandSetting,
    Irregularity,
    OptionError,
    PendingDecision,
    WagerChange,
    Wagers,
    dealt_card,
)
from controller.rules.evaluators import InvalidHand
from controller.rules.fees import SCHEDULES, FeeError, FeeSchedule
from controller.rules.pai_gow_poker.deal import PILE_SIZE, PILES, SEATS, Deal, DiceError, action_seat, pile_order
from controller.rules.pai_gow_poker.hands import (
    WHEELS,
    Comparison,
    FoulHand,
    Outcome,
    SetHand,
    back_value,
    compare,
    describe_back,
    describe_front,
    front_value,
    set_hand,
)
from controller.rules.pai_gow_poker.house_way import DEFAULT_FILE, HouseWay, load_house_way
from controller.settlement import Settlement
from controller.shipped import house_way_file, is_name
from controller.tiles import Piece

PAYOUTS: dict[Outcome, Payout] = {Outcome.WIN: parse_payout("1 to 1"), Outcome.PUSH: PUSH, Outcome.LOSE: LOSE}


@dataclass
class PaiGowRound:
    """One round of Double-Hand Poker as the game sees it."""

    seats: tuple[int, ...]
    player_dealer: int
    bank: Cents
    house_way_seats: frozenset[int]
    deal: Deal = field(default_factory=Deal)
    first_pile: int | None = None
    dice: tuple[int, ...] | None = None
    hands: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    """The seven cards each seat received (every seat gets a pile, played or not)."""
    set_hands: dict[int, SetHand] = field(default_factory=dict)
    set_by_house_way: set[int] = field(default_factory=set)
    player_dealer_hand: SetHand | None = None
    comparisons: dict[int, Comparison] = field(default_factory=dict)
    bank_result: BankResult | None = None

    @property
    def action_seat(self) -> int | None:
        return None if self.dice is None else action_seat(self.player_dealer, self.dice)

    def settlement_order(self) -> list[int]:
        """Seats with wagers, clockwise from the action button."""
        first = self.action_seat or self.player_dealer
        return clockwise_from(first, self.seats, SEATS)


class DoubleHandPoker(PlayerDealerPosition, Game[PaiGowRound]):
    id = "double-hand-poker"
    title = "Double-Hand Poker"
    rules_version = 2
    voids_between_players_from = 2  # 2: a void returns its stakes between the players, not as the house's
    wagers = ("bet", "bank")
    """A player's pai gow wager; the player-dealer's posted bank (on the player-dealer's seat only)."""
    max_spots = SEATS
    device = "shuffler"
    stack_size = 1
    """The shuffler delivers card by card: a pile is seven in a row, and a replacement is one more."""

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.wheel = self._choice("wheel", WHEELS, "lowest")
        self.house_way = self._house_way()
        seat = self.options.get("player_dealer_seat", 1)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= SEATS:
            raise OptionError("player_dealer_seat", f"must be a seat from 1 to {SEATS}, not {seat!r}")
        self.rotation = PlayerDealerRotation(SEATS, seat)
        self.extra_seats = self._groups("extra_seats")
        self.fee_schedules = {"bet": self._schedule("fee_schedule", "pai-gow-player"),
                              "bank": self._schedule("bank_fee_schedule", "pai-gow-player-dealer")}
        self._banked = False
        """Whether a bank was played since the position last moved (a misdeal is no bank)."""

    # -- options --------------------------------------------------------

    def _choice(self, key: str, choices: Sequence[str], default: str) -> str:
        value = self.options.get(key, default)
        if value not in choices:
            raise OptionError(key, f"must be one of {', '.join(choices)}, not {value!r}")
        return str(value)

    def _cents(self, key: str, default: Cents) -> Cents:
        value = self.options.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise OptionError(key, f"must be a whole number of cents, not {value!r}")
        return value

    def _house_way(self) -> HouseWay:
        name = self.options.get("house_way", str(DEFAULT_FILE))
        if not isinstance(name, str) or not name:
            raise OptionError("house_way", f"must name a House Way chart or give its file, not {name!r}")
        path = house_way_file(name) if is_name(name) else Path(name)
        try:
            return load_house_way(path)
        except ValueError as exc:
            raise OptionError("house_way", str(exc)) from None

    def _schedule(self, key: str, default: str) -> FeeSchedule | None:
        name = self.options.get(key, default)
        if name == "none":
            return None
        if name not in SCHEDULES:
            raise OptionError(key, f"unknown fee schedule {name!r}: expected 'none' or one of {', '.join(SCHEDULES)}")
        return SCHEDULES[name]

    def _groups(self, key: str) -> tuple[tuple[int, ...], ...]:
        value = self.options.get(key, [])
        ok = isinstance(value, list) and all(
            isinstance(g, list) and len(g) >= 2 and all(isinstance(s, int) and 1 <= s <= SEATS for s in g) for g in value)
        seats = [s for g in value for s in g] if ok else []
        if not ok or len(seats) != len(set(seats)):
            raise OptionError(key, f"must list groups of seats one player bets on, e.g. [[5, 6]], each seat once, not {value!r}")
        return tuple(tuple(g) for g in value)

    # -- betting and fees -----------------------------------------------

    def deck(self) -> tuple[Card, ...]:
        return deck_with_joker()

    def seat_wagers(self, spot: int) -> tuple[str, ...]:
        """The player-dealer's seat posts the bank; every other seat plays."""
        if spot == self.player_dealer:
            return ("bank",)
        return tuple(w for w in self.wagers if w != "bank")

    def check_spot(self, spot: int, wagers: Mapping[str, Cents]) -> None:
        for wager, amount in wagers.items():
            schedule = self.fee_schedules.get(wager)
            if schedule is not None and amount:
                try:
                    schedule.fee(amount)
                except FeeError as exc:
                    raise WagerRefused(spot, wager, f"no posted collection fee covers it: {exc}") from None

    def fees(self, spots: Sequence[int], wagers: Wagers) -> tuple[Fee, ...]:
        """Seed 003 general rule 2, "Collections are taken in advance": the posted fee on each wager and bank."""
        fees = []
        for (spot, wager), amount in sorted(wagers.items()):
            schedule = self.fee_schedules.get(wager)
            fee = schedule.fee(amount) if schedule is not None and amount else 0
            if schedule is not None and fee:
                fees.append(Fee(spot, fee, f"{schedule.name} collection fee on {format_cents(amount)}"))
        return tuple(fees)

    def new_hand(self, spots: Sequence[int], wagers: Wagers) -> PaiGowRound:
        seats = tuple(s for s in spots if (s, "bet") in wagers)
        bank = wagers[(self.player_dealer, "bank")]
        return PaiGowRound(seats, self.player_dealer, bank, self._house_way_seats(seats))

    def _house_way_seats(self, spots: Sequence[int]) -> frozenset[int]:
        """General rule 12: a player betting on several seats plays one hand; the others go House Way."""
        extra: set[int] = set()
        for group in self.extra_seats:
            played = [s for s in group if s in spots]
            extra.update(played[1:])
        return frozenset(extra)

    # -- cards ----------------------------------------------------------

    def next_target(self, state: PaiGowRound) -> str | None:
        return state.deal.next_target()

    def place(self, state: PaiGowRound, target: str, card: Piece) -> None:
        card = dealt_card(card)
        state.deal.place(target, card)

    def face(self, state: PaiGowRound, target: str, card: Any, position: int) -> Face:
        """"Each hand contains seven cards all dealt face down": a pile's cards stay down until the hands are
        opened and compared (the players' and the player-dealer's), a boxed or exposed card shows, and a pile
        the dice give to a seat without a wager is never opened."""
        if any(card is exposed for _, exposed, _ in state.deal.exposed):
            return Face.UP
        if state.dice is None:
            return Face.UNTIL_REVEAL
        opened = (*state.seats, state.player_dealer)
        return Face.UNTIL_REVEAL if any(card in state.hands.get(seat, ()) for seat in opened) else Face.DOWN

    def spot_of(self, state: PaiGowRound, target: str) -> int | None:
        """A pile shows on the seat the dice gave it to, once they are thrown."""
        if state.dice is None or state.first_pile is None:
            return None
        pile = int(target.rsplit(" ", 1)[1])
        return (action_seat(state.player_dealer, state.dice) - 1 + (pile - state.first_pile) % PILES) % SEATS + 1

    def hand_label(self, state: PaiGowRound, target: str, cards: Sequence[Any]) -> str | None:
        """The hand as set, once it is opened: front and back."""
        seat = self.spot_of(state, target)
        hand = state.player_dealer_hand if seat == state.player_dealer else state.set_hands.get(seat or 0)
        if hand is None or len(cards) < PILE_SIZE:
            return None
        return f"front {describe_front(front_value(hand.front))} · back {describe_back(back_value(hand.back, self.wheel))}"

    def irregularity(self, state: PaiGowRound, report: Irregularity) -> None:
        if report.kind in ("boxed", "exposed") and report.card is not None:
            state.deal.report_exposed(report.kind, dealt_card(report.card))
        elif report.kind == "count" and report.target and report.count is not None:
            state.deal.report_count(int(report.target.split()[-1]), report.count)
        else:
            raise ValueError(f"a report is 'boxed' or 'exposed' with a card, or 'count' with a pile and a count: {report}")

    def misdeal(self, state: PaiGowRound) -> str | None:
        return state.deal.misdeal()

    # -- decisions ------------------------------------------------------

    def moment_words(self, state: PaiGowRound | None, moment: str, pending: PendingDecision | None) -> str | None:
        """The player-dealer picks the first pile and rolls the dice; then each hand is set."""
        if moment != "decisions" or pending is None:
            return None
        if "first-pile" in pending.actions:
            return "Choosing the first pile"
        return "Rolling the dice" if "dice" in pending.actions else "Setting hands"

    def pending_decision(self, state: PaiGowRound) -> PendingDecision | None:
        if state.deal.next_target() is not None:
            return None
        if state.first_pile is None:
            return PendingDecision(state.player_dealer, ("first-pile",), values=((1, PILES),))
        if state.dice is None:
            return PendingDecision(state.player_dealer, ("dice",), values=((1, 6),) * 3)
        for seat in state.settlement_order():
            if seat not in state.set_hands:
                if seat in state.house_way_seats:
                    return PendingDecision(seat, ("house-way",))
                return PendingDecision(seat, ("set", "house-way"), setting=self._setting(state, seat))
        if state.player_dealer_hand is None:
            return PendingDecision(state.player_dealer, ("set", "house-way"), setting=self._setting(state, state.player_dealer))
        return None

    @staticmethod
    def _setting(state: PaiGowRound, seat: int) -> HandSetting:
        """A "set" decision names the two cards in front; the other five are the back hand."""
        return HandSetting(state.hands[seat], 2, "front hand", "back hand")

    def decide(self, state: PaiGowRound, decision: Decision, wagers: Wagers) -> tuple[WagerChange, ...]:
        pending = self.pending_decision(state)
        if pending is None or decision.spot != pending.spot or decision.action not in pending.actions:
            wanted = "nothing" if pending is None else f"seat {pending.spot}: {', '.join(pending.actions)}"
            raise DecisionRefused(decision.spot, decision.action, f"the table waits for {wanted}")
        if decision.action == "first-pile":
            self._first_pile(state, decision)
        elif decision.action == "dice":
            self._dice(state, decision)
        else:
            self._set(state, decision)
        return ()

    def _first_pile(self, state: PaiGowRound, decision: Decision) -> None:
        if len(decision.values) != 1 or not 1 <= decision.values[0] <= PILES:
            raise DecisionRefused(decision.spot, "first-pile", f"name one pile from 1 to {PILES}, not {list(decision.values)}")
        state.first_pile = decision.values[0]

    def _dice(self, state: PaiGowRound, decision: Decision) -> None:
        try:
            seat = action_seat(state.player_dealer, decision.values)
        except DiceError as exc:
            raise DecisionRefused(decision.spot, "dice", str(exc)) from None
        state.dice = tuple(decision.values)
        assert state.first_pile is not None
        seats = [(seat - 1 + i) % SEATS + 1 for i in range(SEATS)]
        for pile, to in zip(pile_order(state.first_pile), seats):
            cards = state.deal.piles[pile - 1]
            if len(cards) != PILE_SIZE:
                raise DecisionRefused(decision.spot, "dice", f"pile {pile} holds {len(cards)} cards")
            state.hands[to] = tuple(cards)

    def _set(self, state: PaiGowRound, decision: Decision) -> None:
        cards = state.hands[decision.spot]
        if decision.action == "house-way":
            setting = self.house_way.set(cards, self.wheel).hand
        else:
            try:
                setting = set_hand(cards, decision.cards, self.wheel)
            except (FoulHand, InvalidHand) as exc:
                who = "the player-dealer" if decision.spot == state.player_dealer else f"seat {decision.spot}"
                raise DecisionRefused(decision.spot, "set", f"{who}: {exc}") from None
        if decision.spot == state.player_dealer:
            state.player_dealer_hand = setting
        else:
            state.set_hands[decision.spot] = setting
        if decision.action == "house-way":
            state.set_by_house_way.add(decision.spot)

    def strategy(self, state: PaiGowRound, pending: PendingDecision, wagers: Wagers) -> Decision:
        """The simulated table: the player-dealer picks a pile and throws the dice at random (seeded by the
        shuffle, so a session replays); players set their own hands the House Way; extra seats ask for it."""
        if pending.actions in (("first-pile",), ("dice",)):
            rng = random.Random(" ".join(c.code for c in state.deal.seen) + pending.actions[0])
            if pending.actions == ("first-pile",):
                return Decision(pending.spot, "first-pile", values=(rng.randint(1, PILES),))
            return Decision(pending.spot, "dice", values=tuple(rng.randint(1, 6) for _ in range(3)))
        if "set" not in pending.actions:
            return Decision(pending.spot, "house-way")
        front = self.house_way.set(state.hands[pending.spot], self.wheel).hand.front
        return Decision(pending.spot, "set", cards=front)

    # -- reveal and settlement ------------------------------------------

    def reveal(self, state: PaiGowRound) -> dict[str, Any]:
        dealer = state.player_dealer_hand
        assert dealer is not None
        state.comparisons = {seat: compare(state.set_hands[seat], dealer, self.wheel) for seat in state.seats}
        return {
            "player_dealer": state.player_dealer,
            "bank": state.bank,
            "first_pile": state.first_pile,
            "dice": list(state.dice or ()),
            "action_seat": state.action_seat,
            "player_dealer_hand": dealer.as_event(),
            "hands": {str(s): {**state.set_hands[s].as_event(), "house_way": s in state.set_by_house_way,
                               "front_result": c.front, "back_result": c.back, "result": c.outcome.value}
                      for s, c in state.comparisons.items()},
        }

    def claims(self, state: PaiGowRound, wagers: Wagers) -> list[Claim]:
        """What the rules give each wager, in settlement order."""
        claims = []
        for seat in state.settlement_order():
            result = state.comparisons[seat]
            stake = wagers.get((seat, "bet"), 0)
            if stake:
                claims.append(Claim(seat, "bet", stake, PAYOUTS[result.outcome],
                                    f"front {result.front}, back {result.back}"))
        return claims

    def settle(self, state: PaiGowRound, wagers: Wagers, rounding: Rounding) -> list[Settlement]:
        """The players' wagers against the bank, then the bank itself: it returns the bank plus the net."""
        records, result = self.against_bank(state, wagers, rounding)
        state.bank_result = result
        records.append(bank_record(state.player_dealer, result))
        self._banked = True
        return records

    def against_bank(self, state: PaiGowRound, wagers: Wagers, rounding: Rounding) -> tuple[list[Settlement], BankResult]:
        """The players' wagers settled in order against the player-dealer's bank."""
        return settle_against_bank(self.claims(state, wagers), state.bank, rounding)

    def settlement_summary(self, state: PaiGowRound) -> dict[str, Any]:
        assert state.bank_result is not None
        return {"player_dealer": state.player_dealer, **state.bank_result.as_event()}

    def pass_position(self, accepts: Callable[[int], bool]) -> dict[str, Any]:
        """General rule 5: the position passes clockwise after every two banks; a misdeal is no bank."""
        before = self.rotation.seat
        if not self._banked:
            return {"player_dealer": before, "bank_button": self.rotation.bank_button, "changed": False,
                    "reason": "no bank was played (misdeal)"}
        self._banked = False
        return super().pass_position(accepts)

    def describe(self, state: PaiGowRound) -> str:
        if state.player_dealer_hand is None:
            return f"player-dealer seat {state.player_dealer}, {state.deal.dealt} cards dealt"
        results = " ".join(f"{s}:{c.outcome.value}" for s, c in state.comparisons.items())
        return f"P/D {state.player_dealer} {state.player_dealer_hand}  dice {sum(state.dice or ())}  {results}"


GAME = DoubleHandPoker
