"""What the floor keeps aside and why, in a manager's words, and having it looked at again once the cause is fixed.

The floor keeps aside (``event_conflicts``, never counted) a record that is
not the one it counts under its table and seq, or that does not follow on
from the records it counts (``controller.floor.store``): two journals
publishing as one table, or, before the floor learned of a journal restored
with a loss a person accepted (the ``Tablectl-Lost`` header, commit 1f25f9e),
every record such a table wrote after its restore. Such a table's records
also stood behind a gap the floor waited on for good when it had never
received the lost ones. Nothing looked at them again by itself.

- :func:`report` says, per table, what is set aside (seq ranges, how many, when
  received) and why, what was released for a recheck and has not come back,
  and what waits uncounted behind records that never arrived
  (``tablectl floor aside``).
- :func:`recheck` releases a table's set-aside records (kept, with who released
  them and when, in ``event_conflicts_released``), clears its
  ``journal_conflict`` alert and asks the table's outbox to publish its records
  again from the first of them (the control subject the consumer's own
  ``resend`` uses). They come back as the table's journal holds them now (a
  table updated since its restore says so with them), and the floor checks
  each one afresh: counted when it follows on, kept aside again, with its
  alert, when it still does not. A table that does not answer keeps its
  records set aside, and its alert, as they were (``tablectl floor recheck``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from nats.errors import Error as NatsError

from controller.floor import broker, kinds, wire

ALERT_SEQ = kinds.TABLE_ALERT_SEQ[kinds.JOURNAL_CONFLICT]


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive seqs of one table set aside (or awaited) for one reason."""

    first: int
    last: int
    count: int
    why: str
    since: str = ""
    """When the first of them was received (or released), on the floor's clock, as text."""

    def seqs(self) -> str:
        return f"seq {self.first}" if self.first == self.last else f"seq {self.first} to {self.last}"


@dataclass(slots=True)
class TableAside:
    """One table's records the floor does not count, and why."""

    table: str
    aside: list[Run] = field(default_factory=list)
    awaited: list[Run] = field(default_factory=list)
    """Released for a recheck and not received again yet."""
    waiting: list[Run] = field(default_factory=list)
    """Stored but not counted: they wait behind records that never reached the floor."""

    @property
    def records_aside(self) -> int:
        return sum(run.count for run in self.aside)

    def lines(self) -> list[str]:
        """What a manager reads about this table."""
        out: list[str] = []
        for run in self.aside:
            out.append(f"{run.seqs()} ({_records(run.count)}, received {run.since}): {run.why}")
        for run in self.awaited:
            out.append(f"{run.seqs()} ({_records(run.count)}): released for a recheck {run.since}; {run.why}")
        for run in self.waiting:
            out.append(f"{run.seqs()} ({_records(run.count)}): {run.why}")
        if self.aside or self.waiting:
            out.append(f"once the cause is fixed (each table its own id; a table restored with a loss running a "
                       f"tablectl that tells the floor so), `tablectl floor recheck {self.table}` has the floor look at "
                       "them again")
        return out

    def as_json(self) -> dict[str, Any]:
        def runs(items: list[Run]) -> list[dict[str, Any]]:
            return [{"first": r.first, "last": r.last, "count": r.count, "why": r.why, "since": r.since} for r in items]

        return {"table": self.table, "aside": runs(self.aside), "awaited": runs(self.awaited), "waiting": runs(self.waiting),
                "lines": self.lines()}


def _records(count: int) -> str:
    return "1 record" if count == 1 else f"{count} records"


def _exists(conn: psycopg.Connection[Any], name: str) -> bool:
    row = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (name,)).fetchone()
    return bool(row and row[0])


def _runs(rows: Sequence[tuple[int, str, str]], why: dict[str, str]) -> list[Run]:
    """``rows`` (seq, reason key, time text) in seq order grouped into runs of consecutive seqs with one reason."""
    runs: list[Run] = []
    for seq, key, since in rows:
        last = runs[-1] if runs else None
        if last is not None and last.last + 1 == seq and last.why == why[key]:
            runs[-1] = Run(last.first, seq, last.count + 1, last.why, last.since)
        elif last is not None and last.last == seq and last.why == why[key]:
            continue  # two records kept aside under one seq
        else:
            runs.append(Run(seq, seq, 1, why[key], since))
    return runs


