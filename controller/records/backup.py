"""Backing up and restoring a table's journal, verified by its anchor.

``backup`` copies the journal with SQLite's online backup API (page by page,
consistent, safe while the table plays), then opens the copy and checks its
whole chain. ``restore`` puts a journal back:

1. it takes the table's lock (no table may be running) and reads the witnesses:
   the anchor's head and the event log's last journaled record;
2. it starts from the best verified base: the backup, or the damaged journal
   itself when it still checks whole and holds more;
3. it puts back every record after the base that the event log holds (each
   log line checked against the table's public key), in order, through the
   journal's normal write path (rounds, wagers and meters are rebuilt), so the
   chain is recomputed record by record;
4. the result must reach the anchor's head with the anchor's hash: then the
   restored journal is byte for byte the chain that was committed. Records
   neither the base nor the log holds stop the restore, naming them, unless a
   person passes ``accept_loss``: they are then recorded as a gap and numbering
   carries on after them (sequence numbers are never reused);
5. the damaged journal is kept beside it (``TC-01.sqlite.damaged-TIME``), never deleted;
6. the journal's ``served`` mark (``tablectl serve`` has dealt from it to players, so ``tablectl run`` refuses it)
   is carried over: from its ``table_served`` record (put back from the event log like any other), from the backup
   or from the journal it replaces, the earliest: a backup taken before the table was first served does not turn
   a live table's journal back into a trial's.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from controller.events import TableServed
from controller.records.anchor import anchor_path, read_anchor
from controller.records.audit import logged_seq, split_signature
from controller.records.chain import ranges
from controller.records.errors import JournalConflict, RecordsDamaged, RecordsError, storage_error
from controller.records.journal import Journal, served
from controller.records.keys import LINE_LABEL, PublicKey, SigningKey
from controller.records.lock import FileLock
from controller.records.verify import LOG_ONLY
from controller.records.witnesses import log_records


def stamp() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


@dataclass(frozen=True)
class Backup:
    path: Path
    records: int
    first_seq: int
    last_seq: int
    last_hash: str


def backup(journal: Path, table_id: str, target: Path) -> Backup:
    """Copy ``journal`` to ``target`` (a new file) and verify the copy's chain."""
    if target.exists():
        raise JournalConflict(f"{target} already exists: a backup never overwrites a file")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise storage_error(target.parent, exc, "creating the backup folder") from None
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        with Journal(journal, table_id=table_id, readonly=True) as source:
            source.backup_to(partial)
        os.chmod(partial, stat.S_IMODE(os.stat(journal).st_mode))  # no more readable than the journal (0640), whatever the umask
        _fsync(partial)
        os.replace(partial, target)
        _fsync(target.parent)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    with Journal(target, table_id=table_id, readonly=True, anchored=False) as copy:
        return Backup(target, copy.chain.records, copy.first_seq, copy.last_seq, copy.last_hash)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def _snapshot(path: Path) -> Iterator[Path | None]:
    """A copy of a (possibly damaged) journal and its WAL in a temporary folder, to read without touching it."""
    if not path.exists() or path.stat().st_size == 0:
        yield None
        return
    folder = Path(tempfile.mkdtemp(prefix="tablectl-restore-"))
    try:
        shutil.copyfile(path, folder / path.name)
        wal = Path(f"{path}-wal")
        if wal.exists():
            shutil.copyfile(wal, folder / f"{path.name}-wal")
        yield folder / path.name
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Restored:
    journal: Path
    base: str
    base_seq: int
    from_log: list[int] = field(default_factory=list)
    lost: tuple[int, int] | None = None
    head_seq: int = 0
    anchor_seq: int | None = None
    matches_anchor: bool | None = None
    kept: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    served: str | None = None
    """Since when ``tablectl serve`` has dealt from the journal (carried over), ``None``: never."""

    def lines(self) -> list[str]:
        out = [f"journal {self.journal} restored from {self.base} (up to seq {self.base_seq})"]
        if self.from_log:
            out.append(f"  put back from the event log: seq {ranges(self.from_log)} ({len(self.from_log)} records)")
        if self.lost:
            out.append(f"  LOST and recorded as such: seq {self.lost[0]}-{self.lost[1]} (numbering carries on at {self.lost[1] + 1})")
        if self.matches_anchor:
            out.append(f"  verified by the anchor: seq {self.anchor_seq} has the hash that was committed; nothing is lost")
        elif self.anchor_seq is None:
            out.append("  no anchor to verify against: the event log was the only witness")
        out.append(f"  the journal's head is now seq {self.head_seq}")
        if self.served:
            out.append(f"  still a live table's journal (`tablectl serve` has dealt from it since {self.served}): "
                       "`tablectl run` refuses it")
        out += [f"  the damaged file is kept as {p}" for p in self.kept]
        out += [f"  note: {n}" for n in self.notes]
        return out


