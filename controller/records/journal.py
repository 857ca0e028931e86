"""The table journal: every event, durably, before it takes effect; a chain of records that knows what it lost.

An embedded SQLite database (standard library ``sqlite3``) in WAL mode with
``synchronous=FULL``: a record is on disk when ``append`` returns. The
journal is the source of truth after a crash (``controller.engine.recovery`` rebuilds
the round in progress from it) and for recall (``tablectl rounds``, ``round``,
``replay``).

Records that cannot be lost quietly:

- every record carries its checksum and the hash of the record before it
  (``controller.records.chain``), every other row a checksum of its own;
- after each commit the head (last sequence number and hash, in a checkpoint
  signed with the table's key when it has one) is written to the anchor file
  outside the database (``controller.records.anchor``);
- each open checks all of it (``controller.records.integrity``) and refuses a
  missing or empty file, a damaged one, or one behind its anchor, naming what
  is lost and how to restore (exit 4). A journal is created only by
  ``Journal.create`` (``tablectl journal init``), never by opening one;
- one process writes a journal (``controller.records.lock``); readers open it
  read-only (``readonly=True``) and never write to it.

Besides the raw event records it keeps, in the same transaction as each
record, what a regulator asks of a table:

- ``rounds``: each round once, its game, last state and whether it ended;
- ``wagers``: what each (round, spot, wager) staked and how much of it is
  settled. A settlement that would settle more than was staked, or a round
  that ends with a wager unsettled, is refused: no settlement applies twice;
- ``meters``: rounds, voided rounds, fees, per-wager counts, wagered, paid
  and house win, and the action between players and a player-dealer, added
  when a round ends and never reset;
- ``checkpoints``: the signed heads of the journal and the event log, one per
  commit, the newest ``CHECKPOINTS_KEPT`` of them (the anchor holds the last;
  the floor is sent each one);
- ``gaps``: sequence numbers lost and acknowledged by a person on restoring.

Each event is stored as its record (``controller.events.to_record``: one flat
JSON object, the form tables have always written), read back as the typed
event (``records``, ``round_records``, ``records_of``) or as stored
(``stored``, for the audit trail's comparison, restores and the floor's outbox).
The typed events did not change the stored form; a journal from before the
record chain is chained by ``tablectl journal migrate``.

Errors: ``controller.records.errors`` (``JournalError`` and its kinds).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import resource
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.events import (
    CardBurned,
    CardDealt,
    DecisionTaken,
    Event,
    FeeCollected,
    RoundCompleted,
    RoundEvent,
    RoundStarted,
    RoundVoided,
    StateChanged,
    UnknownEvent,
    WagerChanged,
    WagerPlaced,
    WagerSettled,
    from_record,
    staked_after,
    to_record,
)
from controller.money import format_cents
from controller.records.anchor import Anchor, Head, anchor_path, read_anchor
from controller.records.chain import GENESIS, record_hash, row_sum
from controller.records.errors import (
    AnotherTablesJournal,
    JournalConflict,
    JournalCorrupt,
    JournalError,
    JournalFull,
    JournalMissing,
    NoJournal,
    RecordsError,
    storage_error,
)
from controller.records.integrity import Chain, check_anchor, check_chain, check_meters, check_pages, check_rows, genesis_ok
from controller.records.keys import SigningKey, sign_checkpoint
from controller.records.lock import FileLock
from controller.records.meters import Meter, Meters

SCHEMA_VERSION = "2"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL, sum TEXT);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY, round TEXT, event TEXT NOT NULL, record TEXT NOT NULL, prev TEXT NOT NULL, hash TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_round ON events (round, seq);
CREATE TABLE IF NOT EXISTS rounds (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, started_seq INTEGER NOT NULL,
    state TEXT NOT NULL, ended_seq INTEGER, sum TEXT);
CREATE INDEX IF NOT EXISTS rounds_open ON rounds (ended_seq);
CREATE TABLE IF NOT EXISTS wagers (
    round TEXT NOT NULL, spot INTEGER NOT NULL, wager TEXT NOT NULL,
    staked INTEGER NOT NULL, settled INTEGER NOT NULL DEFAULT 0, sum TEXT, PRIMARY KEY (round, spot, wager));
CREATE TABLE IF NOT EXISTS meters (
    wager TEXT PRIMARY KEY, count INTEGER NOT NULL, wagered INTEGER NOT NULL, paid INTEGER NOT NULL, sum TEXT);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL, sum TEXT);
CREATE TABLE IF NOT EXISTS checkpoints (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, body TEXT NOT NULL, sum TEXT);
CREATE TABLE IF NOT EXISTS gaps (from_seq INTEGER PRIMARY KEY, to_seq INTEGER NOT NULL, at TEXT NOT NULL, reason TEXT NOT NULL, sum TEXT);
"""