def _when(at: dt.datetime | None, zone: dt.tzinfo | None) -> str:
    return at.astimezone(zone or dt.UTC).strftime("%Y-%m-%d %H:%M %Z") if at is not None else "at a time not kept"


def report(conn: psycopg.Connection[Any], table: str | None = None, zone: dt.tzinfo | None = None) -> list[TableAside]:
    """Every table (or ``table``) with records the floor does not count, and why, in seq order; times in ``zone``
    (the floor's ``time_zone``; UTC when None)."""
    tables: dict[str, TableAside] = {}

    def of(name: str) -> TableAside:
        return tables.setdefault(name, TableAside(name))

    if _exists(conn, "event_conflicts"):
        rows: dict[str, list[tuple[int, str, str]]] = {}
        for name, seq, taken, at in conn.execute(
            "SELECT c.table_id, c.seq, EXISTS (SELECT 1 FROM events e WHERE e.table_id = c.table_id AND e.seq = c.seq), "
            "c.received_at FROM event_conflicts c WHERE %s::TEXT IS NULL OR c.table_id = %s "
            "ORDER BY c.table_id, c.seq", (table, table),
        ).fetchall():
            rows.setdefault(str(name), []).append((int(seq), "taken" if taken else "unlinked", _when(at, zone)))
        for name, items in rows.items():
            why = {
                "taken": f"the floor counts other records under these seqs for {name} (those it stored first): these are "
                         f"another journal's, publishing as {name} (a replaced PC, a copied config)",
                "unlinked": f"they do not follow on from the records the floor counts for {name}: another journal "
                            f"publishing as {name}, or {name}'s journal restored with a loss (`journal restore "
                            "--accept-loss`) by a tablectl that did not yet tell the floor of the loss",
            }
            of(name).aside = _runs(items, why)
    if _exists(conn, "event_conflicts_released"):
        awaited: dict[str, list[tuple[int, str, str]]] = {}
        for name, seq, at, by in conn.execute(
            "SELECT r.table_id, r.seq, MAX(r.released_at), MAX(r.released_by) FROM event_conflicts_released r "
            "WHERE (%s::TEXT IS NULL OR r.table_id = %s) "
            "AND NOT EXISTS (SELECT 1 FROM event_conflicts c WHERE c.table_id = r.table_id AND c.seq = r.seq) "
            "AND NOT EXISTS (SELECT 1 FROM events e WHERE e.table_id = r.table_id AND e.seq = r.seq "
            "AND e.stored_at > r.released_at) GROUP BY r.table_id, r.seq ORDER BY r.table_id, r.seq", (table, table),
        ).fetchall():
            awaited.setdefault(str(name), []).append((int(seq), "awaited", _when(at, zone) + (f" by {by}" if by else "")))
        for name, items in awaited.items():
            of(name).awaited = _runs(items, {"awaited": "the table has not sent them again yet: it publishes them when "
                                                        "its outbox runs (run the recheck again once it does)"})
    if _exists(conn, "gaps"):
        for name, first, last, held, low, high in conn.execute(
            "SELECT g.table_id, g.missing_from, g.last_missing, COUNT(e.seq), MIN(e.seq), MAX(e.seq) FROM gaps g "
            "JOIN events e ON e.table_id = g.table_id AND e.seq > g.last_missing WHERE g.filled_at IS NULL "
            "AND (%s::TEXT IS NULL OR g.table_id = %s) GROUP BY g.table_id, g.missing_from, g.last_missing "
            "ORDER BY g.table_id", (table, table),
        ).fetchall():
            missing = f"record {first}" if first == last else f"records {first} to {last}"
            of(str(name)).waiting.append(Run(int(low), int(high), int(held), (
                f"held, not counted: they wait for {missing}, which never reached the floor (if {name}'s journal was "
                "restored with a loss, the table has not told the floor so yet)")))
    return [tables[name] for name in sorted(tables)]


@dataclass(frozen=True, slots=True)
class Recheck:
    """What ``recheck`` did: how many records it released, from which seq the table publishes again, and whether the
    table answered (when not, nothing was released)."""

    table: str
    released: int
    from_seq: int | None
    answered: bool
    reason: str | None = None


