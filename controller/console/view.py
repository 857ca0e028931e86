"""What the console pages show, built from the round engine's own state.

Nothing here knows a particular game: the spots and wagers come from
``game.wagers`` and ``game.seat_wagers``, the cards from ``round.cards`` (each
with the device it came from, and the camera's word on it when the camera
watches), the buttons from ``round.pending_decision()``, the settlement from
the round's ``Settlement`` records in the order the game settled them. The
view is a plain JSON-able dict, sent whole to the pages on every change, so a
page that reloads mid-round shows the round exactly as it stands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.records.meters import Meters
from controller.money import format_cents
from controller.engine.round import Round
from controller.settlement import Settlement

if TYPE_CHECKING:
    from controller.console.session import TableLoop
    from controller.rules.base import PendingDecision

HOLD_HELP = ("Stop dealing and leave the cards where they are. Call a supervisor: once the cause is fixed "
             "they resume the round where it stopped, enter the card really dealt, or void the round.")
VOID_HELP = "Return every wager shown below in full, clear the layout, then open the next round."


def table_view(loop: TableLoop) -> dict[str, Any]:
    table = loop.table
    game = table.game
    return {
        "version": loop.version,
        "table": table.config.table_id,
        "game": {"id": game.id, "title": game.title, "wagers": list(game.wagers)},
        "spots": table.config.spots,
        "mode": "watch" if loop.players is not None else "dealer",
        "round": round_view(loop, loop.round) if loop.round is not None else None,
        "table_fault": loop.table_fault,
        "hold_help": HOLD_HELP,
        "void_help": VOID_HELP,
        "stopped": table.stopped,
        "message": loop.message,
        "devices": dict(loop.devices),
        "faults": [{"device": f.device, "reason": f.reason, "round": f.round_id, "at": f.at} for f in loop.faults[-20:]],
        "meters": meters_view(loop),
        "recent": recent_rounds(loop),
        "events": events_view(loop),
    }


def round_view(loop: TableLoop, round: Round) -> dict[str, Any]:
    game = round.game
    pending = round.pending_decision()
    return {
        "id": round.id,
        "state": round.state,
        "hold_reason": round.hold_reason,
        "void_reason": loop.void_reasons.get(round.id),
        "roles": game.table_roles(),
        "layout": [spot_view(round, spot) for spot in range(1, round.spots + 1)],
        "cards": cards_view(loop, round),
        "card_due": card_due(round),
        "stray_cards": [{"card": c.code, "source": s, "reason": r} for c, s, r in round.stray_cards],
        "pending": pending_view(pending) if pending else None,
        "entry": piece_entry(loop, round),
        "decisions": [d.as_event() for d in round.decisions],
        "reveal": loop.reveals.get(round.id),
        "fees": [{"spot": f.spot, "amount": f.amount, "text": format_cents(f.amount), "reason": f.reason} for f in round.fees],
        "settlements": [settlement_view(s) for s in round.settlements],
        "totals": round.totals() if round.state in ("complete", "void") else None,
        "totals_text": totals_text(round) if round.state in ("complete", "void") else None,
        "result": game.describe(round.hand) if round.state == "complete" and round.hand is not None else None,
    }


def pending_view(pending: PendingDecision) -> dict[str, Any]:
    """The decision awaited, with what the page offers beside the action buttons (amounts, numbers, a hand to set)."""
    setting = pending.setting
    return {
        "spot": pending.spot,
        "actions": list(pending.actions),
        "hand": pending.hand,
        "amounts": [{"action": a, "amount": c, "text": format_cents(c), "entry": f"{c // 100}.{c % 100:02d}"}
                    for a, c in pending.amounts],
        "values": [list(v) for v in pending.values],
        "setting": None if setting is None else {
            "cards": [c.code for c in setting.cards], "count": setting.count, "named": setting.named, "rest": setting.rest,
            "action": setting.action},
    }


def piece_entry(loop: TableLoop, round: Round) -> list[dict[str, Any]] | None:
    """When the dealer keys the pieces in and one is due: each piece of the set with the copies left this round."""
    if loop.keyed is None or round.card_target() is None:
        return None
    left = loop.keyed.left([p for _, p, _ in round.cards])
    return [{"code": p.code, "name": getattr(p, "name", p.code), "left": n} for p, n in left]


def card_due(round: Round) -> str | None:
    """Where the next card goes; on hold, where it will go once the round resumes."""
    if round.state != "hold":
        return round.card_target()
    if round.hand is None:
        return None
    return "burn" if round.burns_due else round.game.next_target(round.hand)


def totals_text(round: Round) -> str:
    t = round.totals()
    text = f"house action: wagered {format_cents(t['wagered'])}, paid {format_cents(t['paid'])}"
    if t["fees"]:
        text += f", fees {format_cents(t['fees'])}"
    text += f", house win {format_cents(t['house_win'])}"
    if t["between_players"]:
        text += f"; between players {format_cents(t['between_players'])}"
    return text


def spot_view(round: Round, spot: int) -> dict[str, Any]:
    allowed = round.game.seat_wagers(spot) if round.state in ("idle", "betting") else ()
    names = list(dict.fromkeys([*allowed, *(w for (s, w) in round.wagers if s == spot)]))
    wagers = []
    for name in names:
        amount = round.wagers.get((spot, name), 0)
        limits = round.limits.get(name)
        wagers.append({
            "name": name,
            "amount": amount,
            "text": format_cents(amount) if amount else "",
            "entry": f"{amount // 100}.{amount % 100:02d}" if amount else "",
            "open": name in allowed,
            "limits": format_limits(limits) if limits else None,
        })
    role = "player-dealer" if tuple(round.game.seat_wagers(spot)) == ("bank",) else None
    return {"spot": spot, "wagers": wagers, "role": role, "seated": spot in round.seated}


def format_limits(limits: tuple[int, int]) -> str:
    return f"{format_cents(limits[0])}–{format_cents(limits[1])}"


#: While the round is in these states, the dealer's cards and any card the game deals face down stay hidden.
HIDDEN_WHILE = ("dealing", "decisions")


def hidden_cards(round: Round) -> set[int]:
    """Which of ``round.cards`` lie face down now: neither page (nor the data sent to it) shows their faces.

    The dealer's hand of a banking game is dealt face down until the reveal
    (the players decide against a hand they cannot see), and a game can deal
    other cards face down (``Game.face_down``: Pure 21.5's down card).
    """
    state = round.held_from if round.state == "hold" else round.state
    if state not in HIDDEN_WHILE:
        return set()
    return round.face_down() | {index for index, (target, _, _) in enumerate(round.cards) if target == "dealer"}


def cards_view(loop: TableLoop, round: Round) -> list[dict[str, Any]]:
    """The cards dealt, in order, with their source and any disagreement the camera reported."""
    camera = loop.camera.get(round.id, {"agrees": False, "confirmed": 0, "problems": []})
    problems = {p["zone"]: p for p in camera["problems"]}
    hidden = hidden_cards(round)
    out = []
    for index, (target, piece, source) in enumerate(round.cards):
        problem = problems.get(target) or problems.get(target.split(".", 1)[0])
        filmed = target != "burn" and (camera["agrees"] or index < camera.get("confirmed", 0))
        out.append({
            "target": target,
            "card": None if index in hidden else piece.code,
            "face_down": index in hidden,
            "source": f"{source}+camera" if filmed and index not in hidden else source,
            "disagreement": None if problem is None else f"camera saw {problem['seen'] or 'nothing'} ({problem['kind']})",
        })
    return out


def events_view(loop: TableLoop) -> list[dict[str, Any]]:
    """The latest events, the faces of the current round's face-down cards left out."""
    round = loop.round
    hidden = {(t, c.code) for i, (t, c, _) in enumerate(round.cards) if i in hidden_cards(round)} if round else set()
    out = []
    for event in list(loop.events)[:25]:
        detail = event["detail"]
        if event["event"] == "card_dealt" and round is not None and event["round"] == round.id \
                and (detail.get("target"), detail.get("card")) in hidden:
            event = event | {"detail": detail | {"card": None}}
        out.append(event)
    return out


def settlement_view(record: Settlement) -> dict[str, Any]:
    """One line of the settlement: what the dealer pays or collects on this wager."""
    net = record.returned - record.stake
    if record.banker != "house":
        instruction = f"{record.banker}: {'pays' if net > 0 else 'takes'} {format_cents(abs(net))}" if net else "returned"
        if record.wager == "bank":
            instruction = f"bank returned {format_cents(record.returned)}"
    elif net > 0:
        instruction = f"pay {format_cents(net)}"
    elif record.returned == 0:
        instruction = f"collect {format_cents(record.stake)}"
    elif net < 0:
        instruction = f"collect {format_cents(-net)}, return {format_cents(record.returned)}"
    else:
        instruction = "push: return the wager"
    return {
        "spot": record.spot,
        "wager": record.wager,
        "stake": format_cents(record.stake),
        "outcome": record.outcome.value,
        "payout": record.payout,
        "returned": format_cents(record.returned),
        "instruction": instruction,
        "reason": record.reason,
        "banker": record.banker,
    }


def meters_view(loop: TableLoop) -> dict[str, Any]:
    """The table's meters: the journal's (kept across restarts) when there is one, else this process's."""
    meters: Meters = loop.journal.meters() if loop.journal is not None else loop.table.meters
    total = meters.total
    return {
        "rounds": meters.rounds,
        "voided": meters.voided,
        "wagered": format_cents(total.wagered),
        "paid": format_cents(total.paid),
        "fees": format_cents(total.fees),
        "house_win": format_cents(total.house_win),
        "between_players": format_cents(meters.between_players.wagered),
        "by_wager": {name: {"count": m.count, "wagered": format_cents(m.wagered), "paid": format_cents(m.paid),
                            "house_win": format_cents(m.house_win)} for name, m in sorted(meters.by_wager.items())},
    }


def recent_rounds(loop: TableLoop) -> list[dict[str, Any]]:
    """The last rounds: from the journal when the table keeps one (across restarts), else the rounds this process played."""
    rows = []
    for item in list(loop.recent)[:10]:
        rows.append({**item, **{k: format_cents(item[k]) for k in ("wagered", "paid", "house_win")}})
    return rows
