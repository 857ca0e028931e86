"""A jackpot linked across tables, in the round: the claim, the hold until the floor answers, the award paid once.

A game that pays a wager from a jackpot on the floor (``ClaimsJackpots``:
High Card Flush's Progressive with ``[floor] jackpot``) names, at the reveal,
the hands that win a share of it. The round then

1. journals each claim (``JackpotClaimed``: the jackpot, the spot, the cards
   the table dealt there, the hand and the share); the table's outbox
   publishes it like every record, and the floor's jackpot controller verifies
   it against the table's own published records and answers with an award;
2. holds, naming the claim, until every claim has its award. Nothing settles
   meanwhile, however long the floor is away: a restart recovers the round
   still held, and the claim (keyed by table, round and spot on the floor) is
   answered once whatever number of times it reaches the floor;
3. journals each award as it comes (``JackpotAwarded``, an input: a round
   re-enacted from the journal is given the same award, so it settles the same
   without the floor), and when the last one is in and nothing else holds the
   round, resumes by itself (``by = "floor"``) and settles, the Progressive
   paid the exact amount awarded.

An award the controller refused (the cards named are not the cards the floor
saw dealt) keeps the round on hold for a supervisor, with the reason.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from fractions import Fraction
from typing import Any, Protocol

from controller.errors import IllegalAction
from controller.events import Event, JackpotAwarded, JackpotClaimed
from controller.money import format_cents
from controller.rules.base import ClaimsJackpots, JackpotClaim, Wagers


class _Log(Protocol):
    def atomic(self) -> AbstractContextManager[Any]: ...


class Round(Protocol):
    """What this module uses of ``controller.engine.round.Round`` (which calls it: a protocol keeps the import one-way)."""

    id: str
    game: Any
    hand: Any
    state: str
    revealed: bool
    hold_reasons: list[str]
    jackpot_claims: dict[int, JackpotClaim]
    jackpot_awards: dict[int, dict[str, Any]]

    @property
    def wagers(self) -> Wagers: ...

    @property
    def log(self) -> _Log: ...

    def emit(self, event: Event) -> Event: ...

    def release(self, by: str = "dealer") -> None: ...

AwardSource = Callable[[str, int], Mapping[str, Any] | None]
"""The floor's answer to the claim of round ``id``'s spot, or None while there is none (``JackpotClient.source``)."""

AWARD_WAIT = 60.0
"""``tablectl run``: how long a round held for its claims waits for the floor before the run stops with it held
(the next run, or ``serve``, picks the awards up when they come)."""

AWARD_FIELDS = ("jackpot", "verified", "amount", "meter_before", "meter_after", "reason", "stream_seq")
"""What a ``JackpotAwarded`` record keeps of the controller's award, besides the spot."""


def claims(round: Round) -> tuple[JackpotClaim, ...]:
    """The jackpot claims the round's revealed hands make (none for a game without a linked jackpot)."""
    if not isinstance(round.game, ClaimsJackpots) or not round.revealed:
        return ()
    return round.game.jackpot_claims(round.hand, round.wagers)


def pending(round: Round) -> list[JackpotClaim]:
    """The claims journaled and not yet answered: what the table asks the floor for while the round holds."""
    return [c for spot, c in sorted(round.jackpot_claims.items()) if spot not in round.jackpot_awards]


def hold_reason(round: Round) -> str | None:
    """At the reveal: journal new claims, then why the round may not settle yet, or None (the awards handed to the game)."""
    made = claims(round)
    if not made:
        return None
    for claim in made:
        if claim.spot not in round.jackpot_claims:
            round.jackpot_claims[claim.spot] = claim
            round.emit(JackpotClaimed(**claim.as_event()))
    waiting = [c for c in made if c.spot not in round.jackpot_awards]
    if waiting:
        spots = ", ".join(f"spot {c.spot} ({c.length}-card straight flush, {float(c.share):.0%} of the meter)" for c in waiting)
        return f"jackpot {waiting[0].jackpot}: claim at {spots} awaiting the floor's award"
    refused = [(spot, a) for spot, a in sorted(round.jackpot_awards.items()) if not a["verified"]]
    if refused:
        spot, award = refused[0]
        return (f"jackpot {award['jackpot']}: the floor refused the claim at spot {spot}: {award['reason']}; "
                "a supervisor voids the round or has the floor's records put right")
    assert isinstance(round.game, ClaimsJackpots)  # it made the claims
    for claim in made:
        round.game.award_jackpot(claim.spot, Fraction(str(round.jackpot_awards[claim.spot]["amount"])))
    return None


def award(round: Round, answer: Mapping[str, Any]) -> str:
    """Hand the round the floor's answer to one of its claims; journaled once, then the round moves on if it can.

    Returns a line for the dealer's screen.
    """
    spot = int(answer["spot"])
    claim = round.jackpot_claims.get(spot)
    if claim is None:
        raise IllegalAction(f"round {round.id}: no jackpot claim at spot {spot}")
    if spot in round.jackpot_awards:
        return f"round {round.id}: the award for spot {spot} is in already"
    record: dict[str, Any] = {"spot": spot, **{k: answer.get(k) for k in AWARD_FIELDS}}
    record["verified"] = bool(record["verified"])
    with round.log.atomic():
        round.jackpot_awards[spot] = record
        round.emit(JackpotAwarded(spot=spot, jackpot=record["jackpot"], verified=record["verified"], amount=record["amount"],
                                  meter_before=record["meter_before"], meter_after=record["meter_after"],
                                  reason=record["reason"], stream_seq=record["stream_seq"]))
        if round.state == "hold" and not pending(round) and all(r.startswith(f"jackpot {claim.jackpot}:")
                                                                for r in round.hold_reasons):
            round.release(by="floor")
    if not record["verified"]:
        return f"round {round.id}: the floor refused the jackpot claim at spot {spot}: {record['reason']}"
    return f"round {round.id}: jackpot {claim.jackpot} awards spot {spot} {format_cents(int(Fraction(str(record['amount']))))}"


class AwardWatcher:
    """Asks the floor for held rounds' awards on a thread of its own, so a floor that is slow or away never stalls
    the table's loop; the loop hands the round what it found (``take``) between its other steps."""

    def __init__(self, source: AwardSource, interval: float = 1.0) -> None:
        self.source = source
        self.interval = interval
        self._wanted: set[tuple[str, int]] = set()
        self._found: dict[tuple[str, int], Mapping[str, Any]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def want(self, round: Round) -> None:
        """Look for the awards of ``round``'s unanswered claims (the thread starts with the first wanted)."""
        with self._lock:
            self._wanted.update((round.id, claim.spot) for claim in pending(round))
        if self._thread is None:
            self._thread = threading.Thread(target=self._watch, name="jackpot-awards", daemon=True)
            self._thread.start()

    def take(self, round: Round) -> list[str]:
        """Hand ``round`` every award found for it; a line for the screen each."""
        with self._lock:
            found = [self._found.pop(key) for key in sorted(self._found) if key[0] == round.id]
        return [award(round, answer) for answer in found if int(answer["spot"]) in round.jackpot_claims]

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)

    def _watch(self) -> None:
        while not self._stop.wait(self.interval):
            with self._lock:
                wanted = sorted(self._wanted)
            for key in wanted:
                answer = self.source(*key)
                if answer is not None:
                    with self._lock:
                        self._wanted.discard(key)
                        self._found[key] = answer
