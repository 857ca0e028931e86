"""One round of any game, on a shared ``transitions`` state machine.

::

    idle -> betting -> no_more_bets -> dealing -> decisions -> reveal -> settling -> complete
                                          \\___________________/^
    any active state -> hold -> (back where it was)          any open state -> void

The game supplies the rules (``controller.rules.base.Game``); the round owns
the wagers, the cards, the decisions and the money, and logs every one of them
once. It moves on by itself when the game needs nothing more in a state:
dealing ends when the game wants no further card, decisions end when nobody is
left to decide, the reveal ends when the dealer's cards are in.

A card that arrives when none is due is never dropped: it is logged as a
fault, kept in ``stray_cards``, and the round goes to ``hold`` for the dealer.
An optional ``card_witness`` is asked after every card is placed, and an
optional ``witness`` before settling (the overhead camera, see
``controller.engine.camera``); any doubt either names holds the round too, the card
kept where it was placed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, TypedDict, TypeVar

from transitions import Machine, MachineError

from controller.engine import jackpot
from controller.engine.log import EventLog
from controller.errors import CardRefused, IllegalAction, WagerRefused
from controller.events import (
    UNSET,
    BettingClosed,
    CardBurned,
    CardCorrected,
    CardDealt,
    CardFaulted,
    DecisionRefusal,
    DecisionTaken,
    Event,
    FeeCollected,
    HoldReasonAdded,
    IrregularityRefusal,
    IrregularityReported,
    PlayerSeated,
    Revealed,
    RoundCompleted,
    RoundHeld,
    RoundResumed,
    RoundStarted,
    RoundVoided,
    SettlementSummarized,
    StateChanged,
    WagerChanged,
    WagerPlaced,
    WagerRefusal,
    WagerSettled,
    stamped,
)
from controller.money import Cents, Rounding, format_cents
from controller.odds import PUSH
from controller.rules.base import Decision, Face, Fee, Game, Irregularity, JackpotClaim, PendingDecision
from controller.settlement import Settlement, settle
from controller.tiles import Piece

ACTIVE = ["betting", "no_more_bets", "dealing", "decisions", "reveal", "settling"]
STATES = ["idle", *ACTIVE, "complete", "hold", "void"]
#: The states a round ends in: settled, or voided. A round in any other state is in play.
FINISHED = ("complete", "void")

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "open_betting", "source": "idle", "dest": "betting"},
    {"trigger": "no_more_bets", "source": "betting", "dest": "no_more_bets"},
    {"trigger": "begin_dealing", "source": "no_more_bets", "dest": "dealing"},
    {"trigger": "begin_decisions", "source": "dealing", "dest": "decisions"},
    {"trigger": "begin_reveal", "source": ["dealing", "decisions"], "dest": "reveal"},
    {"trigger": "begin_settling", "source": "reveal", "dest": "settling"},
    {"trigger": "finish", "source": "settling", "dest": "complete"},
    {"trigger": "hold", "source": ACTIVE, "dest": "hold", "before": "_remember_state"},
    *[
        {"trigger": "resume", "source": "hold", "dest": state, "conditions": f"_was_{state}"}
        for state in ACTIVE
    ],
    {"trigger": "void", "source": [*ACTIVE, "hold"], "dest": "void"},
]


Method = TypeVar("Method", bound=Callable[..., Any])
E = TypeVar("E", bound=Event)


class _Totals(TypedDict):
    """A round's totals as ``RoundCompleted`` and ``RoundVoided`` carry them."""

    wagered: Cents
    paid: Cents
    fees: Cents
    house_win: Cents
    between_players: Cents


def _journaled_together(method: Method) -> Method:
    """The events one call emits are journaled in one transaction before any of them is published.

    Every input (a wager, "no more bets", a card, a decision, a hold, a void) and
    everything it sets off (the reveal, the settlement) is durable as a whole or
    not at all; see ``EventLog.atomic``.
    """

    @functools.wraps(method)
    def wrapper(self: Round, *args: Any, **kwargs: Any) -> Any:
        with self.log.atomic():
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


class Limits:
    """Table limits per wager name, in cents."""

    def __init__(self, limits: Mapping[str, tuple[Cents, Cents]]) -> None:
        self._limits = dict(limits)

    def check(self, spot: int, wager: str, amount: Cents) -> None:
        if wager not in self._limits:
            return
        low, high = self._limits[wager]
        if not low <= amount <= high:
            raise WagerRefused(spot, wager, f"{format_cents(amount)} is outside the table limits {format_cents(low)} to {format_cents(high)}")

    def __getitem__(self, wager: str) -> tuple[Cents, Cents]:
        return self._limits[wager]

    def get(self, wager: str) -> tuple[Cents, Cents] | None:
        return self._limits.get(wager)


