"""The floor's pit page: every table at a glance, a table's last rounds, live alerts, the linked jackpots.

Served by ``tablectl floor serve`` on ``[floor] listen``. The page reads
JSON from ``/api/...`` every two seconds; every answer comes from the floor's
database (``controller.floor.views``), never from a table directly, so the
page works the same for one table or five hundred, and from anywhere on the
floor's network.

Only supervisors see it: the staff accounts are the tables' own
(``[floor] staff``, a file ``tablectl staff add`` writes), and the front door
is the table console's (``controller.console.guard``: Host and Origin
checked, bodies capped, JSON depth limited; ``controller.console.login``:
sessions in an ``HttpOnly`` cookie, a CSRF token on every POST, wrong PINs
rate-limited). Every login, granted or refused, is kept in the floor's
database (``floor_logins``), and refused requests are counted there.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from pathlib import Path
from typing import Any

import psycopg
import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from controller.console.guard import (
    LOOPBACK_NAMES,
    Addresses,
    BadJSON,
    Guard,
    parse_json,
)
from controller.console.login import COOKIE, CSRF_HEADER, LoginLimits, Sessions, csrf_ok
from controller.floor import views
from controller.floor.config import FloorConfig
from controller.floor.consumer import FloorConsumer
from controller.records.staff import StaffError, StaffFile

LOGINS = """
CREATE TABLE IF NOT EXISTS floor_logins (
    at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(), name TEXT, client TEXT, granted BOOLEAN NOT NULL, reason TEXT);
CREATE TABLE IF NOT EXISTS floor_refusals (
    at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(), reason TEXT NOT NULL, path TEXT, count INTEGER NOT NULL);
