"""The console's web app (Starlette): the dealer page, the pit view, logins, commands in, the view out.

Every request first passes the guard (``controller.console.guard``: Host,
Origin, body size). Then:

- ``GET /`` and ``GET /pit`` serve the pages: static files, no secret in them.
- ``POST /api/login`` with a name and a PIN (or a card reader's ID) opens a
  session (``controller.console.login``) in an ``HttpOnly``, ``SameSite=Strict``
  cookie; ``GET /api/session`` tells the page who is logged in and the session's
  CSRF token, which every other POST carries in a header. ``POST /api/logout``.
- ``POST /api/command`` turns a tap into a command on the table loop's queue
  and answers with the outcome, or the engine's reason for a refusal (409).
- ``POST /api/supervisor`` then ``POST /api/supervisor/confirm``: a supervisor
  action (resume, void, correct a card) needs a supervisor's name and PIN,
  typed twice: once to ask, once to confirm what the console asked back.
- ``GET /api/state`` and ``/ws`` (``/ws/pit`` for the pit view) give the view
  of the table that page's audience may see (``controller.engine.view``).

Every login and every PIN check, granted or refused, is journaled by the
table loop's own thread (a ``Record`` command); refused requests are counted
and journaled once a second as ``requests_refused``. No PIN, token or card ID
is ever logged. Bad input gets a 4xx answer with a reason, never a 500.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.console.guard import Addresses, BadJSON, Guard, parse_json
from controller.console.login import COOKIE, CSRF_HEADER, LoginLimits, Sessions, StaffSession, csrf_ok
from controller.console.parse import BadRequest, parse_command, parse_supervisor, text_field
from controller.engine.commands import Command, Record
from controller.engine.loop import TableLoop
from controller.errors import TableError
from controller.events import Event, LoggedOut, LoginGranted, LoginRefused, RequestsRefused, SupervisorGranted, SupervisorRefusal
from controller.records.staff import Account, SessionAccounts, StaffError

STATIC = Path(__file__).resolve().parent / "static"
CONFIRM_SECONDS = 60.0
JOURNAL_WAIT = 30.0
"""How long a request waits for the table loop to journal or carry out what it asked."""
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
AUDIENCES = {"/ws": "dealer", "/ws/pit": "pit"}


@dataclass
class PendingAction:
    """A supervisor action asked for once, waiting for the same supervisor's confirmation."""

    command: Command
    supervisor: str
    round_id: str | None
    """The round the supervisor was looking at: a confirmation after it changed is refused."""
    expires: float


class Refusals:
    """Refused requests, counted by reason and journaled together once a second (a flood costs one record a second)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.total = 0

    def add(self, reason: str, path: str) -> None:
        self.counts[f"{path}: {reason}"[:160]] += 1
        self.total += 1

    def take(self) -> dict[str, int]:
        counts, self.counts = dict(self.counts), Counter()
        return counts


def refused_requests(counts: dict[str, int]) -> RequestsRefused:
    kinds: dict[str, int | str] = dict(counts)
    return RequestsRefused(counts=kinds, total=sum(counts.values()))


class Broadcaster:
    """Hands each view from the table loop's thread to every open WebSocket."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queues: set[asyncio.Queue[None]] = set()

    def publish(self, view: dict[str, Any]) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        for q in self.queues:
            if q.empty():
                q.put_nowait(None)


def refuse(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"ok": False, "reason": reason}, status, headers={"Cache-Control": "no-store"})


