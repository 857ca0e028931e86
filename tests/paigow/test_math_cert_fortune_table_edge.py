"""`tablectl edge --config` for a Fortune Pai Gow table: its overlap rule and Envy threshold in the figures.

What the manager saw: a table set to `overlap = "best-hand"` and `envy_threshold = 2500` (the glossary's $25)
got the same figures as the shipped table: the Fortune Bonus of the higher-payout rule first, and an Envy worth
0.54 % to the player per other hand at a $5 Fortune Bonus, which on that table wins no Envy at all (the seed's
largest Fortune Bonus is $20). Now the table's own overlap rule is the Fortune figure, the Envy is figured per
unit of the least Fortune Bonus the table takes that reaches its threshold (or said to be never won), and what
the figures leave out is said in words.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.rules.pai_gow_poker.fortune_pai_gow import FortunePaiGow
from controller.rules.pai_gow_poker.fortune_pai_gow_edge import least_envy_stake, not_reflected
from controller.shipped import shipped_dir

HIGHER_PAYOUT = Fraction(-220226, 2752555)  # docs/edge.md, fortune (higher-payout)
BEST_HAND = Fraction(-44766, 550511)  # docs/edge.md, fortune (best-hand)
ENVY_AT_5 = Fraction(41603, 7707154)  # docs/edge.md, envy per other hand at a $5 Fortune Bonus


def test_the_least_fortune_bonus_that_wins_envy_is_whole_dollars_within_the_seed_and_the_table() -> None:
    # seed 003 betting scheme: "$1 to $20 in increments of $1"; Envy needs at least the threshold
    assert least_envy_stake(500) == 500
    assert least_envy_stake(0) == 100
    assert least_envy_stake(550) == 600
    assert least_envy_stake(2000) == 2000
    assert least_envy_stake(2500) is None  # the glossary's $25: no Fortune Bonus reaches it
    assert least_envy_stake(500, (1000, 2000)) == 1000  # the table's own minimum is $10
    assert least_envy_stake(1500, (100, 1000)) is None  # the table takes at most $10


def test_what_the_figures_leave_out_is_said_in_words() -> None:
    [note] = not_reflected(FortunePaiGow({}))
    assert note.startswith("bank_fee_schedule: ") and "collection fee is not in these figures" in note
    assert not_reflected(FortunePaiGow({"bank_fee_schedule": "none"})) == []


def table(tmp_path: Path, name: str, changes: dict[str, str]) -> Path:
    text = (shipped_dir() / "fortune-pai-gow.toml").read_text()
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.exhaustive
def test_a_tables_overlap_rule_and_envy_threshold_are_in_its_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    glossary = table(tmp_path, "glossary.toml", {'overlap = "higher-payout"': 'overlap = "best-hand"',
                                                 "envy_threshold = 500": "envy_threshold = 2500"})
    assert main(["edge", "--config", str(glossary), "--json"]) == 0
    [figures] = json.loads(capsys.readouterr().out)
    wagers = figures["wagers"]
    assert Fraction(wagers["fortune"]["exact"]) == BEST_HAND and "best-hand rule" in wagers["fortune"]["assumptions"]
    assert "fortune (higher-payout)" not in wagers and "fortune (best-hand)" not in wagers
    envy = wagers["envy, per other hand"]
    assert envy["exact"] == "0/1" and "threshold ($25.00 on the Fortune Bonus) is above the largest" in envy["assumptions"]
    assert Fraction(wagers["fortune + envy, 5 other hands"]["exact"]) == BEST_HAND
    assert figures["not_reflected"] and figures["not_reflected"][0].startswith("bank_fee_schedule")

    ten = table(tmp_path, "ten.toml", {"envy_threshold = 500": "envy_threshold = 1000"})
    assert main(["edge", "--config", str(ten), "--json"]) == 0
    [figures] = json.loads(capsys.readouterr().out)
    wagers = figures["wagers"]
    assert Fraction(wagers["fortune"]["exact"]) == HIGHER_PAYOUT
    assert Fraction(wagers["envy, per other hand"]["exact"]) == ENVY_AT_5 / 2  # the same Envy over $10
    assert Fraction(wagers["fortune + envy, 4 other hands (seats 5, 6)"]["exact"]) == HIGHER_PAYOUT + 4 * ENVY_AT_5 / 2
    assert wagers["bet with fee, $10 wager"]["house_edge"] == pytest.approx(wagers["bet"]["house_edge"] + 0.1)

    assert main(["edge", "--config", str(ten)]) == 0
    out = capsys.readouterr().out
    assert "not in these figures: bank_fee_schedule: the player-dealer's bank" in out
