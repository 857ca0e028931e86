"""A split blackjack hand named the same way everywhere a dealer or a supervisor reads it: `hand 1`, `hand 2`.

`tablectl round` lists a split spot's cards as 'spot 1 hand 1' and 'spot 1 hand 2'; the payouts and the decisions
must name the same hands (No Bust "Players can split any pair ... A player may draw as many cards as the desire
per split card")."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.engine.log import EventLog
from controller.errors import DecisionRefused
from controller.rules.base import Decision
from tests.blackjack.table import play
from tests.helpers import new_journal


def test_a_split_spots_cards_payouts_and_decisions_name_the_same_hands(tmp_path: Path, capsys) -> None:
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        play("no-bust-21", {(1, "base"): 1000}, "8S 9D 8H TC TD 8C", [(1, "split"), (1, "stand", 0), (1, "stand", 1)],
             log=EventLog("T1", journal=journal))
    assert main(["round", "R1", "--journal", str(path)]) == 0
    text = capsys.readouterr().out
    assert "card     TD -> spot 1 hand 2" in text
    assert "(hand 2 8H TD (hard 18) v hard 17" in text and "(hand 1 8S TC (hard 18) v hard 17" in text
    assert "decision spot 1 hand 1 stand\n" in text and "decision spot 1 hand 2 stand\n" in text


def test_a_decision_for_the_wrong_hand_names_the_hand_whose_turn_it_is() -> None:
    round = play("no-bust-21", {(1, "base"): 1000}, "8S 9D 8H TC", [(1, "split")], stop_at_decision=True)
    with pytest.raises(DecisionRefused, match="it is spot 1 hand 1's turn"):
        round.decide(Decision(1, "stand", hand=1))


def test_a_split_wager_keeps_the_time_it_went_down_before_no_more_bets(tmp_path: Path, capsys) -> None:
    # `round` listed the split spot's base as '$20.00 at ..., seq 14 by decision', after 'no more bets' at seq 6:
    # on the surveillance reading of the recall walk, a past-post. The $10.00 went down in betting; the split added $10.00.
    import json

    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        play("no-bust-21", {(1, "base"): 1000}, "8S 9D 8H TC TD 8C", [(1, "split"), (1, "stand", 0), (1, "stand", 1)],
             log=EventLog("T1", journal=journal))
    assert main(["round", "R1", "--journal", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    [base] = [w for w in shown["wagers"] if w["wager"] == "base"]
    assert base["amount"] == 2000 and base["seq"] < shown["betting_closed"]["seq"] and "by" not in base
    assert [(a["amount"], a["by"]) for a in base["added"]] == [(1000, "decision")]
    assert base["added"][0]["seq"] > shown["betting_closed"]["seq"]
    assert main(["round", "R1", "--journal", str(path)]) == 0
    [line] = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  wager    spot 1 base")]
    assert "$20.00" in line and "; +$10.00 by decision at " in line, line
