"""The console's web app (Starlette): the dealer page, the pit view, commands in, the view out.

- ``GET /`` and ``GET /pit`` serve the pages, each load with a fresh session
  token in a ``<meta>`` tag. Every command and every WebSocket must present a
  token the server issued; nothing acts without one.
- ``POST /api/command`` turns a tap into a command on the table loop's queue
  and answers with the outcome, or the engine's reason for a refusal (409).
- ``POST /api/supervisor`` then ``POST /api/supervisor/confirm``: a
  supervisor action (resume, void, correct a card) takes the supervisor token
  from ``[console] supervisor_token`` twice, the second time with the
  confirmation the first answer gave. Tokens travel only in request bodies
  and headers, never in a URL, so no access log can show them; the event log
  records the action and its reason, never the token.
- ``/ws`` pushes the whole view after every change; the first message from
  the page must be its session token.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.console.commands import (
    CloseBetting,
    Command,
    CorrectCard,
    CorrectPlacedCard,
    Decide,
    EnterPiece,
    OpenRound,
    PlaceWager,
    Resume,
    Sit,
    VoidRound,
)
from controller.console.session import TableLoop
from controller.errors import TableError
from controller.money import parse_money

STATIC = Path(__file__).resolve().parent / "static"
SESSION_HEADER = "X-Console-Session"
MAX_SESSIONS = 64
CONFIRM_SECONDS = 60.0
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class BadRequest(ValueError):
    """A request the console cannot read: names the field that is wrong."""


@dataclass
class PendingAction:
    """A supervisor action asked for once, waiting for its confirmation."""

    command: Command
    round_id: str | None
    """The round the supervisor was looking at: a confirmation after it changed is refused."""
    expires: float


class Sessions:
    """Session tokens issued with the pages (the newest ``MAX_SESSIONS`` stay valid)."""

    def __init__(self) -> None:
        self._tokens: OrderedDict[str, float] = OrderedDict()

    def issue(self) -> str:
        token = secrets.token_urlsafe(24)
        self._tokens[token] = time.time()
        while len(self._tokens) > MAX_SESSIONS:
            self._tokens.popitem(last=False)
        return token

    def valid(self, token: str | None) -> bool:
        return bool(token) and any(hmac.compare_digest(token or "", known) for known in self._tokens)


class Broadcaster:
    """Hands each view from the table loop's thread to every open WebSocket."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queues: set[asyncio.Queue[dict[str, Any]]] = set()

    def publish(self, view: dict[str, Any]) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._put, view)

    def _put(self, view: dict[str, Any]) -> None:
        for q in self.queues:
            if q.full():
                q.get_nowait()
            q.put_nowait(view)


