"""What can go wrong with a table's records, and the exit code each gives.

Every message names the file, what is wrong or missing, and what to do.

::

    RecordsError (TableError, OSError)    exit 3: the records cannot be used now; fix the cause, then start again
    ├── StorageFull                       the disk, a file-size limit or [journal] max_size_mb is full
    ├── StorageDenied                     the service user may not read or write the file
    ├── RecordsHeld                       another process holds the table's journal or event log
    ├── RecordsDamaged                    exit 4: records are damaged or missing: a person restores them
    │                                     (the systemd unit does not restart on it)
    └── JournalError                      the journal could not take or give a record
        ├── JournalFull (StorageFull)
        ├── JournalConflict               a record that contradicts the journal (a round started twice, ...)
        ├── NoJournal                     exit 2: a new table; `tablectl journal init` makes its journal
        └── JournalCorrupt (RecordsDamaged)   the file, a record, a row or the chain is damaged
            ├── JournalMissing            no journal, or an empty one, where the table has history
            └── JournalBehind             the journal ends before a head its anchor or event log saw

The journal's own errors (``JournalError`` and its kinds) and the event log's
(``LogOutputError``) are ``RecordsError`` too, so one ``except`` and
``exc.exit_code`` serve every command.
"""

from __future__ import annotations

import errno
import getpass
import os
from pathlib import Path

from controller.errors import TableError

EXIT_STORAGE = 3
"""The records cannot be written or read now (disk full, permission, held by another process)."""
EXIT_DAMAGED = 4
"""Records are damaged or missing: nothing starts until a person restores them (docs/operations.md)."""


class RecordsError(TableError, OSError):
    """The table's records (journal, anchor, event log, key) cannot be used; nothing of the failed write is kept."""

    exit_code = EXIT_STORAGE


class StorageFull(RecordsError):
    """No room left: the disk, a file-size limit or ``[journal] max_size_mb``."""


class StorageDenied(RecordsError):
    """The process may not read or write a file of the records."""


class RecordsHeld(RecordsError):
    """Another process is using the table's journal or event log (one writer per table)."""


class RecordsDamaged(RecordsError):
    """Records are damaged, missing or behind a witness: restoring them needs a person."""

    exit_code = EXIT_DAMAGED


class JournalError(RecordsError):
    """The journal could not take or give a record; nothing of the failed write is kept."""


class JournalFull(JournalError, StorageFull):
    """No room left for the journal."""


class JournalConflict(JournalError):
    """A record contradicts what the journal holds (a round started twice, a wager settled twice)."""


class AnotherTablesJournal(JournalConflict):
    """A config that points this table at another table's journal: a config to correct (exit 2), nothing held or
    damaged."""

    exit_code = 2


class NoJournal(JournalError):
    """No journal where a table has no history yet: ``tablectl journal init`` makes one (exit 2, as a usage error)."""

    exit_code = 2


class JournalCorrupt(JournalError, RecordsDamaged):
    """The journal file, one of its records or rows, or its chain is damaged."""


class JournalMissing(JournalCorrupt):
    """There is no journal, or an empty one, where the table has history (or a new table has none yet)."""


class JournalBehind(JournalCorrupt):
    """The journal ends before a head its anchor or the event log saw: committed records ``first``..``last`` are lost."""

    def __init__(self, first: int, last: int, message: str) -> None:
        super().__init__(message)
        self.first, self.last = first, last


FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
DENIED = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


def _user() -> str:
    try:
        return f"user {getpass.getuser()!r}"
    except (KeyError, OSError):
        return f"uid {os.getuid()}"


def storage_error(path: Path | str, exc: OSError, doing: str) -> RecordsError:
    """``exc`` (from ``doing`` on ``path``) as a records error naming the file, the cause and the exit code."""
    if isinstance(exc, RecordsError):
        return exc
    reason = exc.strerror or str(exc)
    if exc.errno in FULL:
        cause = "the disk is full" if exc.errno != errno.EFBIG else "a file-size limit is reached"
        return StorageFull(f"{path}: {doing} failed: {cause} ({reason}); free space, then start again (exit {EXIT_STORAGE})")
    if exc.errno in DENIED:
        return StorageDenied(f"{path}: {doing} failed: permission denied for {_user()} ({reason}); "
                             f"the service user must own the file and its folder (exit {EXIT_STORAGE})")
    return RecordsError(f"{path}: {doing} failed: {reason} (exit {EXIT_STORAGE})")
