"""Ending a hold: the supervisor resumes a held round (entering a card the device could not read) or voids it.

One place for the action, whoever asks: the dealer console on a live table,
and ``tablectl hold resume|void ROUND`` on the journal of a table that is not
running (a ``tablectl run`` that stopped at a held round, a service that was
stopped). Both journal a ``SupervisorActed`` record before the round moves,
so the audit trail says who did what and why.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.cards import Card
from controller.engine.config import TableConfig
from controller.engine.feeds import CardFeed
from controller.engine.log import EventLog
from controller.engine.recovery import JournalMismatch, rebuild
from controller.engine.round import FINISHED, Limits, Round
from controller.errors import TableError
from controller.events import UNSET, HoldReasonAdded, RoundHeld, SupervisorActed
from controller.records.journal import Journal


class HoldRefused(TableError, ValueError):
    """A resume or void that cannot be done (the round is not held, no card is due, ...); the message says why."""


@dataclass(frozen=True, slots=True)
class Held:
    """A round on hold in the journal, and why."""

    round_id: str
    reason: str


def resume(round: Round, *, by: str, feed: CardFeed | None = None, card: Card | None = None) -> str:
    """Resume ``round`` where it was held; ``card`` is the card the device could not read, entered by hand."""
    if round.state != "hold":
        raise HoldRefused(f"round {round.id} is not on hold (it is {round.state})")
    round.release(by=by)
    if feed is not None:
        feed.supervisor_resumed(round.id)
    if card is not None:
        if round.card_target() is None:
            round.put_on_hold(f"card {card.code} entered by the {by}, but no card is due")
            raise HoldRefused(f"no card is due in round {round.id}: resume it without a card, or void it")
        round.card(card, by)
    return f"round {round.id} resumed"


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
    a voided one is over.
    """
    row = journal.round(round_id)
    if row is None:
        raise HoldRefused(f"no round {round_id} in the journal {journal.path}")
    if row.state != "hold":
        raise HoldRefused(f"round {round_id} is not on hold (it is {row.state})")
    try:
        round = rebuild(journal.round_records(round_id), log, game=config.make_game(), limits=Limits(config.limits))
    except JournalMismatch as exc:
        raise HoldRefused(f"round {round_id} cannot be re-enacted from the journal ({exc}): it is voided when the "
                          "table next starts") from None
    log.emit(SupervisorActed(round=round_id, action=action, reason=reason, by=by, card=card.code if card else UNSET))
    if action == "void":
        return void(round, by=by, reason=reason)
    return resume(round, by="supervisor", card=card)  # the round's records name the role; who is in the action
