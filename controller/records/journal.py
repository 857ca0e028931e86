"""The table journal: every event, durably, before it takes effect.

An embedded SQLite database (standard library ``sqlite3``) in WAL mode with
``synchronous=FULL``: a record is on disk when ``append`` returns. The
journal is the source of truth after a crash (``controller.engine.recovery`` rebuilds
the round in progress from it) and for recall (``tablectl rounds``, ``round``,
``replay``).

Besides the raw event records it keeps, in the same transaction as each
record, what a regulator asks of a table:

- ``rounds``: each round once, its game, last state and whether it ended;
- ``wagers``: what each (round, spot, wager) staked and how much of it is
  settled. A settlement that would settle more than was staked, or a round
  that ends with a wager unsettled, is refused: no settlement applies twice;
- ``meters``: rounds, voided rounds, fees, per-wager counts, wagered, paid
  and house win, and the action between players and a player-dealer, added
  when a round ends and never reset.

Errors (all ``JournalError``, a ``TableError`` and an ``OSError``):

::

    JournalError          a write or read failed: nothing of that write is kept
    ├── JournalFull       the disk, a file-size limit or [journal] max_size_mb is reached
    ├── JournalCorrupt    the database file is damaged (checked on open)
    └── JournalConflict   a record that contradicts the journal (a round started twice, ...)
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.errors import TableError
from controller.money import format_cents
from controller.records.meters import Meter, Meters

SCHEMA_VERSION = "1"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY, round TEXT, event TEXT NOT NULL, record TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_round ON events (round, seq);
CREATE TABLE IF NOT EXISTS rounds (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, started_seq INTEGER NOT NULL,
    state TEXT NOT NULL, ended_seq INTEGER);
CREATE INDEX IF NOT EXISTS rounds_open ON rounds (ended_seq);
CREATE TABLE IF NOT EXISTS wagers (
    round TEXT NOT NULL, spot INTEGER NOT NULL, wager TEXT NOT NULL,
    staked INTEGER NOT NULL, settled INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (round, spot, wager));
CREATE TABLE IF NOT EXISTS meters (
    wager TEXT PRIMARY KEY, count INTEGER NOT NULL, wagered INTEGER NOT NULL, paid INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""


AFTER_THE_END_REFUSED = frozenset({
    "state_changed", "wager_placed", "wager_changed", "wager_settled", "fee_collected", "card_dealt", "card_burned",
    "decision", "round_complete", "round_voided",
})
"""What can no longer happen to a round once it is complete or void (other records, e.g. a position passed, may follow)."""


class JournalError(TableError, OSError):
    """The journal could not take or give a record; nothing of the failed write is kept."""


class JournalFull(JournalError):
    """No room left: the disk is full, a file-size limit is reached, or ``[journal] max_size_mb``."""


class JournalCorrupt(JournalError):
    """The database file is damaged."""


class JournalConflict(JournalError):
    """A record contradicts what the journal holds (a round started twice, a wager settled twice)."""


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A round as the journal lists it."""

    id: str
    game: str
    state: str
    started_seq: int
    ended_seq: int | None


def _storage_error(path: Path, exc: sqlite3.Error, doing: str) -> JournalError:
    name = getattr(exc, "sqlite_errorname", "")
    where = f"journal {path}: {doing} failed"
    if name == "SQLITE_FULL" or "full" in str(exc):
        return JournalFull(f"{where}: no space left ({exc}); free disk space or raise [journal] max_size_mb, then restart")
    if name in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or "malformed" in str(exc) or "not a database" in str(exc):
        return JournalCorrupt(f"{where}: the file is damaged ({exc}); restore it from the last backup")
    return JournalError(f"{where}: {exc}")


def encode(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(",", ":"), default=str)


