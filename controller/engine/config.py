"""Table configurations: TOML files checked against one schema on load.

``controller.engine.config_schema`` says what every section and key may hold;
``parse_config`` reads a file's tables into it, then holds the sections against
each other and against the game (``_problems``). Every problem names the
file, the key and the reason, with the nearest key or game for a misspelt one;
nothing of a broken file is used, and nothing is opened or written before the
whole file passed (``tablectl config check FILE`` does only that).

Where a config is found (``controller.shipped``): ``--config FILE``; a bare
name such as ``pai-gow-tiles`` is looked for in ``/etc/tablectl/`` and then
among the shipped configs; without ``--config``, ``/etc/tablectl/table.toml``,
else the shipped ``top-card.toml``. Amounts are integer cents.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from controller import shipped
from controller.cards import DECKS, shoe as make_shoe
from controller.engine.config_schema import (
    LINK_KEYS,
    SERIAL_KEYS,
    USB_KEYS,
    Config,
    Device,
    Problem,
    Section,
    Shoe,
    did_you_mean,
    game_model,
    problems_of,
)
from controller.errors import ConfigError, GameNotAvailable
from controller.money import Cents, Rounding, format_cents
from controller.rules.base import ClaimsJackpots, Game, OptionError
from controller.rules.fees import FeeSchedule
from controller.rules.registry import GAMES, game_class
from drivers.registry import SHOES, SHUFFLERS

S = TypeVar("S", bound=Section)

DEFAULT_CONFIG = shipped.shipped_dir() / f"{shipped.DEFAULT_GAME}.toml"
"""The shipped Top Card table: what runs when neither ``--config`` nor ``/etc/tablectl/table.toml`` says otherwise."""


@dataclass(frozen=True)
class TableConfig:
    """A checked config. The section dicts hold what the file set (defaults live in the schema and in the
    code reading them); ``settings`` is the whole file as typed models, defaults filled in."""

    path: str
    table_id: str
    game_id: str
    spots: int
    rounding: Rounding
    game_options: dict[str, Any]
    limits: dict[str, tuple[Cents, Cents]]
    shoe: dict[str, Any] = field(default_factory=dict)
    shuffler: dict[str, Any] = field(default_factory=dict)
    log: dict[str, Any] = field(default_factory=dict)
    sections: dict[str, Any] = field(default_factory=dict)
    settings: Config | None = None

    def make_game(self) -> Game[Any]:
        try:
            return game_class(self.game_id)(self.game_options)
        except OptionError as exc:
            raise ConfigError(self.path, f"game.{exc.key}", exc.reason) from None


def default_config() -> Path:
    """``/etc/tablectl/table.toml`` when it exists, else the shipped Top Card config."""
    own = shipped.system_dir() / shipped.SYSTEM_CONFIG
    return own if own.is_file() else DEFAULT_CONFIG


def config_path(name: str | Path | None) -> Path:
    """The file ``--config NAME`` means: a path as given, a bare game name looked up (see the module)."""
    if name is None:
        return default_config()
    path = Path(name)
    if isinstance(name, str) and shipped.is_name(name) and not path.is_file():
        found = shipped.find(name)
        if found is None:
            raise ConfigError(name, "(file)", f"no such file, and no {name}.toml in {shipped.system_dir()} or among the "
                              f"shipped configs{did_you_mean(name, shipped.shipped_configs())}: give a file, or one of "
                              f"{', '.join(shipped.shipped_configs())}")
        return found
    return path


def read_toml(path: str | Path) -> dict[str, Any]:
    """A TOML file's tables; a missing, unreadable or malformed file is a ``ConfigError``."""
    file = str(path)
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(file, "(file)", "no such file") from None
    except UnicodeDecodeError:
        raise ConfigError(file, "(file)", "not UTF-8 text: is this a TOML config?") from None
    except OSError as exc:
        raise ConfigError(file, "(file)", f"cannot be read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(file, "(syntax)", f"not valid TOML: {exc}") from None


def load_config(path: str | Path | None = None) -> TableConfig:
    """The checked config ``path`` names (``None``: the default; a bare name: a game's, see ``config_path``)."""
    file = config_path(path)
    return parse_config(read_toml(file), str(file))


def parse_config(data: Mapping[str, Any], file: str = "<config>") -> TableConfig:
    """Check ``data`` (a config's TOML tables) against the schema and the game; every problem found is raised
    at once in one ``ConfigError``."""
    found = list(_problems(data, file))
    if found:
        first, *more = found
        raise ConfigError(file, first.key, first.reason, more=[(p.key, p.reason) for p in more])
    settings = Config.model_validate(data)
    cls = game_class(settings.table.game)
    options = _resolved(game_model(cls.id).model_validate(settings.game).set_values(), file)
    if settings.floor is not None and settings.floor.jackpot:
        options["linked_jackpot"] = settings.floor.jackpot  # the Progressive paid from the floor's meter
    return TableConfig(
        path=file,
        table_id=settings.table.id,
        game_id=cls.id,
        spots=settings.table.spots or cls.max_spots,
        rounding=Rounding(settings.table.rounding),
        game_options=options,
        limits={wager: (low, high) for wager, (low, high) in settings.limits.items()},
        shoe=settings.shoe.set_values() if settings.shoe else {},
        shuffler=settings.shuffler.set_values() if settings.shuffler else {},
        log=settings.log.set_values(),
        sections={name: getattr(settings, name).set_values() for name in ("vision", "shuffle", "journal", "console")
                  if name in data},
        settings=settings,
    )


def checked_section(file: str, name: str, model: type[S], data: Mapping[str, Any]) -> S:
    """One section read through its schema model on its own (a caller holding a section changed after loading);
    ``ConfigError`` names every problem as ``name.key``."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first, *more = problems_of(exc, model, (name,))
        raise ConfigError(file, first.key, first.reason, more=[(p.key, p.reason) for p in more]) from None


def _resolved(options: dict[str, Any], file: str) -> dict[str, Any]:
    """Game options with a file path (``house_way``) made relative to the config's folder, not the current one."""
    way = options.get("house_way")
    if isinstance(way, str) and not shipped.is_name(way) and not Path(way).is_absolute():
        beside = Path(file).parent / way
        options = {**options, "house_way": str(beside if beside.exists() or not Path(way).exists() else way)}
    return options


# -- the checks ----------------------------------------------------------------------------------------


def _problems(data: Mapping[str, Any], file: str) -> Iterator[Problem]:
    """Everything wrong with ``data``: the schema's findings first; the cross-checks once those pass."""
    try:
        settings = Config.model_validate(data)
    except ValidationError as exc:
        yield from problems_of(exc, Config)
        return
    game_id = settings.table.game
    if game_id not in GAMES:
        yield Problem("table.game", f"unknown game {game_id!r}{did_you_mean(game_id, GAMES)}: expected one of {', '.join(GAMES)}")
        return
    try:
        cls = game_class(game_id)
    except GameNotAvailable as exc:
        yield Problem("table.game", str(exc))
        return
    model = game_model(game_id)
    try:
        options = model.model_validate(settings.game)
    except ValidationError as exc:
        yield from problems_of(exc, model, ("game",))
        yield from _another_games_keys(settings.game, game_id, exc)
        return
    limits = list(_limit_problems(data.get("limits"), cls))
    yield from limits
    try:
        game = cls(_resolved(options.set_values(), file))
    except OptionError as exc:
        yield Problem(f"game.{exc.key}", exc.reason)
        return
    spots = settings.table.spots or cls.max_spots
    if spots > cls.max_spots:
        yield Problem("table.spots", f"must be 1 to {cls.max_spots} for {cls.title}, not {spots}")
        spots = cls.max_spots
    yield from _seat_problems(game, spots)
    if not limits:
        yield from _limits_of_the_rules(settings.limits, cls)
        yield from _limits_of_the_fees(settings.limits, game)
        yield from _limits_together(settings.limits, cls)
    yield from _device_problems(settings, game)
    if settings.floor is not None and settings.floor.jackpot and not isinstance(game, ClaimsJackpots):
        yield Problem("floor.jackpot", f"{cls.title} has no wager paid from a jackpot linked across tables "
                      "(High Card Flush's Progressive has): remove the key")
    if settings.vision is not None:
        yield from _vision_problems(settings, game, spots)


def _another_games_keys(section: Mapping[str, Any], game_id: str, exc: ValidationError) -> Iterator[Problem]:
    """When [game] holds keys ``game_id`` does not take, and another game takes every one of them: the config is
    that game's (copied, or its game changed), which one line says rather than only each key refused."""
    unknown = sorted({str(e["loc"][0]) for e in exc.errors() if e["type"] == "extra_forbidden" and e["loc"]})
    if not unknown:
        return
    theirs = [other for other in GAMES if other != game_id
              and set(section) <= set(game_model(other).model_fields)]
    if theirs:
        yield Problem("table.game", f"is {game_id!r}, but [game] {', '.join(unknown)} "
                      f"{'is a key' if len(unknown) == 1 else 'are keys'} of {' and '.join(theirs)}: is this the "
                      f"config of {'that game' if len(theirs) == 1 else 'one of those games'}? (`tablectl config init "
                      f"{game_id}` writes one for {game_id})")


def _limit_problems(section: Any, cls: type[Game[Any]]) -> Iterator[Problem]:
    """Each wager of the game given as ``[minimum, maximum]`` whole cents above zero, and no other."""
    if section is None:
        if cls.wagers:
            yield Problem("limits", f"is missing: {cls.title} needs [limits] with {', '.join(cls.wagers)}, "
                          "each as [minimum, maximum] in cents")
        return
    for wager, value in section.items():
        if wager not in cls.wagers:
            has = f"it has {', '.join(cls.wagers)}" if cls.wagers else "its amounts follow the game's limit structure"
            yield Problem(f"limits.{wager}", f"{cls.title} has no {wager!r} wager{did_you_mean(wager, cls.wagers)} ({has})")
            continue
        if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            yield Problem(f"limits.{wager}", f"must be [minimum, maximum] in whole cents, e.g. [500, 50000], not {value!r}")
            continue
        low, high = value
        if not 0 < low <= high:
            yield Problem(f"limits.{wager}", f"minimum must be above 0 and at most the maximum, not {low} to {high} cents "
                          f"({format_cents(low)} to {format_cents(high)})")
    for wager in cls.wagers:
        if wager not in section:
            yield Problem(f"limits.{wager}", "is missing: every wager needs [minimum, maximum] in cents")


def _seat_problems(game: Game[Any], spots: int) -> Iterator[Problem]:
    """A player-dealer game's seats on the table's layout: the seats its position passes among, and every seat a
    [game] key names (the player-dealer's first, a proposition player's, a player's extra seats), are spots of it."""
    total = getattr(getattr(game, "rotation", None), "total_seats", None)
    if isinstance(total, int) and total > spots:
        if "seats" in game.options:
            yield Problem("game.seats", f"the player-dealer position passes among {total} seats, but the table has "
                          f"{spots} spots ([table] spots): set seats = {spots}, or spots = {total}")
        else:
            yield Problem("table.spots", f"must be {total} for {game.title}: the player-dealer position passes among "
                          f"its {total} seats, not {spots}")
        return
    for key in ("player_dealer_seat", "proposition_player_seats", "extra_seats"):
        value = game.options.get(key)
        items = value if isinstance(value, list) else [value]
        seats = [s for item in items for s in (item if isinstance(item, list) else [item]) if isinstance(s, int)]
        if off := [s for s in seats if not 1 <= s <= spots]:
            yield Problem(f"game.{key}", f"seat {', '.join(map(str, off))} is not at this table: [table] spots = "
                          f"{spots} (seats 1 to {spots})")


def _limits_of_the_rules(limits: Mapping[str, list[int]], cls: type[Game[Any]]) -> Iterator[Problem]:
    """Each wager's posted limits inside what the game's own rules allow it (``Game.rule_limits``)."""
    for wager, bound in cls.rule_limits.items():
        if wager not in limits:
            continue
        low, high = limits[wager]
        wrong = []
        if bound.least is not None and low < bound.least:
            wrong.append(f"the minimum must be at least {format_cents(bound.least)} ({bound.least} cents)")
        if bound.most is not None and high > bound.most:
            wrong.append(f"the maximum must be at most {format_cents(bound.most)} ({bound.most} cents)")
        if bound.unit is not None and (low % bound.unit or high % bound.unit):
            wrong.append(f"both must be whole multiples of {format_cents(bound.unit)} ({bound.unit} cents)")
        if wrong:
            yield Problem(f"limits.{wager}", f"outside the game's rules: {', '.join(wrong)}, not {format_cents(low)} "
                          f"to {format_cents(high)} ([{low}, {high}]); {bound.rule}")


def _limits_of_the_fees(limits: Mapping[str, list[int]], game: Game[Any]) -> Iterator[Problem]:
    """Each wager's posted limits inside what its posted collection fee schedule covers, where a fee is taken on each
    wager (the pai gow games' $10 to $500, the blackjack players' $5 or more): a wager outside it is refused."""
    schedules = getattr(game, "fee_schedules", None)
    if not isinstance(schedules, Mapping):
        return
    for wager, schedule in schedules.items():
        if not isinstance(schedule, FeeSchedule) or schedule.basis != "wager" or wager not in limits:
            continue
        low, high = limits[wager]
        top = schedule.brackets[-1].upto if schedule.brackets else None
        covers = f"{format_cents(schedule.minimum)} to {format_cents(top)}" if top is not None else \
            f"{format_cents(schedule.minimum)} or more"
        if low < schedule.minimum or (top is not None and high > top):
            yield Problem(f"limits.{wager}", f"the posted collection fee schedule {schedule.name!r} covers {covers} a "
                          f"wager, not {format_cents(low)} to {format_cents(high)}: a wager it does not cover is "
                          f"refused at no more bets; keep the limits within [{schedule.minimum}, "
                          f"{top if top is not None else high}]")


def _limits_together(limits: Mapping[str, list[int]], cls: type[Game[Any]]) -> Iterator[Problem]:
    """A player-dealer's bank must be able to cover at least the largest minimum wager it banks against."""
    if "bank" not in limits:
        return
    floor_wager = max((w for w in limits if w != "bank"), key=lambda w: limits[w][0], default=None)
    if floor_wager is not None and limits["bank"][1] < limits[floor_wager][0]:
        yield Problem("limits.bank", f"the largest bank ({format_cents(limits['bank'][1])}) cannot cover one minimum "
                      f"{floor_wager} wager ({format_cents(limits[floor_wager][0])}): raise the bank's maximum")


def _device_problems(settings: Config, game: Game[Any]) -> Iterator[Problem]:
    """The card source the game is dealt from, and only that one, with the keys its driver takes."""
    title, device = game.title, game.device
    used = {"shoe": "a dealing shoe ([shoe])", "shuffler": "a shuffler ([shuffler])", "dealer": "the dealer's hand (no device)"}
    for name in ("shoe", "shuffler"):
        section = getattr(settings, name)
        if section is None:
            continue
        if name != device:
            yield Problem(name, f"{title} is dealt from {used[device]}: [{name}] is not read; remove it")
            continue
        drivers = SHOES if name == "shoe" else SHUFFLERS
        if section.driver not in drivers:
            yield Problem(f"{name}.driver", f"unknown {name} driver {section.driver!r}{did_you_mean(section.driver, drivers)}: "
                          f"expected one of {', '.join(sorted(drivers))}")
            continue
        yield from _device_keys(name, section)
    if device == "shoe":
        yield from _shoe_holds_the_game(settings, game)


def _device_keys(name: str, section: Device) -> Iterator[Problem]:
    driver = section.driver
    given = set(section.set_values())
    wrong: dict[str, tuple[str, ...]] = {
        "simulated": (*SERIAL_KEYS, *USB_KEYS, *LINK_KEYS, "deal_on_demand"),
        "reference": (*USB_KEYS, "shuffle"),
        "reference-usb": (*SERIAL_KEYS, "shuffle"),
    }
    for key in sorted(given & set(wrong.get(driver, ()))):
        why = ('the simulated one runs in this process: set driver = "reference" for a device on a port'
               if driver == "simulated" else "a real device shuffles by itself; bad shuffles are for the simulated one"
               if key == "shuffle" else f"it is for {'a USB' if key in USB_KEYS else 'a serial'} device")
        yield Problem(f"{name}.{key}", f"the {driver} {name} driver takes no {key} ({why})")
    if driver == "reference-usb":
        for key in ("vendor_id", "product_id"):
            if key not in given:
                yield Problem(f"{name}.{key}", "is missing: a USB device is found by vendor_id and product_id")


def _shoe_holds_the_game(settings: Config, game: Game[Any]) -> Iterator[Problem]:
    """The shoe's decks, kind and jokers make exactly the cards the game is dealt from; the cut card lies in it."""
    shoe = settings.shoe or Shoe()
    wanted = Counter(game.deck())
    held = make_shoe(shoe.decks, jokers_per_deck=shoe.jokers_per_deck, kind=shoe.kind)
    if Counter(held) != wanted:
        right = next(((d, j, k) for k in DECKS for j in (0, 1) for d in range(1, 9)
                      if Counter(make_shoe(d, jokers_per_deck=j, kind=k)) == wanted), None)
        what = f"the {sum(wanted.values())} cards {game.title} is dealt from"
        if right is None:
            yield Problem("shoe", f"no shoe of standard decks holds {what}")
            return
        for key, good, bad in zip(("decks", "jokers_per_deck", "kind"), right, (shoe.decks, shoe.jokers_per_deck, shoe.kind), strict=True):
            if good != bad:
                also = " (as [game] decks says)" if key == "decks" and "decks" in settings.game else ""
                yield Problem(f"shoe.{key}", f"must be {good!r}{also} for the shoe to hold exactly {what}, not {bad!r}")
        return
    if shoe.cut_from_end >= len(held):
        yield Problem("shoe.cut_from_end", f"must be 1 to {len(held) - 1}: the cards left behind the cut card, fewer "
                      f"than the {len(held)} the shoe holds so that some are dealt before it; not {shoe.cut_from_end}")


def _vision_problems(settings: Config, game: Game[Any], spots: int) -> Iterator[Problem]:
    """A filming camera is calibrated and has a zone for every card target; no zone names what the game lacks."""
    vision = settings.vision
    assert vision is not None
    if vision.crosscheck and vision.calibration is None:
        yield Problem("vision.calibration", "is missing: crosscheck = true needs the camera's calibration "
                      "([vision.calibration], written by `tablectl vision calibrate`)")
    targets = card_targets(game, spots)
    if targets is None:
        return
    seats = {t.split(".", 1)[0] for t in targets}
    for zone in vision.zones:
        if zone not in targets and zone not in seats:
            yield Problem(f"vision.zones.{zone}", f"{game.title} deals no cards to {zone!r}{did_you_mean(zone, sorted(targets))}: "
                          f"its card targets are {', '.join(targets)}")
    if vision.crosscheck:
        missing = [t for t in targets if t not in vision.zones]
        if missing:
            yield Problem("vision.zones", f"no zone for {', '.join(repr(t) for t in missing)}: the camera must see every "
                          f"card target of {game.title} ({', '.join(targets)})")


def card_targets(game: Game[Any], spots: int) -> tuple[str, ...] | None:
    """Where the game deals cards, as the camera's zones name them, for a table of ``spots``; ``None``
    for a game that does not say (its zones are then not checked by name)."""
    targets = getattr(game, "card_targets", None)
    return tuple(targets(spots)) if callable(targets) else None
