"""The audit trail: a hash-chained JSON-lines event log, and its verifier.

Each record carries ``prev``, the SHA-256 of the previous line's bytes (the
first record of a new trail carries 64 zeros). Editing, inserting, removing
or reordering a record breaks the chain at the next record; the journal
anchors the tail, so records cut off the end are found too.

``ChainedFile`` is the stream the event log writes to. It rotates itself by
size (``events.jsonl`` -> ``events.jsonl.1`` -> ...), and the chain runs on
across files: the first record of a new file carries the hash of the last
record of the previous one. Opened on an existing file, it picks the chain up
from the last line. A new file that continues a rotated one starts with a
``log_rotated`` record, so a trail whose first records were cut away is told
apart from one whose older files were deleted by retention. A line cut short
by a crash is not touched: the next record, ``log_tail_torn``, names its hash
and length so the verifier can tell an honest crash from an edit.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GENESIS = "0" * 64
TAIL_BYTES = 1 << 20


def line_hash(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


def _chunk(path: Path) -> bytes:
    if not path.exists():
        return b""
    with path.open("rb") as f:
        f.seek(0, os.SEEK_END)
        f.seek(max(0, f.tell() - TAIL_BYTES))
        return f.read()


def _tail(path: Path) -> tuple[bytes | None, bytes]:
    """The last complete line of ``path`` (or ``None``) and whatever follows it unterminated."""
    data = _chunk(path)
    end = data.rfind(b"\n")
    torn = data[end + 1 :]
    if end < 0:
        return None, torn
    body = data[:end]
    return body[body.rfind(b"\n") + 1 :] or None, torn


class ChainedFile:
    """A JSON-lines file the event log writes through; keeps the hash chain and rotates by size.

    A file is rotated once it reaches ``max_bytes``, after the line that took it there.
    """

    def __init__(self, path: str | Path, *, max_bytes: int | None = None, backups: int = 5) -> None:
        self.path = Path(path)
        self.max_bytes = max_bytes
        self.backups = backups
        self.path.parent.mkdir(parents=True, exist_ok=True)
        last, torn = _tail(self.path)
        if last is None and not torn:
            last, _ = _tail(self._backup(1))
        self.head = line_hash(last) if last is not None else GENESIS
        self._file = self.path.open("ab")
        if torn:
            self._file.write(b"\n")
            self._write_line(self._marker("log_tail_torn", torn_sha256=line_hash(torn), torn_bytes=len(torn)))
        elif self._file.tell() == 0 and self.head != GENESIS:
            self._write_line(self._marker("log_rotated"))

    def _backup(self, n: int) -> Path:
        return self.path.with_name(f"{self.path.name}.{n}")

    def _marker(self, event: str, **fields: Any) -> bytes:
        """A record of the trail itself: a torn line declared, or a new file continuing a rotated one."""
        record = {"event": event, **fields, "timestamp": dt.datetime.now(dt.UTC).isoformat().replace("+00:00", "Z"),
                  "prev": self.head}
        return json.dumps(record).encode()

    def add_prev(self, logger: Any, method_name: str, event_dict: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
        """structlog processor: link the record to the previous line."""
        event_dict["prev"] = self.head
        return event_dict

    def write(self, text: str) -> None:
        for line in text.splitlines():
            self._write_line(line.encode())

    def _write_line(self, line: bytes) -> None:
        self._file.write(line + b"\n")
        self.head = line_hash(line)
        if self.max_bytes and self._file.tell() >= self.max_bytes:
            self._rotate()

    def _rotate(self) -> None:
        self._file.close()
        for n in range(self.backups - 1, 0, -1):
            if self._backup(n).exists():
                self._backup(n).replace(self._backup(n + 1))
        self.path.replace(self._backup(1))
        self._file = self.path.open("ab")
        self._write_line(self._marker("log_rotated"))

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def last_seq(self) -> int:
        """The highest ``seq`` written to this trail's newest records (0 if none): where a catch-up starts."""
        self.flush()
        for path in (self.path, self._backup(1)):
            for raw in reversed(_chunk(path).split(b"\n")):
                try:
                    record = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(record, dict) and isinstance(record.get("seq"), int):
                    return int(record["seq"])
        return 0


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
