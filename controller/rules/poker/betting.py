"""Limit betting: the amounts the dealer enters, checked against the structure (seed 003, Omaha "BETTING").

- Blinds are live (rule 7): the big blind counts as the opening bet and may
  raise when the action comes back to it; a blind posted short because the
  player is all-in plays as if the full amount were posted (Blinds rule 15).
- A bet and three raises are allowed; with only two players left in the pot
  the number of raises is unlimited (Betting rule 5).
- Only a full bet or raise counts as one; an all-in for less is "action only"
  (Betting rule 1): the next player may call the all-in amount or raise the last
  full bet by a full raise ($3-$6: a $6 bet, an all-in for $10, then a call is
  $10 and a raise is $12), and a player who already acted may not raise again
  unless a full raise has been made since.
- Fixed limit: every bet and raise is the street's size. Spread limit (Low-ball
  "2 to 6"): a bet is any amount from the minimum to the maximum and a raise at
  least the previous bet or raise.

Nothing here knows about stacks: a player's "all in" is what the dealer enters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from controller.errors import DecisionRefused
from controller.money import Cents, format_cents

__all__ = ["Structure", "BettingRound"]


@dataclass(frozen=True, slots=True)
class Structure:
    """Blinds and per-street bet sizes, in cents; ``spread_min`` set for a spread-limit game."""

    small_blind: Cents
    big_blind: Cents
    bets: tuple[Cents, ...]
    spread_min: Cents | None = None
    max_raises: int = 3

    def __post_init__(self) -> None:
        if not 0 <= self.small_blind <= self.big_blind or not self.bets or min(self.bets) <= 0:
            raise ValueError(f"not a betting structure: blinds {self.small_blind}/{self.big_blind}, bets {self.bets}")
        if self.spread_min is not None and not 0 < self.spread_min <= min(self.bets):
            raise ValueError(f"spread minimum {self.spread_min} must be above 0 and at most {min(self.bets)}")

    def doubled(self) -> Structure:
        """The kill round's structure: bets doubled, blinds as posted (Kill pots: "3-6 ... the full kill will be a 6-12")."""
        spread = None if self.spread_min is None else 2 * self.spread_min
        return Structure(self.small_blind, self.big_blind, tuple(2 * b for b in self.bets), spread, self.max_raises)

    def increments(self, street: int, last: Cents) -> tuple[Cents, Cents]:
        """The smallest and largest full bet or raise on ``street`` after a full one of ``last``."""
        top = self.bets[min(street, len(self.bets) - 1)]
        if self.spread_min is None:
            return top, top
        return min(max(self.spread_min, last), top), top


