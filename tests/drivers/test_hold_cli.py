"""Issue 48, case 10: a held round does not block the table for good. ``tablectl run`` stops at it and says how
to go on; ``tablectl hold list|resume|void`` (the same action the console takes, ``controller.holds``) ends it,
journaled as the supervisor's, and the next run carries on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.engine.config import DEFAULT_CONFIG
from controller.records.journal import Journal
from drivers.sim.process import SimulatorProcess


@pytest.fixture
def held(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[tuple[SimulatorProcess, list[str], str]]:
    """A table whose shoe could not read the first card of round 2: the run stops, the round held."""
    script = tmp_path / "shoe.txt"
    script.write_text("on card 4 unreadable\n")  # card 1 is the burn, 2 and 3 round 1's
    with SimulatorProcess("shoe", "--seed", "3", "--cut", "52", "--script", str(script)) as sim:
        config = tmp_path / "table.toml"
        config.write_text(DEFAULT_CONFIG.read_text().replace('driver = "reference"', f'driver = "reference"\nport = "{sim.port}"'))
        files = ["--config", str(config), "--journal", str(tmp_path / "j.sqlite"), "--log", str(tmp_path / "ev.jsonl")]
        assert main(["run", "--rounds", "3", "--seed", "1", "--no-camera", *files]) == 1
        err = capsys.readouterr().err
        assert "could not be read: the supervisor identifies it and enters it, or voids the round" in err
        round_id = err.split("round ", 1)[1].split(" ", 1)[0]
        assert f"tablectl hold resume {round_id} [--card CODE]" in err and f"tablectl hold void {round_id}" in err
        yield sim, files, round_id


def test_a_held_round_stops_every_run_until_the_supervisor_acts(
    held: tuple[SimulatorProcess, list[str], str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, files, round_id = held
    assert main(["run", "--rounds", "1", "--no-camera", *files]) == 1
    assert f"round {round_id} is still on hold" in capsys.readouterr().err
    assert main(["hold", "list", *files[:4]]) == 0
    listed = capsys.readouterr().out
    assert listed.startswith(round_id) and "could not be read" in listed


def test_the_supervisor_enters_the_unread_card_and_the_next_run_finishes_the_round(
    held: tuple[SimulatorProcess, list[str], str], capsys: pytest.CaptureFixture[str]
) -> None:
    sim, files, round_id = held
    sim.command("clear")  # the card taken out of the shoe's reader; the fault cleared at the machine
    assert main(["hold", "resume", round_id, "--card", "qh", "--reason", "inspected: queen of hearts", *files]) == 0
    assert capsys.readouterr().out.strip() == f"round {round_id} resumed"
    assert main(["run", "--rounds", "2", "--seed", "2", "--no-camera", *files]) == 0
    with Journal(files[3], table_id="TC-01") as journal:
        records = journal.round_records(round_id)
        assert journal.round(round_id).state == "complete"  # type: ignore[union-attr]
    action = next(r for r in records if r["event"] == "supervisor_action")
    assert (action["action"], action["card"], action["reason"]) == ("resume", "QH", "inspected: queen of hearts")
    assert [r["card"] for r in records if r["event"] == "card_dealt" and r["source"] == "supervisor"] == ["QH"]
    assert [r["count"] for r in records if r["event"] == "card_unreadable"] == [4]


def test_the_supervisor_voids_the_held_round_and_every_wager_is_returned(
    held: tuple[SimulatorProcess, list[str], str], capsys: pytest.CaptureFixture[str]
) -> None:
    sim, files, round_id = held
    assert main(["hold", "void", round_id, *files]) == 0
    assert "voided: every wager is returned" in capsys.readouterr().out
    with Journal(files[3], table_id="TC-01") as journal:
        assert journal.round(round_id).state == "void"  # type: ignore[union-attr]
    assert main(["hold", "resume", round_id, *files]) == 2
    assert f"round {round_id} is not on hold (it is void)" in capsys.readouterr().err
    sim.command("clear")
    assert main(["run", "--rounds", "1", "--seed", "4", "--no-camera", *files]) == 0


def test_holding_nothing_is_said_plainly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "j.sqlite"
    Journal(journal, table_id="TC-01").close()
    assert main(["hold", "list", "--journal", str(journal)]) == 0
    assert capsys.readouterr().out.strip() == "no round is on hold"
    assert main(["hold", "void", "TC-01-X-000001", "--journal", str(journal)]) == 2
    assert "no round TC-01-X-000001 in the journal" in capsys.readouterr().err
