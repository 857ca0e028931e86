"""A config whose [game] is another game's says so in one line, beside each key it refuses.

What the manager saw: the Fortune Pai Gow config copied for a Three Card Poker table (only `game` changed) gave
eight lines of "game.house_way: unknown key ...", "game.wheel: unknown key ...", each listing Three Card Poker's
keys; nothing said the file was still a Fortune Pai Gow config.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.shipped import shipped_dir


def with_game(tmp_path: Path, shipped: str, game: str) -> Path:
    text = (shipped_dir() / f"{shipped}.toml").read_text()
    assert text.count(f'game = "{shipped}"') == 1
    path = tmp_path / "table.toml"
    path.write_text(text.replace(f'game = "{shipped}"', f'game = "{game}"'))
    return path


@pytest.mark.parametrize(("shipped", "game", "keys"), [
    ("fortune-pai-gow", "three-card-poker",
     "bank_fee_schedule, envy_threshold, extra_seats, fee_schedule, house_way, overlap, paytable, wheel are keys"),
    ("fortune-pai-gow", "double-hand-poker", "envy_threshold, overlap, paytable are keys"),
    ("no-bust-21", "pure-21-5", "over_above is a key"),
])
def test_a_config_of_another_game_is_named_as_that_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shipped: str, game: str, keys: str) -> None:
    path = with_game(tmp_path, shipped, game)
    assert main(["config", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert (f"tablectl: {path}: table.game: is {game!r}, but [game] {keys} of {shipped}: is this the config of "
            f"that game? (`tablectl config init {game}` writes one for {game})") in err, err
    assert "game.paytable: unknown key" in err or "game.over_above: unknown key" in err


def test_a_misspelt_key_is_not_taken_for_another_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (shipped_dir() / "no-bust-21.toml").read_text().replace("\nbonus_paytable =", "\nbonus_paytabel =")
    (tmp_path / "table.toml").write_text(text)
    assert main(["config", "check", str(tmp_path / "table.toml")]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'bonus_paytable'?" in err and "table.game" not in err
