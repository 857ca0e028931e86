"""A decision sent when none is due says what the round is doing, in the dealer's words.

Found by a dealer at the console: a decision tapped while the round was still betting read "no decision is due while
the round is betting" (or "... is no_more_bets", "... is dealing"), the engine's state names.
"""

from __future__ import annotations

import pytest

from controller.engine.commands import CommandRefused, Decide, OpenRound
from tests.console.tables import table_loop


def test_a_decision_while_betting_is_open_says_betting_is_open() -> None:
    loop, _ = table_loop("three-card-poker")
    loop.start()
    try:
        loop.submit(OpenRound()).result(10)
        with pytest.raises(CommandRefused, match=r"^no decision is due: betting is open$"):
            loop.submit(Decide(4, "play")).result(10)
    finally:
        loop.stop()
