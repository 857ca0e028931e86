"""The audit trail's writer: one JSON-lines event log per table, every line numbered, chained and signed.

Each line is a JSON record (an event, or a record of the trail itself) to which
``ChainedFile`` adds, last and in this order:

- ``n``: the line's number in the table's trail, from 1, running on across
  rotated files and restarts;
- ``prev``: the SHA-256 of the previous line's bytes (64 zeros before the first);
- ``sig``: the Ed25519 signature, by the table's key (``controller.records.keys``),
  of the line as it reads without ``sig``.

So a line changed, added, removed, moved or cut off is found by anyone with the
table's *public* key (``controller.records.verify``), and one written by someone
without the private key cannot be made to pass. The journal stores a signed
checkpoint of the trail's head (``position``) with every commit, so lines cut
off the end are found too.

The trail's own records:

- ``chain_started``: a process opened the trail (a start, a restart, a second
  run): a new chain, linked to the last line of the one before, saying whether
  that one was closed or cut short by a crash, and the journal's head;
- ``chain_closed``: the process stopped cleanly;
- ``log_rotated``: the first line of a new file after rotation by size
  (``events.jsonl`` -> ``events.jsonl.1`` -> ...);
- ``log_tail_torn``: a line cut short by a crash, named by hash and length so
  the verifier can tell an honest crash from an edit (the torn bytes stay).

One process writes a trail: an exclusive ``flock`` on the file (``controller.records.lock``).
Every write error names the file and exit 3.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.records.errors import RecordsError, storage_error
from controller.records.keys import LINE_LABEL, SigningKey
from controller.records.lock import FileLock

GENESIS = "0" * 64
TAIL_BYTES = 1 << 20
SYNC_EVERY = 1.0
"""Seconds between the log's fsyncs (at most one per commit, and only when a checkpoint asks)."""
MARKERS = frozenset({"chain_started", "chain_closed", "log_rotated", "log_tail_torn"})
"""The trail's own records (never in the journal)."""


class LogOutputError(RecordsError):
    """The event log could not be written or read (disk full, permission, a log that is not this table's)."""


