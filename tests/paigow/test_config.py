"""The Double-Hand Poker and Fortune Pai Gow configs load, and a wrong option names its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.engine.config import load_config
from controller.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["double-hand-poker", "fortune-pai-gow"])
def test_the_shipped_configs_load(name: str) -> None:
    config = load_config(ROOT / "config" / f"{name}.toml")
    game = config.make_game()
    assert game.id == name and game.device == "shuffler" and len(game.deck()) == 53


@pytest.mark.parametrize(("old", "new", "key"), [
    ('wheel = "lowest"', 'wheel = "highest"', "game.wheel"),
    ('bank_fee_schedule = "pai-gow-player-dealer"', 'bank_fee_schedule = "banker"', "game.bank_fee_schedule"),
    ("extra_seats = [[5, 6]]", "extra_seats = [[5, 5]]", "game.extra_seats"),
    ("player_dealer_seat = 1", "player_dealer_seat = 8", "game.player_dealer_seat"),
    ('fee_schedule = "pai-gow-player"', 'fee_schedule = "pai-gow"', "game.fee_schedule"),
    ('house_way = "double-hand-poker"', 'house_way = "house-way/nowhere.toml"', "game.house_way"),
    ('house_way = "double-hand-poker"', 'house_way = "double-hand-pokr"', "game.house_way"),
])
def test_a_wrong_option_is_refused_naming_its_key(tmp_path: Path, old: str, new: str, key: str) -> None:
    text = (ROOT / "config" / "double-hand-poker.toml").read_text()
    assert old in text
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace(old, new))
    with pytest.raises(ConfigError) as info:
        load_config(broken)
    assert info.value.key == key


@pytest.mark.parametrize(("old", "new", "key"), [
    ('paytable = "FPG-04"', 'paytable = "FPG-99"', "game.paytable"),
    ('overlap = "higher-payout"', 'overlap = "both"', "game.overlap"),
    ("envy_threshold = 500", 'envy_threshold = "five dollars"', "game.envy_threshold"),
])
def test_a_wrong_fortune_option_is_refused_naming_its_key(tmp_path: Path, old: str, new: str, key: str) -> None:
    text = (ROOT / "config" / "fortune-pai-gow.toml").read_text()
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace(old, new))
    with pytest.raises(ConfigError) as info:
        load_config(broken)
    assert info.value.key == key
