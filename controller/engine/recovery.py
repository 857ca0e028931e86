"""Rebuilding rounds from the journal: recovery after a restart, and replay.

A round is rebuilt by re-enacting it: a fresh ``Round`` on the real engine is
given the journaled inputs (the wagers, "no more bets", each card with its
source, each decision, holds, releases, a void) in order, and every event the
engine emits is matched against the journaled record it must equal. Nothing
already journaled is written again, so a settlement can never be applied
twice; an event that does not match stops the re-enactment with
``JournalMismatch`` (the journal was altered, or the rules changed under it).

Records of the round's own engine carry a ``game`` field; device records
(shuffles, the cut card, stacks dispensed) do not and are skipped, and so is
whatever the table logs for the round after its end.

- ``replay``: re-enact a finished round completely; its settlement must come
  out the same to the cent.
- ``recover``: re-enact each round the journal holds open, then carry on
  live: events past the journal's end are journaled as new. The round is then
  resumed where it stopped, kept on hold if it was held (an error persists
  across a restart until the dealer clears it), or voided with every wager
  returned when the game's misdeal rule says so (``Game.misdeal_on_restart``).
  The dealer is told which by a ``round_recovered`` event.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from controller.cards import Card
from controller.engine import jackpot
from controller.engine.log import EventLog, jsonable
from controller.engine.round import Limits, Round
from controller.errors import CardRefused, TableError
from controller.money import Rounding
from controller.odds import PUSH
from controller.records.errors import JournalError
from controller.records.journal import Journal
from controller.rules.base import Decision, Game, Irregularity
from controller.rules.registry import make_game
from controller.settlement import settle
from controller.tiles import Piece, Tile

IGNORED = frozenset({"table", "seq", "timestamp", "prev"})
"""Fields that differ between a journaled record and the same event emitted again."""
INFORMATIONAL = frozenset({"wager_refused", "decision_refused", "irregularity_refused"})
"""Round records that change nothing: skipped when re-enacting."""
ENDS = frozenset({"round_complete", "round_voided"})
"""A round's last record of its own: what the table logs for it afterwards (a position passed) is not re-enacted."""


class JournalMismatch(JournalError):
    """Re-enacting a round from the journal did not give the journaled events."""


class ReplayLog(EventLog):
    """An event log that answers the round's events from the journal, then hands over to ``live``."""

    def __init__(self, table_id: str, records: list[dict[str, Any]], live: EventLog | None) -> None:
        super().__init__(table_id)
        own = [r for r in records if "game" in r]
        end = next((i for i, r in enumerate(own) if r["event"] in ENDS), len(own) - 1)
        self.expected = deque(own[: end + 1])
        self.live = live

    def emit(self, event: str, round_id: str | None, **fields: Any) -> dict[str, Any]:
        if not self.expected:
            if self.live is None:
                raise JournalMismatch(f"round {round_id}: the engine emits {event} where the journal ends")
            return self.live.emit(event, round_id, **fields)
        journaled = self.expected.popleft()
        emitted = jsonable({"event": event, "round": round_id, **fields})
        want = {k: v for k, v in journaled.items() if k not in IGNORED}
        got = {k: v for k, v in emitted.items() if k not in IGNORED}
        if want != got:
            raise JournalMismatch(f"round {round_id} seq {journaled['seq']}: the journal has {want}, the engine gives {got}")
        return journaled

    def atomic(self) -> Any:
        if not self.expected and self.live is not None:
            return self.live.atomic()
        return nullcontext()


def piece(code: str) -> Piece:
    """A card (``AS``) or, in Pai Gow Tiles, a tile (``6-6``) from its code."""
    return Tile.parse(code) if "-" in code else Card.parse(code)


def _card(round: Round, record: dict[str, Any]) -> None:
    if record["event"] == "card_burned":
        round.burns_due = max(round.burns_due, 1)
    try:
        round.card(piece(record["card"]), record["source"])
    except CardRefused:
        if record["event"] != "card_fault":
            raise


def _following(round: Round, log: ReplayLog, event: str) -> dict[str, Any]:
    """The journaled ``event`` that completes the input at the head (its reason, who released a hold)."""
    record = next((r for r in log.expected if r["event"] == event), None)
    if record is None:
        raise JournalMismatch(f"round {round.id}: the journal changes state without its {event} record")
    return record


