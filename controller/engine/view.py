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

import datetime as dt
import json
import math
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from controller.engine import holds
from controller.engine.feeds import DealerEntryFeed
from controller.engine.log import EventLog
from controller.engine.players import SimulatedPlayers
from controller.engine.round import FINISHED, Round
from controller.engine.table import Table
from controller.engine.visibility import Audience, Sight, blank, hands, places, scrub_all, sight
from controller.events import DecisionTaken
from controller.money import format_cents
from controller.odds import PUSH, Outcome
from controller.records.journal import Journal
from controller.records.meters import Meters
from controller.rules.base import Game, PendingDecision
from controller.settlement import Settlement


@dataclass
class Fault:
    """A device fault as the pit sees it: which device, why, in which round, when (``time.time()``)."""

    device: str
    reason: str
    round_id: str | None
    at: float


class TableLoop(Protocol):
    """What the view reads of the table loop (``controller.engine.loop.TableLoop``)."""

    table: Table
    log: EventLog
    version: int
    players: SimulatedPlayers | None
    round: Round | None
    table_fault: str | None
    message: str | None
    devices: dict[str, str]
    faults: list[Fault]
    journal: Journal | None
    keyed: DealerEntryFeed | None
    recent: deque[dict[str, Any]]
    events: deque[dict[str, Any]]
    reveals: dict[str, dict[str, Any]]
    camera: dict[str, dict[str, Any]]
    void_reasons: dict[str, str]
    recovered: dict[str, int]

HOLD_HELP = ("Stop dealing and leave the cards where they are. Call a supervisor: once the cause is fixed "
             "they resume the round where it stopped, enter the card really dealt, or void the round.")
TABLE_HOLD_HELP = ("No round opens while a device is faulty. Call a supervisor: once the device shows ready here, "
                   "they resume the table.")
VOID_ONLY_HELP = ("Stop dealing and leave the cards where they are. Call a supervisor: this round cannot be resumed, "
                  "only voided, as {why}.")
VOID_HELP = "Return every wager shown below in full, clear the layout, then open the next round."
VOID_HELD_HELP = ("Return every wager shown below in full and clear the layout. The next round opens once the table's "
                  "hold is cleared.")


STATE_WORDS = {
    "idle": "Ready to open betting",
    "betting": "Place your bets",
    "no_more_bets": "No more bets",
    "dealing": "Dealing the cards",
    "decisions": "Players deciding",
    "reveal": "Showing the hands",
    "settling": "Settling",
    "complete": "Pay and collect",
    "void": "Round void: return every wager",
}
"""The round's state (``controller.engine.round.STATES``) as the dealer's top bar says it, unless the game has words of
its own for the moment (``Game.moment_words``); a hold says why it holds (``state_words``)."""
STOPPED_WORDS = "Game stopped: no player-dealer"
ROUND_WORDS = {"complete": "Settled", "void": "Voided", "hold": "Held"}
"""A past round's state as the pit's list of last rounds says it (a round still open: the top bar's words)."""


AUDIENCES = (Audience.DEALER, Audience.PIT)
"""The pages, each with a view of its own (``controller.engine.visibility`` decides what each may see)."""


def table_view(loop: TableLoop, audience: Audience = Audience.DEALER) -> dict[str, Any]:
    """Everything ``audience``'s page shows, as JSON-able data; nothing in it names a card that lies face down."""
    table = loop.table
    game = table.game
    screens = loop.log.screens
    round_id = loop.round.id if loop.round is not None else None

    def text(value: str | None) -> str | None:
        return screens.text(value, round_id, audience) if value else value

    zone = table_zone(table)

    return {
        "version": loop.version,
        "table": table.config.table_id,
        "game": {"id": game.id, "title": game.title, "wagers": list(game.wagers)},
        "spots": table.config.spots,
        "limits": limits_view(loop),
        "progressive": progressive_view(game.table_roles()),
        "mode": "watch" if loop.players is not None else "dealer",
        "seq": loop.log.last_seq,
        "round": round_view(loop, loop.round, audience) if loop.round is not None else None,
        "table_fault": loop.table_fault,
        "screens": screens_view(loop, text),
        "stopped": table.stopped,
        "position_offer": game.position_offer() if table.stopped else [],
        "message": text(loop.message),
        "devices": {name: text(status) for name, status in loop.devices.items()},
        "faults": [{"device": f.device, "reason": text(f.reason), "round": f.round_id, "at": f.at,
                    "at_text": clock(f.at, zone)} for f in loop.faults[-20:]],
        "meters": meters_view(loop),
        "recent": recent_rounds(loop),
        "events": events_view(loop, audience),
    }


