"""The journal's anchor: its head (last sequence number and hash) kept outside the database.

A small file beside the journal (``TC-01.sqlite`` -> ``TC-01.anchor``),
rewritten after every commit with the newest checkpoint (``controller.records.keys``:
the journal's head and the event log's, signed with the table's key). A
journal found *behind* its anchor lost committed records (a deleted or damaged
``-wal`` after a crash, a file copied back from an old backup); start-up
compares them (``controller.records.witnesses``).

The file holds two fixed-size slots written alternately, each a JSON line with
a generation number and its own checksum: a write torn by a power cut spoils at
most the slot being written, and the other still holds the head before it. A
reader takes the valid slot with the highest generation. ``cat TC-01.anchor``
shows both.

The anchor is written after the journal's commit is durable, so it never
claims a record the journal could lose to a power cut. It is flushed to disk
(``fdatasync``) at most every ``SYNC_EVERY`` seconds and on closing: a kill
leaves it current (the page cache survives the process), and a power cut can
leave it up to that long behind the journal, never ahead of it (a journal
ahead of its anchor is normal). An fsync per commit would double the cost of
every dealer action for nothing the journal does not already guarantee.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.records.errors import RecordsDamaged, storage_error

SLOT = 1024
SYNC_EVERY = 1.0


def anchor_path(journal: Path) -> Path:
    return journal.with_suffix(".anchor")


@dataclass(frozen=True)
class Head:
    """The journal's head as the anchor last saw it."""

    seq: int
    hash: str
    checkpoint: dict[str, Any]
    generation: int


def _slot_sum(generation: int, checkpoint: dict[str, Any]) -> str:
    text = json.dumps([generation, checkpoint], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _parse(raw: bytes) -> Head | None:
    try:
        slot = json.loads(raw.decode("utf-8").strip())
        generation, checkpoint = int(slot["generation"]), slot["checkpoint"]
        if slot["sum"] != _slot_sum(generation, checkpoint):
            return None
        journal = checkpoint["journal"]
        return Head(int(journal["seq"]), str(journal["hash"]), checkpoint, generation)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def read_anchor(path: Path) -> Head | None:
    """The newest valid head in the anchor file; ``None`` when there is no file. ``RecordsDamaged`` when neither slot is valid."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise storage_error(path, exc, "reading the journal's anchor") from None
    heads = [h for h in (_parse(data[i : i + SLOT]) for i in (0, SLOT)) if h is not None]
    if not heads:
        raise RecordsDamaged(f"anchor {path} is damaged ({len(data)} bytes, no valid head): it cannot tell whether the journal "
                             "lost records; compare the journal with the event log (`tablectl journal verify`), then "
                             "`tablectl journal anchor --rewrite` to write it again from the journal")
    return max(heads, key=lambda h: h.generation)


class Anchor:
    """The writer's handle on the anchor file: ``write`` after each commit."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self._generation = 0
        self._synced_at = 0.0

    def open(self, *, replace_damaged: bool = False) -> Head | None:
        """Open (creating if missing) for writing; the head it held, if any (a damaged one only replaced when asked)."""
        try:
            head = read_anchor(self.path)
        except RecordsDamaged:
            if not replace_damaged:
                raise
            head = None
        try:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o640)
            self._owned_as_its_folder()
        except OSError as exc:
            raise storage_error(self.path, exc, "opening the journal's anchor") from None
        self._generation = head.generation if head else 0
        return head

    def _owned_as_its_folder(self) -> None:
        """Made now by root (``tablectl journal anchor --rewrite`` as docs/operations.md prints it), an anchor is given its
        folder's owner, the service user's state directory: one root's alone stops the table (exit 3)."""
        if os.geteuid() != 0 or self._fd is None:
            return
        mine, folder = os.fstat(self._fd), os.stat(self.path.parent)
        if mine.st_size == 0 and (mine.st_uid, mine.st_gid) == (0, 0) and (folder.st_uid, folder.st_gid) != (0, 0):
            os.fchown(self._fd, folder.st_uid, folder.st_gid)

    def write(self, checkpoint: dict[str, Any]) -> None:
        """Write ``checkpoint`` (its ``journal`` holds ``seq`` and ``hash``) to the older slot, then ``fdatasync``."""
        if self._fd is None:
            raise RuntimeError("anchor not open")
        generation = self._generation + 1
        line = json.dumps({"generation": generation, "checkpoint": checkpoint, "sum": _slot_sum(generation, checkpoint)},
                          sort_keys=True, separators=(",", ":")).encode()
        if len(line) > SLOT - 1:
            raise ValueError(f"anchor checkpoint too large ({len(line)} bytes)")
        try:
            os.pwrite(self._fd, line.ljust(SLOT - 1) + b"\n", (generation % 2) * SLOT)
            if time.monotonic() - self._synced_at >= SYNC_EVERY:
                os.fdatasync(self._fd)
                self._synced_at = time.monotonic()
        except OSError as exc:
            raise storage_error(self.path, exc, "writing the journal's anchor") from None
        self._generation = generation

    def close(self) -> None:
        if self._fd is not None:
            try:
                os.fdatasync(self._fd)
            except OSError:
                pass  # the journal holds every record; an anchor a little behind is never a false alarm
            os.close(self._fd)
            self._fd = None