def _state(round: Round, record: dict[str, Any], log: ReplayLog) -> None:
    """The state changes the engine makes on a call from outside, not by itself."""
    if record["state"] == "no_more_bets":
        round.close_betting()
    elif record["state"] == "void":
        round.void_round(_following(round, log, "round_voided")["reason"])
    elif record["state"] == "hold":
        round.put_on_hold(_following(round, log, "round_held")["reason"])
    elif round.state == "hold":
        round.release(_following(round, log, "round_resumed")["by"])
    else:
        raise JournalMismatch(f"round {round.id} seq {record['seq']}: the engine did not reach {record['state']} by itself")


def _wager(round: Round, record: dict[str, Any]) -> None:
    if record.get("by") == "decision":
        raise JournalMismatch(f"round {round.id} seq {record['seq']}: a wager added by a decision the engine did not make")
    round.place_wager(record["spot"], record["wager"], record["amount"])


def _decision(round: Round, record: dict[str, Any]) -> None:
    """The ``Decision`` whose ``as_event()`` the record holds (lists back to tuples, codes back to pieces)."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(Decision):
        if f.name in record:
            value = record[f.name]
            if f.name == "cards":
                value = tuple(piece(c) for c in value or ())
            elif isinstance(value, list):
                value = tuple(value)
            values[f.name] = value
    round.decide(Decision(**values))


def _irregularity(round: Round, record: dict[str, Any]) -> None:
    card = record.get("card")
    round.report(Irregularity(record["kind"], piece(card) if card else None, record.get("target"), record.get("count")))


def _award(round: Round, record: dict[str, Any]) -> None:
    jackpot.award(round, record)


INPUTS: dict[str, Callable[[Round, dict[str, Any], ReplayLog], None]] = {
    "round_started": lambda round, r, log: round.start(),
    "state_changed": _state,
    "wager_placed": lambda round, r, log: _wager(round, r),
    "wager_changed": lambda round, r, log: _wager(round, r),
    "card_burned": lambda round, r, log: _card(round, r),
    "card_dealt": lambda round, r, log: _card(round, r),
    "card_fault": lambda round, r, log: _card(round, r),
    "decision": lambda round, r, log: _decision(round, r),
    "hold_reason_added": lambda round, r, log: round.put_on_hold(r["reason"]),
    "player_seated": lambda round, r, log: round.sit(r["spot"]),
    "irregularity": lambda round, r, log: _irregularity(round, r),
    "card_corrected": lambda round, r, log: round.correct_card(r["index"], piece(r["card"]), r["reason"]),
    "jackpot_awarded": lambda round, r, log: _award(round, r),
}


def reenact(round: Round, log: ReplayLog) -> None:
    """Feed the journaled inputs to ``round`` until the journaled records are used up."""
    while log.expected:
        head = log.expected[0]
        if head["event"] in INFORMATIONAL:
            log.expected.popleft()
            continue
        step = INPUTS.get(head["event"])
        if step is None:
            raise JournalMismatch(f"round {round.id} seq {head['seq']}: {head['event']} is not an input this engine knows")
        try:
            step(round, head, log)
        except JournalMismatch:
            raise
        except (TableError, ValueError) as exc:
            raise JournalMismatch(f"round {round.id} seq {head['seq']}: re-enacting {head['event']} failed: {exc}") from exc
        if log.expected and log.expected[0] is head:
            raise JournalMismatch(f"round {round.id} seq {head['seq']}: re-enacting {head['event']} emitted nothing")


def rebuild(records: list[dict[str, Any]], live: EventLog | None, *, game: Game[Any] | None = None,
            limits: Limits | None = None) -> Round:
    """A round re-enacted from its journaled ``records``; with ``live`` it carries on past them."""
    started = next((r for r in records if r["event"] == "round_started"), None)
    if started is None:
        raise JournalMismatch("the journal holds no round_started record for this round")
    log = ReplayLog(started["table"], records, live)
    game = game or make_game(started["game"], started.get("options"))
    if started.get("roles"):
        game.restore_roles(started["roles"])
    round = Round(
        started["round"],
        game,
        log,
        spots=started["spots"],
        limits=limits or Limits({}),
        rounding=Rounding.parse(started.get("rounding", "player")),
    )
    reenact(round, log)
    return round


@dataclass(frozen=True)
class Recovered:
    """A round the journal held open and what recovery did: ``completed``, ``resumed``, ``held`` or ``voided``.

    ``round`` is ``None`` when the round could not be re-enacted and was voided from the journal's own stakes.
    """

    round_id: str
    round: Round | None
    action: str
    message: str


def restore_table(journal: Journal, game: Game[Any]) -> None:
    """Bring the game's table-level state (``table_roles``: the player-dealer, a progressive meter) up to date.

    The roles recorded when the last round started are put back, and if that
    round ended, it is re-enacted on the game so that what its settlement did to
    that state (a meter fed or paid) is done again; a position passed after it
    is put back last. An open round is left to ``recover``, which re-enacts it.
    """
    last = journal.rounds(1)
    if not last:
        return
    records = journal.round_records(last[0].id)
    started = next((r for r in records if r["event"] == "round_started"), None)
    if started is None:
        return
    if last[0].ended_seq is not None:
        rebuild(records, None, game=game)
    elif started.get("roles"):
        game.restore_roles(started["roles"])
    moves = [r for r in records if r["event"] in ("position_passed", "position_taken")]
    passed = [r for r in moves if "player_dealer" in r]
    if passed:
        game.restore_roles({"player_dealer": passed[-1]["player_dealer"], "bank_button": passed[-1].get("bank_button")})
    if moves and "stopped" in moves[-1]:  # the game stopped for want of a player-dealer, and nobody has taken it since
        game.restore_roles({**game.table_roles(), "stopped": moves[-1]["stopped"]})


def recover(journal: Journal, log: EventLog, game: Game[Any], limits: Limits) -> list[Recovered]:
    """Restore the table's state, re-enact every open round and decide, by the game's misdeal rule, whether it resumes.

    A round whose last journaled input completed it (the kill came before its
    settlement was journaled) settles during the re-enactment. A round that
    cannot be re-enacted (``JournalMismatch``) is void with every stake the
    journal holds for it returned.
    """
    try:
        restore_table(journal, game)
    except JournalMismatch as exc:
        log.emit("table_state_not_restored", None, reason=str(exc))
    results = []
    for row in journal.open_rounds():
        try:
            round = rebuild(journal.round_records(row.id), log, game=game, limits=limits)
        except JournalMismatch as exc:
            message = f"round {row.id} is void: it could not be re-enacted ({exc}); every wager is returned"
            log.emit("round_recovered", row.id, action="voided", state=row.state, cards=None, message=message)
            void_from_journal(journal, log, row.id, row.game, str(exc))
            results.append(Recovered(row.id, None, "voided", message))
            continue
        dealt = sum(1 for target, _, _ in round.cards if target != "burn")
        reason = None
        if round.state in ("complete", "void"):
            action, message = "completed", f"round {round.id} settled on restart from its journaled cards"
        elif round.state == "hold":
            action, message = "held", f"round {round.id} is still on hold: {round.hold_reason}"
        elif (reason := game.misdeal_on_restart(round.hand, dealt)) is None:
            action, message = "resumed", f"round {round.id} resumes where it stopped ({round.state}, {dealt} cards out)"
        else:
            action, message = "voided", f"round {round.id} is void: {reason}; every wager is returned"
        log.emit("round_recovered", round.id, action=action, state=round.state, cards=dealt, message=message)
        if reason is not None:
            round.void_round(reason)
        results.append(Recovered(round.id, round, action, message))
    return results


def void_from_journal(journal: Journal, log: EventLog, round_id: str, game_id: str, reason: str) -> None:
    """Void a round from the stakes the journal holds for it, without the engine: every stake returned whole."""
    rounding = Rounding.PLAYER
    records = [settle(spot, wager, staked - settled, PUSH, rounding, reason=f"void: {reason}")
               for spot, wager, staked, settled in journal.stakes(round_id) if staked > settled]
    fees = sum(r["amount"] for r in journal.round_records(round_id) if r["event"] == "fee_collected")
    wagered = sum(r.stake for r in records)
    with log.atomic():
        log.emit("state_changed", round_id, state="void", game=game_id)
        for record in records:
            log.emit("wager_settled", round_id, game=game_id, **record.as_event())
        log.emit("round_voided", round_id, game=game_id, reason=reason, wagered=wagered, paid=wagered, fees=fees, house_win=fees)
