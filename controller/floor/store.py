"""The floor's database: every table's records, rounds, settlements, meters, holds, faults and gaps, in PostgreSQL.

Every record is keyed by (table, seq): :func:`apply` inserts a batch with
``ON CONFLICT DO NOTHING`` and updates rounds, meters and holds only for the
records that were new, in the same transaction, so a record the consumer
sees twice (a redelivery, a re-published record after an outage) is stored
and counted once.

A record whose (table, seq) is taken by a *different* record is not a
duplicate: two journals publish as one table (a replaced PC, a copied config
with its own fresh journal). The first record stored under that seq stays the
one counted; the other is kept aside in ``event_conflicts``, never counted.
So is a record that does not follow on from the records stored beside it in
its journal's chain (``wire.CHAIN_HEADER``: the second journal's records past
the last seq the first one reached, which take no seq already stored). The
table gets one alert (kind ``journal_conflict``, refreshed with the
count of such records as more arrive) on the pit page.

A record stamped more than ``CLOCK_AHEAD_LIMIT`` ahead of the database's
clock (``clock_timestamp()``) as it is stored raises one alert for its table
(kind ``clock_ahead``, refreshed while its records keep arriving so): its
rounds are counted under the gaming day and shift its own clock names, as
every table's are. Records stamped behind are not alerted: a table catching
up after an outage sends old times.

The floor's own alerts about a table (these two) are kept in ``alerts`` under
a negative seq per kind (``kinds.TABLE_ALERT_SEQ``), so they never take the
place of a record's own alert.

Meters are kept per table, gaming day, shift and game, exactly as the table's
own journal keeps them (``controller.records.journal``): when a round ends,
its house-banked settlements add to its wagers' meters (count, wagered,
paid), its player-banked ones to the action between players, its fees to
fees. Summed over shifts they equal the table's journal to the cent
(``tablectl floor check`` compares them). The theoretical win of a wager is
its initial stake times the wager's house edge (table ``edges``, loaded from
``tablectl edge``'s figures when the floor service starts), summed as a
``NUMERIC``: an expectation, not money, so it keeps its fraction of a cent.
``tablectl edge`` states each edge per unit of the initial wager, the play a
decision adds to it included (High Card Flush's "Ante and Raise together, per
unit of Ante", Three Card Poker's Play, Top 5's Bet, a blackjack double or
split): what a decision added (``wager_placed`` by ``decision``: a Raise, a
double) takes no edge of its own, or its expectation would count twice. The
drop keeps every stake, as the hold % does, so hold % and theoretical hold
share one base. A voided round's wagers went back unplayed: no theoretical win.

Who is logged in at each table's console (``table_staff``: its ``login_granted`` records less those a ``logout``
ended; a session the table dropped on a restart leaves none, so the time of each login is kept and shown) is
derived the same way.

Order: everything derived from a table's records (rounds, meters, holds,
alerts) is derived in the table's seq order, each record once, as the records
become contiguous: ``floor_tables.contiguous_seq`` is the last seq up to
which nothing is missing. Records that arrive past a missing one are stored
and wait; the table's gap (``gaps``: the first and last missing seq) names
what is missing until it arrives, and is then closed (``first_missing`` as first seen, ``missing_from`` what
is still missing).

Seqs a table's journal declared lost (a person accepted the loss on restoring
it: ``wire.LOST_HEADER`` on the first record after them) are not waited for:
that record follows on, in its journal's chain, from the record before the
lost seqs, and is counted. Whatever the floor holds of the lost records stays
counted (the floor's copy is the one to keep), and a round whose end is
among them is not ended again when the restored table re-enacts it (voided or
played on): ``declared_lost`` keeps each
declaration with how many of its records the floor holds, and the table gets
one alert, kind ``records_declared_lost``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from controller.floor import kinds
from controller.floor.shifts import Shifts
from controller.floor.wire import TableRecord
from controller.rules.edges import paytable_for

SCHEMA = """
CREATE TABLE IF NOT EXISTS floor_tables (
    table_id TEXT PRIMARY KEY, site TEXT NOT NULL, pit TEXT, game TEXT,
    contiguous_seq BIGINT NOT NULL DEFAULT 0, last_seq BIGINT NOT NULL DEFAULT 0, last_at TIMESTAMPTZ,
    state TEXT, round_id TEXT, hold_reason TEXT, hold_since TIMESTAMPTZ, limits JSONB, progressive JSONB);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL, seq BIGINT NOT NULL, round_id TEXT, kind TEXT NOT NULL, at TIMESTAMPTZ,
    record JSONB NOT NULL, stream_seq BIGINT, stored_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (table_id, seq));
ALTER TABLE events ADD COLUMN IF NOT EXISTS prev TEXT;
ALTER TABLE events ADD COLUMN IF NOT EXISTS hash TEXT;
CREATE INDEX IF NOT EXISTS events_by_round ON events (table_id, round_id, seq);
CREATE TABLE IF NOT EXISTS event_conflicts (
    table_id TEXT NOT NULL, seq BIGINT NOT NULL, digest TEXT NOT NULL, kind TEXT NOT NULL, at TIMESTAMPTZ,
    record JSONB NOT NULL, stream_seq BIGINT, received_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (table_id, seq, digest));
