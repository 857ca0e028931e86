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

from collections import deque
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from controller.cards import Card
from controller.engine import jackpot
from controller.engine.log import EventLog, as_written
from controller.engine.round import FINISHED, Limits, Round
from controller.errors import CardRefused, TableError
from controller.events import (
    UNSET,
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
    JackpotAwarded,
    PlayerSeated,
    PositionPassed,
    PositionTaken,
    RoundCompleted,
    RoundEvent,
    RoundHeld,
    RoundRecovered,
    RoundResumed,
    RoundStarted,
    RoundVoided,
    StateChanged,
    TableStateNotRestored,
    WagerChanged,
    WagerPlaced,
    WagerRefusal,
    WagerSettled,
    stamped,
    to_record,
)
from controller.money import Rounding
from controller.odds import PUSH
from controller.records.errors import JournalError
from controller.records.journal import Journal
from controller.rules.base import Decision, Game, Irregularity
from controller.rules.registry import make_game
from controller.settlement import settle
from controller.tiles import Piece, Tile

E = TypeVar("E", bound=Event)
F = TypeVar("F", bound=Event)

IGNORED = frozenset({"table", "seq", "timestamp", "prev"})
"""Fields that differ between a journaled record and the same event emitted again."""
INFORMATIONAL = (WagerRefusal, DecisionRefusal, IrregularityRefusal)
"""Round records that change nothing: skipped when re-enacting."""
ENDS = (RoundCompleted, RoundVoided)
"""A round's last record of its own: what the table logs for it afterwards (a position passed) is not re-enacted."""


class JournalMismatch(JournalError):
    """Re-enacting a round from the journal did not give the journaled events."""


class ReplayLog(EventLog):
    """An event log that answers the round's events from the journal, then hands over to ``live``."""

    def __init__(self, table_id: str, records: list[Event], live: EventLog | None) -> None:
        super().__init__(table_id)
        own = [r for r in records if isinstance(r, RoundEvent)]
        end = next((i for i, r in enumerate(own) if isinstance(r, ENDS)), len(own) - 1)
        self.expected: deque[Event] = deque(own[: end + 1])
        self.live = live

    def emit(self, event: E) -> E:
        if not self.expected:
            if self.live is None:
                raise JournalMismatch(f"round {event.round}: the engine emits {event.EVENT} where the journal ends")
            return self.live.emit(event)
        journaled = self.expected.popleft()
        want = {k: v for k, v in to_record(journaled).items() if k not in IGNORED}
        got = {k: v for k, v in to_record(as_written(event)).items() if k not in IGNORED}
        if want != got or not isinstance(journaled, type(event)):
            raise JournalMismatch(f"round {event.round} seq {journaled.seq}: {differences(want, got)}")
        return journaled

    def atomic(self) -> Any:
        if not self.expected and self.live is not None:
            return self.live.atomic()
        return nullcontext()


def differences(journaled: dict[str, Any], engine: dict[str, Any]) -> str:
    """Where a journaled record and the engine's re-enactment of it differ, field by field (an options field key by
    key), in words a supervisor reads: not two whole records side by side."""
    if journaled.get("event") != engine.get("event"):
        return f"the journal has {journaled.get('event')} where the engine re-enacting the round gives {engine.get('event')}"
    found = []
    for key in sorted({*journaled, *engine}):
        was, now = journaled.get(key), engine.get(key)
        if was == now:
            continue
        if isinstance(was, dict) and isinstance(now, dict):
            found += [f"{key}.{k} {was.get(k)!r} in the journal, {now.get(k)!r} re-enacted"
                      for k in sorted({*was, *now}) if was.get(k) != now.get(k)]
        else:
            found.append(f"{key} {was!r} in the journal, {now!r} re-enacted")
    return f"its {journaled.get('event')} differs from the engine's re-enactment: {'; '.join(found)}"


def piece(code: str) -> Piece:
    """A card (``AS``) or, in Pai Gow Tiles, a tile (``6-6``) from its code."""
    return Tile.parse(code) if "-" in code else Card.parse(code)


def _card(round: Round, record: CardBurned | CardDealt | CardFaulted) -> None:
    if isinstance(record, CardBurned):
        round.burns_due = max(round.burns_due, 1)
    try:
        round.card(piece(record.card), record.source)
    except CardRefused:
        if not isinstance(record, CardFaulted):
            raise


def _following(round: Round, log: ReplayLog, kind: type[F]) -> F:
    """The journaled record of ``kind`` that completes the input at the head (its reason, who released a hold)."""
    record = next((r for r in log.expected if isinstance(r, kind)), None)
    if record is None:
        raise JournalMismatch(f"round {round.id}: the journal changes state without its {kind.EVENT} record")
    return record