AFTER_THE_END_REFUSED = (StateChanged, WagerPlaced, WagerChanged, WagerSettled, FeeCollected, CardDealt, CardBurned,
                         DecisionTaken, RoundCompleted, RoundVoided)
"""What can no longer happen to a round once it is complete or void (other records, e.g. a position passed, may follow)."""

CHECKPOINTS_KEPT = 10_000
"""Checkpoints kept in the journal (the newest; a few hours of play): the floor keeps them all as it receives them."""

LogHead = Callable[[], "dict[str, Any] | None"]
"""Where the event log stands (``controller.records.audit.ChainedFile.position``), put in each checkpoint."""


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A round as the journal lists it."""

    id: str
    game: str
    state: str
    started_seq: int
    ended_seq: int | None


FULL_BELOW = 1 << 20
"""Free bytes under which a disk I/O error is put down to a full disk (SQLite says ``disk I/O error``, not
``database or disk is full``, when it cannot make its ``-wal`` or ``-shm`` file)."""


def _nearly_full(path: Path) -> bool:
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < FULL_BELOW


SIZE_LIMIT_MARGIN = 1 << 16
"""A journal file this close to the process's file-size limit is taken to have reached it (a WAL frame, a page)."""


def _size_limit_reached(path: Path) -> int | None:
    """The file-size limit (``ulimit -f``, systemd's ``LimitFSIZE=``) that the journal or its ``-wal`` has reached, if
    any: SQLite reports the write refused past it (EFBIG) as a plain ``disk I/O error``."""
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    if soft == resource.RLIM_INFINITY:
        return None
    for file in (path, Path(f"{path}-wal")):
        with contextlib.suppress(OSError):
            if file.stat().st_size + SIZE_LIMIT_MARGIN >= soft:
                return soft
    return None


def _storage_error(path: Path, exc: sqlite3.Error, doing: str) -> JournalError:
    name = getattr(exc, "sqlite_errorname", "")
    where = f"journal {path}: {doing} failed"
    io_error = name.startswith("SQLITE_IOERR") or "disk I/O error" in str(exc)
    limit = _size_limit_reached(path) if io_error else None
    if limit is not None:
        return JournalFull(f"{where}: a file-size limit is reached: no file may grow past {limit:,} bytes "
                           f"(ulimit -f, or systemd's LimitFSIZE=) ({exc}); raise or remove the limit, then restart (exit 3)")
    if name == "SQLITE_FULL" or "full" in str(exc) or (io_error and _nearly_full(path)):
        return JournalFull(f"{where}: the disk or [journal] max_size_mb is full ({exc}); free disk space or raise "
                           "[journal] max_size_mb, then restart (exit 3)")
    if (name in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or "malformed" in str(exc) or "not a database" in str(exc)
            or "decode" in str(exc) or "user-defined function raised" in str(exc)):
        return JournalCorrupt(f"{where}: the file is damaged ({exc}); restore it: `tablectl journal restore BACKUP` "
                              "(docs/operations.md)")
    if name in ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH") or "readonly" in str(exc):
        return JournalError(f"{where}: {exc}: the service user must be able to write the journal and its folder (exit 3)")
    return JournalError(f"{where}: {exc}")


def encode(record: dict[str, Any]) -> str:
    """A record's stored text: canonical JSON (sorted keys), so the same record read back from the event log
    re-encodes to the same bytes and the same chain hash (``tablectl journal restore`` relies on it)."""
    return json.dumps(record, separators=(",", ":"), sort_keys=True, default=str)


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _connect(target: str, *, uri: bool = False) -> sqlite3.Connection:
    db = sqlite3.connect(target, isolation_level=None, uri=uri, check_same_thread=True)
    db.create_function("rowsum", -1, row_sum, deterministic=True)
    return db


def _history(path: Path) -> str:
    """What the anchor says of a table's history, for a message about a missing or empty journal."""
    try:
        head = read_anchor(anchor_path(path))
    except RecordsError:
        return f"its anchor {anchor_path(path)} is damaged too"
    if head is None:
        return ""
    return (f"the table has history: its anchor {anchor_path(path)} saw seq {head.seq} committed at "
            f"{head.checkpoint.get('at', '?')}")


