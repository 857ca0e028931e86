"""The player-dealer's collection fee in the California blackjack games counts the base game action only.

Seed 003, Buster Blackjack Bonus Bet: "There is no additional collection fee for placing a Buster Blackjack
Bonus Bet."; Blackjack Bonus Bet item 11, "Explain if the house is retaining any type of fee: No."
Schedule (No Bust 21st Century Blackjack and Pure 21.5 Blackjack, player-dealer): action $5-50 $0.50,
$51-200 $2.00, $201-400 $3.00, $401-600 $4.00, $601-$1,000 $5.00.
"""

import pytest

from controller.events import FeeCollected
from tests.blackjack.table import play
from tests.helpers import MemoryLog

CARDS = {"no-bust-21": "TS TH 5D 9C 9D 8S 6C", "pure-21-5": "TB KB 5D 9C 9D 8S 6C"}


@pytest.mark.parametrize("game", ["no-bust-21", "pure-21-5"])
def test_side_wagers_add_nothing_to_the_player_dealers_fee(game: str) -> None:
    # $45 + $5 of base action pays $0.50; the $10 Buster and $5 Bonus Bets beside it must not lift it to $2.00
    log = MemoryLog()
    play(game, {(1, "base"): 4500, (1, "buster"): 1000, (2, "base"): 500, (2, "bonus"): 500}, CARDS[game],
         [(1, "stand"), (2, "stand")], log=log)
    assert [(f["spot"], f["amount"]) for f in log.named(FeeCollected.EVENT)] == [(8, 50)]
    assert "action $50.00" in log.named(FeeCollected.EVENT)[0]["reason"]



def test_a_round_journaled_under_rules_revision_1_is_charged_as_it_was() -> None:
    # replay re-runs a round's fees through the game: rounds journaled before the fix counted the side wagers
    from controller.rules.registry import make_game

    game = make_game("no-bust-21")
    pd = game.player_dealer  # type: ignore[attr-defined]
    a, b = [s for s in range(1, 9) if s != pd][:2]
    wagers = {(a, "base"): 4500, (a, "buster"): 1000, (b, "base"): 500, (b, "bonus"): 500, (pd, "bank"): 100000}
    assert game.rules_version >= 2
    assert [(f.spot, f.amount) for f in game.fees([a, b], wagers) if f.spot == pd] == [(pd, 50)]
    game.rules_version = 1
    assert [(f.spot, f.amount) for f in game.fees([a, b], wagers) if f.spot == pd] == [(pd, 200)]
