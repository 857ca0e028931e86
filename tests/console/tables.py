"""Builders for the console tests: a real table (config, in-process devices, round engine) behind the console."""

from __future__ import annotations

import contextlib
import dataclasses
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

from controller.console.server import ConsoleServer
from controller.console.settings import ConsoleSettings
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.feeds import ShoeFeed, ShufflerFeed
from controller.engine.loop import TableLoop
from controller.engine.players import SimulatedPlayers
from controller.engine.table import Table
from controller.records.staff import SessionAccounts
from tests.helpers import MemoryLog

CONFIG = Path(__file__).resolve().parents[2] / "config"
SUPERVISOR = ("pat", "482913")
"""A supervisor's name and PIN."""
DEALER = ("dana", "2468")
"""A dealer's name and PIN."""


def accounts() -> SessionAccounts:
    """The test table's staff: a supervisor and a dealer (for this process only, as ``run --console`` makes)."""
    return SessionAccounts(None, {SUPERVISOR[0]: ("supervisor", SUPERVISOR[1]), DEALER[0]: ("dealer", DEALER[1])})


@dataclasses.dataclass
class Console:
    url: str
    loop: TableLoop
    log: MemoryLog


def table_loop(game: str, *, seed: int = 7, simulated: bool = False, shoe_port: str | None = None,
               shuffler_port: str | None = None, config_file: Path | None = None) -> tuple[TableLoop, MemoryLog]:
    """A table loop on the game's config (or ``config_file``); the shoe is in-process unless ``shoe_port`` names a
    reference simulator, the shuffler the config's unless ``shuffler_port`` does."""
    config = load_config(config_file or CONFIG / f"{game}.toml")
    if shoe_port is None:
        config = dataclasses.replace(config, shoe={**config.shoe, "driver": "simulated"})
    if shuffler_port is not None:
        config = dataclasses.replace(config, shuffler={"driver": "reference", "port": shuffler_port})
    log = MemoryLog(config.table_id)
    table = Table(config, open_feed(config, log, seed=seed, shoe_port=shoe_port), log, session="TEST")
    players = SimulatedPlayers(random.Random(seed)) if simulated else None
    return TableLoop(table, players=players, pace=0.0, rounds=3 if simulated else 0), log


@contextlib.contextmanager
def served(game: str, *, seed: int = 7, simulated: bool = False, shoe_port: str | None = None,
           shuffler_port: str | None = None, config_file: Path | None = None) -> Iterator[Console]:
    loop, log = table_loop(game, seed=seed, simulated=simulated, shoe_port=shoe_port, shuffler_port=shuffler_port,
                           config_file=config_file)
    server = ConsoleServer(loop, ConsoleSettings(port=0, pace=0.0), accounts())
    loop.start()
    try:
        yield Console(server.start(), loop, log)
    finally:
        server.stop()
        loop.stop()
        feed = loop.table.feed
        if isinstance(feed, ShoeFeed):
            feed.shoe.close()
        elif isinstance(feed, ShufflerFeed):
            feed.shuffler.close()


def logged_in(client: httpx.Client, who: tuple[str, str] = DEALER) -> dict[str, str]:
    """Log ``who`` in through ``client`` (its cookie jar keeps the session); the headers every POST then needs."""
    client.headers["Origin"] = str(client.base_url).rstrip("/")
    answer = client.post("/api/login", json={"name": who[0], "pin": who[1]})
    assert answer.status_code == 200, answer.text
    return {"X-CSRF-Token": answer.json()["csrf"]}


def log_in(page: Any, who: tuple[str, str] = DEALER) -> None:
    """Log in on a console page in the browser, as a person does."""
    page.fill("#login-name", who[0])
    page.fill("#login-pin", who[1])
    page.click("#login-submit")
    page.locator("#login").wait_for(state="hidden")


def in_view(page: Any, selector: str, width: int = 1024, height: int = 600) -> None:
    """Every ``selector`` shown (at least one) lies inside the table's 1024x600 screen, none past its bottom or right
    edge: the dealer's page does not scroll."""
    boxes = page.locator(selector)
    assert boxes.count(), f"nothing shows {selector}"
    for i in range(boxes.count()):
        box = boxes.nth(i).bounding_box()
        assert box is not None and box["y"] + box["height"] <= height and box["x"] + box["width"] <= width, (
            boxes.nth(i).inner_text(), box)


PATIENCE = 30.0
"""Seconds a test waits for the table loop's answer (the browser tests wait as long): it answers at once, but with
5 s four of these tests failed once on the shared 2-core machine at load 14, and passed on every rerun."""


def wait_until(check: Callable[[], bool], timeout: float = PATIENCE) -> None:
    """Wait until ``check()`` holds, failing the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def do(loop: TableLoop, command: object) -> str:
    """Submit ``command`` to the table loop and wait for its answer."""
    return loop.submit(command).result(PATIENCE)  # type: ignore[arg-type]
