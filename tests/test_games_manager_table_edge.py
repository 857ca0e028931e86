"""`tablectl edge --config FILE`: the house edge of a table's game under the options its config sets.

What the manager saw: a six-deck No Bust 21 table (`[game] decks = 6`) could only be given the eight-deck figures
(`tablectl edge no-bust-21` computes the game's pay tables at their defaults; docs/edge.md lists them for 8 decks
+ 8 jokers), so the hold the table should show was not the one its own shoe deals: the six-deck table's Bonus Bet
is 9.5769 % against the eight-deck 9.3404 %, its base game 1.3124 % against 1.3276 %.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.rules.blackjack.edge import bonus_bet_edge
from controller.rules.blackjack.no_bust_21 import NoBust21
from controller.shipped import shipped_dir

EIGHT_DECK_BONUS = "-186014147/1991502189"  # docs/edge.md, no-bust-21 bonus (seed)


def test_a_table_config_gives_its_pay_tables_figures_with_the_table_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edge", "--config", "top-card", "--json"]) == 0
    [table] = json.loads(capsys.readouterr().out)
    assert table["game"] == "top-card" and table["paytable"] == "standard" and table["table"] == "TC-01"
    assert table["wagers"]["home"]["exact"] == "-31/830" and table["wagers"]["tie"]["exact"] == "-43/415"


def test_a_six_deck_no_bust_table_gets_the_six_deck_edges(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (shipped_dir() / "no-bust-21.toml").read_text()
    text = text.replace("\ndecks = 8 ", "\ndecks = 6 ").replace("\ndecks = 8\n", "\ndecks = 6\n")
    path = tmp_path / "nb6.toml"
    path.write_text(text)
    assert main(["edge", "--config", str(path), "--fast", "--json"]) == 0
    [table] = json.loads(capsys.readouterr().out)
    assert table["options"]["decks"] == 6 and table["paytable"] == "seed" and table["config"] == str(path)
    six = bonus_bet_edge(NoBust21({"decks": 6}))
    assert table["wagers"]["bonus"]["exact"] == f"{six.ev.numerator}/{six.ev.denominator}" != EIGHT_DECK_BONUS
    assert Fraction(table["wagers"]["bonus"]["exact"]) != Fraction(EIGHT_DECK_BONUS)
    assert 0.01 < table["wagers"]["base"]["house_edge"] < 0.02
    assert main(["edge", "--config", str(path), "--fast"]) == 0
    out = capsys.readouterr().out
    assert f"table NB-01 ({path}): decks 6," in out and "house edge   9.5769%" in out


def test_a_game_the_house_does_not_bank_or_a_game_named_with_it_is_refused_in_words(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edge", "--config", "holdem"]) == 2
    assert "Texas Hold'em has no house edge to compute" in capsys.readouterr().err
    assert main(["edge", "top-card", "--config", "top-card"]) == 2
    assert "name no GAME and no --paytable" in capsys.readouterr().err
