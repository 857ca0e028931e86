"""Even money on an original wager of an odd number of cents (seed 003, Pure 21.5 "Even Money").

"The result in each case is the same as the Player wins an amount equal to the original wager": to the cent,
whatever the player-dealer's down card. Settled through half the wager as insurance (rounded down to the cent),
a wager of $10.01 won $10.00 against a Pure 21.5 and $10.01 otherwise; rounds journaled under the rules before
(revision 3) replay as they were settled.
"""

from __future__ import annotations

import pytest

from controller.rules.blackjack.pure_21_5 import Pure21_5
from tests.blackjack.table import play, returned

GAME = "pure-21-5"


def won(round, base: int) -> int:
    paid = returned(round)
    return paid[(1, "base")] + paid[(1, "insurance")] - base - round.wagers[(1, "insurance")]


@pytest.mark.parametrize("down", ["KB", "7C"])
@pytest.mark.parametrize("base", [1001, 1000, 2555, 501])
def test_even_money_wins_the_original_wager_to_the_cent(down: str, base: int) -> None:
    round = play(GAME, {(1, "base"): base}, f"AH AS KB {down}", [(1, "even-money")])
    assert won(round, base) == base


def test_even_money_reads_as_even_money_on_the_settlement() -> None:
    round = play(GAME, {(1, "base"): 1001}, "AH AS KB KB", [(1, "even-money")])
    reasons = {s.wager: s.reason for s in round.settlements if s.spot == 1}
    assert reasons["base"].startswith("even money: hand 1 AH KB")
    assert "insurance wager returned" in reasons["insurance"]


def test_a_round_journaled_under_revision_3_settles_as_it_was_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Pure21_5, "rules_version", 3)
    short = play(GAME, {(1, "base"): 1001}, "AH AS KB KB", [(1, "even-money")])
    assert won(short, 1001) == 1000
    assert returned(short)[(1, "insurance")] == 1500  # the insurance at 2 to 1, the original wager pushed
