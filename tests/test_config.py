"""Table configs: the default loads, and each kind of mistake is named with file, key and reason."""

import pytest

from controller.commands.cli import main
from controller.engine.config import DEFAULT_CONFIG, load_config
from controller.errors import ConfigError

GOOD = DEFAULT_CONFIG.read_text()


def write(tmp_path, text: str):
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def test_the_default_config_is_top_card() -> None:
    config = load_config()
    assert config.game_id == "top-card" and config.spots == 7
    assert config.limits["tie"] == (100, 10000)


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"),
    [
        ('game = "top-card"', 'game = "baccarat"', "table.game", "unknown game"),
        ('game = "top-card"', 'game = "holdem-x"', "table.game", "unknown game"),
        ("spots = 7", "spots = 9", "table.spots", "1 to 7"),
        ("spots = 7", 'spots = "seven"', "table.spots", "whole number"),
        ('rounding = "player"', 'rounding = "bank"', "table.rounding", "'player' or 'house'"),
        ('paytable = "standard"', 'paytable = "gold"', "game.paytable", "unknown pay table"),
        ("tie = [100, 10000]", "tie = [100]", "limits.tie", "[minimum, maximum]"),
        ("tie = [100, 10000]", "tie = [1000, 100]", "limits.tie", "at most the maximum"),
        ("tie = [100, 10000]", "tie = [1.5, 100]", "limits.tie", "whole cents"),
        ("tie = [100, 10000]", "", "limits.tie", "is missing"),
        ("tie = [100, 10000]", "tie = [100, 10000]\nbanker = [1, 2]", "limits.banker", "no 'banker' wager"),
        ('id = "TC-01"', 'id = "TC 01!"', "table.id", "letters, digits"),
        ("[log]", "[logs]", "logs", "unknown section"),
    ],
)
def test_each_mistake_names_file_key_and_reason(tmp_path, old, new, key, reason) -> None:
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.file == str(path) and info.value.key == key
    assert reason in info.value.reason


def test_syntax_errors_and_missing_files(tmp_path) -> None:
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(write(tmp_path, "[table\nid="))
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "absent.toml")


def test_the_cli_reports_a_broken_config_and_exits_2(tmp_path, capsys) -> None:
    path = write(tmp_path, GOOD.replace("spots = 7", "spots = 0"))
    assert main(["run", "--config", str(path), "--rounds", "1"]) == 2
    assert "table.spots" in capsys.readouterr().err
