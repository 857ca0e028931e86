"""What a spot's result reads when a player-dealer's short bank covered none of its wagers.

Found by a dealer walking No Bust 21 in the console: a spot whose wagers all went back uncovered read 'PUSH', as if its
hand had tied, while its payout line said 'bank exhausted: ... the rest returned'.
"""

from __future__ import annotations

from controller.engine.view import spot_results
from tests.blackjack.table import play


def test_a_spot_the_short_bank_did_not_cover_reads_return_not_push() -> None:
    wagers = {(1, "base"): 1000, (1, "bonus"): 500, (2, "base"): 1000, (3, "base"): 1000}
    round = play("no-bust-21", wagers, "TS TH TD 6D 9S 9H 9C 9D 8S", [(1, "stand"), (2, "stand"), (3, "stand")],
                 bank=1500)
    results = spot_results(round)
    assert results["1"] == {"result": "returned", "net": 0, "text": "RETURN $15.00"}
    assert results["2"]["text"] == "WIN $10.00" and results["3"]["text"] == "WIN $5.00"


def test_a_hand_that_ties_still_reads_push() -> None:
    round = play("no-bust-21", {(1, "base"): 1000}, "TS 9H 9S TD", [(1, "stand")])
    assert spot_results(round)["1"]["text"] == "PUSH"
