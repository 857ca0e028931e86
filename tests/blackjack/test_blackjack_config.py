"""The blackjack table configs: validated on load, and the shoe must hold the game's deck."""

import dataclasses

import pytest

from controller.engine.config import load_config, parse_config
from controller.engine.devices import open_feed
from controller.errors import ConfigError, WagerRefused
from controller.rules.base import OptionError
from controller.rules.registry import make_game
from tests.helpers import MemoryLog, in_process_config


@pytest.mark.parametrize(("path", "size"), [("config/no-bust-21.toml", 424), ("config/pure-21-5.toml", 312)])
def test_configs_load_and_deal_the_games_deck(path, size) -> None:
    config = in_process_config(path)
    feed = open_feed(config, MemoryLog(), seed=1)
    assert feed.shoe.size == size


def test_a_shoe_that_does_not_hold_the_games_deck_is_a_config_error() -> None:
    # [shoe] must make exactly the cards the game is dealt from: refused on load, naming the key that differs
    config = load_config("config/no-bust-21.toml")
    with pytest.raises(ConfigError) as info:
        parse_config({**_data(config), "shoe": {"decks": 8, "jokers_per_deck": 0}}, "nb.toml")
    assert info.value.key == "shoe.jokers_per_deck"
    assert "must be 1 for the shoe to hold exactly the 424 cards No Bust 21st Century Blackjack is dealt from" in info.value.reason


def test_a_shoe_built_past_the_config_check_still_refuses_a_deck_that_is_not_the_games() -> None:
    # the in-process shoe is built from [shoe] (a test may swap it): it must be the deck the game is dealt from
    config = load_config("config/no-bust-21.toml")
    broken = dataclasses.replace(config, shoe={"decks": 8, "jokers_per_deck": 0})
    with pytest.raises(ConfigError, match="jokers_per_deck match the game"):
        open_feed(broken, MemoryLog())


def _data(config) -> dict:
    return {"table": {"id": config.table_id, "game": config.game_id}, "game": dict(config.game_options),
            "limits": {k: list(v) for k, v in config.limits.items()}}


@pytest.mark.parametrize(("game", "options", "key"), [
    ("no-bust-21", {"over_above": 23}, "over_above"),
    ("no-bust-21", {"decks": 9}, "decks"),
    ("no-bust-21", {"player_dealer_seat": 9}, "player_dealer_seat"),
    ("no-bust-21", {"surrender": "yes"}, "surrender"),
    ("pure-21-5", {"rule_888": "lose"}, "rule_888"),
    ("pure-21-5", {"blackjack_pays": "2 to 1"}, "blackjack_pays"),
    ("pure-21-5", {"buster_paytable": "generous"}, "buster_paytable"),
])
def test_bad_game_options_name_the_key(game, options, key) -> None:
    with pytest.raises(OptionError) as info:
        make_game(game, options)
    assert info.value.key == key


def test_action_beyond_the_posted_fee_schedule_is_refused_at_no_more_bets() -> None:
    # the posted schedule covers $5 to $1,000 of action on the table
    game = make_game("no-bust-21")
    with pytest.raises(WagerRefused, match="above the highest posted bracket"):
        game.fees([1, 2], {(1, "bank"): 150000, (2, "base"): 120000})