def table_zone(table: Table) -> ZoneInfo | None:
    """The table's local time zone (``[table] time_zone``), or ``None``: this machine's own."""
    settings = table.config.settings
    name = settings.table.time_zone if settings is not None else None
    return ZoneInfo(name) if name else None


def clock(at: float, zone: ZoneInfo | None) -> str:
    """A moment (``time.time()``, kept as it is in the data) as a supervisor reads the table's clock: ``HH:MM:SS`` in
    the table's local time (``None``: this machine's), as the floor's pit page shows times in the floor's."""
    return f"{dt.datetime.fromtimestamp(at, dt.UTC).astimezone(zone):%H:%M:%S}"


def screens_view(loop: TableLoop, text: Callable[[str | None], str | None]) -> dict[str, Any]:
    """Which screens cover the table now, decided here once for every page (a page only draws them).

    ``hold``: why the table or its round is held, or ``None``. ``void``: the round just voided, whose returns stay
    on screen until the next round opens; a device still down holds the table beside it, never in its place, and
    the next round waits for that hold. ``stopped``: a player-dealer game waits for a player to take the position
    (not while held). ``state``: the table's state in a word, ``open_round``: whether the next round may open now.
    ``resume``: what the supervisor's resume does now, as its button says it (the round in play, or the table);
    ``None`` for a held round that may only be voided (``holds.void_only``): no resume, no card entered, is offered,
    and ``hold_help`` says why (the reason a resume is refused with), whatever the round was held for.
    """
    round = loop.round
    round_held = round is not None and round.state == "hold"
    in_play = round is not None and round.state not in FINISHED
    hold = text(loop.table_fault or (hold_reason(round) if round is not None and round_held else None))
    why = void_only(loop, round) if round is not None and round_held else None
    stopped = loop.table.stopped
    state = "hold" if hold else round.state if round is not None else "idle"
    return {
        "state": state,
        "state_text": state_words(loop, state, hold, round_held),
        "hold": hold,
        "hold_title": "ROUND ON HOLD" if round_held else "TABLE ON HOLD",
        "hold_help": VOID_ONLY_HELP.format(why=why) if why else HOLD_HELP if round_held else TABLE_HOLD_HELP,
        "void": round is not None and round.state == "void",
        "void_help": VOID_HELD_HELP if hold else VOID_HELP,
        "stopped": bool(stopped) and not hold,
        "open_round": not in_play and not hold and not stopped,
        "resume": None if why else "Resume round" if in_play else "Resume table",
    }


def state_words(loop: TableLoop, state: str, hold: str | None, round_held: bool) -> str:
    """The table's state as the dealer's top bar says it: "Place your bets", "Players deciding" (the game's words
    where it has its own: "Rolling the dice", "Showdown"), "Round held: shoe: jam". The page keeps the state's name
    beside it (``data-state``) for tests and surveillance."""
    if hold:
        return f"{'Round' if round_held else 'Table'} held: {hold}"
    if loop.table.stopped:
        return STOPPED_WORDS
    round = loop.round
    if round is not None and state not in ("idle", "complete", "void"):
        pending = round.pending_decision() if state == "decisions" else None
        own = loop.table.game.moment_words(round.hand, state, pending)
        if own:
            return own
    return STATE_WORDS.get(state, state.replace("_", " "))


def void_only(loop: TableLoop, round: Round) -> str | None:
    """Why the held ``round`` may only be voided, or ``None``, as the loop's refusal of its resume decides it (not
    told the round's journal, it words a restart the shuffler reported as the table's: the round's hold says which)."""
    return holds.void_only(round, loop.table.feed, recovered=loop.recovered.get(round.id))


