"""Migrating a journal from before the record chain (schema 1) to schema 2.

``migrate`` keeps the old file as a backup (``TC-01.sqlite.schema1-TIME``,
copied with the online backup API), then in one transaction chains every
record as it stands (its text is not rewritten: the chain vouches for the
records from the migration on), gives every other row its checksum, and
writes the anchor. Run it once per journal, with the table stopped.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from controller.records.backup import stamp
from controller.records.chain import GENESIS, record_hash
from controller.records.errors import AnotherTablesJournal, JournalConflict, JournalCorrupt
from controller.records.integrity import SEALED
from controller.records.journal import SCHEMA, Journal, _connect, _storage_error, now
from controller.records.keys import SigningKey
from controller.records.lock import FileLock


class NothingToMigrate(JournalConflict):
    """The journal already has the record chain: ``journal migrate`` has nothing to do (a success, exit 0)."""

    exit_code = 0


@dataclass(frozen=True)
class Migrated:
    journal: Path
    kept: Path
    records: int
    last_seq: int


def migrate(path: Path, table_id: str, key: SigningKey | Callable[[], SigningKey]) -> Migrated:
    """Chain and anchor a schema-1 journal, keeping the old file beside it. ``key`` may be a callable giving the
    key: it is called only once the journal is known to need it, so a journal with nothing to migrate (or another
    table's, or a damaged one) never has a key made for it."""
    lock = FileLock(path, f"table {table_id}'s journal")
    lock.acquire()
    try:
        db = _connect(str(path))
        try:
            columns = {r[1] for r in db.execute("PRAGMA table_info(events)")}
            if not columns:
                raise JournalCorrupt(f"{path} is not a tablectl journal")
            if "hash" in columns:
                raise NothingToMigrate(f"journal {path} already has the record chain (schema 2): nothing to migrate")
            owner = db.execute("SELECT value FROM meta WHERE key = 'table'").fetchone()
            if owner is None or owner[0] != table_id:
                raise AnotherTablesJournal(f"journal {path} belongs to table {owner[0] if owner else None!r}, not {table_id!r}")
            problems = [str(r[0]) for r in db.execute("PRAGMA integrity_check(5)")]
            if problems != ["ok"]:
                raise JournalCorrupt(f"journal {path} is damaged ({'; '.join(problems)}): restore it before migrating")
            signing = key if isinstance(key, SigningKey) else key()
            kept = path.with_name(f"{path.name}.schema1-{stamp()}")
            copy = sqlite3.connect(kept)
            db.backup(copy)
            copy.close()
            count, last = _chain(db, path, signing)
        except sqlite3.Error as exc:
            raise _storage_error(path, exc, "migrating") from None
        finally:
            db.close()
    finally:
        lock.release()
    with Journal(path, table_id=table_id, key=signing, anchored=False) as journal:
        journal.rewrite_anchor()
    return Migrated(path, kept, count, last)


def _chain(db: sqlite3.Connection, path: Path, key: SigningKey) -> tuple[int, int]:
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("ALTER TABLE events ADD COLUMN prev TEXT NOT NULL DEFAULT ''")
        db.execute("ALTER TABLE events ADD COLUMN hash TEXT NOT NULL DEFAULT ''")
        for table in ("meta", "rounds", "wagers", "meters", "counters"):
            db.execute(f"ALTER TABLE {table} ADD COLUMN sum TEXT")
        for statement in SCHEMA.split(";"):
            if "checkpoints" in statement or "gaps" in statement:
                db.execute(statement)
        rows = db.execute("SELECT seq, round, event, record FROM events ORDER BY seq").fetchall()
        first = rows[0][0] if rows else 1
        prev, expected = GENESIS, first
        if first != 1:
            raise JournalCorrupt(f"journal {path} starts at seq {first}, not 1: records 1-{first - 1} are missing; restore it first")
        for seq, round_id, event, text in rows:
            if seq != expected:
                raise JournalCorrupt(f"journal {path}: seq {expected} is missing before seq {seq}; restore it before migrating")
            digest = record_hash(seq, prev, round_id, event, text)
            db.execute("UPDATE events SET prev = ?, hash = ? WHERE seq = ?", (prev, digest, seq))
            prev, expected = digest, seq + 1
        for key_name, value in (("schema", "2"), ("first_seq", "1"), ("genesis", GENESIS), ("migrated", now()),
                                ("key", key.fingerprint)):
            db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                       (key_name, value))
        for table, columns in SEALED.items():
            db.execute(f"UPDATE {table} SET sum = rowsum({', '.join(columns)})")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return len(rows), expected - 1
