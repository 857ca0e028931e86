"""The pit view's last rounds say how each round ended in a supervisor's words ("Settled", "Voided"), where the
column showed the round state machine's names (complete, void) and a voided round's result column repeated "void"."""

from __future__ import annotations

from controller.engine.commands import CloseBetting, OpenRound, PlaceWager, VoidRound
from tests.console.tables import do, table_loop, wait_until


def test_the_last_rounds_say_settled_and_voided() -> None:
    loop, _ = table_loop("top-card")
    loop.start()
    try:
        do(loop, OpenRound())
        do(loop, PlaceWager(2, "away", 1500))
        do(loop, CloseBetting())
        wait_until(lambda: loop.snapshot()["round"]["state"] == "complete")
        do(loop, OpenRound())
        do(loop, PlaceWager(1, "home", 1000))
        do(loop, VoidRound("a card flashed", "pat"))
        do(loop, OpenRound())
        voided, settled = loop.snapshot()["recent"][:2]
    finally:
        loop.stop()
    assert (voided["state"], voided["state_text"], voided["describe"]) == ("void", "Voided", "")
    assert (settled["state"], settled["state_text"]) == ("complete", "Settled") and settled["describe"]