class Journal:
    """An append-only, chained event journal for one table, in one SQLite file.

    Opening checks everything (``controller.records.integrity``); a writer holds
    the table's lock until ``close``. ``readonly`` opens for the reading
    commands: no lock held against the table, nothing written.
    """

    def __init__(self, path: str | Path, *, table_id: str, max_bytes: int | None = None, readonly: bool = False,
                 key: SigningKey | None = None, anchored: bool = True) -> None:
        self.path = Path(path)
        self.table_id = table_id
        self.readonly = readonly
        self.anchored_check = anchored
        self.key = key
        self.log_head: LogHead | None = None
        self.anchor_file = anchor_path(self.path)
        self._anchor: Anchor | None = None
        self._lock = FileLock(self.path, f"table {table_id}'s journal")
        self._copy: Path | None = None
        self._touched: set[str] = set()
        self._meters_touched = False
        self._refuse_missing()
        try:
            self._db = self._open()
        except BaseException:
            self._release()
            raise
        try:
            self._setup(max_bytes)
        except sqlite3.Error as exc:
            self._close_db()
            raise _storage_error(self.path, exc, "opening") from None
        except BaseException:
            self._close_db()
            raise

    @classmethod
    def create(cls, path: str | Path, *, table_id: str, key: SigningKey | None = None, first_seq: int = 1,
               genesis: str = GENESIS, lost: tuple[int, int, str] | None = None, max_bytes: int | None = None) -> Journal:
        """A new journal at ``path`` (which must not hold one), anchored, open for writing.

        ``first_seq`` and ``genesis`` carry a table's numbering and chain on past records a person
        declared lost (``lost``: first and last lost seq and why), so no sequence number is ever reused.
        """
        path = Path(path)
        if path.exists() and path.stat().st_size > 0:
            raise JournalConflict(f"journal {path} already exists: a table's journal is never replaced "
                                  "(`tablectl journal restore` puts back a backup)")
        if not genesis_ok(first_seq, genesis):
            raise ValueError(f"a journal starting at seq {first_seq} needs the hash of the record before it")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise storage_error(path.parent, exc, "creating the journal's folder") from None
        lock = FileLock(path, f"table {table_id}'s journal")
        lock.acquire(create=True)
        try:
            for stale in (Path(f"{path}-wal"), Path(f"{path}-shm")):
                stale.unlink(missing_ok=True)  # never let a stale WAL be applied to a new file
            db = _connect(str(path))
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                db.executescript(SCHEMA)
                db.execute("BEGIN IMMEDIATE")
                for key_name, value in (("table", table_id), ("schema", SCHEMA_VERSION), ("first_seq", str(first_seq)),
                                        ("genesis", genesis), ("created", now()),
                                        ("key", key.fingerprint if key else "")):
                    db.execute("INSERT INTO meta VALUES (?, ?, rowsum(?, ?))", (key_name, value, key_name, value))
                if lost is not None:
                    at = now()
                    db.execute("INSERT INTO gaps VALUES (?, ?, ?, ?, rowsum(?, ?, ?, ?))", (*lost[:2], at, lost[2], *lost[:2], at, lost[2]))
                db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise _storage_error(path, exc, "creating") from None
            finally:
                db.close()
        except BaseException:
            lock.release()
            path.unlink(missing_ok=True)
            raise
        lock.release()
        journal = cls(path, table_id=table_id, key=key, max_bytes=max_bytes)
        journal.checkpoint()
        return journal

    # -- opening ----------------------------------------------------------

    def _refuse_missing(self) -> None:
        try:
            found = self.path.stat()
            size = found.st_size
        except FileNotFoundError:
            history = _history(self.path)
            if history:
                raise JournalMissing(f"journal {self.path} is missing, and {history}: restore the journal "
                                     "(`tablectl journal restore BACKUP`); a new journal would reuse its sequence numbers") from None
            raise NoJournal(f"no journal at {self.path}: a new table's journal is made by `tablectl journal init` "
                                 "(give --config or --journal for another table's)") from None
        except OSError as exc:
            raise storage_error(self.path, exc, "opening the journal") from None
        if not stat.S_ISREG(found.st_mode):
            what = "a directory" if stat.S_ISDIR(found.st_mode) else "not a regular file"
            raise JournalError(f"journal {self.path} is {what}, not a journal file: give the table's journal file "
                               "(--journal, or the config's [journal] path), or move this aside and restore the journal "
                               "(`tablectl journal restore BACKUP`, docs/operations.md)")
        if size == 0:
            history = _history(self.path)
            raise JournalMissing(f"journal {self.path} is empty (0 bytes)" + (f", and {history}" if history else "")
                                 + ": restore it (`tablectl journal restore BACKUP`, docs/operations.md); "
                                 + ("`tablectl journal init` makes a new table's journal" if not history else
                                    "a new journal would reuse its sequence numbers"))

    def _open(self) -> sqlite3.Connection:
        if not self.readonly:
            self._lock.acquire()
            try:
                return _connect(str(self.path))
            except sqlite3.Error as exc:
                raise _storage_error(self.path, exc, "opening") from None
        wal = Path(f"{self.path}-wal")
        try:
            self._lock.acquire(shared=True)
        except RecordsError:
            # A writer has it open: read alongside it (WAL readers share its -shm; the records are untouched).
            return _connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
        if wal.exists() and wal.stat().st_size > 0:
            # Committed records wait in the WAL of a table stopped by a crash: read a copy, write nothing here.
            self._copy = Path(tempfile.mkdtemp(prefix="tablectl-read-"))
            target = self._copy / self.path.name
            shutil.copyfile(self.path, target)
            shutil.copyfile(wal, f"{target}-wal")
            return _connect(str(target))
        return _connect(f"{self.path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)

    def _setup(self, max_bytes: int | None) -> None:
        if not self.readonly:
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode != "wal":
                raise JournalError(f"journal {self.path}: cannot use write-ahead logging (got {mode!r})")
            self._db.execute("PRAGMA synchronous=FULL")
        check_pages(self._db, self.path)
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "events" not in tables or "meta" not in tables:
            raise JournalCorrupt(f"{self.path} is not a tablectl journal (it has no records table): give the table's own "
                                 "journal, or restore it from a backup")
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(events)")}
        if "hash" not in columns:
            raise JournalCorrupt(f"journal {self.path} is from before the record chain (schema 1): back it up and run "
                                 '`tablectl journal migrate` (docs/operations.md, "Migrating a journal")')
        owner = self._meta("table")
        if owner != self.table_id:
            raise AnotherTablesJournal(f"journal {self.path} belongs to table {owner!r}, not {self.table_id!r}: " + (
                f"give --config the config of table {owner!r}" if self.readonly else "give this table its own [journal] path"))
        if max_bytes is not None and not self.readonly:
            page = self._db.execute("PRAGMA page_size").fetchone()[0]
            self._db.execute(f"PRAGMA max_page_count={max(2, max_bytes // page)}")
        self._verify()

    def _verify(self) -> None:
        """The whole chain, every row's checksum and the anchor, in one read transaction (a consistent snapshot)."""
        head = read_anchor(self.anchor_file) if self.anchored_check else None
        self._db.execute("BEGIN")
        try:
            first_seq = int(self._meta("first_seq") or "1")
            genesis = self._meta("genesis") or GENESIS
            gaps = {int(a): int(b) for a, b in self._db.execute("SELECT from_seq, to_seq FROM gaps")}
            check_rows(self._db, self.path)
            chain = check_chain(self._db, self.path, first_seq, genesis, gaps)
            check_meters(self._db, self.path)
            at = {}
            if head is not None:  # the last record at or before the anchored seq (a seq in an acknowledged gap has none)
                row = self._db.execute("SELECT hash FROM events WHERE seq <= ? ORDER BY seq DESC LIMIT 1", (head.seq,)).fetchone()
                at[head.seq] = str(row[0]) if row else genesis
            if self.anchored_check:
                check_anchor(self.path, self.anchor_file, head, chain, at)
        finally:
            self._db.execute("COMMIT")
        self.chain: Chain = chain
        self.first_seq = first_seq
        self.last_seq: int = chain.last_seq
        self.last_hash: str = chain.last_hash
        self.anchored: Head | None = head
        latest = self.latest_checkpoint()
        self._log_position: dict[str, Any] | None = latest.get("log") if latest else None
        if not self.readonly and self.anchored_check:
            self._anchor = Anchor(self.anchor_file)
            self._anchor.open()

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    @property
    def served_since(self) -> str | None:
        """When ``tablectl serve`` first dealt from this journal to players (``mark_served``); ``None``: never."""
        return self._meta(SERVED)

    def mark_served(self, at: str | None = None) -> None:
        """Record, once, that ``tablectl serve`` deals this journal's rounds to players (not ``--simulated-players``): it
        is a live table's, and ``tablectl run`` (simulated players) refuses it (``served``). ``at``: since when (a
        restore carries the mark of the journal it replaces, with its time); default now."""
        if self.readonly or self._meta(SERVED) is not None:
            return
        at = at or now()
        with self._transaction("marking the journal served"):
            self._db.execute("INSERT INTO meta VALUES (?, ?, rowsum(?, ?))", (SERVED, at, SERVED, at))

    def _close_db(self) -> None:
        try:
            self._db.close()
        finally:
            self._release()

    def _release(self) -> None:
        if self._anchor is not None:
            self._anchor.close()
            self._anchor = None
        self._lock.release()
        if self._copy is not None:
            shutil.rmtree(self._copy, ignore_errors=True)
            self._copy = None

    def close(self) -> None:
        if getattr(self, "_db", None) is not None:
            self._close_db()
            self._db = None  # type: ignore[assignment]

    def __del__(self) -> None:
        # A journal dropped without close (a crash in a test, a leak) still lets its lock go.
        if getattr(self, "_db", None) is not None:
            with contextlib.suppress(Exception):  # a finaliser must never raise
                self.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self, doing: str) -> Iterator[None]:
        if self.readonly:
            raise JournalError(f"journal {self.path} is open for reading only: {doing} refused")
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _storage_error(self.path, exc, doing) from None
        self._touched.clear()
        self._meters_touched = False
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

    def append(self, events: Sequence[Event]) -> None:
        """Write ``events`` (with consecutive ``seq`` after ``last_seq``) in one durable transaction, chained,
        with a checkpoint of the new head; then the anchor."""
        self._append([(to_record(event), event) for event in events])

    def append_stored(self, records: Sequence[dict[str, Any]]) -> None:
        """``append`` for records in their stored form, kept byte for byte (a restore from the event log)."""
        try:
            pairs = [(record, from_record(record)) for record in records]
        except (UnknownEvent, ValueError) as exc:
            raise JournalConflict(f"journal {self.path}: {exc}") from None
        self._append(pairs)

    def _append(self, pairs: Sequence[tuple[dict[str, Any], Event]]) -> None:
        if not pairs:
            return
        seq, prev = self.last_seq, self.last_hash
        with self._transaction(f"writing {pairs[0][1].EVENT} (seq {pairs[0][1].seq})"):
            for record, event in pairs:
                if event.seq != seq + 1:
                    raise JournalConflict(f"journal {self.path}: record seq {event.seq} given where seq {seq + 1} is next")
                prev = self._write(record, event, prev)
                seq = event.seq
            self._reseal()
            checkpoint = self._store_checkpoint(seq, prev)
        self.last_seq, self.last_hash = seq, prev
        self._write_anchor(checkpoint)

    def checkpoint(self) -> dict[str, Any]:
        """Store a checkpoint of the heads as they stand (the event log moved, the journal did not) and anchor it."""
        with self._transaction("writing a checkpoint"):
            checkpoint = self._store_checkpoint(self.last_seq, self.last_hash)
        self._write_anchor(checkpoint)
        return checkpoint

    def rewrite_anchor(self) -> dict[str, Any]:
        """Write the anchor again from this journal (after a restore or a migration, or when a person checked it)."""
        self._anchor = Anchor(self.anchor_file)
        self._anchor.open(replace_damaged=True)
        return self.checkpoint()

    def record_gap(self, first: int, last: int, reason: str) -> None:
        """Declare records ``first``..``last`` lost (a person accepted it on restoring): numbering carries on after them."""
        if first != self.last_seq + 1 or last < first:
            raise JournalConflict(f"journal {self.path}: a gap must start at seq {self.last_seq + 1}, not {first}-{last}")
        at = now()
        with self._transaction(f"recording records {first}-{last} as lost"):
            self._db.execute("INSERT INTO gaps VALUES (?, ?, ?, ?, rowsum(?, ?, ?, ?))", (first, last, at, reason, first, last, at, reason))
            checkpoint = self._store_checkpoint(last, self.last_hash)
        self.last_seq = last
        self._write_anchor(checkpoint)

    def backup_to(self, target: Path) -> None:
        """Copy the journal page by page with SQLite's online backup API (safe while the table writes)."""
        try:
            copy = sqlite3.connect(target)
            try:
                self._db.backup(copy)
            finally:
                copy.close()
        except sqlite3.Error as exc:
            raise _storage_error(target, exc, "backing up the journal") from None

    def _store_checkpoint(self, seq: int, digest: str) -> dict[str, Any]:
        if self.log_head is not None:
            self._log_position = self.log_head()
        body = {"table": self.table_id, "journal": {"seq": seq, "hash": digest}, "log": self._log_position, "at": now()}
        checkpoint = sign_checkpoint(body, self.key)
        text = encode(checkpoint)
        cursor = self._db.execute("INSERT INTO checkpoints (seq, body) VALUES (?, ?)", (seq, text))
        self._db.execute("UPDATE checkpoints SET sum = rowsum(id, seq, body) WHERE id = ?", (cursor.lastrowid,))
        self._db.execute("DELETE FROM checkpoints WHERE id <= ?", (int(cursor.lastrowid or 0) - CHECKPOINTS_KEPT,))
        return checkpoint

    def _write_anchor(self, checkpoint: dict[str, Any]) -> None:
        if self._anchor is not None:
            self._anchor.write(checkpoint)

    def _write(self, record: dict[str, Any], event: Event, prev: str) -> str:
        """Insert one record linked to ``prev`` and update what it changes; its hash."""
        seq, round_id = event.seq, event.round
        text = encode(record)
        digest = record_hash(seq, prev, round_id, event.EVENT, text)
        self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)", (seq, round_id, event.EVENT, text, prev, digest))
        if round_id is None or not isinstance(event, RoundEvent):
            return digest
        self._touched.add(round_id)
        if isinstance(event, RoundStarted):
            if self._round(round_id) is not None:
                raise JournalConflict(f"journal {self.path}: round {round_id} was already started")
            self._db.execute("INSERT INTO rounds VALUES (?, ?, ?, 'idle', NULL, NULL)", (round_id, event.game, seq))
            return digest
        row = self._round(round_id)
        if row is None:
            raise JournalConflict(f"journal {self.path}: {event.EVENT} for round {round_id}, which never started")
        if row.ended_seq is not None and isinstance(event, AFTER_THE_END_REFUSED):
            raise JournalConflict(f"journal {self.path}: {event.EVENT} for round {round_id}, which already ended at seq {row.ended_seq}")
        match event:
            case StateChanged(state=state):
                self._db.execute("UPDATE rounds SET state = ? WHERE id = ?", (state, round_id))
            case WagerPlaced() | WagerChanged():
                self._stake(round_id, event)
            case WagerSettled():
                self._settle(round_id, event)
            case RoundCompleted() | RoundVoided():
                self._end(round_id, seq, voided=isinstance(event, RoundVoided))
                self._meters_touched = True
        return digest

    def _reseal(self) -> None:
        """The checksums of the rows this transaction changed."""
        for round_id in self._touched:
            self._db.execute("UPDATE rounds SET sum = rowsum(id, game, started_seq, state, ended_seq) WHERE id = ?", (round_id,))
            self._db.execute("UPDATE wagers SET sum = rowsum(round, spot, wager, staked, settled) WHERE round = ?", (round_id,))
        if self._meters_touched:
            self._db.execute("UPDATE meters SET sum = rowsum(wager, count, wagered, paid)")
            self._db.execute("UPDATE counters SET sum = rowsum(name, value)")

    def _round(self, round_id: str) -> RoundRow | None:
        row = self._db.execute("SELECT id, game, state, started_seq, ended_seq FROM rounds WHERE id = ?", (round_id,)).fetchone()
        return None if row is None else RoundRow(*row)

    def _stake(self, round_id: str, event: WagerPlaced | WagerChanged) -> None:
        self._db.execute(
            "INSERT INTO wagers (round, spot, wager, staked) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (round, spot, wager) DO UPDATE SET staked = excluded.staked",
            (round_id, event.spot, event.wager, staked_after(event)),
        )

    def _settle(self, round_id: str, event: WagerSettled) -> None:
        key = (round_id, event.spot, event.wager)
        row = self._db.execute("SELECT staked, settled FROM wagers WHERE round = ? AND spot = ? AND wager = ?", key).fetchone()
        staked, settled = row or (0, 0)
        if settled + event.stake > staked:
            raise JournalConflict(
                f"journal {self.path}: round {round_id} spot {event.spot} {event.wager}: settling "
                f"{format_cents(event.stake)} more would settle {format_cents(settled + event.stake)} of {format_cents(staked)} staked (applied twice?)"
            )
        self._db.execute("UPDATE wagers SET settled = settled + ? WHERE round = ? AND spot = ? AND wager = ?", (event.stake, *key))

    def _end(self, round_id: str, seq: int, *, voided: bool) -> None:
        open_wagers = self._db.execute(
            "SELECT spot, wager, staked, settled FROM wagers WHERE round = ? AND staked != settled", (round_id,)
        ).fetchall()
        if open_wagers:
            spot, wager, staked, settled = open_wagers[0]
            raise JournalConflict(f"journal {self.path}: round {round_id} cannot end: spot {spot} {wager} has "
                                  f"{format_cents(settled)} of {format_cents(staked)} settled")
        self._db.execute("UPDATE rounds SET ended_seq = ? WHERE id = ?", (seq, round_id))
        tally = Meters()
        tally.add_records(self.round_records(round_id), voided=voided)
        for name, (count, wagered, paid) in tally.meter_rows().items():
            self._db.execute(
                "INSERT INTO meters (wager, count, wagered, paid) VALUES (?, ?, ?, ?) ON CONFLICT (wager) DO UPDATE SET "
                "count = count + excluded.count, wagered = wagered + excluded.wagered, paid = paid + excluded.paid",
                (name, count, wagered, paid),
            )
        for name, amount in tally.counters().items():
            self._db.execute(
                "INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value",
                (name, amount),
            )

    # -- reading ----------------------------------------------------------

    def last_stamp(self) -> tuple[str, int] | None:
        """The last record's timestamp and sequence number; ``None`` when there is no record yet."""
        rows = self._read("SELECT json_extract(record, '$.timestamp'), seq FROM events ORDER BY seq DESC LIMIT 1")
        return (str(rows[0][0]), int(rows[0][1])) if rows and rows[0][0] else None

    def _read(self, query: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return self._db.execute(query, params).fetchall()
        except sqlite3.Error as exc:
            raise _storage_error(self.path, exc, "reading") from None

    def _stored(self, rows: list[Any]) -> list[dict[str, Any]]:
        """Records from their stored text; a record damaged since the journal was opened is reported, never a traceback."""
        out = []
        for seq, text in rows:
            try:
                record = json.loads(text)
            except (ValueError, TypeError):
                record = None
            if not isinstance(record, dict):
                raise JournalCorrupt(f"journal {self.path}: record seq {seq} is damaged (not a JSON record); "
                                     "restore it: `tablectl journal restore BACKUP` (docs/operations.md)")
            out.append(record)
        return out

    def _decode(self, rows: list[Any]) -> list[Event]:
        """Stored records as typed events; one this schema cannot read is named (the file is from elsewhere, or altered)."""
        try:
            return [from_record(record) for record in self._stored(rows)]
        except (UnknownEvent, ValueError) as exc:
            raise JournalCorrupt(f"journal {self.path}: {exc}") from None

    def records(self, after_seq: int = 0) -> list[Event]:
        """Every record after ``after_seq``, in order."""
        return self._decode(self._read("SELECT seq, record FROM events WHERE seq > ? ORDER BY seq", (after_seq,)))

    def stored(self, after_seq: int = 0) -> list[dict[str, Any]]:
        """Every record after ``after_seq`` as it is stored (one JSON object each), for checks of the stored form."""
        return self._stored(self._read("SELECT seq, record FROM events WHERE seq > ? ORDER BY seq", (after_seq,)))

    def records_of(self, *kinds: type[Event]) -> list[Event]:
        """Every record of the given kinds of event, in order."""
        names = tuple(kind.EVENT for kind in kinds)
        marks = ", ".join("?" * len(names))
        return self._decode(self._read(f"SELECT seq, record FROM events WHERE event IN ({marks}) ORDER BY seq", names))

    def round_records(self, round_id: str) -> list[Event]:
        """Every record of one round (the round's own and the devices' for it), in order."""
        return self._decode(self._read("SELECT seq, record FROM events WHERE round = ? ORDER BY seq", (round_id,)))

    def chain_hashes(self) -> list[tuple[int, str]]:
        """(seq, hash) of every record: the journal's chain, to compare two copies record by record."""
        return [(int(seq), str(digest)) for seq, digest in self._read("SELECT seq, hash FROM events ORDER BY seq")]

    def hash_at(self, seq: int) -> str | None:
        """The chain hash of record ``seq`` (``None`` if the journal does not hold it); at the seq before its first
        record, the hash its chain starts from (``genesis``), which the anchor of a table that has not played holds."""
        rows = self._read("SELECT hash FROM events WHERE seq = ?", (seq,))
        if rows:
            return str(rows[0][0])
        return (self._meta("genesis") or GENESIS) if seq == self.first_seq - 1 else None

    def checkpoints(self, after_id: int = 0) -> list[tuple[int, dict[str, Any]]]:
        """(id, checkpoint) of every checkpoint stored after ``after_id``, oldest first: what the floor is sent."""
        return [(int(i), json.loads(body)) for i, body in self._read("SELECT id, body FROM checkpoints WHERE id > ? ORDER BY id", (after_id,))]

    def checkpoints_latest(self) -> tuple[int, dict[str, Any]] | None:
        rows = self._read("SELECT id, body FROM checkpoints ORDER BY id DESC LIMIT 1")
        return (int(rows[0][0]), json.loads(rows[0][1])) if rows else None

    def latest_checkpoint(self) -> dict[str, Any] | None:
        found = self.checkpoints_latest()
        return found[1] if found else None

    def gaps(self) -> list[tuple[int, int, str, str]]:
        """(first seq, last seq, when, why) of every loss a person acknowledged."""
        return [tuple(row) for row in self._read("SELECT from_seq, to_seq, at, reason FROM gaps ORDER BY from_seq")]

    def meta(self) -> dict[str, str]:
        return {str(k): str(v) for k, v in self._read("SELECT key, value FROM meta")}

    def rounds(self, last: int | None = None) -> list[RoundRow]:
        """Rounds in the order they started; the last ``last`` of them when given."""
        rows = self._read(
            "SELECT id, game, state, started_seq, ended_seq FROM rounds ORDER BY started_seq DESC LIMIT ?",
            (-1 if last is None else last,),
        )
        return [RoundRow(*row) for row in reversed(rows)]

    def ended_between(self, since: dt.datetime | None, until: dt.datetime | None) -> list[RoundRow]:
        """Rounds that ended (complete or void) at or after ``since`` and before ``until`` (aware datetimes; either
        open), in the order they started: the rounds a period's meters count, as the meters count a round when it ends."""
        rows = self._read(
            "SELECT r.id, r.game, r.state, r.started_seq, r.ended_seq, json_extract(e.record, '$.timestamp') "
            "FROM rounds r JOIN events e ON e.seq = r.ended_seq ORDER BY r.started_seq")
        out = []
        for *row, stamp in rows:
            ended = dt.datetime.fromisoformat(str(stamp)) if stamp else None
            if ended is not None and (since is None or ended >= since) and (until is None or ended < until):
                out.append(RoundRow(*row))
        return out

    def rounds_named(self, text: str) -> list[RoundRow]:
        """Rounds a person may mean by ``text``: the id itself in any case, else those whose number (the id's last
        part) it is (``000042`` or ``42`` for ``TC-01-20261122T101500-000042``), in the order they started."""
        wanted = text.strip().upper()
        rows = [RoundRow(*row) for row in self._read(
            "SELECT id, game, state, started_seq, ended_seq FROM rounds ORDER BY started_seq")]
        same = [row for row in rows if row.id.upper() == wanted]
        if same or not wanted.isdigit():
            return same
        return [row for row in rows if row.id.rsplit("-", 1)[-1].lstrip("0") == wanted.lstrip("0")]

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


def journal_table(path: str | Path) -> str:
    """The table a journal belongs to, read without checking the file; ``ValueError`` naming the file if it is not a
    table's journal."""
    try:
        db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'table'").fetchone()
            db.execute("SELECT 1 FROM events LIMIT 1")
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise ValueError(f"{path}: not a table's journal ({exc}; a journal is the TABLE.sqlite `tablectl journal init` made, "
                         "not the outbox's TABLE.outbox.sqlite beside it)") from None
    if row is None:
        raise ValueError(f"{path}: not a table's journal (it names no table)")
    return str(row[0])


SERVED = "served"
"""The meta key ``tablectl serve`` sets (its first time, as its value) on a journal it deals."""


def served(path: str | Path) -> str | None:
    """When ``tablectl serve`` first dealt from the journal at ``path`` (``None``: never, or not a journal), read without
    checking the file."""
    try:
        db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT value FROM meta WHERE key = ?", (SERVED,)).fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    return None if row is None else str(row[0])
