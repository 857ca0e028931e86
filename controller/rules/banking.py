"""Player-dealer banking, shared by every California game (seed 003).

In these games the house does not bank: one seated player, the
player-dealer, posts a bank and plays against everyone else. The rules
(seed 003, Double-Hand Poker general rules 5-6; Three Card Poker rules 8-10;
No Bust 21st Century Blackjack rules 12-13 and 17-19):

- the player-dealer "may only receive action on the amount wagered": wagers
  are settled in order, starting at the action button (or left of the
  player-dealer) and going clockwise, each taking the action it needs from
  the bank (what the player-dealer collects from a loser or pays a winner);
- once the bank is exhausted the hand is over: a wager may get partial action
  or none, and what is not covered goes back to the player;
- the player-dealer can never win or lose more than the bank;
- the position passes clockwise to a different player after every two banks,
  and the game stops when nobody intervenes.

``settle_against_bank`` turns what the rules say each wager gets (a ``Claim``)
into settlement records limited by the bank.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from controller.errors import WagerRefused
from controller.money import Cents, Rounding, format_cents
from controller.odds import Outcome, Payout
from controller.settlement import Settlement

PLAYER_DEALER = "player-dealer"


@dataclass(frozen=True, slots=True)
class Claim:
    """What the rules give one wager before the bank limits it."""

    spot: int
    wager: str
    stake: Cents
    payout: Payout
    reason: str = ""


@dataclass(frozen=True, slots=True)
class BankResult:
    """How the player-dealer's bank fared: ``net`` is what the player-dealer won (negative: lost)."""

    bank: Cents
    action: Cents
    net: Cents
    exhausted: bool

    @property
    def returned_to_player_dealer(self) -> Cents:
        return self.bank + self.net

    def as_event(self) -> dict[str, object]:
        return {"bank": self.bank, "action": self.action, "net": self.net, "exhausted": self.exhausted,
                "returned_to_player_dealer": self.returned_to_player_dealer}


def settle_against_bank(
    claims: Sequence[Claim], bank: Cents, rounding: Rounding
) -> tuple[list[Settlement], BankResult]:
    """Settle ``claims`` in the order given, each limited by what is left of ``bank``."""
    if bank < 0:
        raise ValueError(f"a bank must not be negative: {bank}")
    left = bank
    net = 0
    records = []
    for claim in claims:
        exact = claim.payout.multiplier * claim.stake
        owed = rounding.to_cents(exact)
        action = abs(owed - claim.stake)
        covered = min(action, left)
        left -= covered
        if covered == action:
            returned, outcome, reason, exact_returned = owed, claim.payout.outcome, claim.reason, exact
        elif owed > claim.stake:
            returned, exact_returned = claim.stake + covered, Fraction(claim.stake + covered)
            outcome = Outcome.WIN if covered else Outcome.PUSH
            reason = _uncovered(claim.reason, covered, action)
        else:
            returned, exact_returned = claim.stake - covered, Fraction(claim.stake - covered)
            outcome = Outcome.PARTIAL if covered else Outcome.PUSH
            reason = _uncovered(claim.reason, covered, action)
        net += claim.stake - returned
        records.append(
            Settlement(
                spot=claim.spot,
                wager=claim.wager,
                stake=claim.stake,
                outcome=outcome,
                payout=claim.payout.text,
                returned=returned,
                exact_returned=exact_returned,
                reason=reason,
                banker=PLAYER_DEALER,
            )
        )
    return records, BankResult(bank=bank, action=bank - left, net=net, exhausted=left == 0 and bank > 0)


def _uncovered(reason: str, covered: Cents, action: Cents) -> str:
    note = f"bank exhausted: {format_cents(covered)} of {format_cents(action)} covered, the rest returned"
    return f"{reason}; {note}" if reason else note


def clockwise_from(first: int, seats: Sequence[int], total_seats: int) -> list[int]:
    """``seats`` in clockwise order starting at seat ``first`` (seats numbered 1..total_seats clockwise)."""
    return sorted(seats, key=lambda s: (s - first) % total_seats)


