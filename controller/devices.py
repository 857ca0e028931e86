"""Opening the card source a table config names: a shoe or a shuffler, simulated or real."""

from __future__ import annotations

from typing import Any

from controller.config import TableConfig
from controller.errors import ConfigError
from controller.events import EventLog
from controller.feeds import CardFeed, DealerEntryFeed, ShoeFeed, ShufflerFeed
from drivers.shoe import InProcessShoe
from drivers.shuffler import InProcessShuffler


def open_feed(config: TableConfig, log: EventLog, *, seed: int | None = None) -> CardFeed:
    game = config.make_game()
    if game.device == "shoe":
        return _shoe_feed(config, log, seed)
    if game.device == "dealer":
        return DealerEntryFeed(game.deck(), log, seed=seed)
    return _shuffler_feed(config, game.deck(), game.stack_size, log, seed)


def _option(config: TableConfig, section: str, options: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    value = options.get(key, default)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ConfigError(config.path, f"{section}.{key}", f"must be {kind.__name__}, not {value!r}")
    return value


def _shoe_feed(config: TableConfig, log: EventLog, seed: int | None) -> ShoeFeed:
    options = config.shoe
    driver = _option(config, "shoe", options, "driver", str, "simulated")
    decks = _option(config, "shoe", options, "decks", int, 8)
    cut = _option(config, "shoe", options, "cut_from_end", int, 52)
    burn = _option(config, "shoe", options, "burn_after_shuffle", int, 1)
    if driver != "simulated":
        raise ConfigError(config.path, "shoe.driver", f"unknown shoe driver {driver!r}: expected 'simulated'")
    try:
        shoe = InProcessShoe(decks, seed=seed, cut_from_end=cut)
    except ValueError as exc:
        raise ConfigError(config.path, "shoe", str(exc)) from None
    return ShoeFeed(shoe, log, burn_after_shuffle=burn)


def _shuffler_feed(config: TableConfig, deck: tuple[Any, ...], stack: int, log: EventLog, seed: int | None) -> ShufflerFeed:
    options = config.shuffler
    driver = _option(config, "shuffler", options, "driver", str, "simulated")
    if driver != "simulated":
        raise ConfigError(config.path, "shuffler.driver", f"unknown shuffler driver {driver!r}: expected 'simulated'")
    return ShufflerFeed(InProcessShuffler(deck, seed=seed), log, stack_size=stack)