def create_app(table: TableLoop, *, accounts: SessionAccounts, addresses: Addresses,
               sessions: Sessions | None = None) -> Guard:
    """The console app for ``table``, behind its guard; ``accounts`` are who may log in, ``sessions`` their open
    sessions (the server's, which journals those still open once the app has stopped)."""
    sessions = sessions if sessions is not None else Sessions()
    limits = LoginLimits()
    refusals = Refusals()
    broadcaster = Broadcaster()
    pending: dict[str, PendingAction] = {}
    table.subscribe(broadcaster.publish)

    async def journal(event: Event) -> bool:
        """Have the table loop journal ``event``; False when it did not answer."""
        try:
            await asyncio.wait_for(asyncio.wrap_future(table.submit(Record(event))), JOURNAL_WAIT)
        except (TimeoutError, TableError, ValueError):
            return False
        return True

    def client_of(conn: HTTPConnection) -> str:
        return conn.client.host if conn.client else "unknown"

    def session_of(conn: HTTPConnection) -> StaffSession | None:
        return sessions.get(conn.cookies.get(COOKIE))

    async def body_of(request: Request) -> dict[str, Any]:
        body = parse_json(await request.body())
        if not isinstance(body, dict):
            raise BadRequest("a request is a JSON object")
        return body

    def guarded(handler: Callable[[Request, StaffSession, dict[str, Any]], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        """A POST that needs a logged-in session and its CSRF token, with a JSON object body."""

        async def endpoint(request: Request) -> Response:
            session = session_of(request)
            if session is None:
                refusals.add("no session", request.url.path)
                return refuse(401, "nobody is logged in here: log in first")
            if not csrf_ok(session, request.headers.get(CSRF_HEADER)):
                refusals.add("bad CSRF token", request.url.path)
                return refuse(403, "this request did not come from the console's page: reload it")
            try:
                body = await body_of(request)
            except (BadJSON, BadRequest) as exc:
                refusals.add("bad body", request.url.path)
                return refuse(400, str(exc))
            try:
                return await handler(request, session, body)
            except (BadRequest, ValueError) as exc:
                return refuse(400, str(exc))

        return endpoint

    async def check_pin(request: Request, body: dict[str, Any], step: str) -> Account | Response:
        """A supervisor's name and PIN from ``body``: the account, or the refusal (journaled either way)."""
        name, pin = text_field(body, "name", 40), body.get("pin")
        client = client_of(request)
        wait = limits.wait(name, client)
        action = text_field(body, "action", 40)

        def refusal(reason: str) -> SupervisorRefusal:
            return SupervisorRefusal(name=name, step=step, action=action, client=client, reason=reason)

        if wait:
            await journal(refusal(f"too many wrong PINs: locked for {wait:.0f} s"))
            return refuse(429, f"too many wrong PINs {limits.locked(name, client)}: try again in {wait:.0f} s")
        try:
            account = await run_in_threadpool(accounts.verify, name, pin) if isinstance(pin, str) and name else None
        except StaffError as exc:
            await journal(refusal(str(exc)))
            return refuse(503, f"the staff accounts cannot be read: {exc}")
        if account is None or not account.supervises:
            limits.failed(name, client)
            why = "wrong name or PIN" if account is None else f"{name} is not a supervisor"
            await journal(refusal(why))
            return refuse(403, f"refused: {why}")
        limits.succeeded(name, client)
        if not await journal(SupervisorGranted(name=name, step=step, action=action, client=client)):
            return refuse(503, "the table is not answering: nothing was done")
        return account

    # -- pages and sessions ---------------------------------------------

    async def dealer(request: Request) -> Response:
        return FileResponse(STATIC / "dealer.html", headers=SECURITY_HEADERS)

    async def pit(request: Request) -> Response:
        return FileResponse(STATIC / "pit.html", headers=SECURITY_HEADERS)

    async def who(request: Request) -> Response:
        session = session_of(request)
        if session is None:
            return JSONResponse({"logged_in": False}, headers={"Cache-Control": "no-store"})
        account = session.account
        return JSONResponse({"logged_in": True, "name": account.name, "role": account.role, "csrf": session.csrf},
                            headers={"Cache-Control": "no-store"})

    async def login(request: Request) -> Response:
        try:
            body = await body_of(request)
        except (BadJSON, BadRequest) as exc:
            refusals.add("bad body", request.url.path)
            return refuse(400, str(exc))
        name, secret, page = text_field(body, "name", 40), body.get("pin"), text_field(body, "page", 10) or "dealer"
        client = client_of(request)

        def refused(reason: str) -> LoginRefused:
            return LoginRefused(name=name, page=page, client=client, reason=reason)

        wait = limits.wait(name, client)
        if wait:
            await journal(refused(f"too many wrong PINs: locked for {wait:.0f} s"))
            return refuse(429, f"too many wrong tries {limits.locked(name, client)}: try again in {wait:.0f} s")
        if not name or not isinstance(secret, str) or not secret or len(secret) > 64:
            await journal(refused("name or PIN missing"))
            return refuse(400, "enter your name and your PIN (or swipe your card)")
        try:
            account = await run_in_threadpool(accounts.verify, name, secret)
        except StaffError as exc:
            await journal(refused(str(exc)))
            return refuse(503, f"the staff accounts cannot be read: {exc}")
        if account is None:
            limits.failed(name, client)
            await journal(refused("wrong name or PIN"))
            return refuse(401, "wrong name or PIN")
        limits.succeeded(name, client)
        if not await journal(LoginGranted(name=name, page=page, client=client, role=account.role)):
            return refuse(503, "the table is not answering: try again")
        session = sessions.open(account, client)
        response = JSONResponse({"ok": True, "name": account.name, "role": account.role, "csrf": session.csrf},
                                headers={"Cache-Control": "no-store"})
        response.set_cookie(COOKIE, session.token, httponly=True, samesite="strict", path="/")
        return response

    async def logout(request: Request, session: StaffSession, body: dict[str, Any]) -> Response:
        sessions.close(session.token)
        await journal(LoggedOut(name=session.account.name, client=client_of(request)))
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE, path="/")
        return response

    # -- the table --------------------------------------------------------

    async def command(request: Request, session: StaffSession, body: dict[str, Any]) -> Response:
        return await outcome(table, parse_command(body))

    async def supervisor(request: Request, session: StaffSession, body: dict[str, Any]) -> Response:
        cmd, question = parse_supervisor(body, table, text_field(body, "name", 40))  # a bad request is refused first
        checked = await check_pin(request, body, "ask")
        if isinstance(checked, Response):
            return checked
        nonce = secrets.token_urlsafe(16)
        now = time.monotonic()
        for key in [k for k, p in pending.items() if p.expires < now]:
            del pending[key]
        pending[nonce] = PendingAction(cmd, checked.name, table.round.id if table.round else None, now + CONFIRM_SECONDS)
        return JSONResponse({"ok": True, "confirm": nonce, "question": question})

    async def confirm(request: Request, session: StaffSession, body: dict[str, Any]) -> Response:
        action = pending.get(text_field(body, "confirm", 64))
        if action is None or action.expires < time.monotonic():
            return refuse(409, "nothing to confirm (or it expired): start the action again")
        checked = await check_pin(request, {**body, "name": action.supervisor}, "confirm")
        if isinstance(checked, Response):
            return checked
        pending.pop(text_field(body, "confirm", 64), None)
        if action.round_id != (table.round.id if table.round else None):
            return refuse(409, "the round changed since the action was asked for: start it again")
        return await outcome(table, action.command)

    async def state(request: Request) -> Response:
        if session_of(request) is None:
            refusals.add("no session", request.url.path)
            return refuse(401, "nobody is logged in here: log in first")
        audience = "pit" if request.query_params.get("page") == "pit" else "dealer"
        return JSONResponse(table.snapshot(audience), headers={"Cache-Control": "no-store"})

    async def updates(websocket: WebSocket) -> None:
        await websocket.accept()
        if session_of(websocket) is None:
            refusals.add("no session", websocket.url.path)
            await websocket.close(4401, "nobody is logged in here")
            return
        audience = AUDIENCES.get(websocket.url.path, "dealer")
        wake: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        broadcaster.queues.add(wake)
        closed = asyncio.ensure_future(drain(websocket))
        try:
            sent = None
            while not closed.done():
                view = table.snapshot(audience)
                if view is not sent:
                    await websocket.send_json(view)
                    sent = view
                if session_of(websocket) is None:
                    await websocket.close(4401, "logged out")
                    break
                getter = asyncio.ensure_future(wake.get())
                await asyncio.wait({getter, closed}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
                if not getter.done():
                    getter.cancel()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            broadcaster.queues.discard(wake)
            closed.cancel()

    async def sessions_ended() -> None:
        """Journal each session that ended without its holder logging out (idle, replaced, the console stopping)."""
        sessions.expire()
        for session, why in sessions.take_ended():
            await journal(LoggedOut(name=session.account.name, client=session.client or "unknown", ended=why))

    async def flush_refusals() -> None:
        while True:
            await asyncio.sleep(1.0)
            counts = refusals.take()
            if counts:
                await journal(refused_requests(counts))
            await sessions_ended()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        broadcaster.loop = asyncio.get_running_loop()
        flusher = asyncio.ensure_future(flush_refusals())
        yield
        flusher.cancel()
        counts = refusals.take()
        if counts and table.running:
            await journal(refused_requests(counts))
        sessions.close_all("console stopped")
        if table.running:
            await sessions_ended()
        broadcaster.loop = None

    app = Starlette(
        routes=[
            Route("/", dealer),
            Route("/pit", pit),
            Route("/api/session", who),
            Route("/api/login", login, methods=["POST"]),
            Route("/api/logout", guarded(logout), methods=["POST"]),
            Route("/api/state", state),
            Route("/api/command", guarded(command), methods=["POST"]),
            Route("/api/supervisor", guarded(supervisor), methods=["POST"]),
            Route("/api/supervisor/confirm", guarded(confirm), methods=["POST"]),
            WebSocketRoute("/ws", updates),
            WebSocketRoute("/ws/pit", updates),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    return Guard(app, addresses, refusals.add)


async def outcome(table: TableLoop, cmd: Command) -> Response:
    future = table.submit(cmd)
    try:
        message = await asyncio.wait_for(asyncio.wrap_future(future), JOURNAL_WAIT)
    except TimeoutError:
        return refuse(503, "the table did not answer in time")
    except (TableError, ValueError) as exc:
        reason = table.screen_text(str(getattr(exc, "reason", None) or exc))
        return JSONResponse({"ok": False, "reason": reason, "seq": table.log.last_seq}, 409)
    text = table.screen_text(message)
    return JSONResponse({"ok": True, "message": text, "seq": table.log.last_seq})


async def drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the page sends until it goes away."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await websocket.receive_text()
