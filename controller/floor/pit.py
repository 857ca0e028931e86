"""The floor's pit page: every table at a glance, a table's last rounds, live alerts, the linked jackpots.

Served by ``tablectl floor serve`` on ``[floor] listen``. The page reads
JSON from ``/api/...`` every two seconds; every answer comes from the floor's
database (``controller.floor.views``), never from a table directly, so the
page works the same for one table or five hundred, and from anywhere on the
floor's network.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import psycopg
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from controller.floor import views
from controller.floor.config import FloorConfig
from controller.floor.consumer import FloorConsumer

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

    def read(self, what: str, **params: Any) -> Any:
        try:
            conn = self._db()
            if what == "tables":
                return views.tables(conn, self.shifts, pit=params.get("pit"))
            if what == "rounds":
                return views.last_rounds(conn, params["table"], int(params.get("count", 10)))
            if what == "alerts":
                return views.alerts(conn, pit=params.get("pit"))
            if what == "meters":
                return views.shift_meters(conn, table=params.get("table"))
            if what == "jackpots":
                return views.jackpots(conn)
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


def create_app(config: FloorConfig, consumer: FloorConsumer | None = None) -> Starlette:
    data = PitData(config)
    pits = sorted(config.pits)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "floor.html", headers=SECURITY_HEADERS)

    async def api(request: Request) -> Response:
        what = request.path_params["what"]
        if what not in ("tables", "rounds", "alerts", "meters", "jackpots"):
            return JSONResponse({"ok": False, "reason": f"nothing called {what!r} here"}, 404, headers=SECURITY_HEADERS)
        params = {k: v for k, v in request.query_params.items() if k in ("pit", "table", "count")}
        if what == "rounds" and "table" not in params:
            return JSONResponse({"ok": False, "reason": "which table? (?table=ID)"}, 400, headers=SECURITY_HEADERS)
        if "count" in params and not params["count"].isdigit():
            return JSONResponse({"ok": False, "reason": "count must be a whole number"}, 400, headers=SECURITY_HEADERS)
        try:
            result = await asyncio.to_thread(data.read, what, **params)
        except psycopg.Error:
            return JSONResponse({"ok": False, "reason": "the floor database cannot be reached; retrying"}, 503,
                                headers=SECURITY_HEADERS)
        return JSONResponse({"ok": True, "site": config.floor.site, "pits": pits, what: result,
                             "consumer": _consumer_status(consumer)}, headers=SECURITY_HEADERS)

    app = Starlette(routes=[
        Route("/", page),
        Route("/api/{what}", api),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.data = data
    return app


def _consumer_status(consumer: FloorConsumer | None) -> dict[str, Any] | None:
    if consumer is None:
        return None
    stats = consumer.stats
    return {"stored": stats.stored, "duplicates": stats.duplicates, "rejected": stats.rejected,
            "open_gaps": stats.gaps_opened - stats.gaps_closed, "last_error": stats.last_error}


class PitServer:
    """The pit page's web server, on the floor service's event loop."""

    def __init__(self, config: FloorConfig, consumer: FloorConsumer | None = None) -> None:
        host, _, port = config.floor.listen.rpartition(":")
        self.app = create_app(config, consumer)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host=host or "127.0.0.1", port=int(port), log_level="warning",
                                                    lifespan="off", access_log=False))
        self.ready = asyncio.Event()

    async def run(self) -> None:
        watcher = asyncio.create_task(self._started())
        try:
            await self.server.serve()
        except SystemExit:  # uvicorn's answer to a port it cannot listen on
            raise OSError(f"the pit page cannot listen on {self.server.config.host}:{self.server.config.port} "
                          "(another program has it?): set [floor] listen") from None
        finally:
            watcher.cancel()
            self.app.state.data.close()

    async def _started(self) -> None:
        while not self.server.started:
            await asyncio.sleep(0.05)
        self.ready.set()

    def stop(self) -> None:
        self.server.should_exit = True
