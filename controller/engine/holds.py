"""Ending a hold: the supervisor resumes a held round (entering a card the device could not read) or voids it.

One place for the action, whoever asks: the dealer console on a live table,
and ``tablectl hold resume|void ROUND`` on the journal of a table that is not
running (a ``tablectl run`` that stopped at a held round, a service that was
stopped). Both journal a ``SupervisorActed`` record before the round moves,
so the audit trail says who did what and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.cards import Card
from controller.engine.config import TableConfig
from controller.engine.feeds import RESTARTED_AFTER_CARDS, CardFeed
from controller.engine.log import EventLog
from controller.engine.recovery import JournalMismatch, misdeal_on_restart, rebuild
from controller.engine.round import FINISHED, Limits, Round
from controller.errors import TableError
from controller.events import (
    UNSET,
    Event,
    HoldReasonAdded,
    RoundHeld,
    ShufflerFaulted,
    StackDispensed,
    SupervisorActed,
    SupervisorRefusal,
)
from controller.records.journal import Journal

DEALT_BEFORE_RESTART = ("cards of this round were dealt from the shuffler before the table restarted, and the table "
                        "went on with a fresh deck, which could deal them again: void the round")
"""Why a round the running table recovered held, cards of it out from the shuffler, may only be voided (whatever
it was held for, unless the shuffler's own restart said so: ``RESTARTED_AFTER_CARDS``)."""
DEALT_BEFORE_STOP = ("cards of this round were already dealt from the shuffler, and the table starts again on a fresh "
                     "deck, which could deal them again: resumed, the round is void when the table starts: void the round")
"""Why ``tablectl hold resume`` refuses such a round on a table not running."""


class HoldRefused(TableError, ValueError):
    """A resume or void that cannot be done (the round is not held, no card is due, ...); the message says why."""


class VoidOnly(HoldRefused):
    """A resume refused because the held round may only be voided; ``reason`` says why (``void_only``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"not resumed: {reason}")
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Held:
    """A round on hold in the journal, and why."""

    round_id: str
    reason: str


def resume(round: Round, *, by: str, feed: CardFeed | None = None, card: Card | None = None) -> str:
    """Resume ``round`` where it was held; ``card`` is the card the device could not read, entered by hand."""
    if round.state != "hold":
        raise HoldRefused(f"round {round.id} is not on hold (it is {round.state})")
    if card is not None and not card_due_on_release(round):  # refused before anything changes: the hold stays as it is
        raise HoldRefused(f"no card is due in round {round.id}: resume it without a card, or void it")
    round.release(by=by)
    if feed is not None:
        feed.supervisor_resumed(round.id)
    if card is not None:
        round.card(card, by)
    return f"round {round.id} resumed"


def card_due_on_release(round: Round) -> bool:
    """Whether the held ``round``, once released, expects a card (or a burn) next."""
    return round.held_from in ("dealing", "decisions", "reveal") and (
        round.burns_due > 0 or round.game.next_target(round.hand) is not None)


def void_only(round: Round, feed: CardFeed | None = None, records: Sequence[Event] = (), *,
              recovered: int | None = None) -> str | None:
    """Why the held ``round`` may only be voided, not resumed; ``None``: a resume may go on. Decided here once, for
    the console on a running table (its resume, and whether its screen offers one) and for ``tablectl hold resume``
    on a table that is not.

    On a running table its feed says (``CardFeed.void_only``: a shuffler's deck lost to a restart with cards of it
    dealt, docs/protocol.md 8.4). On a table not running (no ``feed``) a resumed round goes on only when the table
    next starts, and that start voids it when the game's misdeal rule says so (``recovery.misdeal_on_restart``:
    cards of it dealt from a shuffler, whose deck is not the round's then): a resume would void it, later and
    less clearly. ``recovered``: the round was recovered from the journal held when the running table started,
    with that many cards out (``TableLoop.recovered``); its feed never had the round's deck, so the same rule
    decides for those cards. ``records`` (the round's journal) say what happened, in the words the supervisor saw
    at the table.
    """
    if feed is not None and ((why := feed.void_only(round.id)) is not None or recovered is None):
        return why
    if misdeal_on_restart(round, recovered) is None:
        return None
    dealt = [i for i, r in enumerate(records) if isinstance(r, StackDispensed)]
    restarted = dealt and any(isinstance(r, ShufflerFaulted) and r.code == "device-restarted" for r in records[dealt[0]:])
    if restarted:
        return RESTARTED_AFTER_CARDS
    return DEALT_BEFORE_RESTART if feed is not None else DEALT_BEFORE_STOP


def refuse_void_only(round: Round, log: EventLog, *, by: str, action: str = "resume", feed: CardFeed | None = None,
                     records: Sequence[Event] = (), recovered: int | None = None) -> None:
    """Refuse ``action`` (a resume, a card entered) on the held ``round`` if it may only be voided (``void_only``),
    journaled once as ``supervisor_refused`` (step ``table``, the round's id): raises ``VoidOnly``."""
    if (why := void_only(round, feed, records, recovered=recovered)) is not None:
        log.emit(SupervisorRefusal(round=round.id, name=by, step="table", action=action, reason=why))
        raise VoidOnly(why)


def void(round: Round, *, by: str, reason: str, feed: CardFeed | None = None) -> str:
    """Void ``round``: every wager returned whole (the game's misdeal rule)."""
    if round.state in FINISHED:
        raise HoldRefused(f"round {round.id} is already {round.state}")
    round.void_round(reason)
    if feed is not None:
        feed.supervisor_resumed(round.id)
    return f"round {round.id} voided: every wager is returned"


def held_rounds(journal: Journal) -> list[Held]:
    """The rounds the journal holds on hold, with the reason of each."""
    out = []
    for row in journal.open_rounds():
        if row.state != "hold":
            continue
        reasons = [r.reason for r in journal.round_records(row.id) if isinstance(r, RoundHeld | HoldReasonAdded)]
        out.append(Held(row.id, "; ".join(reasons) or "on hold"))
    return out


def act_on_journal(
    journal: Journal, log: EventLog, config: TableConfig, round_id: str, action: str, *,
    by: str, reason: str, card: Card | None = None,
) -> str:
    """The command line's resume or void: the held round re-enacted from the journal, then moved on and journaled.

    The next ``tablectl run`` or ``serve`` recovers it from there: a resumed round is dealt on where it stopped,
    a voided one is over. A resume of a round that may only be voided is refused (``refuse_on_journal``).
    """
    round = _held_round(journal, log, config, round_id)
    if action != "void":
        refuse_void_only(round, log, by=by, action=action, records=journal.round_records(round_id))
    log.emit(SupervisorActed(round=round_id, action=action, reason=reason, by=by, card=card.code if card else UNSET))
    if action == "void":
        return void(round, by=by, reason=reason)
    return resume(round, by="supervisor", card=card)  # the round's records name the role; who is in the action


def refuse_on_journal(journal: Journal, log: EventLog, config: TableConfig, round_id: str, *, by: str,
                      action: str = "resume") -> None:
    """Before the supervisor's PIN is asked: refuse (``VoidOnly``, journaled once) a resume of the held round
    ``round_id`` that may only be voided (``void_only`` on a table not running), as the console refuses it."""
    round = _held_round(journal, log, config, round_id)
    refuse_void_only(round, log, by=by, action=action, records=journal.round_records(round_id))


def _held_round(journal: Journal, log: EventLog, config: TableConfig, round_id: str) -> Round:
    """The held round ``round_id`` re-enacted from the journal; ``HoldRefused`` if there is none."""
    row = journal.round(round_id)
    if row is None:
        raise HoldRefused(f"no round {round_id} in the journal {journal.path}")
    if row.state != "hold":
        raise HoldRefused(f"round {round_id} is not on hold (it is {row.state})")
    try:
        return rebuild(journal.round_records(round_id), log, game=config.make_game(), limits=Limits(config.limits))
    except JournalMismatch as exc:
        raise HoldRefused(f"round {round_id} cannot be re-enacted from the journal ({exc}): it is voided when the "
                          "table next starts") from None
