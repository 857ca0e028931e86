"""`tablectl config check | init`, `--version`, where a config is found, and the schema's word on each key."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from controller.commands.cli import main
from controller.engine.config import DEFAULT_CONFIG, config_path, load_config
from controller.engine.config_schema import GAME_OPTIONS
from controller.errors import ConfigError
from controller.rules.registry import GAMES, make_game

ROOT = Path(__file__).resolve().parents[1]
TOP_CARD = (ROOT / "config" / "top-card.toml").read_text()


def test_version_names_the_installed_release(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("tablectl 0.")


def test_every_shipped_config_checks(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in (ROOT / "config").glob("*.toml"))
    assert main(["config", "check", *files]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(files) == len(GAMES) and all(": ok: " in line for line in out)


@pytest.mark.parametrize(("old", "new", "line"), [
    ("spots = 7", "spotz = 7", "table.spotz: unknown key (did you mean 'spots'?): expected one of id, game, spots, rounding, time_zone"),
    ('paytable = "standard"', 'paytabel = "standard"', "game.paytabel: unknown key (did you mean 'paytable'?)"),
    ("min_confidence = 0.99", "min_confidense = 0.99", "vision.min_confidense: unknown key (did you mean 'min_confidence'?)"),
    ("crosscheck = true", 'crosscheck = "false"',
     'vision.crosscheck: must be true or false, not the text "false" (true and false are written without quotes)'),
    ("decks = 8", "dekcs = 8", "shoe.dekcs: unknown key (did you mean 'decks'?)"),
    ("home = [[120.0", "banker = [[120.0", "vision.zones.banker: Top Card deals no cards to 'banker': its card targets are home, away"),
    ('game = "top-card"', 'game = "top-crad"', "table.game: unknown game 'top-crad' (did you mean 'top-card'?)"),
])
def test_the_issue_s_typos_are_named_with_what_was_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      old: str, new: str, line: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(TOP_CARD.replace(old, new, 1))
    assert main(["config", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tablectl: {path}: {line}")


def test_check_lists_every_problem_of_a_file_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.toml"
    path.write_text(TOP_CARD.replace("tie = [100, 10000]", "tie = [1000, 100]").replace("away = [500", "away = [0"))
    assert main(["config", "check", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(": ")[2] for line in lines] == ["limits.away", "limits.tie"]
    assert "($10.00 to $1.00)" in lines[1]


def test_check_of_a_file_that_is_not_toml_or_not_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00garbage")
    assert main(["config", "check", str(tmp_path / "bin.toml"), str(tmp_path / "none.toml")]) == 2
    err = capsys.readouterr().err
    assert "bin.toml: (file): not UTF-8 text" in err and "none.toml: (file): no such file" in err


@pytest.mark.parametrize("game", GAMES)
def test_init_writes_a_commented_config_that_checks(tmp_path: Path, game: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "etc" / f"{game}.toml"
    assert main(["config", "init", game, "--out", str(out)]) == 0
    text = out.read_text()
    shipped = (ROOT / "config" / f"{game}.toml").read_text()
    assert text.startswith(shipped.rstrip("\n")[:200]) and "# port = 8470" in text  # the rules' comments, and the defaults
    assert load_config(out).game_id == game
    # the floor's link is there to uncomment (docs/floor.md), and checks once uncommented
    floor = text[text.index("# [floor]"):].split("\n\n")[0]
    assert '# site = "main-floor"' in floor and "# servers = [" in floor
    uncommented = text.replace(floor, "\n".join(line.removeprefix("# ") for line in floor.splitlines()))
    (tmp_path / "linked.toml").write_text(uncommented)
    linked = load_config(tmp_path / "linked.toml").settings
    assert linked is not None and linked.floor is not None and linked.floor.site == "main-floor"
    assert main(["config", "init", game, "--out", str(out)]) == 2
    assert "exists: pass --force" in capsys.readouterr().err


def test_init_of_an_unknown_game_offers_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "init", "pai-gow-tile"]) == 2
    assert "did you mean 'pai-gow-tiles'?" in capsys.readouterr().err


def test_a_config_is_found_by_path_then_in_the_system_folder_then_among_the_shipped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLECTL_CONFIG_DIR", str(tmp_path))
    assert config_path(None) == DEFAULT_CONFIG
    assert config_path("pai-gow-tiles") == DEFAULT_CONFIG.parent / "pai-gow-tiles.toml"
    (tmp_path / "table.toml").write_text(TOP_CARD)
    (tmp_path / "pai-gow-tiles.toml").write_text("")
    assert config_path(None) == tmp_path / "table.toml"
    assert config_path("pai-gow-tiles") == tmp_path / "pai-gow-tiles.toml"
    assert config_path(str(tmp_path / "table.toml")) == tmp_path / "table.toml"
    with pytest.raises(ConfigError, match="did you mean 'holdem'"):
        config_path("holdm")


def test_a_house_way_file_is_found_beside_the_config(tmp_path: Path) -> None:
    (tmp_path / "ways").mkdir()
    (tmp_path / "ways" / "ours.toml").write_text((ROOT / "config" / "house-way" / "pai-gow-tiles.toml").read_text())
    config = tmp_path / "tiles.toml"
    config.write_text((ROOT / "config" / "pai-gow-tiles.toml").read_text()
                      .replace("player_dealer_seat = 1", 'player_dealer_seat = 1\nhouse_way = "ways/ours.toml"'))
    assert load_config(config).game_options["house_way"] == str(tmp_path / "ways" / "ours.toml")


def _plain(value: Any) -> Any:
    """A game's state as plain values, objects without a repr of their own opened up."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "__dict__") and type(value).__repr__ is object.__repr__:
        return _plain(vars(value))
    return repr(value)


def _state(game: Any) -> Any:
    return _plain({k: v for k, v in vars(game).items() if k != "options"})


@pytest.mark.parametrize("game_id", GAMES)
def test_the_schema_s_defaults_are_the_game_s_own(game_id: str) -> None:
    """A [game] written out with every default of the schema makes the same game as an empty [game]."""
    defaults = {k: v for k, v in GAME_OPTIONS[game_id]().model_dump().items() if v is not None}
    assert _state(make_game(game_id, defaults)) == _state(make_game(game_id, {}))


def test_every_key_of_every_shipped_config_is_in_the_schema() -> None:
    """What `config check` passes, the schema names: no section is read as free-form text."""
    for path in sorted((ROOT / "config").glob("*.toml")):
        data = tomllib.loads(path.read_text())
        settings = load_config(path).settings
        assert settings is not None
        for section, table in data.items():
            model = getattr(settings, section)
            keys = set(table) if section not in ("game", "limits") else set()
            assert keys <= set(type(model).model_fields) if keys else True, (path, section)
        assert set(data.get("game", {})) <= set(GAME_OPTIONS[data["table"]["game"]].model_fields), path