def hold_reason(round: Round) -> str | None:
    """Why ``round`` holds: each reason given while it held, in order."""
    return " · then: ".join(round.hold_reasons) or round.hold_reason


def round_view(loop: TableLoop, round: Round, audience: Audience) -> dict[str, Any]:
    game = round.game
    pending = round.pending_decision()
    seen = sight(round, audience)
    view = {
        "id": round.id,
        "state": round.state,
        "hold_reason": hold_reason(round),
        "void_reason": loop.void_reasons.get(round.id),
        "roles": game.table_roles(),
        "layout": [spot_view(round, spot) for spot in range(1, round.spots + 1)],
        "cards": cards_view(loop, round, seen),
        "hands": hands(round, seen),
        "results": spot_results(round),
        "card_due": card_due(round),
        "card_due_spot": due_spot(round),
        "stray_cards": [{"card": c.code, "source": s, "reason": r} for c, s, r in round.stray_cards],
        "pending": None,
        "entry": None,
        "decisions": [blank({"event": DecisionTaken.EVENT, **d.as_event()}, seen) for d in round.decisions],
        "reveal": reveal_view(loop.reveals.get(round.id)),
        "fees": [{"spot": f.spot, "amount": f.amount, "text": format_cents(f.amount), "reason": f.reason} for f in round.fees],
        "settlements": [settlement_view(s) for s in round.settlements],
        "totals": round.totals() if round.state in FINISHED else None,
        "totals_text": totals_text(round) if round.state in FINISHED else None,
        "result": game.describe(round.hand) if round.state == "complete" and round.hand is not None else None,
    }
    shown: dict[str, Any] = scrub_all(view, seen)
    # the catalogues a hand is set and a tile keyed from: every card or tile of the game, nothing of this round
    shown["pending"] = pending_view(pending, game, seen, round.hand) if pending else None
    shown["entry"] = piece_entry(loop, round)
    return shown


REVEALED_MONEY = ("bank", "progressive_meter")
"""What a game's reveal announces in cents (the player-dealer's bank, High Card Flush's meter): shown in dollars."""


def reveal_view(reveal: dict[str, Any] | None) -> dict[str, Any] | None:
    """The reveal as the page shows it: its amounts of money in dollars, never in cents."""
    if reveal is None:
        return None
    return {key: format_cents(value) if key in REVEALED_MONEY and isinstance(value, int) else value
            for key, value in reveal.items()}


def pending_view(pending: PendingDecision, game: Game[Any], seen: Sight, state: Any) -> dict[str, Any]:
    """The decision awaited, with what the page offers beside the action buttons (amounts, numbers, a hand to set).

    A hand to set or draw from is face down: the page never gets its cards. The dealer taps the cards the
    player shows (``choices``: every card or tile of the game, once) and the game checks them against the hand.
    """
    setting = pending.setting
    return {
        "spot": pending.spot,
        "title": seen.scrub(game.decision_title(state, pending)),  # "Spot 3 hand 2 to act", as the settlement names it
        "actions": [seen.scrub(a) for a in pending.actions],
        "hand": pending.hand,
        "amounts": [{"action": a, "amount": c, "text": format_cents(c), "entry": f"{c // 100}.{c % 100:02d}"}
                    for a, c in pending.amounts],
        "values": [list(v) for v in pending.values],
        "setting": None if setting is None else {
            "size": len(setting.cards), "count": setting.count, "named": setting.named, "rest": setting.rest,
            "action": setting.action, "choices": list(dict.fromkeys(p.code for p in game.deck()))},
    }


def piece_entry(loop: TableLoop, round: Round) -> list[dict[str, Any]] | None:
    """When the dealer keys the pieces in and one is due: each piece of the set (never how many copies are
    left: that would tell which pieces lie face down)."""
    if loop.keyed is None or round.card_target() is None:
        return None
    return [{"code": p.code, "name": getattr(p, "name", p.code)} for p, _ in loop.keyed.left([])]


def card_due(round: Round) -> str | None:
    """Where the next card goes; on hold, where it will go once the round resumes."""
    if round.state != "hold":
        return round.card_target()
    if round.hand is None:
        return None
    return "burn" if round.burns_due else round.game.next_target(round.hand)


