"""The tables' signed checkpoints on the floor: each table's key, enrolled by a person, and every checkpoint it signed.

A table signs a checkpoint of its journal's and event log's heads with every
commit (``controller.records.checkpoints``); its outbox publishes each one
(``controller.floor.outbox``). The floor keeps them in PostgreSQL, so that a
journal or a log later cut back, rewound to an old copy or rewritten on the
table PC no longer reaches the heads the floor holds (``tablectl audit verify
--floor-checkpoints``, ``docs/floor.md``).

**Whose key.** The floor checks each checkpoint's Ed25519 signature with the
table's public key *as a person enrolled it* (``tablectl floor enrol TABLE
--public-key TABLE.pub``, the ``.pub`` that ``tablectl journal init`` printed
the fingerprint of, carried from the table by hand or read off its screen).
The floor never takes a key from the table's messages: a key learnt on first
sight would let whoever holds the table's disk make a new key, rewrite the
records and sign them, and be believed. A key is replaced only by ``enrol
--replace`` (the old one is kept, retired, with when).

**What is refused.** A checkpoint whose table has no enrolled key, that is
unsigned, names another key, does not verify, or names another table than
the subject it came on is not stored: it goes to ``checkpoint_refusals`` with
the reason in words (and the message), and the floor says so in its log. A
checkpoint refused only because no key was enrolled yet is examined again
when one is.

Stored once: keyed by (table, digest of the message), whatever its id in
the table's journal, so a checkpoint published again is kept once.

**A table that contradicts itself.** Sequence numbers are never reused, so two
genuine checkpoints of the same journal seq with different hashes mean the
table's journal was put back to an older copy (or rewritten) and the table
then signed on from there. Both are kept, and the contradiction goes to
``checkpoint_conflicts`` and the floor's log the moment the second arrives.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from controller.floor import wire
from controller.records.checkpoints import Checkpoint
from controller.records.keys import PublicKey

SCHEMA = """
CREATE TABLE IF NOT EXISTS table_keys (
    table_id TEXT NOT NULL, fingerprint TEXT NOT NULL, public_pem TEXT NOT NULL,
    enrolled_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(), enrolled_by TEXT, retired_at TIMESTAMPTZ,
    PRIMARY KEY (table_id, fingerprint));
CREATE UNIQUE INDEX IF NOT EXISTS table_keys_current ON table_keys (table_id) WHERE retired_at IS NULL;
CREATE TABLE IF NOT EXISTS checkpoints (
    table_id TEXT NOT NULL, digest TEXT NOT NULL, checkpoint_id BIGINT NOT NULL, key TEXT NOT NULL,
    journal_seq BIGINT NOT NULL, journal_hash TEXT NOT NULL, log_n BIGINT, log_head TEXT, at TEXT,
    message TEXT NOT NULL, stream_seq BIGINT, stored_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (table_id, digest));
CREATE INDEX IF NOT EXISTS checkpoints_by_seq ON checkpoints (table_id, journal_seq);
CREATE TABLE IF NOT EXISTS checkpoint_conflicts (
    table_id TEXT NOT NULL, journal_seq BIGINT NOT NULL, held_hash TEXT NOT NULL, held_at TEXT, new_hash TEXT NOT NULL,
    new_at TEXT, found_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(), PRIMARY KEY (table_id, journal_seq, new_hash));
CREATE TABLE IF NOT EXISTS checkpoint_refusals (
    table_id TEXT NOT NULL, digest TEXT NOT NULL, reason TEXT NOT NULL, awaiting_key BOOLEAN NOT NULL,
    message BYTEA NOT NULL, stream_seq BIGINT, at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (table_id, digest));