class Round:
    """A round's state machine, wagers, cards and settlement."""

    state: str

    def __init__(
        self,
        round_id: str,
        game: Game[Any],
        log: EventLog,
        *,
        spots: int,
        limits: Limits,
        rounding: Rounding = Rounding.PLAYER,
        burns: int = 0,
    ) -> None:
        self.id = round_id
        self.game = game
        self.log = log
        self.spots = spots
        self.limits = limits
        self.rounding = rounding
        self.burns_due = burns
        self.wagers: dict[tuple[int, str], Cents] = {}
        self.seated: set[int] = set()
        self.cards: list[tuple[str, Piece, str]] = []
        self.stray_cards: list[tuple[Piece, str, str]] = []
        self.decisions: list[Decision] = []
        self.reports: list[Irregularity] = []
        self.fees: list[Fee] = []
        self.settlements: list[Settlement] = []
        self.hand: Any = None
        self.witness: Callable[[Round], str | None] | None = None
        self.card_witness: Callable[[Round], str | None] | None = None
        self.jackpot_claims: dict[int, JackpotClaim] = {}
        self.jackpot_awards: dict[int, dict[str, Any]] = {}
        """Claims on a jackpot linked across tables, by spot, and the floor's awards (``controller.engine.jackpot``)."""
        self.hold_reason: str | None = None
        self.hold_reasons: list[str] = []
        """Every reason the round is held for now, the first one first (what the hold screen shows)."""
        self.revealed = False
        """Whether the round went through its reveal (cards face down until then are turned up)."""
        self._held_from: str | None = None
        self.machine = Machine(
            model=self,
            states=STATES,
            transitions=TRANSITIONS,
            initial="idle",
            auto_transitions=False,
            after_state_change="_log_state",
        )
        for state in ACTIVE:
            setattr(self, f"_was_{state}", lambda s=state: self._held_from == s)
        log.screens.track(self)

    @property
    def held_from(self) -> str | None:
        """The state a held round was in when it was put on hold."""
        return self._held_from

    # -- the machine ----------------------------------------------------

    def _fire(self, trigger: str, **fields: Any) -> None:
        try:
            getattr(self, trigger)()
        except MachineError:
            raise IllegalAction(f"round {self.id}: cannot {trigger.replace('_', ' ')} while {self.state}") from None

    def _remember_state(self) -> None:
        self._held_from = self.state

    def _log_state(self) -> None:
        self.emit(StateChanged(state=self.state))

    def emit(self, event: E) -> E:
        """Log one of the round's own events, stamped with the round and the game."""
        return self.log.emit(stamped(event, round=self.id, game=self.game.id))

    # -- betting --------------------------------------------------------

    @_journaled_together
    def start(self) -> None:
        """Open betting."""
        rules = self.game.rules_version
        self.emit(RoundStarted(spots=self.spots, rounding=self.rounding.value, options=dict(self.game.options),
                               roles=self.game.table_roles(), rules=rules if rules != 1 else UNSET))
        self._fire("open_betting")

    @_journaled_together
    def place_wager(self, spot: int, wager: str, amount: Cents) -> None:
        """Place or correct a wager while betting is open; an amount of 0 takes it back."""
        if self.state != "betting":
            reason = "no more bets" if self.state in (*ACTIVE, "hold") else f"round is {self.state}"
            self.emit(WagerRefusal(spot=spot, wager=wager, amount=amount, reason=reason))
            raise WagerRefused(spot, wager, reason)
        try:
            self._check_wager(spot, wager, amount)
        except WagerRefused as exc:
            self.emit(WagerRefusal(spot=spot, wager=wager, amount=amount, reason=exc.reason))
            raise
        previous = self.wagers.pop((spot, wager), 0)
        if amount:
            self.wagers[(spot, wager)] = amount
        placed = WagerPlaced if not previous else WagerChanged
        self.emit(placed(spot=spot, wager=wager, amount=amount, previous=previous))

    def sit(self, spot: int) -> None:
        """Deal a spot in without a wager on the layout: games whose stakes all come from decisions (poker's blinds)."""
        if self.state != "betting":
            raise IllegalAction(f"round {self.id}: cannot seat spot {spot} while {self.state}")
        if not 1 <= spot <= self.spots:
            raise WagerRefused(spot, "seat", f"no such spot: this table has spots 1 to {self.spots}")
        self.seated.add(spot)
        self.emit(PlayerSeated(spot=spot))

    def _check_wager(self, spot: int, wager: str, amount: Cents) -> None:
        if not 1 <= spot <= self.spots:
            raise WagerRefused(spot, wager, f"no such spot: this table has spots 1 to {self.spots}")
        if wager not in self.game.wagers:
            raise WagerRefused(spot, wager, f"{self.game.title} takes no {wager!r} wager (it takes {', '.join(self.game.wagers)})")
        allowed = self.game.seat_wagers(spot)
        if wager not in allowed:
            raise WagerRefused(spot, wager, f"spot {spot} takes only {', '.join(allowed) or 'no wager'} this round")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise WagerRefused(spot, wager, f"amount must be a whole number of cents, not {amount!r}")
        if amount:
            self.limits.check(spot, wager, amount)

    @_journaled_together
    def close_betting(self) -> None:
        """"No more bets": check each spot's wagers together, then deal."""
        if self.state != "betting":
            raise IllegalAction(f"round {self.id}: cannot close betting while {self.state}")
        for spot in sorted({s for s, _ in self.wagers}):
            spot_wagers = {w: a for (s, w), a in self.wagers.items() if s == spot}
            try:
                self.game.check_spot(spot, spot_wagers)
            except WagerRefused as exc:
                self.emit(WagerRefusal(spot=spot, wager=exc.wager, amount=spot_wagers.get(exc.wager), reason=exc.reason))
                raise
        try:
            self.game.check_table(self.wagers)
        except WagerRefused as exc:
            self.emit(WagerRefusal(spot=exc.spot, wager=exc.wager, amount=None, reason=exc.reason))
            raise
        self._fire("no_more_bets")
        self.emit(BettingClosed(wagers=len(self.wagers), total=sum(self.wagers.values())))
        spots = sorted({s for s, _ in self.wagers} | self.seated)
        for fee in self.game.fees(spots, self.wagers):
            self.fees.append(fee)
            self.emit(FeeCollected(spot=fee.spot, amount=fee.amount, reason=fee.reason))
        self.hand = self.game.new_hand(spots, self.wagers)
        self._fire("begin_dealing")
        self._advance()

    # -- cards ----------------------------------------------------------

    def faces(self) -> list[Face]:
        """How each of ``cards`` lies now by the game's rules (``Game.face``); burns lie face down for good."""
        out: list[Face] = []
        dealt: dict[str, int] = {}
        for target, card, _ in self.cards:
            position = dealt[target] = dealt.get(target, -1) + 1
            out.append(Face.DOWN if target == "burn" else self.game.face(self.hand, target, card, position))
        return out

    def face_down(self) -> set[int]:
        """Which of ``cards`` lie face down now: ``DOWN``, or ``UNTIL_REVEAL`` before the reveal."""
        return {i for i, face in enumerate(self.faces())
                if face is Face.DOWN or (face is Face.UNTIL_REVEAL and not self.revealed)}

    def card_target(self) -> str | None:
        """Where the next card goes now, or ``None`` when the round expects none."""
        if self.state not in ("dealing", "decisions", "reveal"):
            return None
        if self.burns_due:
            return "burn"
        return self.game.next_target(self.hand)

    @_journaled_together
    def card(self, card: Piece, source: str = "shoe") -> str:
        """A card came from a device or the dealer. Returns where it went."""
        target = self.card_target()
        if target is None:
            reason = f"no card is due while {self.state}"
            self.stray_cards.append((card, source, reason))
            self.emit(CardFaulted(card=card.code, source=source, reason=reason))
            if self.state in ACTIVE:
                self.put_on_hold(f"unexpected card {card.code} from {source}")
            return "stray"
        if target == "burn":
            self.burns_due -= 1
            self.cards.append((target, card, source))
            self.emit(CardBurned(card=card.code, source=source))
        else:
            try:
                self.game.place(self.hand, target, card)
            except ValueError as exc:
                self.stray_cards.append((card, source, str(exc)))
                self.emit(CardFaulted(card=card.code, source=source, reason=str(exc)))
                self.put_on_hold(f"card {card.code} cannot be placed: {exc}")
                raise CardRefused(str(exc)) from exc
            self.cards.append((target, card, source))
            self.emit(CardDealt(card=card.code, target=target, source=source))
            doubt = self.card_witness(self) if self.card_witness is not None else None
            if doubt is not None:
                self.put_on_hold(doubt)
                return target
        self._advance()
        return target

    @_journaled_together
    def correct_card(self, index: int, card: Piece, reason: str) -> None:
        """A card already placed was misread (the camera or the dealer says so): ``card`` takes its place.

        The game's hand is dealt again from the corrected cards, so only before
        the first decision and any irregularity report, and only if the deal
        goes exactly as it did (a correction that would change where later cards
        go is refused: void the round instead). Past the reveal, the reveal is
        announced again.
        """
        where = self._held_from if self.state == "hold" else self.state
        if where not in ("dealing", "decisions", "reveal"):
            raise IllegalAction(f"round {self.id}: no card can be corrected while {self.state}")
        if not 0 <= index < len(self.cards):
            raise IllegalAction(f"round {self.id}: there is no card {index + 1} (the round has {len(self.cards)})")
        if self.decisions or self.reports:
            raise IllegalAction(f"round {self.id}: a placed card can be corrected only before the first decision "
                                "or report: void the round instead")
        target, previous, _ = self.cards[index]
        cards = [(t, card if i == index else c) for i, (t, c, _) in enumerate(self.cards)]
        hand = self._dealt_again(cards) if target != "burn" else self.hand
        self.hand = hand
        self.cards[index] = (target, card, "supervisor")
        self.emit(CardCorrected(index=index, target=target, card=card.code, previous=previous.code, reason=reason))
        if where == "reveal":
            self.emit(Revealed(details=self.game.reveal(self.hand)))

    def _dealt_again(self, cards: list[tuple[str, Piece]]) -> Any:
        """A fresh hand with ``cards`` placed where they went; refused (the round unchanged) if the deal differs."""
        spots = sorted({s for s, _ in self.wagers} | self.seated)
        hand = self.game.new_hand(spots, self.wagers)
        for target, card in cards:
            if target == "burn":
                continue
            due = self.game.next_target(hand)
            if due != target:
                raise IllegalAction(f"round {self.id}: with the correction the deal changes ({card.code} would go to "
                                    f"{due or 'no one'}, not {target}): void the round instead")
            try:
                self.game.place(hand, target, card)
            except ValueError as exc:
                raise IllegalAction(f"round {self.id}: the correction cannot stand: {exc}") from None
        if self.game.next_target(hand) != self.game.next_target(self.hand):
            raise IllegalAction(f"round {self.id}: with the correction the deal changes (the next card would go to "
                                f"{self.game.next_target(hand) or 'no one'}): void the round instead")
        return hand

    # -- decisions ------------------------------------------------------

    def pending_decision(self) -> PendingDecision | None:
        return self.game.pending_decision(self.hand) if self.state == "decisions" else None

    @_journaled_together
    def decide(self, decision: Decision) -> None:
        if self.state != "decisions":
            raise IllegalAction(f"round {self.id}: no decision is taken while {self.state}")
        if self.card_target() is not None:
            raise IllegalAction(f"round {self.id}: a card is due at {self.card_target()} before the next decision")
        try:
            changes = self.game.decide(self.hand, decision, self.wagers)
        except ValueError as exc:
            self.emit(DecisionRefusal(**decision.as_event(), reason=str(exc)))
            raise
        self.decisions.append(decision)
        self.emit(DecisionTaken(**decision.as_event()))
        for change in changes:
            previous = self.wagers.get((change.spot, change.wager), 0)
            self.wagers[(change.spot, change.wager)] = previous + change.amount
            self.emit(WagerPlaced(spot=change.spot, wager=change.wager, amount=change.amount, previous=previous,
                                  by="decision"))
        self._advance()

    # -- moving on ------------------------------------------------------

    def report(self, irregularity: Irregularity) -> None:
        """The dealer (or the camera) reports a boxed or exposed card, a wrong count or a card turned early; it may
        void the round. A round held for stray cards resumes once every stray card has been accounted for."""
        if self.state not in ("dealing", "decisions", "reveal", "hold"):
            raise IllegalAction(f"round {self.id}: nothing is dealt while {self.state}")
        try:
            self.game.irregularity(self.hand, irregularity)
        except ValueError as exc:
            self.emit(IrregularityRefusal(**irregularity.as_event(), reason=str(exc)))
            raise
        self.emit(IrregularityReported(**irregularity.as_event()))
        self.reports.append(irregularity)
        if irregularity.card is not None:
            self.stray_cards = [s for s in self.stray_cards if s[0] is not irregularity.card]
        if self.state == "hold" and not self.stray_cards:
            self.release(by="irregularity")
        else:
            self._advance()

    def _advance(self) -> None:
        """Move to the next state while the game needs nothing more in this one; void it on a misdeal."""
        while True:
            if self.state in ("dealing", "decisions", "reveal"):
                misdeal = self.game.misdeal(self.hand)
                if misdeal:
                    self.void_round(f"misdeal: {misdeal}")
                    return
            if self.card_target() is not None:
                return
            if self.state == "dealing":
                if self.game.pending_decision(self.hand) is not None:
                    self._fire("begin_decisions")
                else:
                    self._enter_reveal()
            elif self.state == "decisions":
                if self.game.pending_decision(self.hand) is not None:
                    return
                self._enter_reveal()
            elif self.state == "reveal":
                doubt = self.witness(self) if self.witness is not None else None
                if doubt is not None:
                    self.put_on_hold(doubt)
                    return
                waiting = jackpot.hold_reason(self)
                if waiting is not None:
                    self.put_on_hold(waiting)
                    return
                self._settle()
                return
            else:
                return

    def _enter_reveal(self) -> None:
        self._fire("begin_reveal")
        self.revealed = True
        self.emit(Revealed(details=self.game.reveal(self.hand)))

    @_journaled_together
    def _settle(self) -> None:
        self._fire("begin_settling")
        records = self.game.settle(self.hand, self.wagers, self.rounding)
        self._check_every_wager_settled(records)
        drop = self.game.drop(self.hand)
        self._check_pot_balances(records, drop)
        for fee in drop:
            self.fees.append(fee)
            self.emit(FeeCollected(spot=fee.spot, amount=fee.amount, reason=fee.reason, from_pot=True))
        for record in records:
            self.settlements.append(record)
            self.emit(WagerSettled.of(record))
        summary = self.game.settlement_summary(self.hand)
        if summary:
            self.emit(SettlementSummarized(details=summary))
        self._fire("finish")
        self.emit(RoundCompleted(**self._totals()))

    def _check_every_wager_settled(self, records: list[Settlement]) -> None:
        settled: dict[tuple[int, str], Cents] = {}
        for r in records:
            settled[(r.spot, r.wager)] = settled.get((r.spot, r.wager), 0) + r.stake
        if settled != self.wagers:
            raise AssertionError(f"round {self.id}: settlement does not cover the wagers exactly: {settled} != {self.wagers}")

    def _check_pot_balances(self, records: list[Settlement], drop: tuple[Fee, ...]) -> None:
        """A players' pot returns everything staked into it, less the drop the house takes, to the cent."""
        staked = sum(r.stake for r in records if r.banker == "pot")
        returned = sum(r.returned for r in records if r.banker == "pot")
        if staked - returned != sum(f.amount for f in drop):
            raise AssertionError(f"round {self.id}: the pot does not balance: staked {staked}, returned {returned}, "
                                 f"drop {sum(f.amount for f in drop)}")

    # -- faults and misdeals --------------------------------------------

    @_journaled_together
    def put_on_hold(self, reason: str) -> None:
        if self.state == "hold":
            self.hold_reasons.append(reason)
            self.emit(HoldReasonAdded(reason=reason))
            return
        self.hold_reason = reason
        self.hold_reasons = [reason]
        self._fire("hold")
        self.emit(RoundHeld(reason=reason, held_from=self._held_from))

    @_journaled_together
    def release(self, by: str = "dealer") -> None:
        """Resume a held round where it stopped."""
        if self.state != "hold":
            raise IllegalAction(f"round {self.id}: cannot resume while {self.state}")
        self._fire("resume")
        self.emit(RoundResumed(by=by, reason=self.hold_reason))
        self.hold_reason = None
        self.hold_reasons = []
        self._advance()

    @_journaled_together
    def void_round(self, reason: str) -> None:
        """Misdeal: every wager is returned whole, and the round ends as void."""
        self._fire("void")
        records = [settle(s, w, a, PUSH, self.rounding, reason=f"void: {reason}", banker=self.game.void_banker())
                   for (s, w), a in self.wagers.items()]
        for record in records:
            self.settlements.append(record)
            self.emit(WagerSettled.of(record))
        self.emit(RoundVoided(reason=reason, **self._totals()))

    # -- money ----------------------------------------------------------

    def _totals(self) -> _Totals:
        t = self.totals()
        return {"wagered": t["wagered"], "paid": t["paid"], "fees": t["fees"], "house_win": t["house_win"],
                "between_players": t["between_players"]}

    def totals(self) -> dict[str, Cents]:
        house = [s for s in self.settlements if s.banker == "house"]
        wagered = sum(s.stake for s in house)
        paid = sum(s.returned for s in house)
        fees = sum(f.amount for f in self.fees)
        between = sum(s.stake for s in self.settlements if s.banker != "house")
        return {"wagered": wagered, "paid": paid, "fees": fees, "house_win": wagered - paid + fees,
                "between_players": between}