def due_spot(round: Round) -> int | None:
    due = card_due(round)
    return round.game.spot_of(round.hand, due) if due and due != "burn" and round.hand is not None else None


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
    try:
        role = "player-dealer" if tuple(round.game.seat_wagers(spot)) == ("bank",) else None
    except RuntimeError:  # the game has stopped: nobody holds the player-dealer position now
        role = None
    return {"spot": spot, "wagers": wagers, "role": role, "seated": spot in round.seated}


def limits_view(loop: TableLoop) -> list[dict[str, str]]:
    """The table's limits, wager by wager, in dollars (always on the dealer's screen)."""
    out = []
    for name in loop.table.game.wagers:
        limits = loop.table.limits.get(name)
        if limits:
            out.append({"wager": name, "text": format_limits(limits)})
    return out


def progressive_view(roles: dict[str, Any]) -> str | None:
    """A progressive meter the game carries (High Card Flush's), in dollars, or ``None``."""
    meter = roles.get("progressive")
    if not isinstance(meter, dict) or "amount" not in meter:
        return None
    return format_cents(math.floor(Fraction(str(meter["amount"]))))


def spot_results(round: Round) -> dict[str, dict[str, Any]]:
    """After settling, each spot's result: WIN, LOSE or PUSH with what it won or lost over all its wagers; a voided
    round's spots, whose hands were never played out, RETURN with what goes back to each."""
    if round.state not in FINISHED:
        return {}
    nets: dict[int, int] = {}
    for record in round.settlements:
        nets[record.spot] = nets.get(record.spot, 0) + record.returned - record.stake
    if round.state == "void":
        returns: dict[int, int] = {}
        for record in round.settlements:
            returns[record.spot] = returns.get(record.spot, 0) + record.returned
        return {str(spot): {"result": "void", "net": 0, "text": f"RETURN {format_cents(amount)}"}
                for spot, amount in returns.items()}
    # A wager a player-dealer's short bank did not cover at all goes back as it was: not a tie (banking.settle_against_bank).
    uncovered = {record.spot for record in round.settlements
                 if record.outcome is Outcome.PUSH and record.payout != PUSH.text}
    out = {}
    for spot, net in nets.items():
        if net == 0 and spot in uncovered:
            back = sum(record.returned for record in round.settlements if record.spot == spot)
            out[str(spot)] = {"result": "returned", "net": 0, "text": f"RETURN {format_cents(back)}"}
            continue
        result = "push" if net == 0 else "win" if net > 0 else "lose"
        out[str(spot)] = {"result": result, "net": net, "text": result.upper() + (f" {format_cents(abs(net))}" if net else "")}
    return out


def format_limits(limits: tuple[int, int]) -> str:
    """``$5–$1,000``: whole dollars without their cents, so every wager's limits fit the top bar."""
    return "–".join(format_cents(c).removesuffix(".00") for c in limits)


def cards_view(loop: TableLoop, round: Round, seen: Sight) -> list[dict[str, Any]]:
    """The cards dealt, in order, with their source and any disagreement the camera reported; a card lying
    face down is only its place (``Game.face``, decided in ``controller.engine.visibility``)."""
    camera = loop.camera.get(round.id, {"agrees": False, "confirmed": 0, "problems": []})
    problems = {p["zone"]: p for p in camera["problems"]}
    hidden = {i for i, shown in enumerate(seen.shown) if not shown}
    lies = places(round)
    out = []
    for index, (target, piece, source) in enumerate(round.cards):
        problem = problems.get(target) or problems.get(target.split(".", 1)[0])
        filmed = target != "burn" and (camera["agrees"] or index < camera.get("confirmed", 0))
        out.append({
            "target": lies[index],  # the hand it lies in now (a split blackjack hand's), not where it was dealt
            "place": place_name(lies[index], lies),
            "spot": round.game.spot_of(round.hand, target) if round.hand is not None and target != "burn" else None,
            "card": None if index in hidden else piece.code,
            "face_down": index in hidden,
            "source": f"{source}+camera" if filmed and index not in hidden else source,
            "disagreement": None if problem is None else f"camera saw {problem['seen'] or 'nothing'} ({problem['kind']})",
        })
    return out