"""


class EnrolError(ValueError):
    """A key that cannot be enrolled (another is, and ``replace`` was not asked)."""


def create_schema(conn: psycopg.Connection[Any]) -> None:
    with conn.transaction():
        conn.execute(SCHEMA)


@dataclass(frozen=True, slots=True)
class Enrolled:
    table: str
    fingerprint: str
    replaced: str | None
    accepted_waiting: int
    """Checkpoints refused earlier for want of a key that this key verified and the floor now keeps."""


def current_key(conn: psycopg.Connection[Any], table: str) -> PublicKey | None:
    row = conn.execute("SELECT public_pem FROM table_keys WHERE table_id = %s AND retired_at IS NULL", (table,)).fetchone()
    return PublicKey.from_pem(str(row[0]).encode(), f"the floor's enrolled key of {table}") if row else None


def enrol(conn: psycopg.Connection[Any], table: str, public: PublicKey, *, replace: bool = False, by: str | None = None) -> Enrolled:
    """Pin ``public`` as ``table``'s key; refuse to replace another unless ``replace``."""
    wire.token(table, "table id")
    create_schema(conn)
    with conn.transaction():
        row = conn.execute("SELECT fingerprint FROM table_keys WHERE table_id = %s AND retired_at IS NULL FOR UPDATE",
                           (table,)).fetchone()
        old = str(row[0]) if row else None
        if old == public.fingerprint:
            return Enrolled(table, public.fingerprint, None, _accept_waiting(conn, table, public))
        if old is not None and not replace:
            raise EnrolError(f"table {table} already has key {old} enrolled: a table's key changes only on purpose "
                             f"(`tablectl floor enrol {table} --public-key FILE --replace`, the old key is kept, retired)")
        if old is not None:
            conn.execute("UPDATE table_keys SET retired_at = clock_timestamp() WHERE table_id = %s AND fingerprint = %s",
                         (table, old))
        conn.execute("INSERT INTO table_keys (table_id, fingerprint, public_pem, enrolled_by) VALUES (%s, %s, %s, %s) "
                     "ON CONFLICT (table_id, fingerprint) DO UPDATE SET retired_at = NULL, enrolled_at = clock_timestamp()",
                     (table, public.fingerprint, public.pem().decode(), by))
        accepted = _accept_waiting(conn, table, public)
    return Enrolled(table, public.fingerprint, old, accepted)


def _accept_waiting(conn: psycopg.Connection[Any], table: str, public: PublicKey) -> int:
    """Checkpoints refused only because no key was enrolled: kept now if ``public`` signed them."""
    accepted = 0
    for digest, message, stream_seq in conn.execute(
            "SELECT digest, message, stream_seq FROM checkpoint_refusals WHERE table_id = %s AND awaiting_key",
            (table,)).fetchall():
        verdict = check(table, bytes(message), public)
        if isinstance(verdict, Checkpoint):
            _store(conn, table, bytes(message), verdict, stream_seq)
            conn.execute("DELETE FROM checkpoint_refusals WHERE table_id = %s AND digest = %s", (table, digest))
            accepted += 1
        else:
            conn.execute("UPDATE checkpoint_refusals SET awaiting_key = FALSE, reason = %s WHERE table_id = %s AND digest = %s",
                         (verdict, table, digest))
    return accepted


def check(table: str, message: bytes, public: PublicKey | None) -> Checkpoint | str:
    """The checkpoint in ``message`` if ``public`` (``table``'s enrolled key) signed it; otherwise why not, in words."""
    try:
        checkpoint = Checkpoint.from_message(message)
        _ = (checkpoint.journal_seq, checkpoint.journal_hash)  # a checkpoint has both
    except (ValueError, KeyError, TypeError, AttributeError):
        return f"a checkpoint from {table}'s subject is not a checkpoint (JSON with id, table, journal seq and hash)"
    if checkpoint.table != table:
        return f"the checkpoint names table {checkpoint.table!r} but came on table {table}'s subject"
    if public is None:
        return (f"no key is enrolled for table {table}: its checkpoints cannot be verified "
                f"(`tablectl floor enrol {table} --public-key {table}.pub`; this one is kept until then)")
    named = checkpoint.body.get("key")
    if not isinstance(checkpoint.body.get("sig"), str) or named is None:
        return f"the checkpoint of {table} (journal seq {checkpoint.journal_seq}) is not signed (the table has no key?)"
    if named != public.fingerprint:
        return (f"the checkpoint of {table} (journal seq {checkpoint.journal_seq}) is signed with key {named}, not the key "
                f"enrolled for {table} ({public.fingerprint}): refused (a key made on the table PC is not the table's "
                "until a person enrols it)")
    if not checkpoint.signed_by(public):
        return (f"the checkpoint of {table} (journal seq {checkpoint.journal_seq}) does not verify with {table}'s enrolled key "
                f"{public.fingerprint}: forged or changed on its way")
    return checkpoint


@dataclass(frozen=True, slots=True)
class CheckpointsApplied:
    new: int
    duplicates: int
    refused: list[str]
    conflicts: list[str]
    """A genuine checkpoint contradicting one the floor holds (same journal seq, another hash), in words."""