class PlayerDealerRotation:
    """Who holds the player-dealer position, and for how many banks.

    The position "must pass clockwise to a different player after every two
    banks"; when no other player takes it, the game is broken (stopped).
    """

    def __init__(self, total_seats: int, seat: int, *, banks_per_turn: int = 2) -> None:
        if not 1 <= seat <= total_seats:
            raise ValueError(f"seat {seat} is not at a table of {total_seats} seats")
        self.total_seats = total_seats
        self.seat: int | None = seat
        self.banks_per_turn = banks_per_turn
        self.banks_held = 0
        self.previous: int | None = None
        """Who held the position when nobody took it over (the game stopped): not the next to take it."""

    @property
    def bank_button(self) -> str:
        """The button in front of the player-dealer: "1st bank" or "2nd bank"."""
        return self._button(self.banks_held)

    def restore(self, roles: Mapping[str, Any]) -> None:
        """Back to the seat and bank button ``table_roles()`` reported (after a restart)."""
        seat = roles.get("player_dealer")
        if roles.get("stopped"):  # nobody took the position before the restart: the game is still stopped
            self.previous = seat if isinstance(seat, int) else self.seat
            self.seat = None
            return
        if isinstance(seat, int) and 1 <= seat <= self.total_seats:
            self.seat = seat
            button = str(roles.get("bank_button", ""))
            self.banks_held = next((n for n in range(self.banks_per_turn + 1) if self._button(n) == button), 0)

    @staticmethod
    def _button(banks_held: int) -> str:
        return {0: "1st bank", 1: "2nd bank"}.get(banks_held, f"bank {banks_held + 1}")

    def bank_played(self, accepts: Callable[[int], bool]) -> int | None:
        """Count a bank; after ``banks_per_turn`` offer the position clockwise.

        ``accepts(seat)`` says whether that seat takes the position. Returns the
        player-dealer's seat for the next hand, or ``None`` when the game stops.
        """
        if self.seat is None:
            raise RuntimeError("the game is stopped: nobody holds the player-dealer position")
        self.banks_held += 1
        if self.banks_held < self.banks_per_turn:
            return self.seat
        current = self.seat
        for offset in range(1, self.total_seats):
            seat = (current - 1 + offset) % self.total_seats + 1
            if accepts(seat):
                self.seat, self.banks_held = seat, 0
                return seat
        self.previous, self.seat = current, None
        return None

    def offer(self) -> list[int]:
        """The seats that may take the position of a stopped game, clockwise from the one who held it last."""
        if self.seat is not None:
            return []
        last = self.previous or self.total_seats
        return [(last - 1 + k) % self.total_seats + 1 for k in range(1, self.total_seats + (self.previous is None))]

    def take(self, seat: int) -> int:
        """``seat`` takes the position of a stopped game; raise ``ValueError`` when it may not."""
        if self.seat is not None:
            raise ValueError(f"seat {self.seat} holds the player-dealer position: it passes after its banks")
        if seat not in self.offer():
            raise ValueError(f"seat {seat} cannot take the player-dealer position: it passes to a different player "
                             f"(seats {', '.join(map(str, self.offer()))})")
        self.seat, self.banks_held, self.previous = seat, 0, None
        return seat


def bank_record(seat: int, result: BankResult) -> Settlement:
    """The player-dealer's own bank, settled last: it returns the bank plus what the player-dealer won."""
    returned = result.returned_to_player_dealer
    outcome = Outcome.WIN if result.net > 0 else Outcome.PUSH if result.net == 0 else Outcome.PARTIAL
    return Settlement(
        spot=seat, wager="bank", stake=result.bank, outcome=outcome, payout="bank result", returned=returned,
        exact_returned=Fraction(returned), reason=f"player-dealer net {format_cents(result.net)}", banker=PLAYER_DEALER,
    )


class PlayerDealerPosition:
    """The table-role hooks every player-dealer game shares; mix in before ``Game``.

    The game sets ``self.rotation``; the player-dealer's spot posts a ``bank`` wager.
    """

    rotation: PlayerDealerRotation
    rules_version: int
    voids_between_players_from: ClassVar[int]
    """The game's first rules revision in which a voided round's stakes go back between the players (banker
    ``player-dealer``): the house banks nothing here, so a misdeal is no house action. Earlier revisions journaled
    them as the house's, and a round journaled then still replays by them."""

    def void_banker(self) -> str:
        return PLAYER_DEALER if self.rules_version >= self.voids_between_players_from else "house"

    @property
    def player_dealer(self) -> int:
        if self.rotation.seat is None:
            raise RuntimeError("the game is stopped: nobody holds the player-dealer position")
        return self.rotation.seat

    def table_roles(self) -> dict[str, Any]:
        return {"player_dealer": self.rotation.seat, "bank_button": self.rotation.bank_button}

    def position_offer(self) -> list[int]:
        return self.rotation.offer()

    def take_position(self, seat: int) -> dict[str, Any]:
        self.rotation.take(seat)
        return {"player_dealer": seat, "bank_button": self.rotation.bank_button}

    def restore_roles(self, roles: Mapping[str, Any]) -> None:
        self.rotation.restore(roles)

    def check_table(self, wagers: Mapping[tuple[int, str], Cents]) -> None:
        if (self.player_dealer, "bank") not in wagers:
            raise WagerRefused(self.player_dealer, "bank", "the player-dealer must post a bank before no more bets")

    def pass_position(self, accepts: Callable[[int], bool]) -> dict[str, Any]:
        """After two banks the position is offered clockwise; nobody taking it stops the game."""
        before = self.rotation.seat
        seat = self.rotation.bank_played(accepts)
        if seat is None:
            return {"stopped": f"no player intervened to take the player-dealer position from seat {before}"}
        return {"player_dealer": seat, "bank_button": self.rotation.bank_button, "changed": seat != before}
