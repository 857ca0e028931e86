"""A round held by its last card's shuffle test is resumed or voided by the supervisor and replays to the cent.

A shuffle test's hold (or the camera's) raised by a round's last card, or at settling, holds the round where the
engine alone would settle it. Re-enacting the round from the journal (``tablectl hold``, ``tablectl replay``,
recovery on start) gave the settlement the journal does not have, so ``tablectl hold void`` refused the round
('cannot be re-enacted from the journal ... it is voided when the table next starts': voided at start with no
supervisor named) and the round could not be replayed. Here Top Card burns 2 cards after the shuffle, so the shoe
loaded in factory order (the reference simulator on a pseudo-terminal, ``order`` in its script) is held by card 4,
round 1's last.
"""

from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.cards import standard_deck
from controller.commands.cli import main
from controller.engine.config import DEFAULT_CONFIG
from controller.events import RoundResumed, RoundVoided, SupervisorActed
from controller.records.staff import StaffFile
from drivers.sim.process import SimulatorProcess
from tests.helpers import init_table


@pytest.fixture
def held(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[tuple[list[str], str]]:
    script = tmp_path / "shoe.txt"
    script.write_text("order " + " ".join([" ".join(c.code for c in standard_deck())] * 8) + "\n")
    with SimulatorProcess("shoe", "--seed", "3", "--cut", "52", "--script", str(script)) as sim:
        config = tmp_path / "table.toml"
        text = DEFAULT_CONFIG.read_text().replace('driver = "reference"', f'driver = "reference"\nport = "{sim.port}"')
        config.write_text(text.replace("burn_after_shuffle = 1", "burn_after_shuffle = 2")
                          + f'\n[console]\nstaff = "{tmp_path / "staff.json"}"\n')
        StaffFile(tmp_path / "staff.json").add("pat", "supervisor", pin="482913", cost=2**10)
        files = ["--config", str(config), "--journal", str(tmp_path / "j.sqlite"), "--log", str(tmp_path / "ev.jsonl")]
        init_table(tmp_path / "j.sqlite", tmp_path / "ev.jsonl", config)
        assert main(["run", "--rounds", "2", "--seed", "1", "--no-camera", *files]) == 1
        err = capsys.readouterr().err
        round_id = err.split("round ", 1)[1].split(" ", 1)[0]
        assert "is on hold: shuffle test" in err and "by card 4:" in err and round_id.endswith("-000001"), err
        yield files, round_id


def _records(files: list[str], event: str) -> list[dict[str, object]]:
    with sqlite3.connect(files[3]) as db:
        return [json.loads(r) for (r,) in db.execute("SELECT record FROM events WHERE event = ? ORDER BY seq", (event,))]


def test_the_supervisor_voids_it_by_name_and_it_replays(
    held: tuple[list[str], str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    files, round_id = held
    monkeypatch.setattr("sys.stdin", io.StringIO("482913\n"))
    assert main(["hold", "void", round_id, "--by", "pat", "--pin-stdin", "--reason", "shoe pulled", *files]) == 0
    assert f"round {round_id} voided" in capsys.readouterr().out
    (acted,) = _records(files, SupervisorActed.EVENT)
    assert acted["action"] == "void" and acted["by"] == "pat" and acted["round"] == round_id
    assert [r["round"] for r in _records(files, RoundVoided.EVENT)] == [round_id]
    assert main(["replay", round_id, *files[:4]]) == 0
    assert "settlement reproduced to the cent" in capsys.readouterr().out


def test_the_supervisor_resumes_it_the_next_run_settles_it_and_it_replays(
    held: tuple[list[str], str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    files, round_id = held
    monkeypatch.setattr("sys.stdin", io.StringIO("482913\n"))
    assert main(["hold", "resume", round_id, "--by", "pat", "--pin-stdin", "--reason", "shoe inspected", *files]) == 0
    capsys.readouterr()
    assert [r["by"] for r in _records(files, RoundResumed.EVENT)] == ["supervisor"]
    assert main(["run", "--rounds", "1", "--seed", "2", "--no-camera", *files]) == 0
    assert main(["replay", round_id, *files[:4]]) == 0
    assert "settlement reproduced to the cent" in capsys.readouterr().out