"""

STATIC = Path(__file__).resolve().parent / "static"
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class PitData:
    """Reads the floor's database for the page, on a connection of its own (reopened after a database restart)."""

    def __init__(self, config: FloorConfig) -> None:
        self.config = config
        self.shifts = config.shift_plan()
        self._conn: psycopg.Connection[Any] | None = None

    def _db(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(self.config.database.dsn, autocommit=True, connect_timeout=3)
        return self._conn

    def audit(self, name: str | None, client: str, granted: bool, reason: str | None) -> None:
        """Keep one login attempt (never its PIN)."""
        conn = self._db()
        with conn.transaction():
            conn.execute(LOGINS)
            conn.execute("INSERT INTO floor_logins (name, client, granted, reason) VALUES (%s, %s, %s, %s)",
                         (name, client, granted, reason))

    def refusals(self, counts: dict[tuple[str, str], int]) -> None:
        conn = self._db()
        with conn.transaction():
            conn.execute(LOGINS)
            for (reason, path), count in counts.items():
                conn.execute("INSERT INTO floor_refusals (reason, path, count) VALUES (%s, %s, %s)", (reason, path, count))

    def read(self, what: str, **params: Any) -> Any:
        try:
            conn = self._db()
            if what == "tables":
                return views.tables(conn, self.shifts, pit=params.get("pit"))
            if what == "rounds":
                return views.last_rounds(conn, params["table"], int(params.get("count", 10)))
            if what == "alerts":
                return views.alerts(conn, pit=params.get("pit"), shifts=self.shifts)
            if what == "meters":
                return views.shift_meters(conn, table=params.get("table"))
            if what == "jackpots":
                return views.jackpots(conn, shifts=self.shifts)
        except psycopg.Error:
            if self._conn is not None:
                with contextlib.suppress(psycopg.Error):
                    self._conn.close()
            self._conn = None
            raise
        raise KeyError(what)

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()


def addresses(config: FloorConfig, port: int) -> Addresses:
    """The names the floor's page answers to: its listen address, the loopback names on loopback, ``[floor] hosts``."""
    host = config.floor.listen.rpartition(":")[0] or "127.0.0.1"
    names = {host, *config.floor.hosts}
    if host in LOOPBACK_NAMES:
        names.update(LOOPBACK_NAMES)
    return Addresses(names, port)


def create_app(config: FloorConfig, consumer: FloorConsumer | None = None, *, port: int | None = None) -> Guard:
    data = PitData(config)
    pits = sorted(config.pits)
    staff = StaffFile(config.floor.staff) if config.floor.staff else None
    sessions, limits = Sessions(keep_ended=False), LoginLimits()  # a name locks after 3 wrong PINs, a shared desk's address after 10
    refused: Counter[tuple[str, str]] = Counter()

    def refuse(status: int, reason: str) -> JSONResponse:
        return JSONResponse({"ok": False, "reason": reason}, status, headers=SECURITY_HEADERS)

    def client_of(request: Request) -> str:
        return request.client.host if request.client else "unknown"

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "floor.html", headers=SECURITY_HEADERS)

    async def who(request: Request) -> Response:
        session = sessions.get(request.cookies.get(COOKIE))
        if session is None:
            return JSONResponse({"logged_in": False}, headers=SECURITY_HEADERS)
        return JSONResponse({"logged_in": True, "name": session.account.name, "csrf": session.csrf, "site": config.floor.site},
                            headers=SECURITY_HEADERS)

    async def audit(name: str | None, client: str, granted: bool, reason: str | None) -> bool:
        try:
            await run_in_threadpool(data.audit, name, client, granted, reason)
        except psycopg.Error:
            return False
        return True

    async def login(request: Request) -> Response:
        try:
            body = parse_json(await request.body())
        except BadJSON as exc:
            refused[("bad body", request.url.path)] += 1
            return refuse(400, str(exc))
        if not isinstance(body, dict):
            return refuse(400, "a login is a JSON object with a name and a pin")
        name = str(body.get("name", ""))[:40].strip()
        secret = body.get("pin")
        client = client_of(request)
        wait = limits.wait(name, client)
        if wait:
            await audit(name, client, False, f"too many wrong PINs: locked for {wait:.0f} s")
            return refuse(429, f"too many wrong tries {limits.locked(name, client)}: try again in {wait:.0f} s")
        if not name or not isinstance(secret, str) or not secret or len(secret) > 64:
            await audit(name or None, client, False, "name or PIN missing")
            return refuse(400, "enter your name and your PIN (or swipe your card)")
        if staff is None:
            await audit(name, client, False, "no staff file configured")
            return refuse(503, "no supervisor accounts are configured for the floor: set [floor] staff")
        try:
            account = await run_in_threadpool(staff.verify, name, secret)
        except StaffError as exc:
            await audit(name, client, False, str(exc))
            return refuse(503, f"the staff accounts cannot be read: {exc}")
        if account is None or not account.supervises:
            limits.failed(name, client)
            reason = "wrong name or PIN" if account is None else "the floor's pit page is for supervisors"
            await audit(name, client, False, reason)
            return refuse(401 if account is None else 403, reason)
        limits.succeeded(name, client)
        if not await audit(name, client, True, None):
            return refuse(503, "the floor database cannot be reached: try again")
        session = sessions.open(account)
        response = JSONResponse({"ok": True, "name": account.name, "csrf": session.csrf}, headers=SECURITY_HEADERS)
        response.set_cookie(COOKIE, session.token, httponly=True, samesite="strict", path="/")
        return response

    async def logout(request: Request) -> Response:
        session = sessions.get(request.cookies.get(COOKIE))
        if session is None or not csrf_ok(session, request.headers.get(CSRF_HEADER)):
            return refuse(401, "nobody is logged in here")
        sessions.close(session.token)
        response = JSONResponse({"ok": True}, headers=SECURITY_HEADERS)
        response.delete_cookie(COOKIE, path="/")
        return response

    async def api(request: Request) -> Response:
        if sessions.get(request.cookies.get(COOKIE)) is None:
            refused[("no session", request.url.path)] += 1
            return refuse(401, "nobody is logged in here: log in first")
        what = request.path_params["what"]
        if what not in ("tables", "rounds", "alerts", "meters", "jackpots"):
            return refuse(404, f"nothing called {what[:40]!r} here")
        params = {k: v[:64] for k, v in request.query_params.items() if k in ("pit", "table", "count")}
        if what == "rounds" and "table" not in params:
            return refuse(400, "which table? (?table=ID)")
        if "count" in params and not (params["count"].isdigit() and 0 < int(params["count"]) <= 100):
            return refuse(400, "count must be a whole number from 1 to 100")
        try:
            result = await asyncio.to_thread(data.read, what, **params)
        except psycopg.Error:
            return refuse(503, "the floor database cannot be reached; retrying")
        return JSONResponse({"ok": True, "site": config.floor.site, "pits": pits, what: result,
                             "consumer": _consumer_status(consumer)}, headers=SECURITY_HEADERS)

    async def flush_refusals() -> None:
        while True:
            await asyncio.sleep(5.0)
            if refused:
                counts = dict(refused)
                refused.clear()
                with contextlib.suppress(psycopg.Error):
                    await asyncio.to_thread(data.refusals, counts)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        flusher = asyncio.ensure_future(flush_refusals())
        yield
        flusher.cancel()

    app = Starlette(routes=[
        Route("/", page),
        Route("/api/session", who),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/{what}", api),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan)
    app.state.data = data
    listen_port = port if port is not None else int(config.floor.listen.rpartition(":")[2])

    def note(reason: str, path: str) -> None:
        refused[(reason, path)] += 1

    guard = Guard(app, addresses(config, listen_port), note)
    guard.data = data  # type: ignore[attr-defined]
    return guard


def _consumer_status(consumer: FloorConsumer | None) -> dict[str, Any] | None:
    if consumer is None:
        return None
    stats = consumer.stats
    return {"stored": stats.stored, "duplicates": stats.duplicates, "rejected": stats.rejected,
            "open_gaps": stats.gaps_opened - stats.gaps_closed, "last_error": stats.last_error,
            "behind": stats.behind if stats.last_error else None}


class PitServer:
    """The pit page's web server, on the floor service's event loop.

    ``[floor] listen`` may give port 0: the server then binds whatever port the kernel hands it, and
    :attr:`url` (and the service's ready line) names the port it listens on, which is the only port
    the Host and Origin checks accept. A caller that starts the service never has to pick a free port
    first and hope nothing takes it before the service binds it.
    """

    def __init__(self, config: FloorConfig, consumer: FloorConsumer | None = None) -> None:
        host, _, port = config.floor.listen.rpartition(":")
        self.host = host or "127.0.0.1"
        self.app = create_app(config, consumer)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host=self.host, port=int(port), log_level="warning",
                                                    lifespan="on", access_log=False))
        self.ready = asyncio.Event()

    @property
    def port(self) -> int:
        """The port the page listens on once it does (until then, ``[floor] listen``'s)."""
        sockets: Any = self.server.servers[0].sockets if self.server.servers else []
        return int(sockets[0].getsockname()[1]) if sockets else self.server.config.port

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def run(self) -> None:
        watcher = asyncio.create_task(self._started())
        try:
            await self.server.serve()
        except SystemExit:  # uvicorn's answer to a port it cannot listen on
            raise OSError(f"the pit page cannot listen on {self.server.config.host}:{self.server.config.port} "
                          "(another program has it?): set [floor] listen") from None
        finally:
            watcher.cancel()
            self.app.data.close()  # type: ignore[attr-defined]

    async def _started(self) -> None:
        while not self.server.started:
            await asyncio.sleep(0.05)
        self.app.addresses.port = self.port  # port 0: the port the kernel gave
        self.ready.set()

    def stop(self) -> None:
        self.server.should_exit = True
