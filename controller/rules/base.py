"""What a game supplies to the shared round engine.

The round engine (``controller.engine.round``) owns the state machine, the wagers,
the event log and the money; a game owns only its rules. A game is pure: no
devices, no logging, no clock. The engine asks it, at each step:

- which wagers may be placed, and whether a spot's wagers go together;
- where the next card goes (``next_target``), and places it there;
- whose decision is pending and which actions are legal; applies a decision
  (which may add a wager: a Bet, a Raise, a double);
- what the reveal shows (the dealer's hand, whether it qualifies);
- how every wager settles, in the order the rules settle them.

Spots are numbered from 1 at the dealer's left ("first base") clockwise.
"""

from __future__ import annotations

import abc
import enum
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from controller.cards import Card
from controller.money import Cents, Rounding
from controller.settlement import Settlement
from controller.tiles import Piece

State = TypeVar("State")
SPOT_TARGET = re.compile(r"^(?:seat|spot |hole:|draw:)?(\d+)(?:\.\d+)?$")
"""A card target that is a spot's hand: ``seat3``, ``spot 3``, ``3.1`` (a blackjack seat's second hand), ``hole:3``."""


class Face(enum.Enum):
    """How a dealt card lies, by the game's rules: what decides whether any screen may show it."""

    UP = "up"
    """Dealt face up (or turned up already): every screen may show it."""
    UNTIL_REVEAL = "until reveal"
    """Face down until the round's reveal turns it (the dealer's hand, the hands compared at the showdown)."""
    DOWN = "down"
    """Face down for good: burns, discards, folded hands, hands that are never compared."""
Wagers = Mapping[tuple[int, str], Cents]
"""Stakes on the layout, by (spot, wager name)."""


class OptionError(ValueError):
    """A game option that is missing, unknown or out of range; ``key`` names it."""

    def __init__(self, key: str, reason: str) -> None:
        self.key, self.reason = key, reason
        super().__init__(f"{key}: {reason}")


@dataclass(frozen=True, slots=True)
class Decision:
    """A player's decision as entered at the table."""

    spot: int
    action: str
    amount: Cents | None = None
    cards: tuple[Any, ...] = ()
    """Cards (or tiles) the decision names: a discard, the cards of a hand being set."""
    hand: int = 0
    values: tuple[int, ...] = ()
    """Numbers the decision carries, e.g. the three dice the player-dealer threw."""

    def as_event(self) -> dict[str, Any]:
        return {
            "spot": self.spot,
            "action": self.action,
            "amount": self.amount,
            "cards": [c.code for c in self.cards],
            "hand": self.hand,
            "values": list(self.values),
        }


@dataclass(frozen=True, slots=True)
class HandSetting:
    """What a decision that names cards splits: ``cards`` in two; the decision's ``cards`` name the ``named`` part.

    Pai gow poker's ``set`` names its two-card front (the rest is the five-card
    back), Pai Gow Tiles' its two-tile high hand (the rest is the low hand); a
    draw names up to ``count`` discards (the rest is kept).
    """

    cards: tuple[Any, ...]
    count: int
    named: str
    rest: str
    action: str = "set"


@dataclass(frozen=True, slots=True)
class PendingDecision:
    """The decision the table waits for: whose, and which actions are legal.

    The optional fields tell a dealer's console what to offer beside the
    action buttons; the game still checks every decision itself.
    """

    spot: int
    actions: tuple[str, ...]
    hand: int = 0
    amounts: tuple[tuple[str, Cents], ...] = ()
    """Amounts offered as buttons, each with its action: High Card Flush's raise at 1x, 2x, 3x the Ante."""
    values: tuple[tuple[int, int], ...] = ()
    """The numbers the (single) action carries, each as (lowest, highest): three dice are three ``(1, 6)``."""
    setting: HandSetting | None = None
    """For the action ``setting.action`` names: the cards the seat splits in two."""


@dataclass(frozen=True, slots=True)
class WagerChange:
    """A wager added (or raised) by a decision, e.g. Top 5 Poker's Bet equal to the Ante."""

    spot: int
    wager: str
    amount: Cents


