"""The pit view's last rounds say how each round ended in a supervisor's words ("Settled", "Voided"), where the
column showed the round state machine's names (complete, void) and a voided round's result column repeated "void"."""

from __future__ import annotations

import time
from collections.abc import Callable

from controller.engine.commands import CloseBetting, OpenRound, PlaceWager, VoidRound
from controller.engine.loop import TableLoop
from tests.console.tables import table_loop

PATIENCE = 30.0


def _until(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + PATIENCE
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def _do(loop: TableLoop, command: object) -> str:
    return loop.submit(command).result(PATIENCE)  # type: ignore[arg-type]


def test_the_last_rounds_say_settled_and_voided() -> None:
    loop, _ = table_loop("top-card")
    loop.start()
    try:
        _do(loop, OpenRound())
        _do(loop, PlaceWager(2, "away", 1500))
        _do(loop, CloseBetting())
        _until(lambda: loop.snapshot()["round"]["state"] == "complete")
        _do(loop, OpenRound())
        _do(loop, PlaceWager(1, "home", 1000))
        _do(loop, VoidRound("a card flashed", "pat"))
        _do(loop, OpenRound())
        voided, settled = loop.snapshot()["recent"][:2]
    finally:
        loop.stop()
    assert (voided["state"], voided["state_text"], voided["describe"]) == ("void", "Voided", "")
    assert (settled["state"], settled["state_text"]) == ("complete", "Settled") and settled["describe"]
