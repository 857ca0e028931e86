"""`tablectl vision calibrate` edits the config in place: comments and layout kept, a backup kept, and a zone
the game has no card target for refused before anything is written."""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.engine.config import load_config

ROOT = Path(__file__).resolve().parents[1]
IMAGE = "100,50 1800,40 1900,1050 20,1060"
TABLE = "0,0 800,0 800,450 0,450"
HOME = "home=100,150 360,150 360,400 100,400"
AWAY = "away=440,150 700,150 700,400 440,400"


def _table(tmp_path: Path, game: str = "top-card") -> Path:
    path = tmp_path / "table.toml"
    path.write_text((ROOT / "config" / f"{game}.toml").read_text())
    return path


def _calibrate(path: Path, *zones: str) -> int:
    argv = ["vision", "calibrate", "--config", str(path), "--image-points", IMAGE, "--table-points", TABLE]
    for zone in zones:
        argv += ["--zone", zone]
    return main(argv)


def test_calibrate_keeps_every_comment_and_line_it_does_not_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _table(tmp_path)
    before = path.read_text()
    assert _calibrate(path, HOME, AWAY) == 0
    after = path.read_text()
    changed = {"image_points", "home", "away"}
    kept = [line for line in before.splitlines() if line.split(" = ")[0] not in changed]
    assert [line for line in after.splitlines() if line.split(" = ")[0] not in changed] == kept
    assert '# port = "/dev/serial/by-id/usb-tablectl_TCS-SHOE-1_SIM-0001-if00"' in after  # the commented hints too
    vision = tomllib.loads(after)["vision"]
    assert vision["calibration"]["image_points"][0] == [100.0, 50.0] and vision["zones"]["away"][1] == [700.0, 150.0]
    assert "image_points = [[100.0, 50.0], [1800.0, 40.0], [1900.0, 1050.0], [20.0, 1060.0]]" in after  # one line, as written
    backups = list(tmp_path.glob("table.toml.*.bak"))
    assert len(backups) == 1 and backups[0].read_text() == before
    assert f"the previous file is {backups[0]}" in capsys.readouterr().out
    assert load_config(path).game_id == "top-card"


def test_an_edit_in_the_same_second_as_a_backup_keeps_that_backup_and_its_own(tmp_path: Path) -> None:
    """Two calibrations in one second: the second's backup does not overwrite the first's (the original config)."""
    path = _table(tmp_path)
    before = path.read_text()
    now = dt.datetime.now().astimezone()
    taken = [path.with_name(f"{path.name}.{now + dt.timedelta(seconds=s):%Y%m%dT%H%M%S}.bak") for s in range(3)]
    for file in taken:
        file.write_text("the original config, backed up a moment ago\n")
    assert _calibrate(path, HOME, AWAY) == 0
    assert all(file.read_text() == "the original config, backed up a moment ago\n" for file in taken)
    assert [b.read_text() for b in tmp_path.glob("table.toml.*.bak") if b not in taken] == [before]


def test_calibrate_without_zones_keeps_the_config_s_zones(tmp_path: Path) -> None:
    path = _table(tmp_path)
    zones = tomllib.loads(path.read_text())["vision"]["zones"]
    assert _calibrate(path) == 0
    assert tomllib.loads(path.read_text())["vision"]["zones"] == zones


@pytest.mark.parametrize(("game", "zones", "message"), [
    ("top-card", (HOME, AWAY, "banker=0,0 10,0 10,10"), "vision.zones.banker: Top Card deals no cards to 'banker'"),
    ("top-card", (HOME,), "vision.zones: no zone for 'away'"),
    ("no-bust-21", ("9=0,0 10,0 10,10",), "vision.zones.9: No Bust 21st Century Blackjack deals no cards to '9'"),
])
def test_calibrate_refuses_zones_the_game_has_no_target_for_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, zones: tuple[str, ...], message: str) -> None:
    path = _table(tmp_path, game)
    before = path.read_text()
    assert _calibrate(path, *zones) == 2
    assert message in capsys.readouterr().err
    assert path.read_text() == before and sorted(p.name for p in tmp_path.iterdir()) == ["table.toml"]
