"""The console's front door: what every request must be before the app sees it.

A dealer console is a device on a casino network, reached by a browser that
also visits other pages. So, before any route runs (ASGI middleware):

- **Host** must name this console (its configured address, the loopback
  names when it listens on loopback, and ``[console] hosts``) at its port.
  A page served from elsewhere that re-points its own name at this machine
  (DNS rebinding) sends its own name as Host and is refused.
- **Origin** must be this console on every request that changes something
  (anything but GET and HEAD) and on every WebSocket: a page elsewhere cannot
  make the browser post to the table, even with the dealer logged in.
- **Bodies** are at most ``MAX_BODY`` bytes (the whole body is read here, so
  no route ever reads more), and only ``application/json`` is taken.

Each refusal is a 4xx answer with a one-line reason and is handed to
``refused(reason, path)`` so it can be logged.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 16 * 1024
"""The largest request body in bytes: a command or a login is well under 1 KiB."""
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
SAFE_METHODS = ("GET", "HEAD")


class Addresses:
    """The names this console answers to, and its port (set once the server listens, for ``port = 0``)."""

    def __init__(self, names: Iterable[str], port: int) -> None:
        self.names = {n.lower().strip("[]") for n in names}
        self.port = port

    def host_ok(self, host: str | None) -> bool:
        if not host:
            return False
        try:
            parts = urlsplit(f"//{host}")
            name, port = parts.hostname, parts.port
        except ValueError:
            return False
        return name is not None and name in self.names and (port or 80) == self.port

    def origin_ok(self, origin: str | None) -> bool:
        if not origin:
            return False
        try:
            parts = urlsplit(origin)
            name, port = parts.hostname, parts.port or {"http": 80, "https": 443}.get(parts.scheme)
        except ValueError:
            return False
        return parts.scheme in ("http", "https") and name is not None and name in self.names and port == self.port


class Guard:
    """ASGI middleware enforcing Host, Origin, content type and body size; see the module docstring."""

    def __init__(self, app: ASGIApp, addresses: Addresses, refused: Callable[[str, str], None],
                 max_body: int = MAX_BODY) -> None:
        self.app = app
        self.addresses = addresses
        self.refused = refused
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        path = str(scope.get("path", ""))[:100]
        reason, status = self._check(scope, headers)
        if reason is not None:
            self.refused(reason, path)
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4403, "reason": reason})
            else:
                await answer(send, status, reason)
            return
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            body = await self._body(receive)
            if body is None:
                self.refused("request body too large", path)
                await answer(send, 413, f"request body over {self.max_body} bytes")
                return
            receive = replay(body)
        await self.app(scope, receive, send)

    def _check(self, scope: Scope, headers: dict[str, str]) -> tuple[str | None, int]:
        if not self.addresses.host_ok(headers.get("host")):
            return f"Host {headers.get('host', '(none)')[:80]!r} is not this console", 421
        if scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS:
            origin = headers.get("origin")
            if not self.addresses.origin_ok(origin):
                return f"Origin {(origin or '(none)')[:80]!r} is not this console", 403
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return "a command is sent as application/json", 415
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > self.max_body):
                return f"request body over {self.max_body} bytes", 413
        return None, 0

    async def _body(self, receive: Receive) -> bytes | None:
        """The whole body, or ``None`` once it passes ``max_body`` (nothing past it is kept)."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        return b"".join(chunks)


def replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


async def answer(send: Send, status: int, reason: str) -> None:
    body = json.dumps({"ok": False, "reason": reason}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


MAX_DEPTH = 4
"""JSON nesting a console request may have: a command is an object holding lists of strings or numbers."""


class BadJSON(ValueError):
    """A body that is not the JSON a console request is; the message says what is wrong."""


def parse_json(body: bytes, max_depth: int = MAX_DEPTH) -> Any:
    """Decode a request body: UTF-8 JSON nested at most ``max_depth`` deep, no NaN or Infinity.

    The depth is measured before parsing, so a body nested 100,000 deep costs
    one pass over its bytes and a clear refusal, not a recursion error.

    >>> parse_json(b'{"a": [1, "[[["]}')
    {'a': [1, '[[[']}
    >>> parse_json(b'[[[[[1]]]]]')
    Traceback (most recent call last):
    ...
    controller.console.guard.BadJSON: JSON nested deeper than 4 levels
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadJSON("the body is not UTF-8 text") from None
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                raise BadJSON(f"JSON nested deeper than {max_depth} levels")
        elif char in "]}":
            depth -= 1

    def constant(name: str) -> Any:
        raise BadJSON(f"{name} is not a number a console request takes")

    try:
        return json.loads(text, parse_constant=constant)
    except BadJSON:
        raise
    except ValueError as exc:
        raise BadJSON(f"the body is not JSON: {exc}") from None