class Journal:
    """An append-only event journal for one table, in one SQLite file."""

    def __init__(self, path: str | Path, *, table_id: str, max_bytes: int | None = None) -> None:
        self.path = Path(path)
        self.table_id = table_id
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise _storage_error(self.path, exc, "opening") from None
        try:
            self._setup(max_bytes)
        except sqlite3.Error as exc:
            self._db.close()
            raise _storage_error(self.path, exc, "opening") from None
        except JournalError:
            self._db.close()
            raise

    def _setup(self, max_bytes: int | None) -> None:
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            raise JournalError(f"journal {self.path}: cannot use write-ahead logging (got {mode!r})")
        self._db.execute("PRAGMA synchronous=FULL")
        problems = [row[0] for row in self._db.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise JournalCorrupt(f"journal {self.path} is damaged: {'; '.join(problems[:3])}; restore it from the last backup")
        self._db.executescript(SCHEMA)
        if max_bytes is not None:
            page = self._db.execute("PRAGMA page_size").fetchone()[0]
            self._db.execute(f"PRAGMA max_page_count={max(2, max_bytes // page)}")
        owner = self._meta("table")
        if owner is None:
            with self._transaction("creating"):
                self._db.execute("INSERT INTO meta VALUES ('table', ?), ('schema', ?)", (self.table_id, SCHEMA_VERSION))
        elif owner != self.table_id:
            raise JournalConflict(f"journal {self.path} belongs to table {owner!r}, not {self.table_id!r}: give this table its own [journal] path")
        self.last_seq: int = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self, doing: str) -> Iterator[None]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _storage_error(self.path, exc, doing) from None
        try:
            yield
            self._db.execute("COMMIT")
        except BaseException as exc:
            if self._db.in_transaction:
                try:
                    self._db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            if isinstance(exc, sqlite3.Error):
                raise _storage_error(self.path, exc, doing) from None
            raise

    # -- writing ----------------------------------------------------------

    def append(self, records: Sequence[dict[str, Any]]) -> None:
        """Write ``records`` (with consecutive ``seq`` after ``last_seq``) in one durable transaction."""
        if not records:
            return
        with self._transaction(f"writing {records[0]['event']} (seq {records[0]['seq']})"):
            for record in records:
                self._write(record)
        self.last_seq = records[-1]["seq"]

    def _write(self, record: dict[str, Any]) -> None:
        seq, event, round_id = record["seq"], record["event"], record.get("round")
        expected = self._db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events").fetchone()[0]
        if seq != expected:
            raise JournalConflict(f"journal {self.path}: record seq {seq} given where seq {expected} is next")
        self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (seq, round_id, event, encode(record)))
        if round_id is None or "game" not in record:
            return
        if event == "round_started":
            if self._round(round_id) is not None:
                raise JournalConflict(f"journal {self.path}: round {round_id} was already started")
            self._db.execute("INSERT INTO rounds VALUES (?, ?, ?, 'idle', NULL)", (round_id, record["game"], seq))
            return
        row = self._round(round_id)
        if row is None:
            raise JournalConflict(f"journal {self.path}: {event} for round {round_id}, which never started")
        if row.ended_seq is not None and event in AFTER_THE_END_REFUSED:
            raise JournalConflict(f"journal {self.path}: {event} for round {round_id}, which already ended at seq {row.ended_seq}")
        if event == "state_changed":
            self._db.execute("UPDATE rounds SET state = ? WHERE id = ?", (record["state"], round_id))
        elif event in ("wager_placed", "wager_changed"):
            self._stake(round_id, record)
        elif event == "wager_settled":
            self._settle(round_id, record)
        elif event in ("round_complete", "round_voided"):
            self._end(round_id, seq, voided=event == "round_voided")

    def _round(self, round_id: str) -> RoundRow | None:
        row = self._db.execute("SELECT id, game, state, started_seq, ended_seq FROM rounds WHERE id = ?", (round_id,)).fetchone()
        return None if row is None else RoundRow(*row)

    def _stake(self, round_id: str, record: dict[str, Any]) -> None:
        total = record["previous"] + record["amount"] if record.get("by") == "decision" else record["amount"]
        self._db.execute(
            "INSERT INTO wagers (round, spot, wager, staked) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (round, spot, wager) DO UPDATE SET staked = excluded.staked",
            (round_id, record["spot"], record["wager"], total),
        )

    def _settle(self, round_id: str, record: dict[str, Any]) -> None:
        key = (round_id, record["spot"], record["wager"])
        row = self._db.execute("SELECT staked, settled FROM wagers WHERE round = ? AND spot = ? AND wager = ?", key).fetchone()
        staked, settled = row or (0, 0)
        if settled + record["stake"] > staked:
            raise JournalConflict(
                f"journal {self.path}: round {round_id} spot {record['spot']} {record['wager']}: settling "
                f"{format_cents(record['stake'])} more would settle {format_cents(settled + record['stake'])} of {format_cents(staked)} staked (applied twice?)"
            )
        self._db.execute("UPDATE wagers SET settled = settled + ? WHERE round = ? AND spot = ? AND wager = ?", (record["stake"], *key))

    def _end(self, round_id: str, seq: int, *, voided: bool) -> None:
        open_wagers = self._db.execute(
            "SELECT spot, wager, staked, settled FROM wagers WHERE round = ? AND staked != settled", (round_id,)
        ).fetchall()
        if open_wagers:
            spot, wager, staked, settled = open_wagers[0]
            raise JournalConflict(f"journal {self.path}: round {round_id} cannot end: spot {spot} {wager} has "
                                  f"{format_cents(settled)} of {format_cents(staked)} settled")
        self._db.execute("UPDATE rounds SET ended_seq = ? WHERE id = ?", (seq, round_id))
        counts = {"rounds": 1, "voided": int(voided), "fees": 0, "between_count": 0, "between_wagered": 0, "between_paid": 0}
        for record in self.round_records(round_id):
            if record["event"] == "fee_collected":
                counts["fees"] += record["amount"]
            elif record["event"] == "wager_settled" and record.get("banker", "house") != "house":
                counts["between_count"] += 1
                counts["between_wagered"] += record["stake"]
                counts["between_paid"] += record["returned"]
            elif record["event"] == "wager_settled":
                for name in ("", record["wager"]):
                    self._db.execute(
                        "INSERT INTO meters VALUES (?, 1, ?, ?) ON CONFLICT (wager) DO UPDATE SET "
                        "count = count + 1, wagered = wagered + excluded.wagered, paid = paid + excluded.paid",
                        (name, record["stake"], record["returned"]),
                    )
        for name, amount in counts.items():
            self._db.execute(
                "INSERT INTO counters VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value",
                (name, amount),
            )

    # -- reading ----------------------------------------------------------

    def _read(self, query: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return self._db.execute(query, params).fetchall()
        except sqlite3.Error as exc:
            raise _storage_error(self.path, exc, "reading") from None

    def records(self, after_seq: int = 0) -> list[dict[str, Any]]:
        """Every record after ``after_seq``, in order."""
        return [json.loads(r[0]) for r in self._read("SELECT record FROM events WHERE seq > ? ORDER BY seq", (after_seq,))]

    def records_of(self, *events: str) -> list[dict[str, Any]]:
        """Every record of the named events, in order."""
        marks = ", ".join("?" * len(events))
        return [json.loads(r[0]) for r in self._read(f"SELECT record FROM events WHERE event IN ({marks}) ORDER BY seq", events)]

    def round_records(self, round_id: str) -> list[dict[str, Any]]:
        """Every record of one round (the round's own and the devices' for it), in order."""
        return [json.loads(r[0]) for r in self._read("SELECT record FROM events WHERE round = ? ORDER BY seq", (round_id,))]

    def rounds(self, last: int | None = None) -> list[RoundRow]:
        """Rounds in the order they started; the last ``last`` of them when given."""
        rows = self._read(
            "SELECT id, game, state, started_seq, ended_seq FROM rounds ORDER BY started_seq DESC LIMIT ?",
            (-1 if last is None else last,),
        )
        return [RoundRow(*row) for row in reversed(rows)]

    def round(self, round_id: str) -> RoundRow | None:
        rows = self._read("SELECT id, game, state, started_seq, ended_seq FROM rounds WHERE id = ?", (round_id,))
        return RoundRow(*rows[0]) if rows else None

    def open_rounds(self) -> list[RoundRow]:
        """Rounds started and not ended (complete or void): the ones a restart must pick up."""
        rows = self._read("SELECT id, game, state, started_seq, ended_seq FROM rounds WHERE ended_seq IS NULL ORDER BY started_seq")
        return [RoundRow(*row) for row in rows]

    def stakes(self, round_id: str) -> list[tuple[int, str, int, int]]:
        """(spot, wager, staked, settled) of every wager of a round."""
        return [tuple(row) for row in self._read(
            "SELECT spot, wager, staked, settled FROM wagers WHERE round = ? ORDER BY spot, wager", (round_id,))]

    def rounds_started(self) -> int:
        return int(self._read("SELECT COUNT(*) FROM rounds")[0][0])

    def meters(self) -> Meters:
        """The table's meters as kept in the journal."""
        meters = Meters()
        counters = dict(self._read("SELECT name, value FROM counters"))
        meters.rounds, meters.voided = counters.get("rounds", 0), counters.get("voided", 0)
        for name, count, wagered, paid in self._read("SELECT wager, count, wagered, paid FROM meters"):
            meter = Meter(wagered=wagered, paid=paid, count=count)
            if name:
                meters.by_wager[name] = meter
            else:
                meters.total = meter
        meters.total.fees = counters.get("fees", 0)
        meters.between_players = Meter(
            wagered=counters.get("between_wagered", 0), paid=counters.get("between_paid", 0), count=counters.get("between_count", 0)
        )
        return meters