def apply(conn: psycopg.Connection[Any], batch: Sequence[tuple[str, bytes, int | None]]) -> CheckpointsApplied:
    """Verify and store a batch of (table, message, stream seq) in one transaction; the refused ones' reasons."""
    new = duplicates = 0
    refused: list[str] = []
    conflicts: list[str] = []
    keys: dict[str, PublicKey | None] = {}
    with conn.transaction():
        for table, message, stream_seq in batch:
            if table not in keys:
                keys[table] = current_key(conn, table)
            verdict = check(table, message, keys[table])
            if isinstance(verdict, Checkpoint):
                if _store(conn, table, message, verdict, stream_seq):
                    new += 1
                    conflicts.extend(_contradicts(conn, table, verdict))
                else:
                    duplicates += 1
                continue
            refused.append(verdict)
            conn.execute("INSERT INTO checkpoint_refusals (table_id, digest, reason, awaiting_key, message, stream_seq) "
                         "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                         (table, wire.checkpoint_digest(message), verdict, keys[table] is None, message, stream_seq))
    return CheckpointsApplied(new, duplicates, refused, conflicts)


def _contradicts(conn: psycopg.Connection[Any], table: str, checkpoint: Checkpoint) -> list[str]:
    """Why ``checkpoint`` contradicts one the floor holds of the same journal seq (recorded), or nothing."""
    held = conn.execute("SELECT journal_hash, at FROM checkpoints WHERE table_id = %s AND journal_seq = %s AND journal_hash <> %s "
                        "ORDER BY at LIMIT 1", (table, checkpoint.journal_seq, checkpoint.journal_hash)).fetchone()
    if held is None:
        return []
    at = checkpoint.body.get("at")
    conn.execute("INSERT INTO checkpoint_conflicts (table_id, journal_seq, held_hash, held_at, new_hash, new_at) "
                 "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                 (table, checkpoint.journal_seq, held[0], held[1], checkpoint.journal_hash, at))
    return [(f"table {table} signed journal seq {checkpoint.journal_seq} twice with different records (at {held[1]} and at "
             f"{at}): its journal was put back to an older copy or rewritten, and it went on from there")]


def _store(conn: psycopg.Connection[Any], table: str, message: bytes, checkpoint: Checkpoint, stream_seq: int | None) -> bool:
    log = checkpoint.log or {}
    row = conn.execute(
        "INSERT INTO checkpoints (table_id, digest, checkpoint_id, key, journal_seq, journal_hash, log_n, log_head, at, "
        "message, stream_seq) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING 1",
        (table, wire.checkpoint_digest(message), checkpoint.id, checkpoint.body.get("key"), checkpoint.journal_seq,
         checkpoint.journal_hash, log.get("n") if isinstance(log.get("n"), int) else None,
         log.get("head") if isinstance(log.get("head"), str) else None, checkpoint.body.get("at"), message.decode(), stream_seq),
    ).fetchone()
    return row is not None


def export(conn: psycopg.Connection[Any], table: str) -> dict[str, Any]:
    """What a verifier needs of the floor's copy: ``table``'s enrolled key and every checkpoint kept, oldest first.

    The document ``tablectl floor checkpoints`` prints and ``tablectl audit verify --floor-checkpoints`` reads.
    """
    create_schema(conn)
    keys = conn.execute("SELECT fingerprint, public_pem, enrolled_at, retired_at FROM table_keys WHERE table_id = %s "
                        "ORDER BY enrolled_at", (table,)).fetchall()
    current = [k for k in keys if k[3] is None]
    rows = conn.execute("SELECT message FROM checkpoints WHERE table_id = %s ORDER BY journal_seq, checkpoint_id, stored_at",
                        (table,)).fetchall()
    refused = conn.execute("SELECT COUNT(*) FROM checkpoint_refusals WHERE table_id = %s", (table,)).fetchone()
    conflicts = conn.execute("SELECT journal_seq, held_at, new_at FROM checkpoint_conflicts WHERE table_id = %s ORDER BY journal_seq",
                             (table,)).fetchall()
    return {
        "table": table,
        "exported_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "public_key": str(current[0][1]) if current else None,
        "fingerprint": str(current[0][0]) if current else None,
        "retired_keys": [{"fingerprint": str(f), "public_key": str(p), "retired_at": r.isoformat()} for f, p, _, r in keys
                         if r is not None],
        "checkpoints": [json.loads(str(m)) for (m,) in rows],
        "refused": int(refused[0]) if refused else 0,
        "conflicts": [{"journal_seq": int(q), "held_at": h, "new_at": n} for q, h, n in conflicts],
    }


__all__ = ["CheckpointsApplied", "EnrolError", "Enrolled", "apply", "check", "create_schema", "current_key", "enrol", "export"]
