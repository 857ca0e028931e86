"""What a surveillance officer or a table-games manager reads back with `tablectl rounds`, `round` and
`shuffle report`: found by a walk through the recall tools with the documents alone."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from controller.cards import Card
from controller.commands.cli import main
from controller.engine.log import EventLog
from tests.helpers import new_journal, top_card_round


def _config(tmp_path: Path) -> Path:
    from controller.engine.config import DEFAULT_CONFIG

    path = tmp_path / "t1.toml"
    path.write_text(DEFAULT_CONFIG.read_text().replace('id = "TC-01"', 'id = "T1"'))
    return path


def _top_card(journal, *cards: str):
    round = top_card_round(EventLog("T1", journal=journal))  # type: ignore[arg-type]
    round.start()
    round.place_wager(1, "home", 1000)
    round.place_wager(3, "tie", 250)
    round.close_betting()
    for code in cards:
        round.card(Card.parse(code))
    return round


@pytest.fixture
def tokyo(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_round_times_name_their_time_zone(tmp_path: Path, capsys, tokyo) -> None:
    # The walk saw `2026-11-30 05:50:42` for a round the event log stamps 2026-11-29T20:50:42Z: local time,
    # with nothing to say so; a player's dispute from another desk could not be lined up with the log.
    path = tmp_path / "j.sqlite"
    with new_journal(path) as journal:
        _top_card(journal, "KH", "2D")
    config = str(_config(tmp_path))
    assert main(["rounds", "--journal", str(path), "--config", config]) == 0
    listed = capsys.readouterr().out
    assert main(["round", "T1-R1", "--journal", str(path), "--config", config]) == 0
    shown = capsys.readouterr().out.splitlines()[0]
    assert listed.split()[1].endswith("+09:00") and listed.split()[2] == "T1-R1", listed
    assert "started " in shown and shown.count("+09:00") == 2, shown
