"""The table's records as witnesses of each other: journal, anchor, event log and key, compared at start-up.

The journal checks itself and its anchor as it opens (``controller.records.integrity``).
What it cannot see alone, this module compares before the table plays:

- the event log ahead of the journal: records were committed, logged, and then
  lost from the journal (a ``-wal`` deleted after a crash, an old copy put back);
- the event log behind the journal's newest checkpoint of it: lines of the log were lost;
- a journal made with another key than the one the table now holds;
- an anchor whose checkpoint the table's key did not sign (written again by hand to match a changed journal).

Each stops the table (``RecordsDamaged``, exit 4) naming the files, the
sequence numbers and rounds lost, and how to restore.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.records.audit import logged_seq, read_tail, trail_files
from controller.records.chain import ranges
from controller.records.errors import JournalBehind, JournalCorrupt, RecordsDamaged
from controller.records.journal import Journal
from controller.records.keys import KeyProblem, PublicKey, SigningKey, checkpoint_signed_by


def log_records(path: Path, first: int, last: int) -> dict[int, dict[str, Any]]:
    """The journaled records with ``first <= seq <= last`` that the trail at ``path`` holds (all its files)."""
    found: dict[int, dict[str, Any]] = {}
    for file in trail_files(path):
        journaled = True
        for raw in file.read_bytes().split(b"\n"):
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(record, dict):
                continue
            if record.get("event") == "chain_started":
                journaled = bool(record.get("journaled", True))
            seq = record.get("seq")
            if journaled and isinstance(seq, int) and first <= seq <= last and "n" in record:
                found[seq] = record
    return found


def _rounds(records: dict[int, dict[str, Any]]) -> str:
    rounds = sorted({str(r["round"]) for r in records.values() if r.get("round")})
    if not rounds:
        return ""
    return " (rounds " + ", ".join(rounds[:6]) + (f" and {len(rounds) - 6} more" if len(rounds) > 6 else "") + ")"


def check_log_against_journal(journal: Journal, log: Path) -> None:
    """The event log neither ahead of the journal nor behind the journal's newest checkpoint of it."""
    logged = logged_seq(log)
    if logged > journal.last_seq:
        lost = log_records(log, journal.last_seq + 1, logged)
        raise JournalBehind(journal.last_seq + 1, logged,
            f"journal {journal.path} ends at seq {journal.last_seq} but the event log {log} holds records up to seq {logged}: "
            f"records {ranges(range(journal.last_seq + 1, logged + 1))}{_rounds(lost)} were committed and are lost from the "
            "journal (a -wal file deleted or damaged after a crash, or an older copy of the journal); "
            "`tablectl journal restore BACKUP` puts them back from the last backup and the event log (docs/operations.md)")
    checkpoint = journal.latest_checkpoint()
    position = checkpoint.get("log") if checkpoint else None
    if not isinstance(position, dict) or not isinstance(position.get("n"), int):
        return
    tail = read_tail(log)
    if tail.last is None and not tail.torn:
        tail = read_tail(log.with_name(f"{log.name}.1"))
    n = (tail.record or {}).get("n", 0) if tail.record else 0
    if not isinstance(n, int) or n < position["n"]:
        state = "is missing" if not log.exists() else "is empty" if log.stat().st_size == 0 else f"ends at line {n}"
        raise RecordsDamaged(
            f"event log {log} {state} but the journal's checkpoint of {checkpoint.get('at') if checkpoint else '?'} saw it reach "
            f"line {position['n']} (seq {position.get('seq')}): the audit trail lost lines; put the log back from its backup "
            "(the journal still holds every record), or move the damaged log aside and keep it, then start again: "
            "a new log is begun and `tablectl audit verify` reports the loss")


def name_lost_rounds(exc: JournalBehind, log: Path) -> JournalBehind:
    """``exc`` with the rounds its lost records belonged to, as the event log tells them."""
    lost = log_records(log, exc.first, exc.last)
    if not lost:
        return exc
    have = ranges(lost)
    return JournalBehind(exc.first, exc.last, f"{exc}; the event log {log} holds seq {have} of them{_rounds(lost)}")


def check_key(journal: Journal, key: SigningKey) -> None:
    made_with = journal.meta().get("key") or None
    if made_with and made_with != key.fingerprint:
        raise KeyProblem(f"the signing key {key.path} ({key.fingerprint}) is not the key journal {journal.path} was made with "
                         f"({made_with}): put the table's own key back (a log signed by another key fails verification)")


def check_anchor_signed(journal: Journal, public: PublicKey) -> None:
    """The anchor's head was signed by the table's key: its slot's checksum is a plain hash anyone can write again, so a
    journal changed and rechained to its end, with the anchor's hash written to match, is otherwise taken as whole."""
    head = journal.anchored
    if head is not None and not checkpoint_signed_by(head.checkpoint, public):
        raise JournalCorrupt(
            f"journal {journal.path} does not match its anchor {journal.anchor_file}: the anchor's head (seq {head.seq}) is not "
            f"signed by the table's key {public.fingerprint} (the anchor was written again by something other than the table, "
            "to match a journal changed or replaced); compare the journal with the event log (`tablectl audit verify`) and "
            'restore it: `tablectl journal restore BACKUP` (docs/operations.md, "Backups and restoring the journal")')