@dataclass(slots=True)
class BettingRound:
    """One round of betting. ``folded`` and ``all_in`` are the hand's sets, shared and updated here."""

    street: int
    structure: Structure
    order: tuple[int, ...]
    """Every seat still in the hand, clockwise from the first to act."""
    folded: set[int]
    all_in: set[int]
    put_in: dict[int, Cents] = field(default_factory=dict)
    level: Cents = 0
    """What each player must have put in on this street to stay in."""
    full_level: Cents = 0
    """The level reached by the last full bet or raise."""
    last_increment: Cents = 0
    full_bets: int = 0
    acted_at: dict[int, int] = field(default_factory=dict)
    """For each seat that has acted, how many full bets had been made when it last acted."""
    pointer: int = 0

    def post(self, seat: int, amount: Cents, counts_as: Cents) -> None:
        """A blind posted before the deal: ``counts_as`` is the full blind, even when posted short all-in (rule 15)."""
        self.put_in[seat] = self.put_in.get(seat, 0) + amount
        if counts_as > self.level:
            self.level = self.full_level = counts_as
            self.last_increment = counts_as
            self.full_bets = 1

    @property
    def in_pot(self) -> list[int]:
        return [s for s in self.order if s not in self.folded]

    def can_act(self, seat: int) -> bool:
        return seat not in self.folded and seat not in self.all_in

    def next_to_act(self) -> int | None:
        """The seat whose turn it is, or ``None`` when the round of betting is over."""
        if len(self.in_pot) < 2:
            return None
        actors = [s for s in self.order if self.can_act(s)]
        if not actors or (len(actors) == 1 and self.put_in.get(actors[0], 0) >= self.level):
            return None
        for step in range(len(self.order)):
            seat = self.order[(self.pointer + step) % len(self.order)]
            if self.can_act(seat) and (seat not in self.acted_at or self.put_in.get(seat, 0) < self.level):
                return seat
        return None

    def may_raise(self, seat: int) -> bool:
        heads_up = len(self.in_pot) == 2
        capped = not heads_up and self.full_bets >= 1 + self.structure.max_raises
        reopened = seat not in self.acted_at or self.acted_at[seat] < self.full_bets
        opponents = any(self.can_act(s) for s in self.order if s != seat)
        return not capped and reopened and opponents

    def legal(self, seat: int) -> tuple[str, ...]:
        """The actions open to ``seat`` now, in the order a console shows them."""
        to_call = self.level - self.put_in.get(seat, 0)
        actions = ["check"] if to_call <= 0 else ["fold", "call"]
        if self.may_raise(seat):
            actions.append("bet" if self.level == 0 else "raise")
        if self.most_all_in(seat) > 0:
            actions.append("all_in")
        return tuple(actions)

    def offered(self, seat: int) -> tuple[tuple[str, Cents], ...]:
        """Amounts a console offers as buttons: the bet or raise (in spread limit its smallest and largest) and
        the most an all-in may put in (a player with less enters what he has)."""
        legal = self.legal(seat)
        amounts: list[tuple[str, Cents]] = []
        for action in ("bet", "raise"):
            if action in legal:
                low, high = self.raise_range(seat)
                amounts += [(action, low)] + ([(action, high)] if self.structure.spread_min is not None and high > low else [])
        if "all_in" in legal:
            amounts.append(("all_in", self.most_all_in(seat)))
        return tuple(amounts)

    def most_all_in(self, seat: int) -> Cents:
        """The most chips an all-in may put in now: up to a full raise when raising is open, else up to a call."""
        return self.raise_range(seat)[1] if self.may_raise(seat) else self.level - self.put_in.get(seat, 0)

    def raise_range(self, seat: int) -> tuple[Cents, Cents]:
        """The chips ``seat`` puts in for the smallest and largest full bet or raise."""
        low, high = self.structure.increments(self.street, self.last_increment)
        have = self.put_in.get(seat, 0)
        return self.full_level + low - have, self.full_level + high - have

    def act(self, seat: int, action: str, amount: Cents | None) -> Cents:
        """Apply one action; return the chips it puts in the pot. Raises ``DecisionRefused`` when illegal."""
        if seat != self.next_to_act():
            raise DecisionRefused(seat, action, f"it is not this seat's turn (the action is on seat {self.next_to_act()})")
        if action not in self.legal(seat):
            raise DecisionRefused(seat, action, f"not allowed now: the legal actions are {', '.join(self.legal(seat))}")
        have = self.put_in.get(seat, 0)
        chips = self._chips(seat, action, amount, have)
        self.put_in[seat] = have + chips
        total = have + chips
        if action == "fold":
            self.folded.add(seat)
        elif action in ("bet", "raise"):
            self._full_raise(total)
        elif action == "all_in":
            self.all_in.add(seat)
            low, _ = self.structure.increments(self.street, self.last_increment)
            if total >= self.full_level + low and self.may_raise(seat):
                self._full_raise(total)
            self.level = max(self.level, total)
        self.acted_at[seat] = self.full_bets
        self.pointer = (self.order.index(seat) + 1) % len(self.order)
        return chips

    def _full_raise(self, total: Cents) -> None:
        self.last_increment = total - self.full_level
        self.level = self.full_level = total
        self.full_bets += 1

    def _chips(self, seat: int, action: str, amount: Cents | None, have: Cents) -> Cents:
        if action == "all_in":
            return self._all_in_chips(seat, amount)
        if action in ("bet", "raise"):
            return self._raise_chips(seat, action, amount)
        expected = 0 if action in ("fold", "check") else self.level - have
        if amount is not None and amount != expected:
            raise DecisionRefused(seat, action, f"puts in exactly {format_cents(expected)}, not {format_cents(amount)}")
        return expected

    def _raise_chips(self, seat: int, action: str, amount: Cents | None) -> Cents:
        low, high = self.raise_range(seat)
        if self.structure.spread_min is None:
            if amount is not None and amount != low:
                raise DecisionRefused(seat, action, f"puts in exactly {format_cents(low)}, not {format_cents(amount)}")
            return low
        if amount is None or not low <= amount <= high:
            raise DecisionRefused(seat, action, f"a spread-limit {action} puts in {format_cents(low)} to {format_cents(high)}, not {format_cents(amount)}")
        return amount

    def _all_in_chips(self, seat: int, amount: Cents | None) -> Cents:
        if amount is None or isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise DecisionRefused(seat, "all_in", f"needs the amount the player has left, not {format_cents(amount)}")
        most = self.most_all_in(seat)
        if amount > most:
            raise DecisionRefused(seat, "all_in", f"{format_cents(amount)} is more than the limit allows now ({format_cents(most)})")
        return amount


def clockwise(seats: Sequence[int], after: int) -> tuple[int, ...]:
    """``seats`` in clockwise order starting with the first seat after ``after``."""
    ordered = sorted(seats)
    later = [s for s in ordered if s > after]
    return tuple(later + [s for s in ordered if s <= after])