@dataclass(frozen=True, slots=True)
class Fee:
    """A fee the house takes: a collection before the deal (California games), or a drop out of the pot.

    A drop taken out of a players' pot (``Game.drop``) has ``spot`` 0: no one
    seat pays it, the pot does.
    """

    spot: int
    amount: Cents
    reason: str


@dataclass(frozen=True, slots=True)
class Irregularity:
    """Something reported on the deal: a ``boxed`` or ``exposed`` card, a pile with the wrong ``count``, or a
    card turned up before its time (``premature``, card-room poker)."""

    kind: str
    card: Piece | None = None
    target: str | None = None
    count: int | None = None

    def as_event(self) -> dict[str, Any]:
        return {"kind": self.kind, "card": self.card.code if self.card else None, "target": self.target,
                "count": self.count}


@dataclass(frozen=True, slots=True)
class JackpotClaim:
    """A hand at one spot that wins a share of a jackpot linked across tables (paid by the floor, not the table).

    The round journals it as ``jackpot_claimed`` and holds until the floor's
    jackpot controller answers; the fields are what the controller verifies:
    the cards the table dealt to ``target`` and the hand they make.
    """

    jackpot: str
    spot: int
    target: str
    cards: tuple[str, ...]
    length: int
    share: Fraction

    def as_event(self) -> dict[str, Any]:
        return {"jackpot": self.jackpot, "spot": self.spot, "target": self.target, "cards": list(self.cards),
                "length": self.length, "share": str(self.share)}


@runtime_checkable
class ClaimsJackpots(Protocol):
    """A game one of whose wagers may be paid from a jackpot linked across tables (``[floor] jackpot``)."""

    def jackpot_claims(self, state: Any, wagers: Wagers) -> tuple[JackpotClaim, ...]:
        """The claims the revealed hands make; empty when the game is not linked or no hand qualifies."""

    def award_jackpot(self, spot: int, amount: Fraction) -> None:
        """What the floor awarded ``spot``'s claim: its settlement pays it."""


@dataclass(frozen=True, slots=True)
class Paytable:
    """A named pay table a card room may select; ``rows`` map a result to its payout wording."""

    name: str
    rows: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RuleLimit:
    """A bound the game's own rules set on one wager, whatever the table's posted limits: the least and the most it
    may be (``None``: the rules set none) and the unit it is wagered in, with the rule's words (``tablectl config
    check`` refuses a ``[limits]`` entry outside it, citing them)."""

    least: int | None = None
    most: int | None = None
    unit: int | None = None
    rule: str = ""


