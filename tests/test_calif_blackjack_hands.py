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
