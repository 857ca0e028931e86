"""One round told from its journal records: what ``tablectl round`` prints and the pit view lists.

``recall(records)`` gathers a round's wagers, each card with where it went and
where it came from, the overhead camera's word on them, the decisions, holds,
faults, recovery messages, the settlement of every wager and the totals, as
plain data for a person or a program.
"""

from __future__ import annotations

from typing import Any

from msgspec import UnsetType

from controller.events import (
    BettingClosed,
    CameraAgreed,
    CameraBack,
    CameraConfirmed,
    CameraDisagreed,
    CameraFailed,
    CameraLost,
    CardBurned,
    CardCorrected,
    CardDealt,
    CardFaulted,
    DecisionTaken,
    Event,
    FeeCollected,
    HoldReasonAdded,
    LoggedOut,
    LoginGranted,
    RoundCompleted,
    RoundHeld,
    RoundRecovered,
    RoundResumed,
    RoundStarted,
    RoundVoided,
    StateChanged,
    SupervisorActed,
    WagerChanged,
    WagerPlaced,
    WagerRefusal,
    WagerSettled,
    staked_after,
)


def recall(records: list[Event]) -> dict[str, Any]:
    """One round's journal records, gathered for a person or a program."""
    summary: dict[str, Any] = {"id": None, "game": None, "state": None, "wagers": {}, "cards": [], "decisions": [],
                               "refused": [], "betting_closed": None, "settlements": [], "fees": [], "holds": [], "resumed": [], "supervisor": [], "faults": [],
                               "recovery": [], "camera": None, "totals": None}
    for r in records:
        match r:
            case RoundStarted():
                summary.update(id=r.round, game=r.game, started=r.timestamp, options=r.options)
            case StateChanged():
                summary["state"] = r.state
            case WagerPlaced() if r.by == "decision" and _put_down(summary["wagers"].get(f"{r.spot}:{r.wager}")):
                # a double or a split added to a wager put down in betting: when it went down stays, the addition beside
                wager = summary["wagers"][f"{r.spot}:{r.wager}"]
                wager["amount"] = staked_after(r)
                wager.setdefault("added", []).append({"amount": r.amount, "at": r.timestamp, "seq": r.seq, "by": r.by})
            case WagerPlaced() | WagerChanged():  # when it last changed (seq: its place among the cards and no more bets)
                wager = {"spot": r.spot, "wager": r.wager, "amount": staked_after(r), "at": r.timestamp, "seq": r.seq}
                if isinstance(r, WagerPlaced) and isinstance(r.by, str):
                    wager["by"] = r.by
                summary["wagers"][f"{r.spot}:{r.wager}"] = wager
            case WagerRefusal():
                summary["refused"].append({"spot": r.spot, "wager": r.wager, "amount": r.amount, "reason": r.reason,
                                           "at": r.timestamp, "seq": r.seq})
            case BettingClosed():
                summary["betting_closed"] = {"at": r.timestamp, "seq": r.seq}
            case CardDealt() | CardBurned():
                target = r.target if isinstance(r, CardDealt) else "burn"
                summary["cards"].append({"card": r.card, "target": target, "source": r.source, "seq": r.seq})
            case CardCorrected() if 0 <= r.index < len(summary["cards"]):  # the card really there, as the round settled
                summary["cards"][r.index].update(card=r.card, source="supervisor", corrected_from=r.previous,
                                                 correction=r.reason, corrected_seq=r.seq)
            case DecisionTaken():
                summary["decisions"].append({"spot": r.spot, "action": r.action, "amount": r.amount, "cards": r.cards, "hand": r.hand,
                                             "values": r.values if isinstance(r.values, list) else []})
            case WagerSettled():
                summary["settlements"].append({"spot": r.spot, "wager": r.wager, "stake": r.stake, "outcome": r.outcome.value,
                                               "payout": r.payout, "returned": r.returned, "house_win": r.house_win,
                                               "reason": r.reason, "banker": r.banker})
            case FeeCollected():
                summary["fees"].append({"spot": r.spot, "amount": r.amount, "reason": r.reason})
            case RoundHeld() | HoldReasonAdded():
                summary["holds"].append(r.reason)
            case RoundResumed():
                summary["resumed"].append({"by": r.by, "reason": r.reason, "at": r.timestamp})
            case SupervisorActed():  # who: the round's own records name only the role
                acted: dict[str, Any] = {"action": r.action, "by": r.by, "reason": r.reason, "at": r.timestamp}
                acted.update({k: v for k, v in (("index", r.index), ("card", r.card), ("previous", r.previous))
                              if isinstance(v, (int, str))})
                summary["supervisor"].append(acted)
            case CardFaulted():
                summary["faults"].append({"card": r.card, "source": r.source, "reason": r.reason})
            case CameraConfirmed() | CameraAgreed() | CameraDisagreed() | CameraFailed() | CameraLost() | CameraBack():
                _camera_look(summary, r)
            case RoundRecovered():
                summary["recovery"].append(r.message)
            case RoundCompleted() | RoundVoided():
                summary["totals"] = {"wagered": r.wagered, "paid": r.paid, "fees": r.fees, "house_win": r.house_win,
                                     "between_players": r.between_players if isinstance(r.between_players, int) else 0}
                summary["ended"] = r.timestamp
                if isinstance(r, RoundVoided):
                    summary["void_reason"] = r.reason
    summary["wagers"] = [w for w in summary["wagers"].values() if w["amount"]]
    return summary