def _from_seq(conn: psycopg.Connection[Any], table: str) -> int | None:
    """The first seq the table must publish again for its records to be looked at afresh (None: nothing to look at)."""
    candidates: list[int] = []
    if _exists(conn, "event_conflicts"):
        row = conn.execute("SELECT MIN(seq) FROM event_conflicts WHERE table_id = %s", (table,)).fetchone()
        if row and row[0] is not None:
            candidates.append(int(row[0]))
    if _exists(conn, "gaps"):
        row = conn.execute("SELECT MIN(missing_from) FROM gaps WHERE table_id = %s AND filled_at IS NULL", (table,)).fetchone()
        if row and row[0] is not None:
            candidates.append(int(row[0]))
    for entry in report(conn, table):
        candidates.extend(run.first for run in entry.awaited)
    return min(candidates) if candidates else None


def recheck(conn: psycopg.Connection[Any], servers: Sequence[str], site: str, table: str, *, by: str | None = None,
            timeout: float = 3.0) -> Recheck:
    """Release ``table``'s set-aside records and ask its outbox to publish its records again from the first of them.

    When the table does not answer, the records go back where they were (set aside, the alert with them).
    ``conn`` is in autocommit: the release is committed before the table is asked (it may publish at once)."""
    from controller.floor.store import create_schema

    assert conn.autocommit, "recheck commits the release before it asks the table: give it an autocommit connection"
    create_schema(conn)
    first = _from_seq(conn, table)
    if first is None:
        return Recheck(table, 0, None, True)
    with conn.transaction():
        alert = conn.execute("SELECT kind, at, message FROM alerts WHERE table_id = %s AND seq = %s",
                             (table, ALERT_SEQ)).fetchone()
        released = conn.execute(
            "WITH moved AS (DELETE FROM event_conflicts WHERE table_id = %s RETURNING *) "
            "INSERT INTO event_conflicts_released (table_id, seq, digest, kind, at, record, stream_seq, received_at, hash, "
            "released_at, released_by) SELECT table_id, seq, digest, kind, at, record, stream_seq, received_at, hash, "
            "now(), %s FROM moved RETURNING released_at", (table, by),  # now(): one time for the whole release
        ).fetchall()
        conn.execute("DELETE FROM alerts WHERE table_id = %s AND seq = %s", (table, ALERT_SEQ))
    answered, reason = asyncio.run(_ask(servers, site, table, first, timeout))
    if not answered and released:
        with conn.transaction():
            conn.execute(
                "INSERT INTO event_conflicts (table_id, seq, digest, kind, at, record, stream_seq, received_at, hash) "
                "SELECT table_id, seq, digest, kind, at, record, stream_seq, received_at, hash FROM event_conflicts_released "
                "WHERE table_id = %s AND released_at = %s ON CONFLICT DO NOTHING", (table, released[0][0]))
            conn.execute("DELETE FROM event_conflicts_released WHERE table_id = %s AND released_at = %s",
                         (table, released[0][0]))
            if alert is not None:
                conn.execute("INSERT INTO alerts (table_id, seq, kind, at, round_id, message) VALUES (%s, %s, %s, %s, NULL, %s) "
                             "ON CONFLICT (table_id, seq) DO NOTHING", (table, ALERT_SEQ, *alert))
    return Recheck(table, len(released) if answered else 0, first, answered, reason)


async def _ask(servers: Sequence[str], site: str, table: str, first: int, timeout: float) -> tuple[bool, str | None]:
    """Ask the table's outbox to publish again from ``first``: (whether it agreed, why not)."""
    try:
        client = await broker.connect(servers=list(servers), connect_timeout=2, allow_reconnect=False,
                                      max_reconnect_attempts=0)
    except (TimeoutError, NatsError, OSError) as exc:
        return False, f"the floor's broker cannot be reached ({', '.join(servers)}): {wire.reason(exc)}"
    try:
        reply = await client.request(wire.control_subject(site, table, "resend"),
                                     json.dumps({"from_seq": first}).encode(), timeout=timeout)
        answer = json.loads(reply.data)
        if not answer.get("ok"):
            return False, f"table {table} refused: {answer.get('reason')}"
        return True, None
    except (TimeoutError, NatsError, ValueError) as exc:
        return False, (f"table {table} does not answer ({wire.reason(exc)}): its outbox is not running or cannot reach "
                       "the floor's broker")
    finally:
        await client.close()


def settled(conn: psycopg.Connection[Any], table: str) -> bool:
    """Whether every record released for a recheck of ``table`` has come back (counted, or set aside again) and none
    of its records waits behind missing ones."""
    return not any(entry.awaited or entry.waiting for entry in report(conn, table))