ALTER TABLE event_conflicts ADD COLUMN IF NOT EXISTS hash TEXT;
CREATE TABLE IF NOT EXISTS event_conflicts_released (
    table_id TEXT NOT NULL, seq BIGINT NOT NULL, digest TEXT NOT NULL, kind TEXT NOT NULL, at TIMESTAMPTZ,
    record JSONB NOT NULL, stream_seq BIGINT, received_at TIMESTAMPTZ NOT NULL, hash TEXT,
    released_at TIMESTAMPTZ NOT NULL, released_by TEXT, PRIMARY KEY (table_id, seq, digest, released_at));
CREATE TABLE IF NOT EXISTS rounds (
    table_id TEXT NOT NULL, round_id TEXT NOT NULL, game TEXT NOT NULL, paytable TEXT,
    started_seq BIGINT NOT NULL, started_at TIMESTAMPTZ, ended_seq BIGINT, ended_at TIMESTAMPTZ,
    state TEXT NOT NULL, voided BOOLEAN NOT NULL DEFAULT FALSE, wagered BIGINT, paid BIGINT, fees BIGINT,
    house_win BIGINT, between_players BIGINT, gaming_day DATE, shift TEXT, PRIMARY KEY (table_id, round_id));
CREATE INDEX IF NOT EXISTS rounds_by_end ON rounds (table_id, ended_at DESC);
CREATE TABLE IF NOT EXISTS settlements (
    table_id TEXT NOT NULL, seq BIGINT NOT NULL, round_id TEXT NOT NULL, spot INTEGER, wager TEXT NOT NULL,
    stake BIGINT NOT NULL, returned BIGINT NOT NULL, banker TEXT NOT NULL, outcome TEXT,
    PRIMARY KEY (table_id, seq));
CREATE INDEX IF NOT EXISTS settlements_by_round ON settlements (table_id, round_id);
CREATE TABLE IF NOT EXISTS meters (
    table_id TEXT NOT NULL, gaming_day DATE NOT NULL, shift TEXT NOT NULL, game TEXT NOT NULL, pit TEXT,
    wager TEXT NOT NULL, count BIGINT NOT NULL, wagered BIGINT NOT NULL, paid BIGINT NOT NULL,
    theoretical NUMERIC NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, gaming_day, shift, game, wager));
CREATE TABLE IF NOT EXISTS counters (
    table_id TEXT NOT NULL, gaming_day DATE NOT NULL, shift TEXT NOT NULL, game TEXT NOT NULL, pit TEXT,
    name TEXT NOT NULL, value BIGINT NOT NULL, PRIMARY KEY (table_id, gaming_day, shift, game, name));
CREATE TABLE IF NOT EXISTS holds (
    table_id TEXT NOT NULL, round_id TEXT, held_seq BIGINT NOT NULL, held_at TIMESTAMPTZ, reason TEXT,
    released_seq BIGINT, released_at TIMESTAMPTZ, ended_how TEXT, PRIMARY KEY (table_id, held_seq));
CREATE TABLE IF NOT EXISTS alerts (
    table_id TEXT NOT NULL, seq BIGINT NOT NULL, kind TEXT NOT NULL, at TIMESTAMPTZ, round_id TEXT,
    message TEXT NOT NULL, PRIMARY KEY (table_id, seq));
CREATE INDEX IF NOT EXISTS alerts_by_time ON alerts (at DESC);
CREATE TABLE IF NOT EXISTS gaps (
    table_id TEXT NOT NULL, first_missing BIGINT NOT NULL, last_missing BIGINT NOT NULL, missing_from BIGINT NOT NULL,
    detected_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(), filled_at TIMESTAMPTZ,
    PRIMARY KEY (table_id, first_missing));
CREATE TABLE IF NOT EXISTS declared_lost (
    table_id TEXT NOT NULL, first_seq BIGINT NOT NULL, last_seq BIGINT NOT NULL, declared_seq BIGINT NOT NULL,
    held BIGINT NOT NULL, declared_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(), PRIMARY KEY (table_id, first_seq));
CREATE TABLE IF NOT EXISTS table_staff (
    table_id TEXT NOT NULL, name TEXT NOT NULL, client TEXT NOT NULL, page TEXT, role TEXT, since TIMESTAMPTZ,
    seq BIGINT NOT NULL, PRIMARY KEY (table_id, name, client));
CREATE TABLE IF NOT EXISTS edges (
    game TEXT NOT NULL, paytable TEXT NOT NULL, wager TEXT NOT NULL, edge NUMERIC NOT NULL,
    PRIMARY KEY (game, paytable, wager));
"""


INITIAL_STAKES = sql.SQL("""
WITH added AS (
    SELECT table_id, round_id, (record->>'spot')::INTEGER AS spot, record->>'wager' AS wager,
           SUM((record->>'amount')::BIGINT) AS added
    FROM events WHERE kind = %(placed)s AND record->>'by' = 'decision'
      AND (%(table)s::TEXT IS NULL OR (table_id = %(table)s AND round_id = %(round)s))
    GROUP BY table_id, round_id, spot, wager),