class Game(abc.ABC, Generic[State]):
    """The rules of one game. Subclasses set the class attributes and the rule methods."""

    id: ClassVar[str]
    title: ClassVar[str]
    wagers: ClassVar[tuple[str, ...]]
    """Wagers accepted while betting is open, in the order a spot's wagers settle."""
    rule_limits: ClassVar[Mapping[str, RuleLimit]] = {}
    """Bounds the game's rules set on a wager's amount (seed 003's Bonus Bet "may not exceed $25"), by wager."""
    max_spots: ClassVar[int] = 7
    device: ClassVar[str] = "shoe"
    """The card source the game is dealt from: ``shoe`` or ``shuffler``."""
    stack_size: ClassVar[int] = 1
    """Cards per stack when a shuffler deals (three for Three Card Poker)."""
    banker: ClassVar[str] = "house"
    """Who takes the other side of the wagers: ``house``; ``pot`` where players play for a pot the house does not bank."""
    rules_version: int = 1
    """The revision of the game's rules: raised when a game settles some round otherwise than before (a corrected
    settlement order). Each round journals the revision it was played under (``RoundStarted.rules``, from 2), and a
    replay settles it by that one, so a round journaled before a correction still replays to the cent."""

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options: dict[str, Any] = dict(options or {})

    @abc.abstractmethod
    def deck(self) -> tuple[Card, ...]:
        """Every card of one full shoe or deck this game is dealt from."""

    def seat_wagers(self, spot: int) -> tuple[str, ...]:
        """The wagers ``spot`` may place this round (a player-dealer's spot takes only its bank)."""
        return self.wagers

    def check_spot(self, spot: int, wagers: Mapping[str, Cents]) -> None:
        """Raise ``WagerRefused`` when a spot's wagers do not go together (checked at "no more bets")."""

    def check_table(self, wagers: Wagers) -> None:
        """Raise ``WagerRefused`` when the table as a whole cannot start (e.g. no player-dealer bank)."""

    def table_roles(self) -> dict[str, Any]:
        """Who plays which role this round (the player-dealer's seat, the bank button), and any other state the
        game carries from round to round (a progressive meter); logged at the start, put back after a restart."""
        return {}

    def restore_roles(self, roles: Mapping[str, Any]) -> None:
        """Put the table roles back as ``table_roles()`` last reported them (after a restart)."""

    def void_banker(self) -> str:
        """Who the stakes of a voided round go back from (``Round.void_round``): the game's ``banker``."""
        return self.banker

    def pass_position(self, accepts: Callable[[int], bool]) -> dict[str, Any]:
        """After a round: move table roles on (the player-dealer position). ``accepts(seat)`` says whether a
        seat takes an offered position. The facts returned are logged; ``{"stopped": reason}`` ends the game."""
        return {}

    def position_offer(self) -> list[int]:
        """When the game has stopped for want of a player-dealer: the seats that may take the position, in the
        order it is offered; otherwise (and in games without the position) none."""
        return []

    def take_position(self, seat: int) -> dict[str, Any]:
        """A stopped game goes on with ``seat`` as its player-dealer; the facts are logged (``position_taken``).
        Raise ``ValueError`` naming why the seat may not take it."""
        raise ValueError(f"{self.title} has no player-dealer position")

    def fees(self, spots: Sequence[int], wagers: Wagers) -> tuple[Fee, ...]:
        """Collection fees due before the deal; none for house-banked games."""
        return ()

    def drop(self, state: State) -> tuple[Fee, ...]:
        """Fees the house takes out of the pot during the round (card-room poker), collected at settlement.

        The round checks that what the pot's settlements keep back is exactly this.
        """
        return ()

    @abc.abstractmethod
    def new_hand(self, spots: Sequence[int], wagers: Wagers) -> State:
        """The state of a new round in which ``spots`` have wagers."""

    @abc.abstractmethod
    def next_target(self, state: State) -> str | None:
        """Where the next card goes, or ``None`` when no card is due now."""

    @abc.abstractmethod
    def place(self, state: State, target: str, card: Piece) -> None:
        """Put a card (or a tile) where ``next_target`` said; ``ValueError`` if it cannot go there.

        A card game refuses a tile with ``dealt_card``, so a piece of the wrong kind holds the round
        with a clear reason instead of being played as a card."""

    def pending_decision(self, state: State) -> PendingDecision | None:
        """The decision the round waits for, if any."""
        return None

    def decide(self, state: State, decision: Decision, wagers: Wagers) -> tuple[WagerChange, ...]:
        """Apply a legal decision; raise ``DecisionRefused`` for an illegal one."""
        raise NotImplementedError(f"{self.id} takes no decisions")

    def strategy(self, state: State, pending: PendingDecision, wagers: Wagers) -> Decision:
        """The decision a simulated player (or the House Way) makes."""
        raise NotImplementedError(f"{self.id} takes no decisions")

    def irregularity(self, state: State, report: Irregularity) -> None:
        """Take note of a boxed or exposed card or a wrong count; raise ``ValueError`` if it cannot apply."""
        raise ValueError(f"{self.title} has no rule for a {report.kind} report")

    def face(self, state: State, target: str, card: Any, position: int) -> Face:
        """How ``card``, the ``position``-th (from 0) dealt to ``target``, lies now by the game's rules.

        Asked again at every moment, so the answer may change as the round goes
        on (a folded hand goes from ``UNTIL_REVEAL`` to ``DOWN``). The default is
        the safe one: face down until the reveal. What the screens may show is
        decided from this alone (``controller.engine.visibility``); the camera does not
        film a card until it lies face up.
        """
        return Face.UNTIL_REVEAL

    def spot_of(self, state: State, target: str) -> int | None:
        """The spot whose hand ``target`` is (a screen shows its cards there), or ``None``: the dealer's hand,
        the board, a burn, a pile not given to anyone yet. By default ``seat3``, ``spot 3``, ``3.1``, ``hole:3``."""
        match = SPOT_TARGET.match(target)
        return int(match.group(1)) if match else None

    def hands_now(self, state: State | None, dealt: Sequence[tuple[str, Any]]) -> list[tuple[str, list[int]]]:
        """Each hand on the table now, in the order a screen shows them: its place and the indexes into ``dealt``
        (the round's cards in dealing order, each with the place it was dealt to) of the cards lying in it.

        By default a card lies where it was dealt, the hands in the order their first cards came. A game whose
        cards move between hands says where they lie (a blackjack split takes a hand's second card to a hand of
        its own); what was dealt where is journaled as dealt, whatever this says.
        """
        places: dict[str, list[int]] = {}
        for index, (target, _) in enumerate(dealt):
            places.setdefault(target, []).append(index)
        return list(places.items())

    def decision_title(self, state: State, pending: PendingDecision) -> str:
        """What a screen heads the decision awaited with: whose turn it is."""
        return f"Spot {pending.spot} to act"

    def moment_words(self, state: State | None, moment: str, pending: PendingDecision | None) -> str | None:
        """What the dealer's top bar says the round is doing, where this game says it otherwise than every game does
        (``controller.engine.view.STATE_WORDS``: "Dealing the cards", "Players deciding", "Showing the hands"), else ``None``.

        ``moment`` is the round's state (``dealing``, ``decisions``, ``reveal``), ``pending`` the decision awaited
        in it: "Rolling the dice" and then "Setting hands" at pai gow, "Showdown" at card-room poker.
        """
        return None

    def hand_label(self, state: State, target: str, cards: Sequence[Any]) -> str | None:
        """What the dealer reads beside ``target``'s hand: its total, its rank, how it was set.

        ``cards`` are only those of the target's cards lying face up now (the engine never passes one face
        down, ``controller.engine.visibility``); a label that needs the whole hand is given only when ``cards`` is it.
        """
        return None

    def misdeal(self, state: State) -> str | None:
        """Why the round is a misdeal (every wager returned), or ``None``; asked after every card and report."""
        return None

    def reveal(self, state: State) -> dict[str, Any]:
        """Turn the dealer's cards; return what is announced (logged with the round)."""
        return {}

    @abc.abstractmethod
    def settle(self, state: State, wagers: Wagers, rounding: Rounding) -> list[Settlement]:
        """Settle every wager, in the order the rules settle them."""

    def misdeal_on_restart(self, state: State | None, cards_dealt: int) -> str | None:
        """The misdeal rule for a round cut off by a restart: why it is void, or ``None`` to resume it.

        By default a round resumes while no card is out, and a shoe game resumes
        after cards are dealt (the shoe keeps its order); a shuffler game is void
        once cards are out, because the stack in the machine is lost.
        """
        if cards_dealt and self.device == "shuffler":
            return "restart after cards were dealt from the shuffler"
        return None

    def settlement_summary(self, state: State) -> dict[str, Any]:
        """Facts about the settlement as a whole (a player-dealer's bank result), logged after it."""
        return {}

    @abc.abstractmethod
    def describe(self, state: State) -> str:
        """One line for the dealer: the cards and the result."""


def dealt_card(piece: Piece) -> Card:
    """``piece`` as the card a card game was dealt: a tile raises ``ValueError`` (the round holds, naming it)."""
    if not isinstance(piece, Card):
        raise ValueError(f"{piece.code} is a tile, and this game deals cards")
    return piece
