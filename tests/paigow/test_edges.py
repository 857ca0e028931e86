"""``tablectl edge`` for Double-Hand Poker and Fortune Pai Gow Poker."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from controller.commands.cli import main
from controller.rules.edges import EDGES
from controller.rules.pai_gow_poker.batch import exhaustive_counts
from controller.rules.pai_gow_poker.double_hand_poker_edge import count_copies
from controller.rules.pai_gow_poker.fortune import PAYTABLES


def test_both_games_are_registered() -> None:
    assert EDGES["double-hand-poker"] and EDGES["fortune-pai-gow"]


def test_the_copy_count_gives_a_mean_and_its_standard_error_and_agrees_with_scoring_the_deals() -> None:
    found = count_copies(deals=20_000, seed=1)
    assert count_copies(deals=20_000, seed=1) == found
    assert -0.05 < found.ev < 0 and 0 < found.stderr < 0.002
    plain, plain_se = found.scored
    # the same deals scored win / push / lose: the same expectation, a far wider error
    assert abs(plain - found.ev) < 4 * plain_se and plain_se > 5 * found.stderr


@pytest.mark.exhaustive
def test_tablectl_edge_fortune_pai_gow_counts_every_hand(capsys) -> None:
    assert main(["edge", "fortune-pai-gow", "--json"]) == 0
    (table,) = json.loads(capsys.readouterr().out)
    fortune = table["wagers"]["fortune"]
    assert fortune["method"] == "exact"
    counts = exhaustive_counts("FPG-04").rows["higher-payout"]
    rows = PAYTABLES["FPG-04"].rows
    ev = (sum((n * rows[r].payout.odds for r, n in counts.items() if r), Fraction(0)) - counts[None]) / 154_143_080
    assert Fraction(fortune["exact"]) == ev
    assert 0 < fortune["house_edge"] < 0.2
    bet = table["wagers"]["bet"]
    assert bet["method"] == "simulation" and bet["stderr"] < 0.0001 and "2,000,000" in bet["assumptions"]
    envy = table["wagers"]["envy, per other hand"]
    assert envy["method"] == "exact" and Fraction(envy["exact"]) > 0
