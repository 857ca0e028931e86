"""One writer per table: an exclusive ``fcntl.flock`` on the journal (and the event log) while a process uses it.

``flock`` rather than SQLite's own locking: SQLite lets a second process write
between our transactions (its locks last one transaction), and its busy
timeout makes the second process wait instead of being refused. A flock lasts
as long as the file stays open, is dropped by the kernel when the process
dies (a SIGKILL leaves no stale lock), and never interacts with SQLite's POSIX
locks. The refusal names the holder's pid, read from ``/proc/locks``.

A lock held in this process is refused without opening the file again:
closing a second descriptor of a SQLite file would drop the POSIX locks
SQLite holds on it.

Readers take a shared lock for the moment they read a journal no writer holds,
so that a writer does not start under them; a writer waits a little for
readers (never for another writer).
"""

from __future__ import annotations

import errno
import fcntl
import os
import time
from pathlib import Path

from controller.records.errors import RecordsHeld, storage_error

_HELD: dict[tuple[int, int], str] = {}
"""(device, inode) of every file this process holds, and what for."""

READERS_GRACE = 2.0
"""Seconds a writer waits for readers (``tablectl rounds`` and friends) to finish."""


def holders(fd: int) -> list[tuple[int, str]]:
    """(pid, "READ"|"WRITE") of the flocks on ``fd``'s file, from ``/proc/locks`` (empty where unreadable)."""
    st = os.fstat(fd)
    ident = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    found = []
    try:
        text = Path("/proc/locks").read_text()
    except OSError:
        return []
    for line in text.splitlines():
        parts = line.split()
        if "->" in parts:  # a process waiting for the lock, not holding it
            continue
        if len(parts) >= 6 and parts[1] == "FLOCK" and parts[5] == ident:
            found.append((int(parts[4]), parts[3]))
    return found


COMMAND_SHOWN = 120
"""Characters of a holder's command line a refusal shows."""


def describe(pid: int) -> str:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        command = ""
    if len(command) > COMMAND_SHOWN:  # its start (the program) and its end (the config or journal it was given)
        half = (COMMAND_SHOWN - 3) // 2
        command = f"{command[:half].rstrip()} … {command[-half:].lstrip()}"
    return f"pid {pid}" + (f" ({command})" if command else "")


class FileLock:
    """An flock on ``path``; ``what`` says whose file it is in the refusal ("table TC-01's journal")."""

    def __init__(self, path: Path, what: str) -> None:
        self.path = path
        self.what = what
        self.fd: int | None = None
        self._key: tuple[int, int] | None = None

    def acquire(self, *, shared: bool = False, create: bool = False) -> None:
        """Take the lock now or raise ``RecordsHeld`` naming the holder; ``create`` makes the file if missing."""
        try:
            fd = os.open(self.path, (os.O_RDWR | os.O_CREAT if create else os.O_RDONLY if shared else os.O_RDWR) | os.O_CLOEXEC, 0o640)
        except OSError as exc:
            raise storage_error(self.path, exc, f"opening {self.what}") from None
        st = os.fstat(fd)
        key = (st.st_dev, st.st_ino)
        if key in _HELD:
            os.close(fd)
            raise RecordsHeld(f"{self.what} {self.path} is already in use by this process ({_HELD[key]}, {describe(os.getpid())}); "
                              "one writer per table")
        deadline = time.monotonic() + READERS_GRACE
        while True:
            try:
                fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                    os.close(fd)
                    raise storage_error(self.path, exc, f"locking {self.what}") from None
                held = holders(fd)
                if shared or any(mode == "WRITE" for _, mode in held) or time.monotonic() > deadline:
                    os.close(fd)
                    who = ", ".join(describe(pid) for pid, _ in held) or "another process"
                    raise RecordsHeld(f"{self.what} {self.path} is in use by {who}: one process writes a table at a time; "
                                      "stop that one first (exit 3)") from None
                time.sleep(0.05)  # only readers hold it: they finish in moments
        self.fd, self._key = fd, key
        if not shared:
            _HELD[key] = self.what

    def release(self) -> None:
        if self.fd is None:
            return
        if self._key is not None:
            _HELD.pop(self._key, None)
        os.close(self.fd)  # closing the descriptor drops the flock
        self.fd = self._key = None