def _state(round: Round, record: StateChanged, log: ReplayLog) -> None:
    """The state changes the engine makes on a call from outside, not by itself."""
    if record.state == "no_more_bets":
        round.close_betting()
    elif record.state == "void":
        round.void_round(_following(round, log, RoundVoided).reason)
    elif record.state == "hold":
        round.put_on_hold(_following(round, log, RoundHeld).reason)
    elif round.state == "hold":
        round.release(_following(round, log, RoundResumed).by)
    else:
        raise JournalMismatch(f"round {round.id} seq {record.seq}: the engine did not reach {record.state} by itself")


def _wager(round: Round, record: WagerPlaced | WagerChanged) -> None:
    if isinstance(record, WagerPlaced) and record.by == "decision":
        raise JournalMismatch(f"round {round.id} seq {record.seq}: a wager added by a decision the engine did not make")
    round.place_wager(record.spot, record.wager, record.amount)


def _decision(record: DecisionTaken) -> Decision:
    """The ``Decision`` the record holds (codes back to pieces)."""
    return Decision(record.spot, record.action, record.amount, tuple(piece(c) for c in record.cards), record.hand,
                    tuple(record.values))


def _irregularity(record: IrregularityReported) -> Irregularity:
    return Irregularity(record.kind, piece(record.card) if record.card else None, record.target, record.count)


def _step(round: Round, record: Event, log: ReplayLog) -> None:
    """Give ``round`` the input ``record`` holds: what a dealer, a device or a player did."""
    match record:
        case RoundStarted():
            round.start()
        case StateChanged():
            _state(round, record, log)
        case WagerPlaced() | WagerChanged():
            _wager(round, record)
        case CardBurned() | CardDealt() | CardFaulted():
            _card(round, record)
        case DecisionTaken():
            round.decide(_decision(record))
        case HoldReasonAdded(reason=reason):
            round.put_on_hold(reason)
        case PlayerSeated(spot=spot):
            round.sit(spot)
        case IrregularityReported():
            round.report(_irregularity(record))
        case CardCorrected(index=index, card=card, reason=reason):
            round.correct_card(index, piece(card), reason)
        case JackpotAwarded():
            jackpot.award(round, to_record(record))
        case _:
            raise JournalMismatch(f"round {round.id} seq {record.seq}: {record.EVENT} is not an input this engine knows")


def _journaled_doubt(log: ReplayLog) -> Callable[[Round], str | None]:
    """The witness a re-enacted round is given in place of the table's (the shuffle monitor, the camera), which
    are not there: where the journal holds the round next, after a card placed or before settling, the reason
    it journaled is the doubt a witness raised there. A hold raised by a round's last card, or at settling, is
    otherwise re-enacted as a settlement the journal does not have."""

    def doubt(round: Round) -> str | None:
        head = next((r for r in log.expected if not isinstance(r, INFORMATIONAL)), None)
        if isinstance(head, StateChanged) and head.state == "hold":
            return _following(round, log, RoundHeld).reason
        return None

    return doubt


def reenact(round: Round, log: ReplayLog) -> None:
    """Feed the journaled inputs to ``round`` until the journaled records are used up."""
    while log.expected:
        head = log.expected[0]
        if isinstance(head, INFORMATIONAL):
            log.expected.popleft()
            continue
        try:
            _step(round, head, log)
        except JournalMismatch:
            raise
        except (TableError, ValueError) as exc:
            raise JournalMismatch(f"round {round.id} seq {head.seq}: re-enacting {head.EVENT} failed: {exc}") from exc
        if log.expected and log.expected[0] is head:
            raise JournalMismatch(f"round {round.id} seq {head.seq}: re-enacting {head.EVENT} emitted nothing")


def rebuild(records: list[Event], live: EventLog | None, *, game: Game[Any] | None = None,
            limits: Limits | None = None) -> Round:
    """A round re-enacted from its journaled ``records``; with ``live`` it carries on past them."""
    started = next((r for r in records if isinstance(r, RoundStarted)), None)
    if started is None:
        raise JournalMismatch(f"the journal holds no {RoundStarted.EVENT} record for this round")
    log = ReplayLog(started.table, records, live)
    rules = 1 if started.rules is UNSET else started.rules
    if game is None or game.rules_version != rules or not dealt_under(game, started):
        # a round journaled under other rules, or under game options the config has changed since (a pay table,
        # the decks, a seat), is re-enacted and settled as it was dealt: the table's new settings start next round
        game = make_game(started.game, started.options)
        game.rules_version = rules
    if started.roles:
        game.restore_roles(started.roles)
    round = Round(
        started.round or "",
        game,
        log,
        spots=started.spots,
        limits=Limits({}),  # the wagers journaled were within the limits of their time: a limit changed since refuses none
        rounding=Rounding.parse(started.rounding),
    )
    round.witness = round.card_witness = _journaled_doubt(log)
    try:
        reenact(round, log)
    finally:
        round.witness = round.card_witness = None  # from here on the table's own witnesses, if any (``Table.witnessed``)
    round.limits = limits or Limits({})  # a wager placed from here on (a round resumed in betting) is the table's now
    return round


