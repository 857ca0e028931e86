"""One poker hand: who is dealt in, the cards, the chips, and the script of what comes next.

The script is a list of steps the dealer works through: blinds to post, cards
to deal (one at a time, each to a named target), rounds of betting, draws. The
head of the script says whether the round waits for a card or a decision;
steps nobody needs any more (betting when at most one player can act, cards
when one player is left) are dropped as the hand goes on.

Flop games (seed 003, Texas Hold-em and Omaha): blinds; hole cards one at a
time in rotation from the button's left; betting; burn and flop; betting; burn
and turn; betting; burn and river; betting. Low-ball: blinds; five cards each;
betting; a burn; each player's draw in turn; betting.

Card targets: ``hole:S`` and ``draw:S`` for seat S, ``burn:X`` before X, ``flop``, ``turn``, ``river``
(the round engine keeps the bare ``burn`` for the burns after a shoe shuffle).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.cards import Card
from controller.money import Cents
from controller.rules.base import Fee
from controller.rules.poker.betting import BettingRound, Structure, clockwise

__all__ = ["Step", "PokerHand", "blinds", "flop_script", "draw_script", "advance"]


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the deal: ``post`` a blind, deal a ``card`` to ``target``, a round of ``bet``, a ``draw``."""

    kind: str
    target: str = ""
    seat: int = 0
    street: int = 0
    blind: str = ""
    amount: Cents = 0


@dataclass(slots=True)
class PokerHand:
    seats: tuple[int, ...]
    """Seats dealt in, clockwise from the button's left (the button last)."""
    button: int
    structure: Structure
    deck_size: int
    killer: int | None = None
    script: list[Step] = field(default_factory=list)
    holes: dict[int, list[Card]] = field(default_factory=dict)
    board: list[Card] = field(default_factory=list)
    burns: list[Card] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    set_aside: list[Card] = field(default_factory=list)
    seen: set[Card] = field(default_factory=set)
    folded: set[int] = field(default_factory=set)
    all_in: set[int] = field(default_factory=set)
    put_in: dict[int, Cents] = field(default_factory=dict)
    posted: list[tuple[int, Cents, Cents]] = field(default_factory=list)
    """(seat, chips posted, the blind it counts as)."""
    betting: BettingRound | None = None
    actions: int = 0
    """Betting actions taken (posting a blind is not acting)."""
    last_card: tuple[str, Card] | None = None
    exposed: Card | None = None
    misdeal: str | None = None
    """Why the hand is a misdeal, once an irregularity makes it one."""
    notes: list[str] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    drop: tuple[Fee, ...] = ()
    values: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    """Hand values already worked out, keyed by what they depend on (the cards)."""

    @property
    def in_pot(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s not in self.folded)

    @property
    def stub(self) -> int:
        """Cards left in the deck (set-aside cards go back in at the reshuffle)."""
        return self.deck_size - len(self.seen)

    def distance(self, seat: int) -> int:
        """How far clockwise ``seat`` sits from the button (the button is 0)."""
        return 0 if seat == self.button else self.seats.index(seat) + 1

    def value(self, kind: str, seat: int, evaluate: Callable[[], Any]) -> Any:
        """``evaluate()`` for the seat's current cards, worked out once per set of cards."""
        key = (kind, tuple(self.holes[seat]), tuple(self.board))
        if key not in self.values:
            self.values[key] = evaluate()
        return self.values[key]

    def chips(self, seat: int, amount: Cents) -> None:
        self.put_in[seat] = self.put_in.get(seat, 0) + amount


def blinds(seats: tuple[int, ...], button: int, structure: Structure, killer: int | None) -> list[Step]:
    """The blinds to post: small and big blind left of the button (heads-up: the button posts the small blind),
    and the kill blind, twice the big blind, posted by the killer in place of any blind of his."""
    small, big = (button, seats[0]) if len(seats) == 2 else (seats[0], seats[1])
    kill = 2 * structure.big_blind
    steps = []
    for seat, name, amount in ((small, "small blind", structure.small_blind), (big, "big blind", structure.big_blind)):
        if seat == killer:
            steps.append(Step("post", seat=seat, blind="kill blind", amount=kill))
        elif amount:
            steps.append(Step("post", seat=seat, blind=name, amount=amount))
    if killer is not None and killer not in (small, big):
        steps.append(Step("post", seat=killer, blind="kill blind", amount=kill))
    return steps


def _holes(seats: tuple[int, ...], count: int) -> list[Step]:
    return [Step("card", target=f"hole:{seat}") for _ in range(count) for seat in seats]


def flop_script(seats: tuple[int, ...], hole_cards: int) -> list[Step]:
    """Hole cards, then flop, turn and river, each after a burn, with a round of betting after each deal."""
    steps = [*_holes(seats, hole_cards), Step("bet", street=0)]
    for street, (name, count) in enumerate((("flop", 3), ("turn", 1), ("river", 1)), start=1):
        steps += [Step("card", target=f"burn:{name}"), *[Step("card", target=name)] * count, Step("bet", street=street)]
    return steps


def draw_script(seats: tuple[int, ...], hand_size: int = 5) -> list[Step]:
    """Five cards each, betting, a burn, each player's draw clockwise from the button's left, betting."""
    return [
        *_holes(seats, hand_size),
        Step("bet", street=0),
        Step("card", target="burn:draw"),
        *[Step("draw", seat=seat) for seat in seats],
        Step("bet", street=1),
    ]


def open_betting(hand: PokerHand, street: int) -> BettingRound:
    """A round of betting: first from the left of the furthest blind clockwise from the button (Hold-em line 1163),
    which is the kill blind when there is one (it acts last), then from the button's left (line 1164)."""
    if street == 0 and hand.posted:
        after = hand.killer if hand.killer is not None else max(hand.posted, key=lambda p: (p[2], hand.distance(p[0])))[0]
    else:
        after = hand.button
    order = clockwise(hand.in_pot, after)
    betting = BettingRound(street, hand.structure, order, hand.folded, hand.all_in)
    if street == 0:
        for seat, chips, counts_as in hand.posted:
            betting.post(seat, chips, counts_as)
    return betting


def advance(hand: PokerHand) -> None:
    """Drop the steps at the head of the script that need nobody any more."""
    while hand.script:
        if len(hand.in_pot) < 2:
            hand.script.clear()
            return
        step = hand.script[0]
        if step.kind == "bet":
            if hand.betting is None or hand.betting.street != step.street:
                hand.betting = open_betting(hand, step.street)
            if hand.betting.next_to_act() is not None:
                return
        elif step.kind == "draw" and step.seat in hand.folded:
            pass
        else:
            return
        hand.script.pop(0)
