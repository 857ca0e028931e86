"""Checking a journal as it is opened: the file, its pages, its record chain, every row's checksum, its anchor.

``check`` runs on every open, by the table and by the reading commands alike,
and raises ``JournalCorrupt`` or ``JournalBehind`` (both ``RecordsDamaged``,
exit 4) with a message naming the file, what is damaged or missing (sequence
numbers, rounds) and how to restore. What it checks:

1. SQLite's own ``PRAGMA integrity_check`` (pages, b-trees, indexes agree with their tables);
2. the schema (a journal from before the chain is sent to ``tablectl journal migrate``) and the table it belongs to;
3. the record chain: each record's checksum, its link to the one before, no sequence number skipped (but for
   a loss acknowledged with ``tablectl journal restore --accept-loss``, kept in ``gaps``);
4. each row's checksum in every other table, and that the rounds and meters count what the records hold;
5. the meters and counters against the records of every round that ended (a row's checksum is no secret: a meter
   changed and resealed must still add up to the settlements the chain holds);
6. the anchor (``controller.records.anchor``): the journal must reach the head the anchor saw, with the same hash.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from controller.events import Event, FeeCollected, RoundCompleted, RoundStarted, RoundVoided, WagerSettled, from_record
from controller.records.anchor import Head
from controller.records.chain import GENESIS, ranges, record_hash
from controller.records.errors import JournalBehind, JournalCorrupt
from controller.records.meters import Meters

RESTORE = 'restore it: `tablectl journal restore BACKUP` (docs/operations.md, "Backups and restoring the journal")'

SEALED: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "rounds": ("id", "game", "started_seq", "state", "ended_seq"),
    "wagers": ("round", "spot", "wager", "staked", "settled"),
    "meters": ("wager", "count", "wagered", "paid"),
    "counters": ("name", "value"),
    "checkpoints": ("id", "seq", "body"),
    "gaps": ("from_seq", "to_seq", "at", "reason"),
}
"""The columns each table's row checksum (``sum``) covers."""


@dataclass(frozen=True)
class Chain:
    """What the record chain holds, once checked."""

    first_seq: int
    last_seq: int
    last_hash: str
    records: int


def rounds_of(db: sqlite3.Connection, seqs: Iterable[int]) -> list[str]:
    """The rounds the records ``seqs`` belong to, as far as the file still tells."""
    wanted = sorted(set(seqs))[:500]
    if not wanted:
        return []
    marks = ",".join("?" * len(wanted))
    try:
        rows = db.execute(f"SELECT DISTINCT round FROM events WHERE seq IN ({marks}) AND round IS NOT NULL", wanted).fetchall()
    except sqlite3.Error:
        return []
    return sorted(str(r[0]) for r in rows)


def _rounds_text(rounds: list[str]) -> str:
    if not rounds:
        return ""
    shown = ", ".join(rounds[:6]) + (f" and {len(rounds) - 6} more" if len(rounds) > 6 else "")
    return f" (rounds {shown})"


def check_pages(db: sqlite3.Connection, path: Path) -> None:
    problems = [str(row[0]) for row in db.execute("PRAGMA integrity_check(20)")]
    if problems != ["ok"]:
        raise JournalCorrupt(f"journal {path} is damaged: SQLite finds {'; '.join(problems[:3])}"
                             f"{' ...' if len(problems) > 3 else ''}; {RESTORE}")


def check_chain(db: sqlite3.Connection, path: Path, first_seq: int, genesis: str, gaps: dict[int, int]) -> Chain:
    """Walk every record: its checksum, its link, its sequence number. Raises naming every bad record."""
    expected, prev = first_seq, genesis
    altered: list[int] = []
    unlinked: list[int] = []
    missing: list[tuple[int, int]] = []
    count = 0
    for seq, *raw in db.execute("SELECT seq, CAST(prev AS BLOB), CAST(hash AS BLOB), CAST(round AS BLOB), "
                                "CAST(event AS BLOB), CAST(record AS BLOB) FROM events ORDER BY seq"):
        count += 1
        try:  # read as bytes: a flipped byte that is not UTF-8 is damage to report, not an error to raise
            link, digest, round_id, event, text = (None if v is None else bytes(v).decode("utf-8") for v in raw)
        except UnicodeDecodeError:
            altered.append(seq)
            expected = seq + 1
            prev = ""
            continue
        if seq != expected:
            if seq < expected:
                altered.append(seq)
            elif gaps.get(expected) != seq - 1:
                missing.append((expected, seq - 1))
        if text is None or link is None or event is None or record_hash(seq, link, round_id, event, text) != digest:
            altered.append(seq)
        elif link != prev:
            unlinked.append(seq)
        prev, expected = digest or "", seq + 1
    if altered or unlinked or missing:
        parts = []
        if altered:
            parts.append(f"record(s) seq {ranges(altered)} no longer match their checksum (changed or damaged)"
                         + _rounds_text(rounds_of(db, altered)))
        if unlinked:
            parts.append(f"record(s) seq {ranges(unlinked)} do not follow the record before them (records removed, "
                         "inserted or moved)" + _rounds_text(rounds_of(db, unlinked)))
        if missing:
            parts.append("sequence number(s) " + ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in missing) + " are missing")
        raise JournalCorrupt(f"journal {path} is damaged: {'; '.join(parts)}; {RESTORE}")
    last = gaps.get(expected, expected - 1)  # a loss acknowledged at the end: numbering carries on after it
    return Chain(first_seq, last, prev, count)