initial AS (
    SELECT s.*, s.stake - LEAST(s.stake, GREATEST(0, COALESCE(a.added, 0) - COALESCE(SUM(s.stake) OVER (
               PARTITION BY s.table_id, s.round_id, s.spot, s.wager ORDER BY s.seq
               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))) AS initial
    FROM settlements s LEFT JOIN added a
      ON a.table_id = s.table_id AND a.round_id = s.round_id AND a.spot = s.spot AND a.wager = s.wager
    WHERE %(table)s::TEXT IS NULL OR (s.table_id = %(table)s AND s.round_id = %(round)s))
""")
"""Each settlement (``initial``: the settlements' columns and ``initial``) with its initial stake: its stake less what
decisions added to its spot's wager (a Raise, a double, a split), taken from the spot's first settlements of that
wager first; of one round (``%(table)s``, ``%(round)s``) or, both None, of every round. Only the initial stake meets
the wager's edge: ``tablectl edge`` states it per unit of the initial wager, the decisions' play included. Its
parameters: ``table``, ``round`` and ``placed`` (``kinds.WAGER_PLACED``)."""


def create_schema(conn: psycopg.Connection[Any]) -> None:
    with conn.transaction():
        conn.execute(SCHEMA)


CLOCK_AHEAD_LIMIT = dt.timedelta(minutes=5)
"""How far ahead of the floor's clock a record's own time may be before its table's clock is alerted."""


@dataclass(frozen=True, slots=True)
class Applied:
    """What one batch did: records new, records already stored, gaps opened and closed, records that differ from the
    ones stored under their (table, seq) (kept aside, not counted), and the floor's alerts it raised anew
    ((kind, text), for the log)."""

    new: int
    duplicates: int
    gaps_opened: int
    gaps_closed: int
    conflicts: int = 0
    raised: tuple[tuple[str, str], ...] = ()


def _time(record: dict[str, Any]) -> dt.datetime | None:
    stamp = record.get("timestamp")
    if not isinstance(stamp, str):
        return None
    try:
        return dt.datetime.fromisoformat(stamp)
    except ValueError:
        return None


class FloorStore:
    """Writes table records into the floor's database; one instance per consumer connection."""

    def __init__(self, conn: psycopg.Connection[Any], *, site: str, shifts: Shifts, pits: dict[str, str] | None = None) -> None:
        self.conn = conn
        self.site = site
        self.shifts = shifts
        self.pits = dict(pits or {})
        self._games: dict[str, str] = {}
        """Each table's game as its last round started (what a record without a game counts under)."""

    def apply(self, batch: Sequence[tuple[TableRecord, int | None]]) -> Applied:
        """Store ``batch`` (records with their stream seq) in one transaction, then follow each table's records in order.

        Records may arrive out of order (a batch delivered again after a consumer died comes after later ones);
        rounds, meters and holds are derived from a table's records in seq order as they become contiguous, so
        the order of arrival never changes a meter.
        """
        with self.conn.transaction(), self.conn.pipeline():
            batch, unchained = self._chained(batch)
            inserted, ahead = self._insert(batch)
            touched = sorted({table for table, _ in inserted})
            for table in touched:
                self.conn.execute(
                    "INSERT INTO floor_tables (table_id, site, pit) VALUES (%s, %s, %s) ON CONFLICT (table_id) DO NOTHING",
                    (table, self.site, self.pits.get(table)),
                )
            conflicts, raised = self._set_aside(batch, inserted, unchained)
            raised += self._clock_ahead(ahead)
            declared, declared_raised = self._declared_lost(batch, inserted)
            raised += declared_raised
            opened, closed = self._follow(sorted(set(touched) | declared))
        return Applied(len(inserted), len(batch) - len(inserted) - conflicts, opened, closed, conflicts, tuple(raised))

    # -- one record -------------------------------------------------------

    def _insert(
        self, batch: Sequence[tuple[TableRecord, int | None]]
    ) -> tuple[list[tuple[str, int]], dict[str, tuple[float, int, dt.datetime]]]:
        """Insert the batch in one statement: the (table, seq) of the records that were new, and for each table among
        them its new record stamped furthest ahead of the database's clock (seconds ahead, its seq, its time)."""
        if not batch:
            return [], {}
        columns: list[list[Any]] = [[], [], [], [], [], [], [], [], []]
        for item, stream_seq in batch:
            for column, value in zip(columns, (item.table, item.seq, item.round_id, item.kind, _time(item.record),
                                               Jsonb(item.record), stream_seq, item.prev, item.hash)):
                column.append(value)
        rows = self.conn.execute(
            "INSERT INTO events (table_id, seq, round_id, kind, at, record, stream_seq, prev, hash) "
            "SELECT * FROM unnest(%s::TEXT[], %s::BIGINT[], %s::TEXT[], %s::TEXT[], %s::TIMESTAMPTZ[], %s::JSONB[], %s::BIGINT[], "
            "%s::TEXT[], %s::TEXT[]) "
            "ON CONFLICT (table_id, seq) DO NOTHING RETURNING table_id, seq, at, EXTRACT(EPOCH FROM at - clock_timestamp())",
            columns,
        ).fetchall()
        ahead: dict[str, tuple[float, int, dt.datetime]] = {}
        for table, seq, at, seconds in rows:
            if seconds is not None and (str(table) not in ahead or float(seconds) > ahead[str(table)][0]):
                ahead[str(table)] = (float(seconds), int(seq), at)
        return [(str(table), int(seq)) for table, seq, _, _ in rows], ahead

    def _chained(
        self, batch: Sequence[tuple[TableRecord, int | None]]
    ) -> tuple[list[tuple[TableRecord, int | None]], list[tuple[TableRecord, int | None]]]:
        """The batch split in two: the records that follow on, in their journal's chain, from the records stored (or
        taken before them in the batch) at the seqs beside theirs, and those that do not (another journal's).

        A record without its chain (from a table older than the header), or with no neighbour stored, follows on; a
        record whose seq is taken already is left to the duplicate and conflict rules."""
        linked = [(item, stream_seq) for item, stream_seq in batch if item.prev is not None and item.hash is not None]
        if not linked:
            return list(batch), []
        tables = [item.table for item, _ in linked for _ in (0, 1, 2)]
        seqs = [seq for item, _ in linked for seq in (item.follows, item.seq, item.seq + 1)]
        stored = {(str(t), int(q)): (p, h) for t, q, p, h in self.conn.execute(
            "SELECT e.table_id, e.seq, e.prev, e.hash FROM unnest(%s::TEXT[], %s::BIGINT[]) AS n(table_id, seq) "
            "JOIN events e ON e.table_id = n.table_id AND e.seq = n.seq", [tables, seqs]).fetchall()}
        aside = {(str(t), int(q), str(h)) for t, q, h in self.conn.execute(
            "SELECT DISTINCT c.table_id, c.seq, c.hash FROM unnest(%s::TEXT[], %s::BIGINT[], %s::TEXT[]) AS n(table_id, seq, hash) "
            "JOIN event_conflicts c ON c.table_id = n.table_id AND c.seq = n.seq AND c.hash = n.hash",
            [[item.table for item, _ in linked], [item.follows for item, _ in linked], [item.prev for item, _ in linked]],
        ).fetchall()}
        """(table, seq, hash) of records set aside: a record whose prev is one of them follows on from another
        journal's record, not from the floor's."""
        known = dict(stored)
        after_loss = {(str(t), int(q)) for t, q in self.conn.execute(
            "SELECT table_id, last_seq + 1 FROM declared_lost WHERE table_id = ANY(%s)",
            (sorted({item.table for item, _ in linked}),)).fetchall()}
        after_loss |= {(item.table, item.seq) for item, _ in linked if item.lost is not None}
        """(table, seq) of the records that follow on from the record before seqs declared lost, not from the one
        before their own seq: a record stored just below them is not their link."""
        follows: list[tuple[TableRecord, int | None]] = []
        unchained: list[tuple[TableRecord, int | None]] = []
        for item, stream_seq in sorted(batch, key=lambda pair: (pair[0].table, pair[0].seq)):
            key = (item.table, item.seq)
            below, above = known.get((item.table, item.follows)), known.get((item.table, item.seq + 1))
            broken = (item.prev is not None and item.hash is not None and key not in stored and (
                (item.table, item.follows, item.prev) in aside
                or (below is not None and below[1] is not None and below[1] != item.prev)
                or (above is not None and above[0] is not None and above[0] != item.hash
                    and (item.table, item.seq + 1) not in after_loss)))
            if broken:
                unchained.append((item, stream_seq))
                aside.add((item.table, item.seq, str(item.hash)))  # the records after it in the batch follow on from it
                known.pop(key, None)
                continue
            follows.append((item, stream_seq))
            known.setdefault(key, (item.prev, item.hash))
        return follows, unchained

    def _set_aside(
        self, batch: Sequence[tuple[TableRecord, int | None]], inserted: Sequence[tuple[str, int]],
        unchained: Sequence[tuple[TableRecord, int | None]] = (),
    ) -> tuple[int, list[tuple[str, str]]]:
        """Keep aside each record of the batch that differs from the record stored under its (table, seq), and each
        record ``unchained``, and alert their tables: (how many were new to ``event_conflicts``, the alerts raised anew).

        A record not inserted is a duplicate when it is the stored one, else another journal's under the same table
        id; so is one of two records of one (table, seq) in the same batch, whichever was stored."""
        fresh = set(inserted)
        seen: dict[tuple[str, int], int] = {}
        for item, _ in batch:
            seen[(item.table, item.seq)] = seen.get((item.table, item.seq), 0) + 1

        def columns_of(items: Iterable[tuple[TableRecord, int | None]]) -> list[list[Any]]:
            columns: list[list[Any]] = [[], [], [], [], [], [], []]
            for item, stream_seq in items:
                for column, value in zip(columns, (item.table, item.seq, item.kind, _time(item.record), Jsonb(item.record),
                                                   stream_seq, item.hash)):
                    column.append(value)
            return columns

        taken = [(item, q) for item, q in batch if not ((item.table, item.seq) in fresh and seen[(item.table, item.seq)] == 1)]
        unnest = ("FROM unnest(%s::TEXT[], %s::BIGINT[], %s::TEXT[], %s::TIMESTAMPTZ[], %s::JSONB[], %s::BIGINT[], "
                  "%s::TEXT[]) AS p(table_id, seq, kind, at, record, stream_seq, hash) ")
        insert = ("INSERT INTO event_conflicts (table_id, seq, digest, kind, at, record, stream_seq, hash) "
                  "SELECT p.table_id, p.seq, md5(p.record::TEXT), p.kind, p.at, p.record, p.stream_seq, p.hash ")
        rows = []
        if taken:
            rows += self.conn.execute(insert + unnest + "JOIN events e ON e.table_id = p.table_id AND e.seq = p.seq "
                                      "WHERE e.record <> p.record ON CONFLICT DO NOTHING RETURNING table_id",
                                      columns_of(taken)).fetchall()
        if unchained:
            rows += self.conn.execute(insert + unnest + "ON CONFLICT DO NOTHING RETURNING table_id",
                                      columns_of(unchained)).fetchall()
        raised: list[tuple[str, str]] = []
        for table in sorted({str(table) for (table,) in rows}):
            summary = self.conn.execute(
                "SELECT COUNT(*), MIN(seq), MAX(seq) FROM event_conflicts WHERE table_id = %s", (table,)).fetchone()
            assert summary is not None
            count, first, last = int(summary[0]), int(summary[1]), int(summary[2])
            records = f"{count} records (seq {first} to {last}) differ" if count > 1 else f"1 record (seq {first}) differs"
            text = (f"table {table}: {records} from the journal the floor stores for this table (another record under a "
                    f"seq it holds, or one that does not follow on from its records): two journals publish as this "
                    f"table (a replaced PC, a copied config). Check each table's id; the differing records are kept aside "
                    f"and not counted (`tablectl floor aside` says which and why; `tablectl floor recheck {table}` looks "
                    f"at them again once the cause is fixed)")
            if self._alert(table, kinds.JOURNAL_CONFLICT, text):
                raised.append((kinds.JOURNAL_CONFLICT, text))
        return len(rows), raised

    def _declared_lost(
        self, batch: Sequence[tuple[TableRecord, int | None]], inserted: Sequence[tuple[str, int]]
    ) -> tuple[set[str], list[tuple[str, str]]]:
        """Keep each loss a table's journal declared (with the first record stored after it) and alert its table: the
        tables whose declaration is new, and the alerts raised.

        The declaration also counts on a record the floor stored before without it (sent by a table whose tablectl
        did not yet tell the floor of a loss, and sent again: ``tablectl floor recheck``, or the floor's own asking
        for the records its gap misses): the records after it then stop waiting for the lost seqs."""
        fresh = set(inserted)
        declared: set[str] = set()
        raised: list[tuple[str, str]] = []
        for item, _ in batch:
            if item.lost is None:
                continue
            if (item.table, item.seq) not in fresh:
                same = self.conn.execute("SELECT 1 FROM events WHERE table_id = %s AND seq = %s AND record = %s",
                                         (item.table, item.seq, Jsonb(item.record))).fetchone()
                if same is None:
                    continue  # not the record the floor holds under its seq: kept aside, not a declaration
            first, last = item.lost
            count = self.conn.execute("SELECT COUNT(*) FROM events WHERE table_id = %s AND seq BETWEEN %s AND %s",
                                      (item.table, first, last)).fetchone()
            held = int(count[0]) if count else 0
            new = self.conn.execute(
                "INSERT INTO declared_lost (table_id, first_seq, last_seq, declared_seq, held) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (table_id, first_seq) DO NOTHING RETURNING table_id",
                (item.table, first, last, item.seq, held)).fetchone()
            if new is None and (item.table, item.seq) not in fresh:
                continue  # sent again: declared before
            if new is not None:
                declared.add(item.table)
            size = last - first + 1
            where = ("the floor never received them: they are counted nowhere" if held == 0 else
                     "the floor holds them: its copy is the one to keep, and they stay counted" if held == size else
                     f"the floor holds {held} of them, which stay counted; the other {size - held} are counted nowhere")
            text = (f"table {item.table}: records {first} to {last} were declared lost on the table when its journal was "
                    f"restored (`journal restore --accept-loss`); {where}. The table's records go on from seq {item.seq}")
            if self._alert(item.table, kinds.RECORDS_DECLARED_LOST, text):
                raised.append((kinds.RECORDS_DECLARED_LOST, text))
        return declared, raised

    def _clock_ahead(self, ahead: dict[str, tuple[float, int, dt.datetime]]) -> list[tuple[str, str]]:
        """Alert each table whose new records are stamped more than ``CLOCK_AHEAD_LIMIT`` ahead of the floor's clock."""
        raised: list[tuple[str, str]] = []
        for table, (seconds, seq, at) in sorted(ahead.items()):
            if seconds <= CLOCK_AHEAD_LIMIT.total_seconds():
                continue
            day, shift = self.shifts.of(at)
            text = (f"the clock of table {table} is {_duration(seconds)} ahead of the floor's (its record seq {seq} is "
                    f"stamped {at.astimezone(self.shifts.zone):%Y-%m-%d %H:%M %Z}): its rounds are filed under the shift "
                    f"its clock names ({shift} of gaming day {day}); set the table's clock")
            if self._alert(table, kinds.CLOCK_AHEAD, text):
                raised.append((kinds.CLOCK_AHEAD, text))
        return raised

    def _alert(self, table: str, kind: str, text: str) -> bool:
        """Raise the floor's own alert ``kind`` for ``table``, one row per table and kind (its time and text refreshed
        while it lasts); True when it was not there before."""
        row = self.conn.execute(
            "INSERT INTO alerts (table_id, seq, kind, at, round_id, message) VALUES (%s, %s, %s, clock_timestamp(), NULL, %s) "
            "ON CONFLICT (table_id, seq) DO UPDATE SET kind = excluded.kind, at = excluded.at, message = excluded.message "
            "RETURNING xmax = 0",
            (table, kinds.TABLE_ALERT_SEQ[kind], kind, text),
        ).fetchone()
        return bool(row and row[0])

    def _follow(self, tables: Sequence[str]) -> tuple[int, int]:
        """Derive every record of ``tables`` that is now contiguous, in seq order; keep each table's gap up to date.

        A few statements for the whole batch (its tables' positions, their waiting records, their open gaps),
        so a burst of records from many tables costs little more than one from a few.
        """
        position = {str(t): (int(c), g or "") for t, c, g in self.conn.execute(
            "SELECT table_id, contiguous_seq, game FROM floor_tables WHERE table_id = ANY(%s) ORDER BY table_id FOR UPDATE",
            (list(tables),)).fetchall()}
        waiting: dict[str, list[tuple[int, str, str | None, dict[str, Any]]]] = {t: [] for t in tables}
        for table, seq, kind, round_id, record in self.conn.execute(
            "SELECT e.table_id, e.seq, e.kind, e.round_id, e.record FROM events e "
            "JOIN unnest(%s::TEXT[], %s::BIGINT[]) AS p(table_id, after) ON e.table_id = p.table_id AND e.seq > p.after "
            "ORDER BY e.table_id, e.seq",
            (list(position), [c for c, _ in position.values()]),
        ):
            waiting[str(table)].append((int(seq), str(kind), round_id, dict(record)))
        gapped = {str(t) for (t,) in self.conn.execute(
            "SELECT table_id FROM gaps WHERE filled_at IS NULL AND table_id = ANY(%s)", (list(tables),))}
        lost: dict[str, list[tuple[int, int]]] = {}
        for table, first, last in self.conn.execute(
                "SELECT table_id, first_seq, last_seq FROM declared_lost WHERE table_id = ANY(%s) ORDER BY first_seq",
                (list(tables),)):
            lost.setdefault(str(table), []).append((int(first), int(last)))
        opened = closed = 0
        for table in tables:
            contiguous, game = position[table]
            self._games[table] = game
            next_present: int | None = None
            for seq, kind, round_id, record in waiting[table]:
                if seq != contiguous + 1 and any(first <= contiguous + 1 and seq - 1 <= last for first, last in lost.get(table, ())):
                    contiguous = seq - 1  # what is missing was declared lost on the table: nothing to wait for
                if seq != contiguous + 1:
                    next_present = seq
                    break
                self._derive(TableRecord(table, seq, kind, round_id, record))
                contiguous = seq
            if next_present is None and table in gapped:
                closed += 1
                self.conn.execute("UPDATE gaps SET filled_at = clock_timestamp() WHERE table_id = %s AND filled_at IS NULL",
                                  (table,))
            elif next_present is not None and table in gapped:
                # records contiguous+1 .. next_present-1 still have not arrived: the table's open gap says so
                self.conn.execute("UPDATE gaps SET missing_from = %s, last_missing = %s WHERE table_id = %s AND filled_at IS NULL",
                                  (contiguous + 1, next_present - 1, table))
            elif next_present is not None:
                opened += 1
                self.conn.execute(
                    "INSERT INTO gaps (table_id, first_missing, last_missing, missing_from) VALUES (%s, %s, %s, %s)",
                    (table, contiguous + 1, next_present - 1, contiguous + 1),
                )
            last = waiting[table][-1][0] if waiting[table] else contiguous
            self.conn.execute(
                "UPDATE floor_tables SET contiguous_seq = %s, last_seq = GREATEST(last_seq, %s), "
                "last_at = (SELECT at FROM events WHERE table_id = %s AND seq = %s) WHERE table_id = %s",
                (contiguous, last, table, contiguous, table),
            )
        return opened, closed

    def _derive(self, item: TableRecord) -> None:
        """Rounds, settlements, meters, holds and alerts from a table's next record in seq order."""
        record, kind = item.record, item.kind
        at = _time(record)
        if kind == kinds.ROUND_STARTED and item.round_id:
            options = record.get("options") or {}
            self.conn.execute(
                "INSERT INTO rounds (table_id, round_id, game, paytable, started_seq, started_at, state) "
                "VALUES (%s, %s, %s, %s, %s, %s, 'started') ON CONFLICT DO NOTHING",
                (item.table, item.round_id, record.get("game", ""), paytable_of(record.get("game"), options), item.seq, at),
            )
            self.conn.execute(
                "UPDATE floor_tables SET game = %s, round_id = %s WHERE table_id = %s", (record.get("game"), item.round_id, item.table)
            )
            self._games[item.table] = str(record.get("game") or "")
        elif kind == kinds.STATE_CHANGED and item.round_id:
            self._state(item, str(record.get("state")), at)
        elif kind == kinds.WAGER_SETTLED and item.round_id:
            # not for a round the floor has seen end: a table restored with a loss settles again a round whose end
            # (among the lost records) the floor holds; the floor's copy is the one counted
            self.conn.execute(
                "INSERT INTO settlements SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s WHERE NOT EXISTS (SELECT 1 FROM rounds "
                "WHERE table_id = %s AND round_id = %s AND ended_seq IS NOT NULL) ON CONFLICT DO NOTHING",
                (item.table, item.seq, item.round_id, record.get("spot"), record["wager"], record["stake"],
                 record["returned"], record.get("banker", "house"), record.get("outcome"), item.table, item.round_id),
            )
        elif kind in (kinds.ROUND_HELD, kinds.HOLD_REASON_ADDED):
            reason = record.get("reason")
            self.conn.execute(
                "UPDATE holds SET reason = %s WHERE table_id = %s AND released_seq IS NULL", (reason, item.table)
            )
            self.conn.execute("UPDATE floor_tables SET hold_reason = %s WHERE table_id = %s", (reason, item.table))
        elif kind in (kinds.ROUND_COMPLETE, kinds.ROUND_VOIDED) and item.round_id:
            self._end_round(item, voided=kind == kinds.ROUND_VOIDED, at=at)
        elif kind == kinds.LOGIN_GRANTED:
            self.conn.execute(
                "INSERT INTO table_staff VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, name, client) DO UPDATE "
                "SET page = excluded.page, role = excluded.role, since = excluded.since, seq = excluded.seq",
                (item.table, str(record.get("name")), str(record.get("client")), record.get("page"), record.get("role"), at,
                 item.seq),
            )
        elif kind == kinds.LOGGED_OUT:
            self.conn.execute("DELETE FROM table_staff WHERE table_id = %s AND name = %s AND client = %s",
                              (item.table, str(record.get("name")), str(record.get("client"))))
        if kind in kinds.ALERTS:
            self.conn.execute(
                "INSERT INTO alerts VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (item.table, item.seq, kind, at, item.round_id, kinds.alert_text(kind, record)),
            )
            counter = kinds.ALERTS[kind]
            if counter:
                self._count(item.table, at, self._game_of(item), counter, 1)

    def _game_of(self, item: TableRecord) -> str:
        game = item.record.get("game")
        return game if isinstance(game, str) else self._games.get(item.table, "")

    def _state(self, item: TableRecord, state: str, at: dt.datetime | None) -> None:
        self.conn.execute(  # a round ended stays as it ended (see _end_round)
            "UPDATE rounds SET state = %s WHERE table_id = %s AND round_id = %s AND ended_seq IS NULL",
            (state, item.table, item.round_id),
        )
        self.conn.execute("UPDATE floor_tables SET state = %s WHERE table_id = %s", (state, item.table))
        if state == "hold":
            self.conn.execute(
                "INSERT INTO holds (table_id, round_id, held_seq, held_at) VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (item.table, item.round_id, item.seq, at),
            )
            self.conn.execute("UPDATE floor_tables SET hold_since = %s WHERE table_id = %s", (at, item.table))
            self._count(item.table, at, self._game_of(item), "holds", 1)
        else:
            self._release(item, at, how=state)

    def _release(self, item: TableRecord, at: dt.datetime | None, *, how: str) -> None:
        rows = self.conn.execute(
            "UPDATE holds SET released_seq = %s, released_at = %s, ended_how = %s WHERE table_id = %s AND released_seq IS NULL "
            "RETURNING held_at",
            (item.seq, at, how, item.table),
        ).fetchall()
        for (held_at,) in rows:
            if held_at is not None and at is not None:
                self._count(item.table, at, self._game_of(item), "hold_seconds", int((at - held_at).total_seconds()))
        if rows:
            self.conn.execute("UPDATE floor_tables SET hold_since = NULL, hold_reason = NULL WHERE table_id = %s", (item.table,))

    def _end_round(self, item: TableRecord, *, voided: bool, at: dt.datetime | None) -> None:
        record = item.record
        ended = self.conn.execute("SELECT ended_seq FROM rounds WHERE table_id = %s AND round_id = %s",
                                  (item.table, item.round_id)).fetchone()
        if ended is not None and ended[0] is not None:
            if voided:
                self._release(item, at, how="void")
            return  # ended before, in records its table then declared lost: counted once, as the floor holds it
        game = self._game_of(item)
        day, shift = self.shifts.of(at)
        self.conn.execute(
            "UPDATE rounds SET ended_seq = %s, ended_at = %s, voided = %s, wagered = %s, paid = %s, fees = %s, "
            "house_win = %s, between_players = %s, state = %s, gaming_day = %s, shift = %s WHERE table_id = %s AND round_id = %s",
            (item.seq, at, voided, record.get("wagered"), record.get("paid"), record.get("fees"), record.get("house_win"),
             record.get("between_players"), "void" if voided else "complete", day, shift, item.table, item.round_id),
        )
        if voided:
            self._release(item, at, how="void")
        self._count(item.table, at, game, "rounds", 1)
        if voided:
            self._count(item.table, at, game, "voided", 1)
        fees = self.conn.execute(
            "SELECT COALESCE(SUM((record->>'amount')::BIGINT), 0) FROM events WHERE table_id = %s AND round_id = %s AND kind = %s",
            (item.table, item.round_id, kinds.FEE_COLLECTED),
        ).fetchone()
        self._count(item.table, at, game, "fees", int(fees[0]) if fees else 0)
        pit = self.pits.get(item.table)
        settled = self.conn.execute(
            INITIAL_STAKES + sql.SQL(
                "SELECT s.wager, s.stake, s.returned, s.banker, COALESCE(e.edge, 0), s.initial FROM initial s "
                "JOIN rounds r ON r.table_id = s.table_id AND r.round_id = s.round_id "
                "LEFT JOIN edges e ON e.game = r.game AND e.paytable = r.paytable AND e.wager = s.wager ORDER BY s.seq"),
            {"table": item.table, "round": item.round_id, "placed": kinds.WAGER_PLACED},
        ).fetchall()
        for wager, stake, returned, banker, edge, initial in settled:
            if banker != "house":
                self._count(item.table, at, game, "between_count", 1)
                self._count(item.table, at, game, "between_wagered", stake)
                self._count(item.table, at, game, "between_paid", returned)
                continue
            for name in ("", wager):
                self.conn.execute(
                    "INSERT INTO meters VALUES (%s, %s, %s, %s, %s, %s, 1, %s, %s, %s) "
                    "ON CONFLICT (table_id, gaming_day, shift, game, wager) DO UPDATE SET count = meters.count + 1, "
                    "wagered = meters.wagered + excluded.wagered, paid = meters.paid + excluded.paid, "
                    "theoretical = meters.theoretical + excluded.theoretical",
                    (item.table, day, shift, game, pit, name, stake, returned, 0 if voided else initial * edge),
                )

    def _count(self, table: str, at: dt.datetime | None, game: str, name: str, value: int) -> None:
        day, shift = self.shifts.of(at)
        self.conn.execute(
            "INSERT INTO counters VALUES (%s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (table_id, gaming_day, shift, game, name) DO UPDATE SET value = counters.value + excluded.value",
            (table, day, shift, game, self.pits.get(table), name, value),
        )


def _duration(seconds: float) -> str:
    """How far ahead, as a supervisor reads it: ``9 h 02 min``, ``7 min``."""
    minutes = int(seconds // 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def paytable_of(game: Any, options: dict[str, Any]) -> str:
    """The pay table a round was played under, as ``tablectl edge`` names it (``edges.paytable_for``: High Card
    Flush's ``table-1`` from its bonus options, Three Card Poker's ``seed``), so its wagers meet their edges; else
    its ``paytable`` option, else ``standard``."""
    found = paytable_for(game, options) if isinstance(game, str) else None
    return found or str(options.get("paytable", "standard"))


def refresh_paytables(conn: psycopg.Connection[Any]) -> int:
    """Name again the pay table of every round from its ``round_started`` record (rounds stored before the floor named
    them as ``tablectl edge`` does); the rounds changed."""
    changed = 0
    with conn.transaction():
        rows = conn.execute(
            "SELECT r.table_id, r.round_id, r.game, r.paytable, e.record->'options' FROM rounds r "
            "JOIN events e ON e.table_id = r.table_id AND e.seq = r.started_seq").fetchall()
        for table, round_id, game, paytable, options in rows:
            named = paytable_of(game, dict(options or {}))
            if named != paytable:
                conn.execute("UPDATE rounds SET paytable = %s WHERE table_id = %s AND round_id = %s", (named, table, round_id))
                changed += 1
    return changed


def set_edges(conn: psycopg.Connection[Any], edges: Iterable[tuple[str, str, str, Any]]) -> None:
    """Record the house edge of each (game, paytable, wager) (``tablectl edge``'s figures)."""
    with conn.transaction():
        for game, paytable, wager, edge in edges:
            conn.execute(
                "INSERT INTO edges VALUES (%s, %s, %s, %s) ON CONFLICT (game, paytable, wager) DO UPDATE SET edge = excluded.edge",
                (game, paytable, wager, edge),
            )


def recompute_theoretical(conn: psycopg.Connection[Any]) -> int:
    """Every meter's theoretical win again from its settlements and today's ``edges``; the meter rows updated."""
    with conn.transaction():
        result = conn.execute(
            INITIAL_STAKES + sql.SQL("""
            UPDATE meters m SET theoretical = sub.theo FROM (
                SELECT r.table_id, r.gaming_day, r.shift, r.game,
                       CASE WHEN GROUPING(s.wager) = 1 THEN '' ELSE s.wager END AS wager,
                       SUM(CASE WHEN r.voided THEN 0 ELSE s.initial * COALESCE(e.edge, 0) END) AS theo
                FROM initial s
                JOIN rounds r ON r.table_id = s.table_id AND r.round_id = s.round_id
                LEFT JOIN edges e ON e.game = r.game AND e.paytable = r.paytable AND e.wager = s.wager
                WHERE s.banker = 'house' AND r.ended_seq IS NOT NULL
                GROUP BY GROUPING SETS ((r.table_id, r.gaming_day, r.shift, r.game, s.wager),
                                        (r.table_id, r.gaming_day, r.shift, r.game))
            ) sub
            WHERE m.table_id = sub.table_id AND m.gaming_day = sub.gaming_day AND m.shift = sub.shift
              AND m.game = sub.game AND m.wager = sub.wager
            """), {"table": None, "round": None, "placed": kinds.WAGER_PLACED},
        )
        return int(result.rowcount)
