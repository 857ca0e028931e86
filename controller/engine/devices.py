"""Opening the card source a table config names: a shoe or a shuffler, simulated or real."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from controller.cards import Card, shoe as make_shoe
from controller.engine.awaited import ABSENT, AwaitedShoe, AwaitedShuffler
from controller.engine.config import TableConfig
from controller.engine.feeds import CardFeed, DealerEntryFeed, ShoeFeed, ShufflerFeed
from controller.engine.log import EventLog
from controller.engine.shuffle.policy import Policy, PolicyError
from controller.engine.shuffle.watch import ShuffleWatch
from controller.errors import ConfigError
from drivers.errors import DeviceError
from drivers.registry import SHOES, SHUFFLERS, BadOptions, open_shoe, open_shuffler
from drivers.shoe import InProcessShoe, Shoe
from drivers.shuffler import InProcessShuffler, Shuffler


def open_feed(config: TableConfig, log: EventLog, *, seed: int | None = None, shoe_port: str | None = None,
              await_device: bool = False) -> CardFeed:
    """``shoe_port`` overrides ``[shoe] port`` (``tablectl run`` passes its simulator's pty). ``await_device``
    (``tablectl serve``): a shoe or shuffler not there yet is waited for, the table held meanwhile
    (``controller.engine.awaited``), rather than refused."""
    game = config.make_game()
    if game.device == "shoe":
        return _shoe_feed(config, game.deck(), log, seed, shoe_port, await_device)
    if game.device == "dealer":
        return DealerEntryFeed(game.deck(), log, seed=seed)
    return _shuffler_feed(config, game.deck(), game.stack_size, log, seed, await_device)


def shuffle_watch(config: TableConfig, deck: tuple[Card, ...], log: EventLog, source: str) -> ShuffleWatch | None:
    """The shuffle monitor for the feed's device, as ``[shuffle]`` sets it (``None`` when it is switched off)."""
    section = config.sections.get("shuffle", {})
    if not isinstance(section, dict):
        raise ConfigError(config.path, "shuffle", "must be a table of settings")
    try:
        policy = Policy.from_config(section)
    except PolicyError as exc:
        key, _, reason = str(exc).partition(": ")
        raise ConfigError(config.path, key, reason) from None
    if not policy.enabled:
        return None
    return ShuffleWatch(deck, log, device=f"{config.table_id}/{source}", policy=policy)


def _option(config: TableConfig, section: str, options: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    value = options.get(key, default)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ConfigError(config.path, f"{section}.{key}", f"must be {kind.__name__}, not {value!r}")
    return value


def _shoe_feed(
    config: TableConfig, deck: tuple[Card, ...], log: EventLog, seed: int | None, shoe_port: str | None,
    await_shoe: bool = False,
) -> ShoeFeed:
    """The shoe ``[shoe]`` describes; a simulated one must hold exactly the cards the game is dealt from."""
    options = config.shoe
    driver = _option(config, "shoe", options, "driver", str, "simulated")
    decks = _option(config, "shoe", options, "decks", int, 8)
    cut = _option(config, "shoe", options, "cut_from_end", int, 52)
    burn = _option(config, "shoe", options, "burn_after_shuffle", int, 1)
    jokers = _option(config, "shoe", options, "jokers_per_deck", int, 0)
    kind = _option(config, "shoe", options, "kind", str, "standard")
    shuffle = _option(config, "shoe", options, "shuffle", str, "random")
    watch = shuffle_watch(config, make_shoe(decks, jokers_per_deck=jokers, kind=kind), log, "shoe")
    if driver not in SHOES:
        raise ConfigError(config.path, "shoe.driver", f"unknown shoe driver {driver!r}: expected one of {', '.join(sorted(SHOES))}")
    if driver == "simulated":
        try:
            shoe: Shoe = InProcessShoe(decks, seed=seed, cut_from_end=cut, jokers_per_deck=jokers, kind=kind, shuffle=shuffle)
        except ValueError as exc:
            raise ConfigError(config.path, "shoe", str(exc)) from None
        if Counter(make_shoe(decks, jokers_per_deck=jokers, kind=kind)) != Counter(deck):
            raise ConfigError(config.path, "shoe", f"the shoe holds {decks} {kind} decks with {jokers} joker(s) "
                              f"per deck, but {config.game_id} is dealt from a different set of {len(deck)} cards: "
                              "make [shoe] decks, kind and jokers_per_deck match the game")
        return ShoeFeed(shoe, log, burn_after_shuffle=burn, watch=watch)
    feed_keys = ("driver", "decks", "cut_from_end", "burn_after_shuffle", "jokers_per_deck", "kind", "shuffle")
    device_options = _device_options(options, feed_keys)
    if shoe_port:
        device_options["port"] = shoe_port
    shoe = _open_shoe(config, driver, device_options, await_shoe)
    # docs/protocol.md 5.4, 5.5: the shoe's size is checked against the table's, its cut card against cut_from_end
    cards = len(make_shoe(decks, jokers_per_deck=jokers, kind=kind))
    return ShoeFeed(shoe, log, burn_after_shuffle=burn, shoe_cards=cards, decks=decks, cut_from_end=cut, watch=watch)


def _device_options(options: dict[str, Any], feed_keys: tuple[str, ...]) -> dict[str, Any]:
    """The config keys meant for the driver itself: ``port``, ``expected_serial``, ``vendor_id``, ..."""
    return {key: value for key, value in options.items() if key not in feed_keys}


def _open_shoe(config: TableConfig, driver: str, options: dict[str, Any], await_shoe: bool) -> Shoe:
    """The configured shoe; with ``await_shoe`` one that is not there (yet) is awaited (``AwaitedShoe``). Anything
    else (a key the driver does not take, a device that is not the configured one) is a ``ConfigError``."""
    def awaited(first: DeviceError) -> Shoe:
        return AwaitedShoe(lambda: open_shoe(driver, **options), _where(options), first)

    shoe: Shoe = _open_device(config, "shoe", open_shoe, driver, options, absent=awaited if await_shoe else None)
    return shoe


def _where(options: dict[str, Any]) -> str:
    """Where the device is looked for, as the pit reads it: its port, else its USB ids."""
    if "port" in options:
        return str(options["port"])
    ids = [options.get(key) for key in ("vendor_id", "product_id")]
    return "USB " + ":".join(f"{i:04x}" if isinstance(i, int) else str(i) for i in ids)


def _open_device(config: TableConfig, section: str, opener: Any, driver: str, options: dict[str, Any], *,
                 absent: Callable[[DeviceError], Any] | None = None) -> Any:
    """``opener(driver, **options)``; a device not there (yet) is ``absent(error)``'s when given, else refused."""
    try:
        return opener(driver, **options)
    except BadOptions as exc:
        if "port" not in options and "'port'" in str(exc):
            raise ConfigError(config.path, f"{section}.port", (
                f"the {section} driver {driver!r} needs the port the {section} is on "
                f'(port = "/dev/tablectl-{section}", the udev name of docs/operations.md, Installing the service); '
                + ("only `tablectl run` and `tablectl serve --simulated-players` start a simulator when no port is set"
                   if section == "shoe" else
                   "no command starts a simulated shuffler on its own: run `tablectl simulate shuffler` and set port to "
                   'the PORT it prints, or play on driver = "simulated"'))) from None
        raise ConfigError(config.path, section, str(exc)) from None
    except DeviceError as exc:
        if absent is not None and isinstance(exc, ABSENT):
            return absent(exc)
        raise ConfigError(config.path, section, f"cannot open the {section}: {exc}") from None


def _shuffler_feed(config: TableConfig, deck: tuple[Any, ...], stack: int, log: EventLog, seed: int | None,
                   await_device: bool = False) -> ShufflerFeed:
    options = config.shuffler
    driver = _option(config, "shuffler", options, "driver", str, "simulated")
    if driver not in SHUFFLERS:
        raise ConfigError(
            config.path, "shuffler.driver", f"unknown shuffler driver {driver!r}: expected one of {', '.join(sorted(SHUFFLERS))}"
        )
    watch = shuffle_watch(config, deck, log, "shuffler")
    if driver == "simulated":
        shuffle = _option(config, "shuffler", options, "shuffle", str, "random")
        try:
            shuffler = InProcessShuffler(deck, seed=seed, shuffle=shuffle)
        except ValueError as exc:
            raise ConfigError(config.path, "shuffler.shuffle", str(exc)) from None
        return ShufflerFeed(shuffler, log, stack_size=stack, watch=watch)
    device_options = {"deck": deck, **_device_options(options, ("driver",))}

    def awaited(first: DeviceError) -> Shuffler:
        return AwaitedShuffler(lambda: open_shuffler(driver, **device_options), _where(device_options), first)

    shuffler = _open_device(config, "shuffler", open_shuffler, driver, device_options, absent=awaited if await_device else None)
    return ShufflerFeed(shuffler, log, stack_size=stack, watch=watch)
