"""The ``Game`` every card-room poker game shares: posting, dealing, betting, the showdown and the pot.

The house deals but does not bank (seed 003): every chip a player puts in is a
stake of that seat under the one wager ``pot`` (added by decisions as
``WagerChange``s: blinds, bets, calls, raises, all-ins); at the end each seat's
share of each pot comes back in ``Settlement`` records with ``banker="pot"``,
and the house's fee, taken exactly as posted, is the game's ``drop``. What the
pot returns plus the drop equals what was staked, to the cent (the round checks).

The game remembers, between hands, only the dealer button and the kill button.
A voided hand (misdeal) changes neither: it is dealt again with the same button.

Subclasses say how many hole cards, whether there is a draw, and how hands are
valued for high (and low, in a split game).
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from controller.errors import DecisionRefused
from controller.money import Cents, Rounding, format_cents
from controller.rules.base import Decision, Face, Fee, Game, HandSetting, Irregularity, OptionError, PendingDecision, WagerChange, Wagers, dealt_card
from controller.rules.poker import irregularities, strategy
from controller.rules.poker.betting import Structure, clockwise
from controller.rules.poker.fees import SCHEDULES, FeeSchedule
from controller.rules.poker.hand import PokerHand, Step, advance, blinds
from controller.rules.poker.kill import LEG, KillButton
from controller.rules.poker.pots import Pot, award, build_pots, settlements, take_drop
from controller.settlement import Settlement
from controller.tiles import Piece

WAGER = "pot"


class PokerGame(Game[PokerHand]):
    wagers = ()
    device = "shuffler"
    stack_size = 1
    banker = "pot"
    max_spots = 10
    hole_cards: ClassVar[int]
    split_low: ClassVar[bool] = False
    spread_limit: ClassVar[bool] = False
    default_limit: ClassVar[str]
    default_schedule: ClassVar[str | None] = None
    fix_counts: ClassVar[bool] = False
    """A wrong hole-card count: the hold'em misdeal rule, or (Omaha dealing rule 3) fix it and play on."""

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.limit: str = self._option("limit", str, self.default_limit)
        self.chip: Cents = self._option("chip", int, 100)
        if self.chip <= 0:
            raise OptionError("chip", f"the smallest chip must be at least one cent, not {self.chip}")
        self.structure = self._structure()
        amounts = (self.structure.small_blind, self.structure.big_blind, *self.structure.bets, self.structure.spread_min or 0)
        if any(a % self.chip for a in amounts):
            raise OptionError("chip", f"blinds and bets must be whole {self.chip}-cent chips: {amounts}")
        self.schedule = self._schedule()
        leg = self._option("kill_leg", int, LEG)
        if leg <= 0:
            raise OptionError("kill_leg", f"a leg is a pot of at least some cents, not {leg}")
        self.kill: KillButton | None = KillButton(leg) if self._option("kill", bool, False) else None
        self.last_button: int | None = None

    # -- options ----------------------------------------------------------

    def _option(self, key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        value = self.options.get(key, default)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise OptionError(key, f"must be {' or '.join(k.__name__ for k in kinds)}, not {value!r}")
        return value

    def _structure(self) -> Structure:
        try:
            low, high = (int(part) * 100 for part in self.limit.split("-"))
        except ValueError:
            raise OptionError("limit", f"must read like '3-6' (dollars), not {self.limit!r}") from None
        small_blind = self._option("small_blind", int, low // 2 // self.chip * self.chip)
        big_blind = self._option("big_blind", int, low)
        if not 0 <= small_blind <= big_blind <= high:
            raise OptionError("big_blind", f"blinds {small_blind}/{big_blind} cents ({format_cents(small_blind)}/"
                                           f"{format_cents(big_blind)}) do not fit a {self.limit} game")
        try:
            if self.spread_limit:
                return Structure(small_blind, big_blind, (high,) * 2, spread_min=low)
            return Structure(small_blind, big_blind, (low, low, high, high))
        except ValueError as exc:
            raise OptionError("limit", str(exc)) from None

    def _schedule(self) -> FeeSchedule | None:
        name = self._option("fee_schedule", str, self.default_schedule or "none")
        if name == "none":
            return None
        if name not in SCHEDULES:
            raise OptionError("fee_schedule", f"unknown schedule {name!r}: expected one of none, {', '.join(SCHEDULES)}")
        schedule = SCHEDULES[name]
        try:
            schedule.check_limit(self.limit)
        except ValueError as exc:
            raise OptionError("limit", str(exc)) from None
        return schedule

    # -- the rules a game supplies ------------------------------------------

    @abc.abstractmethod
    def script(self, seats: tuple[int, ...]) -> list[Step]:
        """The deal, after the blinds."""

    @abc.abstractmethod
    def high_value(self, hand: PokerHand, seat: int) -> int:
        """The value of a seat's hand for the (only, or high) half of the pot: larger is better."""

    def low_value(self, hand: PokerHand, seat: int) -> int | None:
        """The value of a seat's qualifying low hand, if the game splits the pot and it has one."""
        return None

    @abc.abstractmethod
    def describe_value(self, hand: PokerHand, seat: int) -> str:
        """The seat's hand in words, for the dealer and the log."""

    @abc.abstractmethod
    def strength(self, hand: PokerHand, seat: int) -> float:
        """A rough 0..1 strength of the seat's hand so far, for simulated players only."""

    # -- the Game interface -------------------------------------------------

    def new_hand(self, spots: Sequence[int], wagers: Wagers) -> PokerHand:
        seated = sorted(spots)
        button = clockwise(seated, self.last_button)[0] if self.last_button is not None and seated else (seated or [0])[0]
        seats = clockwise(seated, button)
        killer = self.kill.killer if self.kill and self.kill.killer in seats else None
        structure = self.structure.doubled() if killer is not None else self.structure
        hand = PokerHand(seats, button, structure, len(self.deck()), killer=killer)
        if len(seats) >= 2:
            hand.script = blinds(seats, button, structure, killer) + self.script(seats)
            hand.holes = {seat: [] for seat in seats}
        advance(hand)
        return hand

    def next_target(self, state: PokerHand) -> str | None:
        head = state.script[0] if state.script else None
        return head.target if head is not None and head.kind == "card" else None

    def place(self, state: PokerHand, target: str, card: Piece) -> None:
        card = dealt_card(card)
        if self.next_target(state) != target:
            raise ValueError(f"no card is due at {target!r} (due: {self.next_target(state)})")
        if card not in self.deck():
            raise ValueError(f"{card} is not a card of this game's deck")
        if card in state.seen:
            raise ValueError(f"{card} has already been dealt in this hand")
        kind, _, seat = target.partition(":")
        if kind in ("hole", "draw"):
            state.holes[int(seat)].append(card)
        elif kind == "burn":
            state.burns.append(card)
        else:
            state.board.append(card)
        state.seen.add(card)
        state.last_card = (target, card)
        state.script.pop(0)
        advance(state)

    def face(self, state: PokerHand, target: str, card: Any, position: int) -> Face:
        """Board cards are turned face up; hole cards stay down, and are shown only at a showdown, by the
        players still in the pot; burns, discards and folded hands are never shown."""
        kind, _, seat = target.partition(":")
        if kind not in ("hole", "draw", "burn"):
            return Face.UP
        if kind == "burn" or card in state.discards or int(seat) not in state.in_pot or len(state.in_pot) < 2:
            return Face.DOWN
        return Face.UNTIL_REVEAL

    def hand_label(self, state: PokerHand, target: str, cards: Sequence[Any]) -> str | None:
        """At the showdown, each hand shown as the game reads it (the best five, or the low)."""
        kind, _, seat = target.partition(":")
        return self.describe_value(state, int(seat)) if kind in ("hole", "draw") and cards else None

    def moment_words(self, state: PokerHand | None, moment: str, pending: PendingDecision | None) -> str | None:
        """Blinds and antes posted, a betting round, a draw; the hands shown down."""
        if moment == "reveal":
            return "Showdown"
        if moment != "decisions" or pending is None:
            return None
        if "post" in pending.actions:
            return "Posting blinds"
        return "Players drawing" if "draw" in pending.actions else "Players betting"

    def pending_decision(self, state: PokerHand) -> PendingDecision | None:
        head = state.script[0] if state.script else None
        if head is None or head.kind == "card":
            return None
        if head.kind == "post":
            return PendingDecision(head.seat, ("post",))
        if head.kind == "draw":
            hole = tuple(state.holes[head.seat])
            return PendingDecision(head.seat, ("draw",), setting=HandSetting(hole, len(hole), "discard", "keep", "draw"))
        assert state.betting is not None
        seat = state.betting.next_to_act()
        return None if seat is None else PendingDecision(seat, state.betting.legal(seat), amounts=state.betting.offered(seat))

    def decide(self, state: PokerHand, decision: Decision, wagers: Wagers) -> tuple[WagerChange, ...]:
        pending = self.pending_decision(state)
        if pending is None or pending.spot != decision.spot:
            raise DecisionRefused(decision.spot, decision.action, f"no decision is due from this seat (due: {pending})")
        if decision.amount is not None and decision.amount % self.chip:
            raise DecisionRefused(decision.spot, decision.action, f"{format_cents(decision.amount)} is not in whole {format_cents(self.chip)} chips")
        head = state.script[0]
        if head.kind == "post":
            chips = self._post(state, head, decision)
        elif head.kind == "draw":
            chips = self._draw(state, head, decision)
        else:
            assert state.betting is not None
            chips = state.betting.act(decision.spot, decision.action, decision.amount)
            state.actions += 1
        state.chips(decision.spot, chips)
        advance(state)
        return (WagerChange(decision.spot, WAGER, chips),) if chips else ()

    def _post(self, state: PokerHand, step: Step, decision: Decision) -> Cents:
        if decision.action != "post":
            raise DecisionRefused(decision.spot, decision.action, f"the {step.blind} must be posted first")
        amount = step.amount if decision.amount is None else decision.amount
        if not 0 < amount <= step.amount:
            raise DecisionRefused(decision.spot, "post", f"the {step.blind} is {format_cents(step.amount)} (less only all-in), not {format_cents(amount)}")
        if amount < step.amount:
            state.all_in.add(decision.spot)  # Blinds rule 15: a short blind plays as if posted in full
        state.posted.append((decision.spot, amount, step.amount))
        state.script.pop(0)
        return amount

    def _draw(self, state: PokerHand, step: Step, decision: Decision) -> Cents:
        if decision.action != "draw":
            raise DecisionRefused(decision.spot, decision.action, "this seat must draw (or stand pat: draw no cards)")
        hole = state.holes[step.seat]
        if len(set(decision.cards)) != len(decision.cards) or any(c not in hole for c in decision.cards):
            raise DecisionRefused(step.seat, "draw", f"may discard only cards of the hand {' '.join(map(str, hole))}")
        if len(decision.cards) > state.stub - 1:
            raise DecisionRefused(step.seat, "draw", f"the stub has {state.stub - 1} cards to deal; the discards must be "
                                  "reshuffled for more, which this table does not support")
        for card in decision.cards:
            hole.remove(card)
        state.discards.extend(decision.cards)
        state.script[:1] = [Step("card", target=f"draw:{step.seat}") for _ in decision.cards]
        return 0

    def strategy(self, state: PokerHand, pending: PendingDecision, wagers: Wagers) -> Decision:
        return strategy.choose(self, state, pending)

    def reveal(self, state: PokerHand) -> dict[str, Any]:
        shown = state.in_pot if len(state.in_pot) > 1 else ()
        return {
            "button": state.button,
            "board": [c.code for c in state.board],
            "hands": {str(s): {"cards": [c.code for c in state.holes[s]], "hand": self.describe_value(state, s)} for s in shown},
            "kill": state.killer,
        }

    def irregularity(self, state: PokerHand, report: Irregularity) -> None:
        irregularities.apply(state, report, self.deck(), fix_counts=self.fix_counts)
        advance(state)

    def misdeal(self, state: PokerHand) -> str | None:
        return state.misdeal

    def table_roles(self) -> dict[str, Any]:
        """The dealer button and the kill button, so a restarted table deals on from where it was."""
        roles: dict[str, Any] = {"button": self.last_button}
        if self.kill is not None:
            roles.update(self.kill.as_event())
        return roles

    def restore_roles(self, roles: Mapping[str, Any]) -> None:
        self.last_button = roles.get("button")
        if self.kill is not None:
            self.kill.holder, self.kill.killer = roles.get("kill_button"), roles.get("killer")

    # -- the showdown and the pot ---------------------------------------------

    def settle(self, state: PokerHand, wagers: Wagers, rounding: Rounding) -> list[Settlement]:
        if len(state.seats) < 2:
            return []  # no hand was dealt: neither the button nor the kill button moves
        pots, back = build_pots(state.put_in, state.in_pot, state.seats)
        size = sum(p.amount for p in pots)
        state.drop = self._drop(state, size)
        pots = take_drop(pots, sum(f.amount for f in state.drop))
        awards = [self._award(state, pot) for pot in pots]
        won: dict[int, Cents] = {}
        for shares in awards:
            for seat, amount in shares.items():
                won[seat] = won.get(seat, 0) + amount
        winners = [s for s, a in won.items() if a]
        if self.kill is not None:
            self.kill.hand_won(winners[0] if len(winners) == 1 else None, size)
        self.last_button = state.button
        state.result = {"pots": [(p.name, p.amount, list(p.eligible)) for p in pots], "won": won,
                        "uncalled": back, "drop": sum(f.amount for f in state.drop)}
        return settlements(pots, awards, back, wager=WAGER)

    def drop(self, state: PokerHand) -> tuple[Fee, ...]:
        return state.drop

    def _drop(self, state: PokerHand, pot: Cents) -> tuple[Fee, ...]:
        """The posted fees due for how far the hand went, never more than the pot holds."""
        if self.schedule is None:
            return ()
        due = self.schedule.drop(self.limit, players=len(state.seats), flop=len(state.board) >= 3, river=len(state.board) == 5)
        fees = []
        for fee in due:
            taken = min(fee.amount, pot)
            pot -= taken
            if taken:
                fees.append(Fee(fee.spot, taken, fee.reason if taken == fee.amount else f"{fee.reason} (all the pot held)"))
        return tuple(fees)

    def _award(self, state: PokerHand, pot: Pot) -> dict[int, Cents]:
        if len(pot.eligible) == 1 or not pot.amount:
            return {pot.eligible[0]: pot.amount} if pot.eligible else {}
        high = _best(pot.eligible, lambda s: self.high_value(state, s))
        lows = {s: v for s in pot.eligible if (v := self.low_value(state, s)) is not None}
        low = _best(tuple(lows), lows.__getitem__) if lows else ()
        return award(pot, high, low, chip=self.chip)

    def describe(self, state: PokerHand) -> str:
        board = f" board {' '.join(map(str, state.board))}" if state.board else ""
        won = ", ".join(f"seat {s} {format_cents(a)}" for s, a in state.result.get("won", {}).items() if a)
        return f"button {state.button}{board} -> {won or 'no hand'}"


def _best(seats: tuple[int, ...], value: Any) -> tuple[int, ...]:
    """The seats holding the best value, in the given (clockwise) order."""
    values = {s: value(s) for s in seats}
    top = max(values.values())
    return tuple(s for s in seats if values[s] == top)