def dealt_under(game: Game[Any], started: RoundStarted) -> bool:
    """Whether ``game`` (the table's, from its config now) is the game ``started`` journaled: its id and options."""
    written = as_written(msgspec.structs.replace(started, options=dict(game.options), game=game.id))
    return written.game == started.game and written.options == started.options


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
    started = next((r for r in records if isinstance(r, RoundStarted)), None)
    if started is None:
        return
    if last[0].ended_seq is not None:
        replayed = rebuild(records, None, game=game)
        if replayed.game is not game:  # dealt under options the config has changed since: its roles carry on
            game.restore_roles(replayed.game.table_roles())
    elif started.roles:
        game.restore_roles(started.roles)
    moves = [r.details for r in records if isinstance(r, PositionPassed | PositionTaken)]
    passed = [facts for facts in moves if "player_dealer" in facts]
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
        log.emit(TableStateNotRestored(reason=str(exc)))
    results = []
    for row in journal.open_rounds():
        try:
            round = rebuild(journal.round_records(row.id), log, game=game, limits=limits)
        except JournalMismatch as exc:
            message = f"round {row.id} is void: it could not be re-enacted ({exc}); every wager is returned"
            log.emit(RoundRecovered(round=row.id, action="voided", state=row.state, cards=None, message=message))
            void_from_journal(journal, log, row.id, row.game, str(exc))
            results.append(Recovered(row.id, None, "voided", message))
            continue
        dealt = cards_dealt(round)
        reason = None
        if round.state in FINISHED:
            action, message = "completed", f"round {round.id} settled on restart from its journaled cards"
        elif round.state == "hold":
            action, message = "held", f"round {round.id} is still on hold: {round.hold_reason}"
        elif (reason := misdeal_on_restart(round)) is None:
            action, message = "resumed", f"round {round.id} resumes where it stopped ({round.state}, {dealt} cards out)"
        else:
            action, message = "voided", f"round {round.id} is void: {reason}; every wager is returned"
        log.emit(RoundRecovered(round=round.id, action=action, state=round.state, cards=dealt, message=message))
        if reason is not None:
            round.void_round(reason)
        results.append(Recovered(round.id, round, action, message))
    return results


def cards_dealt(round: Round) -> int:
    """The cards of ``round`` dealt to its hands (burns left out)."""
    return sum(1 for target, _, _ in round.cards if target != "burn")


def misdeal_on_restart(round: Round, dealt: int | None = None) -> str | None:
    """Why ``round``, going on when the table next starts, is void then (the game's misdeal rule,
    ``Game.misdeal_on_restart``), or ``None``: it resumes where it stopped. Decided here for ``recover`` and for a
    held round resumed while the table is not running, or recovered held by the table running now
    (``controller.engine.holds.void_only``). ``dealt``: the cards of it out at the restart, if not all it has now."""
    return round.game.misdeal_on_restart(round.hand, cards_dealt(round) if dealt is None else dealt)


def void_from_journal(journal: Journal, log: EventLog, round_id: str, game_id: str, reason: str) -> None:
    """Void a round from the stakes the journal holds for it, without the engine: every stake returned whole."""
    rounding = Rounding.PLAYER
    journaled = journal.round_records(round_id)
    banker = _void_banker(journaled)
    records = [settle(spot, wager, staked - settled, PUSH, rounding, reason=f"void: {reason}", banker=banker)
               for spot, wager, staked, settled in journal.stakes(round_id) if staked > settled]
    fees = sum(r.amount for r in journaled if isinstance(r, FeeCollected))
    wagered = sum(r.stake for r in records if r.banker == "house")
    between = sum(r.stake for r in records if r.banker != "house")
    envelope = {"round": round_id, "game": game_id}
    with log.atomic():
        log.emit(stamped(StateChanged(state="void"), **envelope))
        for record in records:
            log.emit(stamped(WagerSettled.of(record), **envelope))
        log.emit(stamped(RoundVoided(reason=reason, wagered=wagered, paid=wagered, fees=fees, house_win=fees,
                                     between_players=between or UNSET), **envelope))


def _void_banker(records: list[Event]) -> str:
    """Who a round's stakes go back from when it is voided from the journal: its game's, under the rules and options
    it was dealt with (a player-dealer game's go back between the players, never as house action); ``house`` when
    the journal cannot say (no ``round_started``, or a game this release cannot make from its options)."""
    started = next((r for r in records if isinstance(r, RoundStarted)), None)
    if started is None:
        return "house"
    try:
        game = make_game(started.game, started.options)
    except (TableError, ValueError, KeyError):
        return "house"
    game.rules_version = 1 if started.rules is UNSET else started.rules
    return game.void_banker()
