"""Reconciliation: does the floor's database hold exactly what a table's own journal holds?

For one table it compares, to the cent: the records (every seq once, none
missing, none extra, each record identical), and the meters (rounds, voided
rounds, fees, per-wager count, wagered and paid, the action between
players) summed over every gaming day and shift against the journal's own
meters. ``tablectl floor check`` prints the result per table. A journal whose
records the floor kept aside because another journal had published those seqs
as the same table first (``event_conflicts``) differs, and the check says so.

Records the journal declared lost (``tablectl journal restore --accept-loss``)
that the floor holds are the floor's copy of them, the one to keep: the check
names them in a note, and compares the journal's meters with the floor's less
the rounds that ended among those records.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from controller.floor import kinds


@dataclass
class TableCheck:
    """One table's comparison: empty ``problems`` means the floor equals the journal."""

    table: str
    journal_records: int
    floor_records: int
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What differs for a reason the journal itself records (records it declared lost that the floor holds)."""

    @property
    def ok(self) -> bool:
        return not self.problems


def _journal(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def _journal_meters(db: sqlite3.Connection) -> dict[str, int]:
    meters: dict[str, int] = {}
    for name, value in db.execute("SELECT name, value FROM counters"):
        meters[f"counter {name}"] = int(value)
    for wager, count, wagered, paid in db.execute("SELECT wager, count, wagered, paid FROM meters"):
        label = wager or "all wagers"
        meters[f"{label} count"], meters[f"{label} wagered"], meters[f"{label} paid"] = int(count), int(wagered), int(paid)
    return meters


def _declared_lost(db: sqlite3.Connection) -> list[tuple[int, int]]:
    """The seqs the journal declared lost, (first, last) each."""
    return [(int(first), int(last)) for first, last in db.execute("SELECT from_seq, to_seq FROM gaps ORDER BY from_seq")]


def _lost_meters(conn: psycopg.Connection[Any], table: str, lost: list[tuple[int, int]]) -> dict[str, int]:
    """What the floor counted from the rounds that ended among the records ``lost`` (as ``store`` counts a round)."""
    meters: dict[str, int] = {}

    def add(name: str, value: int) -> None:
        meters[name] = meters.get(name, 0) + value

    for first, last in lost:
        for round_id, voided, fees in conn.execute(
            "SELECT round_id, voided, COALESCE((SELECT SUM((e.record->>'amount')::BIGINT) FROM events e WHERE e.table_id = "
            "r.table_id AND e.round_id = r.round_id AND e.kind = %s), 0) FROM rounds r "
            "WHERE table_id = %s AND ended_seq BETWEEN %s AND %s", (kinds.FEE_COLLECTED, table, first, last),
        ).fetchall():
            add("counter rounds", 1)
            add("counter voided", int(bool(voided)))
            add("counter fees", int(fees))
            for wager, stake, returned, banker in conn.execute(
                "SELECT wager, stake, returned, banker FROM settlements WHERE table_id = %s AND round_id = %s",
                (table, round_id),
            ).fetchall():
                if banker != "house":
                    add("counter between_count", 1)
                    add("counter between_wagered", int(stake))
                    add("counter between_paid", int(returned))
                    continue
                for label in ("all wagers", str(wager)):
                    add(f"{label} count", 1)
                    add(f"{label} wagered", int(stake))
                    add(f"{label} paid", int(returned))
    return meters


def _ended_again(db: sqlite3.Connection, conn: psycopg.Connection[Any], table: str,
                 lost: Sequence[tuple[int, int]]) -> tuple[list[str], dict[str, int]]:
    """The rounds the floor holds ended among the records declared lost that the restored journal ended again
    (re-enacted: voided or played on), and what the journal's meters count of them (the floor counts them once, as it
    holds them)."""
    floor_ended = {str(round_id) for first, last in lost for (round_id,) in conn.execute(
        "SELECT round_id FROM rounds WHERE table_id = %s AND ended_seq BETWEEN %s AND %s", (table, first, last))}
    again = sorted(str(round_id) for round_id, ended in db.execute("SELECT id, ended_seq FROM rounds WHERE ended_seq IS NOT NULL")
                   if str(round_id) in floor_ended)
    meters: dict[str, int] = {}

    def add(name: str, value: int) -> None:
        meters[name] = meters.get(name, 0) + value

    for round_id in again:
        for (text,) in db.execute("SELECT record FROM events WHERE round = ? ORDER BY seq", (round_id,)):
            record = json.loads(text)
            kind = record.get("event")
            if kind in (kinds.ROUND_COMPLETE, kinds.ROUND_VOIDED):
                add("counter rounds", 1)
                add("counter voided", int(kind == kinds.ROUND_VOIDED))
            elif kind == kinds.FEE_COLLECTED:
                add("counter fees", int(record["amount"]))
            elif kind == kinds.WAGER_SETTLED and record.get("banker", "house") != "house":
                add("counter between_count", 1)
                add("counter between_wagered", int(record["stake"]))
                add("counter between_paid", int(record["returned"]))
            elif kind == kinds.WAGER_SETTLED:
                for label in ("all wagers", str(record["wager"])):
                    add(f"{label} count", 1)
                    add(f"{label} wagered", int(record["stake"]))
                    add(f"{label} paid", int(record["returned"]))
    return again, meters


def _floor_meters(conn: psycopg.Connection[Any], table: str) -> dict[str, int]:
    meters: dict[str, int] = {}
    for name, value in conn.execute(
        "SELECT name, SUM(value) FROM counters WHERE table_id = %s AND name IN "
        "('rounds', 'voided', 'fees', 'between_count', 'between_wagered', 'between_paid') GROUP BY name",
        (table,),
    ):
        meters[f"counter {name}"] = int(value)
    for wager, count, wagered, paid in conn.execute(
        "SELECT wager, SUM(count), SUM(wagered), SUM(paid) FROM meters WHERE table_id = %s GROUP BY wager", (table,)
    ):
        label = wager or "all wagers"
        meters[f"{label} count"], meters[f"{label} wagered"], meters[f"{label} paid"] = int(count), int(wagered), int(paid)
    return meters


def check_table(conn: psycopg.Connection[Any], journal_path: str | Path, *, compare_records: bool = True) -> TableCheck:
    """Compare the floor's copy of the table whose journal is at ``journal_path`` with that journal."""
    db = _journal(Path(journal_path))
    try:
        table = str(db.execute("SELECT value FROM meta WHERE key = 'table'").fetchone()[0])
        journal_count = int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        counted = conn.execute("SELECT COUNT(*) FROM events WHERE table_id = %s", (table,)).fetchone()
        floor_count = int(counted[0]) if counted else 0
        check = TableCheck(table, journal_count, floor_count)
        lost = _declared_lost(db)
        held = _held_of(conn, table, lost)
        if compare_records:
            _compare_records(db, conn, table, check, lost)
        elif journal_count + held != floor_count:
            check.problems.append(f"{journal_count} records in the journal, {floor_count} on the floor"
                                  + (f" ({held} of them declared lost on the table)" if held else ""))
        ours, theirs = _journal_meters(db), _floor_meters(conn, table)
        kept = _lost_meters(conn, table, lost) if held else {}
        again, twice = _ended_again(db, conn, table, lost) if held else ([], {})
        for name in sorted(set(ours) | set(theirs)):
            journal, floor = ours.get(name, 0) - twice.get(name, 0), theirs.get(name, 0) - kept.get(name, 0)
            if journal != floor:
                less = f" ({theirs.get(name, 0)} less {kept[name]} from the records declared lost)" if kept.get(name) else ""
                also = f" ({ours.get(name, 0)} less {twice[name]} from the rounds it ended again)" if twice.get(name) else ""
                check.problems.append(f"meter {name}: journal {journal}{also}, floor {floor}{less}")
        if again:
            check.notes.append(f"{len(again)} round(s) ended among the records declared lost ended again in the restored "
                               f"journal ({', '.join(again[:5])}{' ...' if len(again) > 5 else ''}): the floor counts "
                               "each once, as it holds it; the journal's meters count its end again")
        more = kept.get("counter rounds", 0) - twice.get("counter rounds", 0)
        if more:
            check.notes.append(f"the floor's meters count {more} round(s) the journal's do not: those that ended among the "
                               "records declared lost, which only the floor holds")
        return check
    finally:
        db.close()


