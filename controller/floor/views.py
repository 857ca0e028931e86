"""What the floor's pit page shows, read from the floor's database: the tables, a table's last rounds, alerts.

Each function takes a connection and returns plain data for the page, money
as whole cents beside its dollar text (``format_cents``), so no screen does
money arithmetic. Hidden cards never reach the floor's page: the pit page
shows the rounds that ended (a round in play shows its state, not its cards),
and of those only the cards the game turned face up (``sight``), as the
table's own screens do.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction
from typing import Any

import psycopg

from controller.floor import kinds, sight
from controller.floor.shifts import Shifts
from controller.money import format_cents


def _percent(part: int | Decimal, whole: int | Decimal) -> str:
    if not whole:
        return "—"
    return f"{Decimal(part) * 100 / Decimal(whole):.2f}%"


def tables(conn: psycopg.Connection[Any], shifts: Shifts, *, pit: str | None = None, now: dt.datetime | None = None) -> list[dict[str, Any]]:
    """Every table at a glance: state, game, pit, this shift's drop, win, hold % against theoretical, pace, alarms, and
    who is logged in at its console (``dealing``: the dealer page's logins, each since when, in the floor's time zone;
    a login the table dropped on a restart without a logout shows until the next login or logout there)."""
    now = now or dt.datetime.now(dt.UTC)
    day, shift = shifts.of(now)
    rows = conn.execute(
        """
        SELECT t.table_id, t.pit, t.game, t.state, t.round_id, t.hold_reason, t.hold_since, t.last_at,
               t.contiguous_seq, t.last_seq,
               COALESCE(m.wagered, 0), COALESCE(m.paid, 0), COALESCE(m.theoretical, 0),
               (SELECT COALESCE(SUM(c.value), 0) FROM counters c WHERE c.table_id = t.table_id AND c.gaming_day = %(day)s
                AND c.shift = %(shift)s AND c.game = t.game AND c.name = 'fees'),
               (SELECT COUNT(*) FROM rounds r WHERE r.table_id = t.table_id AND r.ended_at > %(hour_ago)s),
               (SELECT COUNT(*) FROM gaps g WHERE g.table_id = t.table_id AND g.filled_at IS NULL),
               (SELECT COUNT(*) FROM alerts a WHERE a.table_id = t.table_id AND a.at > %(hour_ago)s)
        FROM floor_tables t
        LEFT JOIN meters m ON m.table_id = t.table_id AND m.gaming_day = %(day)s AND m.shift = %(shift)s
             AND m.wager = '' AND m.game = t.game
        WHERE %(pit)s::TEXT IS NULL OR t.pit = %(pit)s
        ORDER BY t.pit NULLS LAST, t.table_id
        """,
        {"day": day, "shift": shift, "pit": pit, "hour_ago": now - dt.timedelta(hours=1)},
    ).fetchall()
    staff: dict[str, list[dict[str, Any]]] = {}
    for table, name, page, role, since in conn.execute(
            "SELECT table_id, name, page, role, since FROM table_staff ORDER BY since NULLS FIRST, seq"):
        staff.setdefault(str(table), []).append({
            "name": name, "page": page, "role": role, "since": since.isoformat() if since else None,
            "since_text": f"{since.astimezone(shifts.zone):%H:%M}" if since else "—"})
    result = []
    for (table, pit_name, game, state, round_id, hold_reason, hold_since, last_at, contiguous, last_seq,
         wagered, paid, theoretical, fees, last_hour, open_gaps, recent_alerts) in rows:
        at_table = staff.get(str(table), [])
        win = int(wagered) - int(paid) + int(fees)  # the table's house win: a player-dealer game's is its fees
        result.append({
            "table": table, "pit": pit_name, "game": game, "state": state or "—", "round": round_id,
            "hold_reason": hold_reason, "hold_since": hold_since.isoformat() if hold_since else None,
            "last_event": last_at.isoformat() if last_at else None,
            "drop": int(wagered), "drop_text": format_cents(int(wagered)),
            "win": win, "win_text": format_cents(win),
            "hold_pct": _percent(win, wagered), "theoretical_hold_pct": _percent(theoretical, wagered) if theoretical else "—",
            "rounds_last_hour": int(last_hour), "missing_records": int(open_gaps) > 0,
            "seq": int(last_seq), "contiguous_seq": int(contiguous), "recent_alerts": int(recent_alerts),
            "staff": at_table,
            "dealing": ", ".join(f"{s['name']} since {s['since_text']}" for s in at_table if s["page"] == "dealer") or None,
        })
    return result


def in_shift_order(rows: list[dict[str, Any]], shifts: Shifts) -> list[dict[str, Any]]:
    """``shift_meters``' rows by gaming day, then shift as the day runs (``day``, ``swing``, ``grave``: not by
    name), then table; a shift no longer in the plan after those that are."""
    order = {shift.name: k for k, shift in enumerate(shifts.shifts)}
    return sorted(rows, key=lambda r: (r["gaming_day"], order.get(r["shift"], len(order)), r["shift"], r["table"]))


def _progressive(conn: psycopg.Connection[Any]) -> dict[tuple[str, dt.date, str, str], tuple[Fraction, Fraction, int]]:
    """Each table's part in the linked jackpots per gaming day, shift and game: what its Progressive wagers fed the
    meters (exact, a fraction of a cent kept), what the meters paid its hits (verified awards) and how many hits.

    Filed under the shift of the round they belong to (the round's end, as the meters are): a contribution whose round
    the floor has not yet seen end is filed once it has."""
    exists = conn.execute("SELECT to_regclass('jackpot_contributions') IS NOT NULL AND to_regclass('jackpot_awards') IS NOT NULL"
                          ).fetchone()
    if not exists or not exists[0]:
        return {}
    result: dict[tuple[str, dt.date, str, str], tuple[Fraction, Fraction, int]] = {}
    for table, gaming_day, shift, game, amount, is_hit in conn.execute(
        """
        SELECT c.table_id, r.gaming_day, r.shift, r.game, c.amount, FALSE FROM jackpot_contributions c
        JOIN rounds r ON r.table_id = c.table_id AND r.round_id = c.round_id AND r.ended_seq IS NOT NULL
        UNION ALL
        SELECT a.table_id, r.gaming_day, r.shift, r.game, a.amount, TRUE FROM jackpot_awards a
        JOIN rounds r ON r.table_id = a.table_id AND r.round_id = a.round_id AND r.ended_seq IS NOT NULL
        WHERE a.verified AND a.amount IS NOT NULL
        """
    ):
        key = (str(table), gaming_day, str(shift), str(game))
        contributed, awarded, hits = result.get(key, (Fraction(0), Fraction(0), 0))
        if is_hit:
            result[key] = (contributed, awarded + Fraction(amount), hits + 1)
        else:
            result[key] = (contributed + Fraction(amount), awarded, hits)
    return result


def shift_meters(conn: psycopg.Connection[Any], *, table: str | None = None, day: dt.date | None = None) -> list[dict[str, Any]]:
    """Meters per table, gaming day, shift and game (drop, paid, fees, win, hold %, theoretical, rounds, voided rounds,
    holds, faults, and the table's part in a linked progressive: what its wagers fed the meter and what the meter paid
    its hits): ``tablectl floor shifts`` and the pit page's ``/api/meters``; money in cents beside its dollar text (a
    contribution's exact cents as a fraction beside the whole cents it makes)."""
    progressive = _progressive(conn)
    rows = conn.execute(
        """
        WITH k AS (SELECT table_id, gaming_day, shift, game FROM meters WHERE wager = ''
                   UNION SELECT table_id, gaming_day, shift, game FROM counters)
        SELECT k.table_id, k.gaming_day, k.shift, k.game, COALESCE(m.pit, MIN(c.pit)), COALESCE(m.count, 0), COALESCE(m.wagered, 0),
               COALESCE(m.paid, 0), COALESCE(m.theoretical, 0),
               COALESCE(jsonb_object_agg(c.name, c.value) FILTER (WHERE c.name IS NOT NULL), '{}'::jsonb)
        FROM k LEFT JOIN meters m ON m.wager = '' AND (m.table_id, m.gaming_day, m.shift, m.game) = (k.table_id, k.gaming_day, k.shift, k.game)
        LEFT JOIN counters c ON (c.table_id, c.gaming_day, c.shift, c.game) = (k.table_id, k.gaming_day, k.shift, k.game)
        WHERE (%(table)s::TEXT IS NULL OR k.table_id = %(table)s) AND (%(day)s::DATE IS NULL OR k.gaming_day = %(day)s)
        GROUP BY k.table_id, k.gaming_day, k.shift, k.game, m.pit, m.count, m.wagered, m.paid, m.theoretical
        ORDER BY k.gaming_day DESC, k.shift, k.table_id
        """,
        {"table": table, "day": day},
    ).fetchall()
    result = []
    for table_id, gaming_day, shift, game, pit, count, wagered, paid, theoretical, counters in rows:
        fees = int(counters.get("fees", 0))
        win = int(wagered) - int(paid) + fees  # the table's house win: with its fees
        result.append({
            "table": table_id, "gaming_day": gaming_day.isoformat(), "shift": shift, "game": game, "pit": pit,
            "wagers": int(count), "drop": int(wagered), "drop_text": format_cents(int(wagered)),
            "paid": int(paid), "paid_text": format_cents(int(paid)), "fees": fees, "fees_text": format_cents(fees),
            "win": win, "win_text": format_cents(win),
            "hold_pct": _percent(win, wagered), "theoretical_hold_pct": _percent(theoretical, wagered) if theoretical else "—",
            "rounds": int(counters.get("rounds", 0)), "voided": int(counters.get("voided", 0)),
            "holds": int(counters.get("holds", 0)),
            "hold_minutes": round(int(counters.get("hold_seconds", 0)) / 60, 1),
            "device_faults": int(counters.get("device_faults", 0)),
            "camera_discrepancies": int(counters.get("camera_discrepancies", 0)),
            **_progressive_fields(*progressive.get((str(table_id), gaming_day, str(shift), str(game)), (Fraction(0), Fraction(0), 0))),
        })
    return result


def _progressive_fields(contributed: Fraction, awarded: Fraction, hits: int) -> dict[str, Any]:
    """A shift row's linked-progressive figures: whole cents (a fraction of a cent left out) beside the exact amount."""
    return {
        "progressive_contributed": int(contributed), "progressive_contributed_exact": str(contributed),
        "progressive_contributed_text": format_cents(int(contributed)),
        "progressive_hits": hits, "progressive_awarded": int(awarded), "progressive_awarded_exact": str(awarded),
        "progressive_awarded_text": format_cents(int(awarded)),
    }


def last_rounds(conn: psycopg.Connection[Any], table: str, count: int = 10) -> list[dict[str, Any]]:
    """A table's last ``count`` ended rounds with their cards and settlements (recall from anywhere on the floor).

    Only the cards the game turned face up at the table (``sight``): a folded hand, a discard, a pile given to an
    empty seat stay unseen here as on the table's screens; ``cards_not_shown`` says how many."""
    rounds = conn.execute(
        "SELECT round_id, game, state, started_at, ended_at, wagered, paid, house_win FROM rounds "
        "WHERE table_id = %s AND ended_seq IS NOT NULL ORDER BY ended_seq DESC LIMIT %s",
        (table, count),
    ).fetchall()
    result = []
    for round_id, game, state, started, ended, wagered, paid, house_win in rounds:
        records = [dict(record) for (record,) in conn.execute(
            "SELECT record FROM events WHERE table_id = %s AND round_id = %s ORDER BY seq", (table, round_id))]
        dealt = [(str(r.get("card")), str(r.get("target"))) for r in records if r.get("event") == kinds.CARD_DEALT]
        cards = [card for card, ok in zip(dealt, sight.shown(records), strict=True) if ok]
        settled = conn.execute(
            "SELECT spot, wager, stake, returned, outcome FROM settlements WHERE table_id = %s AND round_id = %s ORDER BY seq",
            (table, round_id),
        ).fetchall()
        result.append({
            "round": round_id, "game": game, "state": state,
            "started": started.isoformat() if started else None, "ended": ended.isoformat() if ended else None,
            "wagered_text": format_cents(int(wagered or 0)), "paid_text": format_cents(int(paid or 0)),
            "house_win_text": format_cents(int(house_win or 0)),
            "cards": [{"card": card, "to": target} for card, target in cards],
            "cards_not_shown": len(dealt) - len(cards),
            "settlements": [
                {"spot": spot, "wager": wager, "stake_text": format_cents(int(stake)),
                 "returned_text": format_cents(int(returned)), "outcome": outcome}
                for spot, wager, stake, returned, outcome in settled
            ],
        })
    return result


def _clock(moment: dt.datetime | None, shifts: Shifts | None) -> str:
    """A moment as the pit reads a clock: ``HH:MM:SS`` in the floor's time zone (``[floor] time_zone``)."""
    if moment is None:
        return ""
    return f"{moment.astimezone(shifts.zone if shifts is not None else dt.UTC):%H:%M:%S}"


def alerts(conn: psycopg.Connection[Any], *, pit: str | None = None, count: int = 50,
           shifts: Shifts | None = None) -> list[dict[str, Any]]:
    """The newest alerts (holds, device faults, camera discrepancies) and open gaps, newest first; each with its time
    (``at``) and its clock time in the floor's time zone (``at_text``)."""
    rows = conn.execute(
        """
        SELECT a.table_id, a.seq, a.kind, a.at, a.round_id, a.message FROM alerts a
        LEFT JOIN floor_tables t USING (table_id)
        WHERE %(pit)s::TEXT IS NULL OR t.pit = %(pit)s
        ORDER BY a.at DESC NULLS LAST, a.seq DESC LIMIT %(count)s
        """,
        {"pit": pit, "count": count},
    ).fetchall()
    result = [
        {"table": table, "seq": int(seq), "kind": kind, "at": at.isoformat() if at else None, "at_text": _clock(at, shifts),
         "round": round_id, "message": message}
        for table, seq, kind, at, round_id, message in rows
    ]
    for table, first, last, detected in conn.execute(
        "SELECT g.table_id, g.missing_from, g.last_missing, g.detected_at FROM gaps g LEFT JOIN floor_tables t USING (table_id) "
        "WHERE g.filled_at IS NULL AND (%(pit)s::TEXT IS NULL OR t.pit = %(pit)s) ORDER BY g.detected_at DESC", {"pit": pit}
    ).fetchall():
        result.insert(0, {
            "table": table, "seq": int(first), "kind": "records_missing", "at": detected.isoformat(),
            "at_text": _clock(detected, shifts), "round": None,
            "message": f"records {first} to {last} of table {table} have not reached the floor",
        })
    return result


def jackpots(conn: psycopg.Connection[Any], *, shifts: Shifts | None = None, hits: int = 5) -> list[dict[str, Any]]:
    """Each linked jackpot's meter in dollars, what fed it, what it paid, the claim that locks it, and its newest
    ``hits`` claims answered (table, round, spot, the award or the reason it was refused, whether the table settled it),
    newest first."""
    exists = conn.execute("SELECT to_regclass('jackpots') IS NOT NULL").fetchone()
    if not exists or not exists[0]:
        return []
    result = []
    for name, amount, contributed, paid, locked_by, updated in conn.execute(
        "SELECT name, amount, contributed, paid, locked_by, updated_at FROM jackpots ORDER BY name"
    ):
        cents = int(Fraction(amount))
        answered = conn.execute(
            "SELECT table_id, round_id, spot, verified, amount, reason, awarded_at, settled_seq IS NOT NULL FROM jackpot_awards "
            "WHERE name = %s ORDER BY stream_seq DESC LIMIT %s", (name, hits)).fetchall()
        locked_text = None
        if locked_by:  # the claim's key (table.round.spot): the pit reads the table and spot whose hit it waits on
            claim = conn.execute("SELECT table_id, round_id, spot FROM jackpot_awards WHERE name = %s AND claim = %s",
                                 (name, locked_by)).fetchone()
            locked_text = (f"{claim[0]} spot {claim[2]} (round {claim[1]}) is being paid its hit" if claim
                           else f"claim {locked_by} is being answered")
        result.append({
            "jackpot": name, "meter": cents, "meter_text": format_cents(cents),
            "contributed_text": format_cents(int(Fraction(contributed))), "paid_text": format_cents(int(Fraction(paid))),
            "locked_by": locked_by, "locked_text": locked_text, "updated": updated.isoformat(),
            "hits": [{"table": table, "round": round_id, "spot": int(spot), "verified": bool(verified),
                      "amount_text": format_cents(int(Fraction(amount))) if verified and amount is not None else None,
                      "reason": reason, "at": awarded_at.isoformat(), "at_text": _clock(awarded_at, shifts),
                      "settled": bool(settled)}
                     for table, round_id, spot, verified, amount, reason, awarded_at, settled in answered],
        })
    return result
