"""`tablectl round` on a Double-Hand Poker round: the pile the player-dealer chose, the dice he threw and the
front hand each player set, as the journal holds them (seed 003, "Game Description": the dice "determine which
seated player (position) receives the first action hand"; the players "set their hands")."""

from __future__ import annotations

import json
from pathlib import Path

from controller.commands.cli import main
from controller.engine.log import EventLog
from tests.helpers import new_journal
from tests.paigow.roundkit import deal, new_round, play_out, stacked_deck


def test_round_shows_the_first_pile_the_dice_and_each_front_hand_set(tmp_path: Path, capsys) -> None:
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        round = new_round(wagers={(2, "bet"): 2000, (3, "bet"): 2000}, bank=3000, log=EventLog("T1", journal=journal))
        deal(round, stacked_deck({1: "2C 3D 4H 7S 8C 9D JH", 2: "AS AH KS KH QS QH 2S", 3: "AD AC KD KC QD QC 3S"}))
        play_out(round, first_pile=1, dice=(2, 3, 3))
    assert main(["round", "T1-R1", "--journal", str(path)]) == 0
    text = capsys.readouterr().out
    assert "decision spot 1 first-pile 1\n" in text
    assert "decision spot 1 dice 2 3 3\n" in text
    assert "decision spot 2 set AH AS\n" in text and "decision spot 1 set 9D 8C\n" in text
    assert main(["round", "T1-R1", "--journal", str(path), "--json"]) == 0
    dice = [d for d in json.loads(capsys.readouterr().out)["decisions"] if d["action"] == "dice"]
    assert dice == [{"spot": 1, "action": "dice", "amount": None, "cards": [], "hand": 0, "values": [2, 3, 3]}]