def _put_down(wager: dict[str, Any] | None) -> bool:
    """A wager the player put down in betting and still standing (not one a decision made: a poker pot's chips)."""
    return wager is not None and bool(wager["amount"]) and "by" not in wager


def _camera_look(summary: dict[str, Any],
                 r: CameraConfirmed | CameraAgreed | CameraDisagreed | CameraFailed | CameraLost | CameraBack) -> None:
    """The camera's word on the round (``controller.engine.camera``): a look after each card landed, one
    before settling, what disagreed or failed, and when a live camera was lost and came back."""
    camera = summary["camera"] = summary["camera"] or {"looks_agreed": 0, "cards_before_settling": None,
                                                       "discrepancies": [], "failures": [], "outages": []}
    match r:
        case CameraConfirmed():
            camera["looks_agreed"] += 1
        case CameraAgreed():
            camera["looks_agreed"] += 1
            camera["cards_before_settling"] = r.cards
        case CameraDisagreed():
            camera["discrepancies"].append({"kind": r.kind, "zone": r.zone, "dealt": r.dealt, "seen": r.seen})
        case CameraFailed():
            camera["failures"].append(r.reason)
        case CameraLost() | CameraBack():
            camera["outages"].append({"event": r.EVENT, "device": r.device, "at": r.at})


def staff_at(logins: list[Event], started_seq: int, ended_seq: int | None) -> list[dict[str, Any]]:
    """Who was logged in at the console when a round was dealt: each ``login_granted`` still open (no ``logout`` of
    that name from that client since) when the round started, and each login and logout while it ran, in order.

    ``logins``: the journal's ``LoginGranted`` and ``LoggedOut`` records, in order. A session that ended without a
    logout (unused 12 hours, replaced, the console stopped) is a ``LoggedOut`` with ``ended``; one cut short by a
    power loss leaves none, so a login listed as open is the last the journal shows.
    """
    open_: dict[tuple[str, str], dict[str, Any]] = {}
    during: list[dict[str, Any]] = []
    for r in logins:
        if ended_seq is not None and r.seq > ended_seq:
            break
        if isinstance(r, LoginGranted):
            entry = {"name": r.name, "role": r.role, "page": r.page, "client": r.client, "at": r.timestamp,
                     "seq": r.seq, "what": "logged in"}
        elif isinstance(r, LoggedOut):
            what = "logged out" if isinstance(r.ended, UnsetType) else f"session ended ({r.ended})"
            entry = {"name": r.name, "client": r.client, "at": r.timestamp, "seq": r.seq, "what": what}
        else:
            continue
        if r.seq > started_seq:
            during.append(entry)
        elif isinstance(r, LoginGranted):
            open_[(r.name, r.client)] = entry
        else:
            open_.pop((r.name, r.client), None)
    return [{**e, "what": "logged in before it started"} for e in open_.values()] + during


def still_logged_in(logins: list[Event]) -> list[LoginGranted]:
    """The logins the journal shows open (no ``logout`` of that name from that client since), oldest first: at a
    table's start, sessions its last run lost without a record (a power loss, a crash, a kill)."""
    open_: dict[tuple[str, str], LoginGranted] = {}
    for r in logins:
        if isinstance(r, LoginGranted):
            open_[(r.name, r.client)] = r
        elif isinstance(r, LoggedOut):
            open_.pop((r.name, r.client), None)
    return list(open_.values())