def _held_of(conn: psycopg.Connection[Any], table: str, lost: list[tuple[int, int]]) -> int:
    """How many of the records declared lost the floor holds."""
    held = 0
    for first, last in lost:
        row = conn.execute("SELECT COUNT(*) FROM events WHERE table_id = %s AND seq BETWEEN %s AND %s",
                           (table, first, last)).fetchone()
        held += int(row[0]) if row else 0
    return held


def _compare_records(db: sqlite3.Connection, conn: psycopg.Connection[Any], table: str, check: TableCheck,
                     lost: Sequence[tuple[int, int]] = ()) -> None:
    floor = {int(seq): record for seq, record in conn.execute("SELECT seq, record FROM events WHERE table_id = %s", (table,))}
    aside = _set_aside(conn, table)
    missing: list[int] = []
    changed: list[int] = []
    other_journal: list[int] = []
    for seq, text in db.execute("SELECT seq, record FROM events ORDER BY seq"):
        theirs = floor.pop(int(seq), None)
        ours = json.loads(text)
        if theirs is None:
            missing.append(int(seq))
        elif theirs != ours:
            changed.append(int(seq))
            if ours in aside.get(int(seq), []):
                other_journal.append(int(seq))
    if missing:
        check.problems.append(f"{len(missing)} records missing on the floor (seq {_ranges(missing)})")
    if changed:
        check.problems.append(f"{len(changed)} records differ (seq {_ranges(changed)})")
    if other_journal:
        check.problems.append(
            f"{len(other_journal)} of its records reached the floor and were kept aside, not counted (seq "
            f"{_ranges(other_journal)}): another journal had published those seqs first: two journals publish as "
            f"{table}; check each table's id")
    declared = sorted(seq for seq in floor if any(first <= seq <= last for first, last in lost))
    for seq in declared:
        del floor[seq]
    for first, last in lost:
        kept = [seq for seq in declared if first <= seq <= last]
        size = last - first + 1
        check.notes.append(
            f"seq {first}-{last} declared lost on the table when its journal was restored: "
            + ("the floor never received them" if not kept else
               f"the floor holds them ({_ranges(kept)}), the copy to keep" if len(kept) == size else
               f"the floor holds {len(kept)} of them ({_ranges(kept)}), the copy to keep; {size - len(kept)} are lost"))
    if floor:
        check.problems.append(f"{len(floor)} records on the floor the journal lacks (seq {_ranges(sorted(floor))})")


def _set_aside(conn: psycopg.Connection[Any], table: str) -> dict[int, list[Any]]:
    """The records of ``table`` the floor kept aside (they differ from the ones it counts), by seq."""
    exists = conn.execute("SELECT to_regclass('event_conflicts') IS NOT NULL").fetchone()
    if not exists or not exists[0]:
        return {}
    aside: dict[int, list[Any]] = {}
    for seq, record in conn.execute("SELECT seq, record FROM event_conflicts WHERE table_id = %s", (table,)):
        aside.setdefault(int(seq), []).append(record)
    return aside


def _ranges(numbers: list[int]) -> str:
    parts: list[str] = []
    start = prev = numbers[0]
    for number in numbers[1:]:
        if number == prev + 1:
            prev = number
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = number
    parts.append(str(start) if start == prev else f"{start}-{prev}")
    return ", ".join(parts[:10]) + (" ..." if len(parts) > 10 else "")