SEAT_HAND = re.compile(r"^(\d+)\.(\d+)$")
"""A seat's hand as the engine names its place (``2.0``; ``2.1`` once split): blackjack's."""
NUMBERED = re.compile(r"^(seat|stack)(\d+)$")
"""A place the engine names in one word (Three Card Poker's ``seat2``, Pai Gow Tiles' ``stack3``)."""


def place_name(target: str, places: list[str]) -> str:
    """Where a card lies as a supervisor reads it: a seat's hand ``2.0`` is ``spot 2``, and once the seat has split
    ``spot 2 hand 1``, ``spot 2 hand 2`` (as its payouts count them); ``seat2`` is ``spot 2``, ``stack3`` ``stack 3``;
    other places as the game names them."""
    match = SEAT_HAND.match(target)
    if match is None:
        numbered = NUMBERED.match(target)
        if numbered is not None:  # "seat2" read "seat2: face down" on the hold screen's list of placed cards
            kind, number = numbered.groups()
            return f"{'spot' if kind == 'seat' else kind} {number}"
        return target
    spot, index = match.groups()
    split = any(p != target and p.startswith(f"{spot}.") for p in places)
    return f"spot {spot} hand {int(index) + 1}" if split else f"spot {spot}"


EVENT_FIELDS = ("seq", "event", "round")
QUIET_FIELDS = ("seq", "event", "round", "table", "timestamp", "game")


MONEY_FIELDS = frozenset({"amount", "previous", "total", "stake", "returned", "house_win", "paid", "wagered", "fees",
                          "between_players", "bank", "action", "net", "returned_to_player_dealer"})
"""Event fields that hold whole cents (``controller.events``): shown in dollars."""
EXACT_FIELDS = frozenset({"exact_returned"})
"""Exact amounts before rounding (the audit's): left off a screen line, which shows what was paid."""


def events_view(loop: TableLoop, audience: Audience) -> list[dict[str, Any]]:
    """The latest events as ``audience`` may see them (``Screens.event``: hidden cards left out), each with ``text``,
    the line a screen shows: its fields as ``name value``, money in dollars."""
    out = []
    for record in list(loop.events)[:25]:
        shown = loop.log.screens.event(record, audience)
        detail = {k: v for k, v in shown.items() if k not in QUIET_FIELDS}
        out.append({k: shown.get(k) for k in EVENT_FIELDS} | {"detail": detail, "text": event_text(detail)})
    return out


def event_text(detail: dict[str, Any]) -> str:
    """An event's fields as one line for a person: ``spot 2  wager home  amount $58.25``; nothing left out but the
    exact amounts, and empty fields."""
    parts = []
    for key, value in detail.items():
        if key in EXACT_FIELDS or value is None or value == [] or value == {}:
            continue
        if key in MONEY_FIELDS and isinstance(value, int) and not isinstance(value, bool):
            value = format_cents(value)
        elif key == "hand" and isinstance(value, int) and not isinstance(value, bool):
            value = value + 1  # a seat's hands counted from 1, as its payouts and `tablectl round` name them
        elif isinstance(value, list) and all(isinstance(v, str | int) for v in value):
            value = " ".join(str(v) for v in value)
        elif isinstance(value, dict | list):
            value = json.dumps(value, separators=(", ", ": "))
        parts.append(f"{key.replace('_', ' ')} {value}")
    return "  ".join(parts)


def settlement_view(record: Settlement) -> dict[str, Any]:
    """One line of the settlement: what the dealer pays or collects on this wager."""
    net = record.returned - record.stake
    if record.banker != "house":
        instruction = f"{record.banker}: {'pays' if net > 0 else 'takes'} {format_cents(abs(net))}" if net else "returned"
        if net < 0 and record.returned:  # a loss in part (a short bank, a surrender): what goes back, as a house line says
            instruction += f", return {format_cents(record.returned)}"
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
        state = str(item["state"])
        words = ROUND_WORDS.get(state) or STATE_WORDS.get(state, state.replace("_", " "))
        rows.append({**item, "state_text": words, **{k: format_cents(item[k]) for k in ("wagered", "paid", "house_win")}})
    return rows
