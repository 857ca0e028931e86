"""Checking an event log from before signed records (``tablectl audit verify --legacy``).

Logs written before the table had a key are plain SHA-256 chains: each record
carries ``prev``, the hash of the line before, and nothing else. This is the
verifier they were written for, kept so that such logs stay checkable after a
migration (``docs/operations.md``, "Migrating a journal"). A chain without a
key can be rewritten by anyone, so a legacy log that verifies shows only that
nobody edited it carelessly.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GENESIS = "0" * 64


def line_hash(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


@dataclass
class Report:
    """What ``verify`` found: problems (the trail cannot be trusted) and notes (it can)."""

    records: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class _Line:
    where: str
    raw: bytes
    record: dict[str, Any] | None


def _lines(paths: Sequence[Path], report: Report) -> list[_Line]:
    lines: list[_Line] = []
    for path in paths:
        data = path.read_bytes()
        parts = data.split(b"\n")
        if parts and parts[-1] == b"":
            parts.pop()
        elif parts and path == paths[-1]:
            report.problems.append(f"{path}: truncated tail: the last line ({len(parts[-1])} bytes) is cut off")
        for number, raw in enumerate(parts, 1):
            try:
                record = json.loads(raw)
            except ValueError:
                record = None
            lines.append(_Line(f"{path}:{number}", raw, record if isinstance(record, dict) else None))
    return lines


def verify(paths: Sequence[str | Path], journal_records: list[dict[str, Any]] | None = None) -> Report:
    """Check the chain over ``paths`` (oldest first) and, given the journal's records, the tail and contents."""
    report = Report()
    lines = _lines([Path(p) for p in paths], report)
    seen: dict[str, str] = {}
    prev_hash: str | None = None
    prev_line: _Line | None = None
    for i, line in enumerate(lines):
        if line.record is None:
            following = lines[i + 1].record if i + 1 < len(lines) else None
            if following and following.get("event") == "log_tail_torn" and following.get("torn_sha256") == line_hash(line.raw):
                report.notes.append(f"{line.where}: a line cut short when the controller stopped (declared by the next record)")
                continue
            if i + 1 < len(lines) or not report.problems:
                report.problems.append(f"{line.where}: not a JSON record: the line was edited or damaged")
        else:
            report.records += 1
            _check_link(line, prev_line, prev_hash, seen, report)
        prev_hash = line_hash(line.raw)
        seen.setdefault(prev_hash, line.where)
        prev_line = line
    if journal_records is not None:
        _check_against_journal(lines, journal_records, report)
    elif lines:
        report.notes.append("tail not anchored: pass --journal to check that no record is missing from the end")
    return report


def _check_link(line: _Line, prev_line: _Line | None, prev_hash: str | None, seen: dict[str, str], report: Report) -> None:
    record = line.record or {}
    prev = record.get("prev")
    if prev_hash is None:
        if record.get("event") == "log_rotated":
            report.notes.append(f"{line.where}: the chain begins in an earlier (rotated) file")
        elif prev != GENESIS:
            report.problems.append(f"{line.where}: the trail's first records were removed (this record follows one not here)")
        return
    if prev == prev_hash:
        previous = (prev_line.record or {}) if prev_line else {}
        seq, before = record.get("seq"), previous.get("seq")
        if isinstance(seq, int) and isinstance(before, int) and seq <= before:
            report.problems.append(f"{line.where}: seq goes back from {before} to {seq}: records reordered")
        return
    if prev in seen:
        report.problems.append(f"{line.where}: follows {seen[prev]}, not the line before it: records inserted or reordered")
        return
    previous = (prev_line.record or {}) if prev_line else {}
    seq, before = record.get("seq"), previous.get("seq")
    if isinstance(seq, int) and isinstance(before, int) and seq > before + 1:
        report.problems.append(f"{line.where}: records removed before this line (seq jumps from {before} to {seq})")
    elif prev_line is not None:
        report.problems.append(f"{prev_line.where}: edited: its hash no longer matches what {line.where} recorded")


def _check_against_journal(lines: list[_Line], journal: list[dict[str, Any]], report: Report) -> None:
    logged = {r["seq"]: r for r in (line.record for line in lines) if r and isinstance(r.get("seq"), int)}
    if not journal:
        return
    first = min(logged) if logged else journal[-1]["seq"] + 1
    last_logged = max(logged) if logged else 0
    if last_logged < journal[-1]["seq"]:
        report.problems.append(
            f"truncated tail: the journal holds records up to seq {journal[-1]['seq']}, the log ends at seq {last_logged}"
        )
    for record in journal:
        seq = record["seq"]
        if seq < first or seq not in logged:
            if first <= seq <= last_logged:
                report.problems.append(f"seq {seq} ({record['event']}) is in the journal but missing from the log")
            continue
        entry = {k: v for k, v in logged[seq].items() if k != "prev"}
        if entry != record:
            report.problems.append(f"seq {seq} ({record['event']}): the log record differs from the journal")