def _candidate(path: Path, table_id: str, label: str, notes: list[str], *,
               copy_of: Path | None = None) -> tuple[str, Path, int, str] | None:
    """``path`` as a base to restore from, or ``None`` with a note saying why not. ``copy_of``: the journal ``path`` is
    a temporary copy of, named in the note instead (the copy is gone by the time it is read), and the open's advice
    to restore the journal left out (this is that restore)."""
    try:
        with Journal(path, table_id=table_id, readonly=True, anchored=False) as journal:
            return label, path, journal.last_seq, journal.last_hash
    except RecordsError as exc:
        why = str(exc)
        if copy_of is not None:
            why = why.replace(str(path), str(copy_of))
            advice = why.find("restore it")
            if advice > 0:
                why = why[:advice].rstrip(" ;:,(")
        notes.append(f"{label} cannot be used: {why}")
        return None


def _genuine(record: dict[str, object], raw_line: bytes | None, public: PublicKey | None) -> bool:
    if public is None or raw_line is None:
        return public is None
    body, sig = split_signature(raw_line)
    return sig is not None and public.verify(sig, LINE_LABEL, body)


def restore(journal: Path, table_id: str, backup_file: Path | None, *, log: Path, key: SigningKey,
            accept_loss: bool = False) -> Restored:
    """Put the journal back from ``backup_file`` (or itself, where it still checks) and the event log; see the module."""
    notes: list[str] = []
    lock = FileLock(journal, f"table {table_id}'s journal")
    existed = journal.exists()
    owner = _owner(journal)
    lock.acquire(create=True)
    try:
        try:
            head = read_anchor(anchor_path(journal))
        except RecordsDamaged as exc:
            head = None
            notes.append(str(exc))
        target = max(head.seq if head else 0, logged_seq(log))
        with _snapshot(journal) as current:
            candidates = [c for c in (
                _candidate(backup_file, table_id, f"backup {backup_file}", notes) if backup_file else None,
                _candidate(current, table_id, f"the journal itself ({journal})", notes, copy_of=journal) if current else None,
            ) if c is not None]
            if not candidates:
                raise RecordsDamaged(f"nothing to restore journal {journal} from: " + "; ".join(notes or ["give a backup file"]))
            label, base, base_seq, _ = max(candidates, key=lambda c: c[2])
            result = Restored(journal, label, base_seq, anchor_seq=head.seq if head else None, notes=notes,
                              served=_served_since(backup_file, current))
            staging = journal.with_name(f"{journal.name}.restoring")
            for stale in (staging, Path(f"{staging}-wal"), Path(f"{staging}-shm"), anchor_path(staging)):
                stale.unlink(missing_ok=True)
            with Journal(base, table_id=table_id, readonly=True, anchored=False) as source:
                source.backup_to(staging)
        try:
            _replay(staging, table_id, key, log, target, head.seq if head else None, head.hash if head else None,
                    accept_loss, result)
            if owner is not None:
                _take_over(staging, owner)
            _swap(journal, staging, existed, result)
        finally:
            for stale in (staging, Path(f"{staging}-wal"), Path(f"{staging}-shm"), anchor_path(staging)):
                stale.unlink(missing_ok=True)
    finally:
        lock.release()
    with Journal(journal, table_id=table_id, key=key, anchored=False) as restored:
        logged = [r.timestamp for r in restored.records_of(TableServed)]  # the event log's word, put back with the rest
        result.served = min([*logged, *([result.served] if result.served else [])], default=None)
        if result.served is not None:
            restored.mark_served(result.served)
        restored.rewrite_anchor()
        result.head_seq = restored.last_seq
    if owner is not None:
        _take_over(anchor_path(journal), owner)
    return result