def create_app(table: TableLoop, *, supervisor_token: str | None = None) -> Starlette:
    sessions = Sessions()
    broadcaster = Broadcaster()
    pending: dict[str, PendingAction] = {}
    table.subscribe(broadcaster.publish)

    def page(name: str) -> HTMLResponse:
        html = (STATIC / name).read_text(encoding="utf-8").replace("{{SESSION}}", sessions.issue())
        return HTMLResponse(html, headers=SECURITY_HEADERS)

    async def dealer(request: Request) -> Response:
        return page("dealer.html")

    async def pit(request: Request) -> Response:
        return page("pit.html")

    async def command(request: Request) -> Response:
        if not sessions.valid(request.headers.get(SESSION_HEADER)):
            return JSONResponse({"ok": False, "reason": "no console session: reload the page"}, 401)
        try:
            cmd = parse_command(await request.json())
        except (BadRequest, ValueError) as exc:
            return JSONResponse({"ok": False, "reason": str(exc)}, 400)
        return await outcome(table, cmd)

    async def supervisor(request: Request) -> Response:
        if not sessions.valid(request.headers.get(SESSION_HEADER)):
            return JSONResponse({"ok": False, "reason": "no console session: reload the page"}, 401)
        body = await request.json()
        if not supervisor_ok(supervisor_token, body.get("token")):
            table.log.emit("supervisor_refused", None, action=str(body.get("action"))[:40], reason="wrong or missing supervisor token")
            return JSONResponse({"ok": False, "reason": "supervisor token refused"}, 403)
        try:
            cmd, question = parse_supervisor(body, table)
        except (BadRequest, ValueError) as exc:
            return JSONResponse({"ok": False, "reason": str(exc)}, 400)
        nonce = secrets.token_urlsafe(16)
        now = time.monotonic()
        for key in [k for k, p in pending.items() if p.expires < now]:
            del pending[key]
        pending[nonce] = PendingAction(cmd, table.round.id if table.round else None, now + CONFIRM_SECONDS)
        return JSONResponse({"ok": True, "confirm": nonce, "question": question})

    async def confirm(request: Request) -> Response:
        if not sessions.valid(request.headers.get(SESSION_HEADER)):
            return JSONResponse({"ok": False, "reason": "no console session: reload the page"}, 401)
        body = await request.json()
        if not supervisor_ok(supervisor_token, body.get("token")):
            table.log.emit("supervisor_refused", None, action="confirm", reason="wrong or missing supervisor token")
            return JSONResponse({"ok": False, "reason": "supervisor token refused"}, 403)
        action = pending.pop(str(body.get("confirm")), None)
        if action is None or action.expires < time.monotonic():
            return JSONResponse({"ok": False, "reason": "nothing to confirm (or it expired): start the action again"}, 409)
        if action.round_id != (table.round.id if table.round else None):
            return JSONResponse({"ok": False, "reason": "the round changed since the action was asked for: start it again"}, 409)
        return await outcome(table, action.command)

    async def state(request: Request) -> Response:
        if not sessions.valid(request.headers.get(SESSION_HEADER)):
            return JSONResponse({"ok": False, "reason": "no console session: reload the page"}, 401)
        return JSONResponse(table.snapshot())

    async def updates(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            hello = await asyncio.wait_for(websocket.receive_json(), 10)
        except (TimeoutError, WebSocketDisconnect, ValueError):
            await websocket.close(4401)
            return
        if not sessions.valid(hello.get("session") if isinstance(hello, dict) else None):
            await websocket.close(4401, "no console session")
            return
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=8)
        broadcaster.queues.add(queue)
        closed = asyncio.ensure_future(drain(websocket))
        try:
            await websocket.send_json(table.snapshot())
            while not closed.done():
                getter = asyncio.ensure_future(queue.get())
                await asyncio.wait({getter, closed}, return_when=asyncio.FIRST_COMPLETED)
                if not getter.done():
                    getter.cancel()
                    break
                await websocket.send_json(getter.result())
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            broadcaster.queues.discard(queue)
            closed.cancel()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        broadcaster.loop = asyncio.get_running_loop()
        yield
        broadcaster.loop = None

    return Starlette(
        routes=[
            Route("/", dealer),
            Route("/pit", pit),
            Route("/api/state", state),
            Route("/api/command", command, methods=["POST"]),
            Route("/api/supervisor", supervisor, methods=["POST"]),
            Route("/api/supervisor/confirm", confirm, methods=["POST"]),
            WebSocketRoute("/ws", updates),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )


async def outcome(table: TableLoop, cmd: Command) -> Response:
    future = table.submit(cmd)
    try:
        message = await asyncio.wait_for(asyncio.wrap_future(future), 30)
    except (TableError, ValueError) as exc:
        return JSONResponse({"ok": False, "reason": str(getattr(exc, "reason", None) or exc)}, 409)
    return JSONResponse({"ok": True, "message": message})


async def drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the page sends until it goes away."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await websocket.receive_text()


def supervisor_ok(expected: str | None, given: object) -> bool:
    return bool(expected) and isinstance(given, str) and hmac.compare_digest(given.encode(), expected.encode())  # type: ignore[union-attr]


def _int(body: dict[str, Any], key: str) -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{key} must be a whole number, not {value!r}")
    return value


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BadRequest(f"{key} is missing")
    return value.strip()


def parse_command(body: Any) -> Command:
    if not isinstance(body, dict):
        raise BadRequest("a command is a JSON object")
    name = body.get("command")
    if name == "open_round":
        return OpenRound()
    if name == "place_wager":
        amount = body.get("amount")
        cents = parse_money(amount if isinstance(amount, str) and amount.strip() else "0")
        return PlaceWager(_int(body, "spot"), _text(body, "wager"), cents)
    if name == "sit":
        return Sit(_int(body, "spot"))
    if name == "no_more_bets":
        return CloseBetting()
    if name == "decide":
        return parse_decision(body)
    if name == "enter_piece":
        return EnterPiece(_text(body, "code").upper())
    raise BadRequest(f"unknown command {name!r}: expected open_round, place_wager, sit, no_more_bets, decide "
                     "or enter_piece")


def parse_decision(body: dict[str, Any]) -> Decide:
    """A decision with what it carries: ``amount`` in dollars (``"20.00"``), ``cards`` as codes, ``values`` as numbers."""
    amount = body.get("amount")
    cents = parse_money(amount) if isinstance(amount, str) and amount.strip() else None
    cards, values = body.get("cards") or [], body.get("values") or []
    if not isinstance(cards, list) or not all(isinstance(c, str) and c.strip() for c in cards):
        raise BadRequest(f"cards must be a list of card or tile codes, not {cards!r}")
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise BadRequest(f"values must be a list of whole numbers, not {values!r}")
    hand = body.get("hand", 0) or 0
    if isinstance(hand, bool) or not isinstance(hand, int):
        raise BadRequest(f"hand must be a whole number, not {hand!r}")
    return Decide(_int(body, "spot"), _text(body, "action"), hand, cents,
                  tuple(c.strip().upper() for c in cards), tuple(values))


def parse_supervisor(body: dict[str, Any], table: TableLoop) -> tuple[Command, str]:
    action = body.get("action")
    reason = str(body.get("reason") or "").strip()[:200]
    round = table.round
    where = f"round {round.id}" if round is not None else "the table"
    if not reason:
        raise BadRequest("say why: a reason is required for the log")
    if action == "resume":
        return Resume(reason), f"Resume {where} where it stopped? The fault must be fixed first."
    if action == "void":
        return VoidRound(reason), f"Void {where}? Every wager on it is returned in full."
    if action == "correct_card":
        card = _text(body, "card").upper()
        return CorrectCard(card, reason), f"Place {card} as the card really dealt in {where}, then resume?"
    if action == "correct_placed":
        if body.get("index") is None:
            raise BadRequest("pick the placed card the correction replaces")
        index, card = _int(body, "index"), _text(body, "card").upper()
        cards = (table.snapshot().get("round") or {}).get("cards") or []
        if not 0 <= index < len(cards):
            raise BadRequest(f"{where} has no card {index + 1}: pick a card on the table")
        placed = cards[index]
        return CorrectPlacedCard(index, card, reason), (
            f"Replace {placed['card']} ({placed['target']}) with {card} in {where}? The hand is dealt again with it.")
    raise BadRequest(f"unknown supervisor action {action!r}: expected resume, void, correct_card or correct_placed")