def line_hash(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


def split_signature(line: bytes) -> tuple[bytes, str | None]:
    """The line as it was signed (without ``sig``) and its signature, or the line itself and ``None``.

    >>> split_signature(b'{"a":1,"n":1,"prev":"00","sig":"c2ln"}')
    (b'{"a":1,"n":1,"prev":"00"}', 'c2ln')
    >>> split_signature(b'{"a":1}')
    (b'{"a":1}', None)
    """
    marker = line.rfind(b',"sig":"')
    if marker < 0 or not line.endswith(b'"}'):
        return line, None
    signature = line[marker + 8 : -2]
    if b'"' in signature or b"\\" in signature:
        return line, None
    return line[:marker] + b"}", signature.decode("ascii", errors="replace")


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def backup_path(path: Path, n: int) -> Path:
    return path.with_name(f"{path.name}.{n}")


def trail_files(path: Path, backups: int = 99) -> list[Path]:
    """The trail's files that exist, oldest first (``events.jsonl.3 .2 .1 events.jsonl``)."""
    rotated = [backup_path(path, n) for n in range(backups, 0, -1) if backup_path(path, n).exists()]
    return [*rotated, *([path] if path.exists() else [])]


@dataclass(frozen=True)
class Tail:
    """What the end of a trail holds: its last whole line and anything torn after it."""

    last: bytes | None
    torn: bytes
    record: dict[str, Any] | None


def _chunk(path: Path) -> bytes:
    try:
        with path.open("rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - TAIL_BYTES))
            return f.read()
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise storage_error(path, exc, "reading the event log") from None


def _decode(raw: bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def read_tail(path: Path) -> Tail:
    data = _chunk(path)
    end = data.rfind(b"\n")
    torn = data[end + 1 :]
    if end < 0:
        return Tail(None, torn, None)
    body = data[:end]
    last = body[body.rfind(b"\n") + 1 :] or None
    return Tail(last, torn, _decode(last) if last else None)


def logged_seq(path: Path) -> int:
    """The highest journaled ``seq`` the trail's newest records reach (0 if none): where a catch-up starts.

    Records of a chain written without a journal (``tablectl run --no-journal``) number from 1 on their own and are skipped.
    """
    for file in reversed(trail_files(path, 2)):
        candidate: int | None = None
        data = _chunk(file)
        # after the last newline is a line torn by a crash, even one that parses (a cut that took only its newline):
        # it is declared torn, not logged, so its record is logged again
        for raw in reversed(data[: data.rfind(b"\n") + 1].split(b"\n")):
            record = _decode(raw)
            if record is None:
                continue
            if record.get("event") == "chain_started":
                if record.get("journaled", True) and candidate is not None:
                    return candidate
                if record.get("journaled", True):
                    seq = record.get("log_seq")
                    return int(seq) if isinstance(seq, int) else 0
                candidate = None
                continue
            if candidate is None and isinstance(record.get("seq"), int):
                candidate = int(record["seq"])
        if candidate is not None:
            return candidate
    return 0


class ChainedFile:
    """The event log's file, written by one process: numbers, chains and signs each line; rotates by size.

    A file is rotated once it reaches ``max_bytes``, after the line that took it there.
    """

    def __init__(self, path: str | Path, *, table_id: str, key: SigningKey | None, max_bytes: int | None = None,
                 backups: int = 5, journal_seq: int | None = None) -> None:
        self.path = Path(path)
        self.table_id = table_id
        self.key = key
        self.max_bytes = max_bytes
        self.backups = backups
        self.last_seq = 0
        self._mutex = threading.Lock()
        self._synced_at = 0.0
        self._durable: dict[str, Any] = {}
        self._lock = FileLock(self.path, f"table {table_id}'s event log")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise self._error(exc, "creating the event log's folder") from None
        self._lock.acquire(create=True)
        try:
            self._open(journal_seq)
        except BaseException:
            self._lock.release()
            raise

    def _error(self, exc: OSError, doing: str) -> LogOutputError:
        error = storage_error(self.path, exc, doing)
        return LogOutputError(f"event log {error}")

    def _open(self, journal_seq: int | None) -> None:
        tail = read_tail(self.path)
        if tail.last is None and not tail.torn:
            tail = read_tail(backup_path(self.path, 1))
            tail = Tail(tail.last, b"", tail.record)  # a torn line in a rotated file was declared there
        record = tail.record
        if tail.last is not None and (record is None or "n" not in record):
            raise LogOutputError(
                f"event log {self.path}: its last line is not a numbered record: a log from before signed records "
                "(move it aside and keep it: `tablectl audit verify --legacy FILE` still checks it), or a damaged one "
                "(`tablectl audit verify` says which); exit 3")
        if record is not None and record.get("table") not in (None, self.table_id):
            raise LogOutputError(f"event log {self.path} belongs to table {record.get('table')!r}, not {self.table_id!r}: "
                                 "give each table its own [log] events (the default is var/log/TABLE-ID.events.jsonl); exit 3")
        self.n = int(record["n"]) if record else 0
        self.head = line_hash(tail.last) if tail.last is not None else GENESIS
        closed = record is None or record.get("event") == "chain_closed"
        self.last_seq = logged_seq(self.path)
        try:
            self._file = self.path.open("ab")
            if tail.torn:
                self._file.write(b"\n")
                self._marker("log_tail_torn", torn_sha256=line_hash(tail.torn), torn_bytes=len(tail.torn))
            elif self._file.tell() == 0 and self.n:
                self._marker("log_rotated")
            self._marker("chain_started", journaled=journal_seq is not None, journal_seq=journal_seq, log_seq=self.last_seq,
                         key=self.key.fingerprint if self.key else None, pid=os.getpid(),
                         previous="new log" if record is None else "closed" if closed else "cut short (crash or kill)")
        except OSError as exc:
            raise self._error(exc, "writing") from None
        self.sync()

    def _marker(self, event: str, **fields: Any) -> None:
        record = {"event": event, "table": self.table_id, **fields, "timestamp": now()}
        self._write_line(json.dumps(record, separators=(",", ":")).encode())

    def write(self, text: str) -> None:
        with self._mutex:
            try:
                for line in text.splitlines():
                    self._write_line(line.encode())
                    seq = (_decode(line.encode()) or {}).get("seq")
                    if isinstance(seq, int):
                        self.last_seq = seq
            except OSError as exc:
                raise self._error(exc, "writing") from None

    def _write_line(self, line: bytes) -> None:
        if not (line.startswith(b"{") and line.endswith(b"}")):
            raise ValueError(f"event log {self.path}: only JSON records are written, not {line[:40]!r}")
        n = self.n + 1
        body = line[:-1] + f',"n":{n},"prev":"{self.head}"}}'.encode()
        if self.key is not None:
            body = body[:-1] + f',"sig":"{self.key.sign(LINE_LABEL, body)}"}}'.encode()
        self._file.write(body + b"\n")
        self.n, self.head = n, line_hash(body)
        if self.max_bytes and self._file.tell() >= self.max_bytes:
            self._rotate()

    def _rotate(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        for n in range(self.backups - 1, 0, -1):
            if backup_path(self.path, n).exists():
                backup_path(self.path, n).replace(backup_path(self.path, n + 1))
        self.path.replace(backup_path(self.path, 1))
        self._lock.release()
        self._lock.acquire(create=True)
        self._file = self.path.open("ab")
        self._marker("log_rotated")

    def sync(self) -> None:
        """Flush and fsync: what is written so far survives a power cut, and checkpoints may claim it."""
        with self._mutex:
            try:
                self._file.flush()
                os.fsync(self._file.fileno())
            except OSError as exc:
                raise self._error(exc, "writing") from None
            self._durable = {"file": self.path.name, "n": self.n, "head": self.head, "seq": self.last_seq}
            self._synced_at = time.monotonic()

    def position(self) -> dict[str, Any]:
        """Where the trail durably stands, for a checkpoint: the last synced line's number and hash, and the last
        journaled seq in it. Synced at most every ``SYNC_EVERY`` seconds, so a checkpoint never claims lines a power
        cut could still take (the journal holds the records of any lines after it, and a restart logs them again)."""
        if not self._file.closed and time.monotonic() - self._synced_at >= SYNC_EVERY:
            self.sync()
        return dict(self._durable)

    def flush(self) -> None:
        try:
            self._file.flush()
        except OSError as exc:
            raise self._error(exc, "writing") from None

    def close(self) -> None:
        """Write ``chain_closed`` and let the trail go."""
        try:
            with self._mutex:
                self._marker("chain_closed", last_seq=self.last_seq)
                self._file.flush()
                os.fsync(self._file.fileno())
                self._durable = {"file": self.path.name, "n": self.n, "head": self.head, "seq": self.last_seq}
        except OSError as exc:
            raise self._error(exc, "closing") from None
        finally:
            try:
                self._file.close()
            except OSError:
                pass
            self._lock.release()