def _served_since(*journals: Path | None) -> str | None:
    """The earliest ``served`` mark of these journals (a backup, the journal being replaced, read even where damaged),
    ``None`` if none has one."""
    marks = [mark for path in journals if path is not None and (mark := served(path)) is not None]
    return min(marks, default=None)


def _replay(staging: Path, table_id: str, key: SigningKey, log: Path, target: int, anchor_seq: int | None,
            anchor_hash: str | None, accept_loss: bool, result: Restored) -> None:
    with Journal(staging, table_id=table_id, key=key, anchored=False) as work:
        found = log_records(log, work.last_seq + 1, target) if target > work.last_seq else {}
        raws = _raw_lines(log, found)
        for seq in range(work.last_seq + 1, target + 1):
            record = found.get(seq)
            if record is None or not _genuine(record, raws.get(seq), key.public):
                break
            work.append_stored([{k: v for k, v in record.items() if k not in LOG_ONLY}])
            result.from_log.append(seq)
        if work.last_seq < target:
            lost = (work.last_seq + 1, target)
            rounds = sorted({str(r["round"]) for s, r in found.items() if s >= lost[0] and r.get("round")})
            if not accept_loss:
                raise RecordsDamaged(
                    f"records seq {lost[0]}-{lost[1]} are in neither the backup nor the event log "
                    + (f"(the log names rounds {', '.join(rounds[:6])} after them) " if rounds else "")
                    + "and cannot be put back; find a newer backup, or run again with --accept-loss to restore what there is "
                    "and record them as lost (numbering carries on after them); nothing was changed")
            work.record_gap(lost[0], lost[1], "lost: in neither the backup nor the event log; accepted on restore")
            result.lost = lost
        elif anchor_seq is not None and anchor_hash is not None:
            if work.hash_at(anchor_seq) != anchor_hash:
                raise RecordsDamaged(f"the records put back do not give the hash the anchor holds for seq {anchor_seq}: the backup "
                                     "or the event log differs from what was committed; nothing was changed")
            result.matches_anchor = True


def _raw_lines(log: Path, wanted: dict[int, dict[str, object]]) -> dict[int, bytes]:
    from controller.records.audit import trail_files

    out: dict[int, bytes] = {}
    for file in trail_files(log):
        for raw in file.read_bytes().split(b"\n"):
            with suppress(ValueError):
                record = json.loads(raw)
                if isinstance(record, dict) and record.get("seq") in wanted and wanted[record["seq"]] == record:
                    out[int(record["seq"])] = raw
    return out


def _owner(journal: Path) -> os.stat_result | None:
    """Whose the restored journal must be: the journal it replaces, else the folder it goes in (the service user's
    state directory), so that a restore run by root (as the runbook prints it) leaves files the service can open."""
    for where in (journal, journal.parent):
        with suppress(OSError):
            return os.stat(where)
    return None


def _take_over(path: Path, owner: os.stat_result) -> None:
    """Give ``path`` the owner and group of ``owner`` (when this process may: root), and its mode (a file's own mode;
    a folder's gives the journal's usual 0640)."""
    mode = stat.S_IMODE(owner.st_mode) if stat.S_ISREG(owner.st_mode) else 0o640
    try:
        os.chmod(path, mode)
        if os.geteuid() == 0 and (os.stat(path).st_uid, os.stat(path).st_gid) != (owner.st_uid, owner.st_gid):
            os.chown(path, owner.st_uid, owner.st_gid)
    except OSError as exc:
        raise storage_error(path, exc, "giving the restored journal its owner and mode") from None


def _swap(journal: Path, staging: Path, existed: bool, result: Restored) -> None:
    """Keep the damaged journal beside the restored one, then move the restored one in."""
    when = stamp()
    for suffix in ("", "-wal", "-shm"):
        old = Path(f"{journal}{suffix}")
        if not old.exists():
            continue
        if suffix == "" and not existed and old.stat().st_size == 0:
            old.unlink()  # the empty file the lock made
            continue
        if suffix == "-shm":
            old.unlink()
            continue
        kept = journal.with_name(f"{journal.name}.damaged-{when}{suffix}")
        old.rename(kept)
        result.kept.append(kept)
    os.replace(staging, journal)
    _fsync(journal.parent)
