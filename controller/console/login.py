"""Who is logged in at the console: sessions opened by a PIN (or card) login, and the limit on wrong guesses.

A session is opened only by a granted login (``POST /api/login``), never by
loading a page, so no number of page loads can push a logged-in dealer out.
Its token travels in an ``HttpOnly``, ``SameSite=Strict`` cookie; every
command must also carry the session's CSRF token in a header, which only a
page served by the console itself can read (``GET /api/session``).

Wrong PINs are limited per account name and per client address
(``LoginLimits``): after ``FREE_TRIES`` wrong tries in a row for one name, or
``CLIENT_FREE_TRIES`` from one address, each further try waits
``LOCK_SECONDS``, doubling up to ``MAX_LOCK_SECONDS``; a granted login clears
the count. A try made while locked is refused without even being checked. The
address allows more tries than a name because every person at the table's own
screen comes from the same address (127.0.0.1): a dealer who mistypes their
PIN three times is locked out, never the supervisor who comes to clear a hold.

>>> limit = RateLimit(clock=lambda: 100.0)
>>> [limit.wait("ana") for _ in range(1)], [limit.failed("ana") for _ in range(3)][-1]
([0.0], 30.0)
>>> limit.wait("ana")
30.0
>>> screen = LoginLimits(clock=lambda: 100.0)
>>> for _ in range(3):
...     screen.failed("dana", "127.0.0.1")
>>> screen.wait("dana", "127.0.0.1"), screen.wait("pat", "127.0.0.1")
(30.0, 0.0)
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.records.staff import Account

FREE_TRIES = 3
CLIENT_FREE_TRIES = 10
LOCK_SECONDS = 30.0
MAX_LOCK_SECONDS = 900.0
IDLE_SECONDS = 12 * 3600.0
"""A session nobody used for a whole shift ends by itself."""
MAX_SESSIONS = 64
COOKIE = "tablectl_session"
CSRF_HEADER = "X-CSRF-Token"


@dataclass
class StaffSession:
    token: str
    csrf: str
    account: Account
    opened: float
    seen: float
    client: str = ""


@dataclass
class RateLimit:
    """Wrong tries per key (an account name, a client address) and the wait they impose."""

    clock: Callable[[], float] = time.monotonic
    free_tries: int = FREE_TRIES
    _failures: dict[str, int] = field(default_factory=dict)
    _until: dict[str, float] = field(default_factory=dict)

    def wait(self, key: str) -> float:
        """Seconds ``key`` must wait before its next try (0: it may try now)."""
        return max(0.0, self._until.get(key, 0.0) - self.clock())

    def failed(self, key: str) -> float:
        """Count a wrong try; the wait it imposes now."""
        count = self._failures[key] = self._failures.get(key, 0) + 1
        if count >= self.free_tries:
            self._until[key] = self.clock() + min(MAX_LOCK_SECONDS, LOCK_SECONDS * 2 ** (count - self.free_tries))
        return self.wait(key)

    def succeeded(self, key: str) -> None:
        self._failures.pop(key, None)
        self._until.pop(key, None)


class LoginLimits:
    """Wrong PINs counted per account name and per client address (see the module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.names = RateLimit(clock)
        self.clients = RateLimit(clock, CLIENT_FREE_TRIES)

    def wait(self, name: str, client: str) -> float:
        """Seconds before ``name`` may try again from ``client`` (0: now)."""
        return max(self.names.wait(name), self.clients.wait(client))

    def locked(self, name: str, client: str) -> str:
        """What the wait is on, in the words of the screen: the name tried, or (after many names) this screen."""
        return f"for {name}" if self.names.wait(name) >= self.clients.wait(client) else "from this screen"

    def failed(self, name: str, client: str) -> None:
        self.names.failed(name)
        self.clients.failed(client)

    def succeeded(self, name: str, client: str) -> None:
        self.names.succeeded(name)
        self.clients.succeeded(client)


class Sessions:
    """Open staff sessions by token; a session ends on logout or after ``IDLE_SECONDS`` unused.

    Sessions that end without a logout (unused, or dropped to make room) wait in ``ended`` until the console
    journals them (``take_ended``), so the journal says who was no longer logged in and from when."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, keep_ended: bool = True) -> None:
        self.clock = clock
        self.keep_ended = keep_ended
        """False where nothing journals sessions' ends (the floor's pit page): they are not kept."""
        self._open: dict[str, StaffSession] = {}
        self._ended: list[tuple[StaffSession, str]] = []

    def open(self, account: Account, client: str = "") -> StaffSession:
        now = self.clock()
        self.expire(now)
        while len(self._open) >= MAX_SESSIONS:  # only granted logins open sessions: drop the longest unused
            oldest = min(self._open.values(), key=lambda s: s.seen)
            self._end(self._open.pop(oldest.token), "replaced")
        session = StaffSession(secrets.token_urlsafe(32), secrets.token_urlsafe(32), account, now, now, client)
        self._open[session.token] = session
        return session

    def get(self, token: str | None) -> StaffSession | None:
        if not token:
            return None
        now = self.clock()
        self.expire(now)
        session = self._open.get(token)
        if session is None:
            return None
        session.seen = now
        return session

    def close(self, token: str | None) -> StaffSession | None:
        return self._open.pop(token, None) if token else None

    def close_all(self, why: str) -> None:
        """End every open session (the console stops); they wait in ``ended``."""
        for session in self._open.values():
            self._end(session, why)
        self._open.clear()

    def expire(self, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        for token in [t for t, s in self._open.items() if now - s.seen > IDLE_SECONDS]:
            self._end(self._open.pop(token), "idle")

    def _end(self, session: StaffSession, why: str) -> None:
        if self.keep_ended:
            self._ended.append((session, why))

    def take_ended(self) -> list[tuple[StaffSession, str]]:
        """The sessions that ended without a logout since the last call, and how each ended."""
        ended, self._ended = self._ended, []
        return ended


def csrf_ok(session: StaffSession, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(session.csrf.encode(), (given or "").encode())