def check_rows(db: sqlite3.Connection, path: Path) -> None:
    """Every row's checksum, and the rounds and meters against the records."""
    bad = []
    for table, columns in SEALED.items():
        cols = ", ".join(columns)
        rows = db.execute(f"SELECT {columns[0]} FROM {table} WHERE sum IS NOT rowsum({cols})").fetchall()
        if rows:
            keys = ", ".join(str(r[0]) for r in rows[:5]) + (" ..." if len(rows) > 5 else "")
            bad.append(f"{len(rows)} row(s) of {table} ({keys})")
    started = db.execute("SELECT COUNT(*) FROM events WHERE event = ?", (RoundStarted.EVENT,)).fetchone()[0]
    rounds, ended = db.execute("SELECT COUNT(*), COUNT(ended_seq) FROM rounds").fetchone()
    counted = db.execute("SELECT COALESCE(MAX(value), 0) FROM counters WHERE name = 'rounds'").fetchone()[0]
    if rounds > started:
        bad.append(f"the rounds table lists {rounds} rounds where the records start {started}")
    if counted != ended:
        bad.append(f"the meters count {counted} rounds where {ended} ended")
    if bad:
        raise JournalCorrupt(f"journal {path} is damaged: {'; '.join(bad)} no longer match their checksums or the records; "
                             f"{RESTORE}")


def check_meters(db: sqlite3.Connection, path: Path) -> None:
    """The meters and counters are what the records of the rounds that ended add up to (``Meters.add_records``, the rule
    the journal meters by)."""
    names = (FeeCollected.EVENT, RoundCompleted.EVENT, RoundVoided.EVENT, WagerSettled.EVENT)
    rows = db.execute(f"SELECT round, event, record FROM events WHERE round IS NOT NULL AND event IN ({', '.join('?' * len(names))}) "
                      "ORDER BY seq", names).fetchall()
    ended = {r: e for r, e, _ in rows if e in (RoundCompleted.EVENT, RoundVoided.EVENT)}
    by_round: dict[str, list[Event]] = {r: [] for r in ended}
    for round_id, event, text in rows:
        if round_id not in ended or event not in (FeeCollected.EVENT, WagerSettled.EVENT):
            continue
        try:
            by_round[round_id].append(from_record(json.loads(text)))
        except (ValueError, TypeError):  # UnknownEvent and a record that does not fit the schema are ValueErrors
            raise JournalCorrupt(f"journal {path} is damaged: a {event} record of round {round_id} cannot be read; "
                                 f"{RESTORE}") from None
    tally = Meters()
    for round_id, records in by_round.items():
        tally.add_records(records, voided=ended[round_id] == RoundVoided.EVENT)
    counters = tally.counters()
    meters = tally.meter_rows()
    kept_counters = dict(db.execute("SELECT name, value FROM counters").fetchall())
    kept_meters = {w: (c, a, p) for w, c, a, p in db.execute("SELECT wager, count, wagered, paid FROM meters")}
    bad = sorted(name for name in set(counters) | set(kept_counters) if kept_counters.get(name, 0) != counters.get(name, 0))
    bad += sorted(f"meter {name or 'total'!r}" for name in set(meters) | set(kept_meters)
                  if kept_meters.get(name, (0, 0, 0)) != meters.get(name, (0, 0, 0)))
    if bad:
        raise JournalCorrupt(f"journal {path} is damaged: {', '.join(bad)} no longer add up to the records of the "
                             f"rounds that ended (changed in the file); {RESTORE}")


def check_anchor(path: Path, anchor: Path, head: Head | None, chain: Chain, hash_at: dict[int, str]) -> None:
    """The journal reaches the anchor's head, with the anchor's hash there."""
    if head is None:
        if chain.records:
            raise JournalCorrupt(
                f"journal {path} has records (up to seq {chain.last_seq}) but its anchor {anchor} is missing, so nothing "
                f"shows whether records were lost after seq {chain.last_seq}; check the journal against the event log "
                "(`tablectl journal verify`), then write the anchor again with `tablectl journal anchor --rewrite`")
        return
    if head.seq > chain.last_seq:
        lost = f"{chain.last_seq + 1}-{head.seq}" if head.seq > chain.last_seq + 1 else str(head.seq)
        raise JournalBehind(chain.last_seq + 1, head.seq, f"journal {path} is behind its anchor {anchor}: it ends at seq {chain.last_seq} where "
                            f"seq {head.seq} was committed (at {head.checkpoint.get('at', '?')}); records {lost} are lost "
                            "(a deleted or damaged -wal file after a crash, or an older copy of the journal); "
                            "`tablectl journal restore` puts them back from a backup and the event log")
    if head.seq >= chain.first_seq and hash_at.get(head.seq) != head.hash:
        raise JournalCorrupt(f"journal {path} does not match its anchor {anchor}: record seq {head.seq} has another hash than "
                             "the one committed (the journal was replaced by another copy or rewritten); " + RESTORE)


def genesis_ok(first_seq: int, genesis: str) -> bool:
    return first_seq >= 1 and len(genesis) == 64 and (first_seq > 1 or genesis == GENESIS)
