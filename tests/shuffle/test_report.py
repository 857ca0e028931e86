"""``tablectl shuffle report``: every shoe's tests read back from the journal, as text, JSON and a picture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.commands.cli import main
from tests.helpers import init_table


def _config(tmp_path: Path, shuffle: str) -> Path:
    text = Path("config/top-card.toml").read_text()
    text = text.replace('driver = "reference"', f'driver = "simulated"\nshuffle = "{shuffle}"')
    text = text.replace("crosscheck = true", "crosscheck = false")
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


@pytest.fixture
def held_table(tmp_path: Path) -> tuple[Path, Path]:
    """A table whose shoe came in factory order: held in its second round."""
    config, journal = _config(tmp_path, "factory"), tmp_path / "journal.sqlite"
    init_table(journal, tmp_path / "events.jsonl", config)
    main(["run", "--config", str(config), "--rounds", "3", "--seed", "1", "--journal", str(journal),
          "--log", str(tmp_path / "events.jsonl"), "--no-camera"])
    return config, journal


def test_the_report_lists_each_shoe_with_its_alarms_and_draws_the_picture(
    held_table: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, journal = held_table
    picture = tmp_path / "shuffle.svg"
    assert main(["shuffle", "report", "--config", str(config), "--journal", str(journal), "--picture", str(picture)]) == 0
    out = capsys.readouterr().out
    assert "TC-01/shoe: 1 shoes" in out and "guess hold @4" in out and "chi-square" in out
    assert picture.read_text().lstrip().startswith("<?xml") and "hold line red" in picture.read_text()


def test_one_shoe_in_full_and_as_json(held_table: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    config, journal = held_table
    args = ["shuffle", "report", "--config", str(config), "--journal", str(journal), "--shoe", "1", "--no-picture"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "alarm: shuffle test" in out and "inventory (end of shoe)" in out and "correct guesses" in out
    assert main([*args, "--json"]) == 0
    (shoe,) = json.loads(capsys.readouterr().out)
    assert shoe["shoe"] == 1 and "hold" in {a["level"] for a in shoe["alarms"]}
    assert {r["test"] for r in shoe["results"]} >= {"pairs", "guess", "drift", "chi-square"}


def test_a_shoe_not_in_the_journal_or_a_wrong_picture_is_refused_in_words(
    held_table: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    config, journal = held_table
    base = ["shuffle", "report", "--config", str(config), "--journal", str(journal)]
    assert main([*base, "--shoe", "9"]) == 2
    assert "no shoe 9 in the journal of TC-01 (the last shoes: 1)" in capsys.readouterr().err
    assert main([*base, "--picture", "out.gif"]) == 2
    assert "drawn as .png or .svg" in capsys.readouterr().err
    assert main(["shuffle", "report", "--config", str(config), "--journal", str(journal.with_name("none.sqlite"))]) == 2
    assert "no journal at" in capsys.readouterr().err
