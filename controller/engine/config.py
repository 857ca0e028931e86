"""Table configurations: TOML files in ``config/``, validated on load.

Every error names the file, the key and what would be right, and nothing of a
broken file is used. Amounts are integer cents. A config looks like
``config/top-card.toml``; sections other parts of tablectl read (``vision``,
``journal``, ``console``, ...) are kept in ``sections`` for them to validate.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.errors import ConfigError, GameNotAvailable
from controller.rules.registry import game_class
from controller.rules.base import Game, OptionError
from controller.money import Cents, Rounding

KNOWN_SECTIONS = ("table", "game", "limits", "shoe", "shuffler", "log", "vision", "journal", "console", "devices")
DEFAULT_CONFIG = Path(__file__).resolve().parents[2] / "config" / "top-card.toml"


@dataclass(frozen=True)
class TableConfig:
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

    def make_game(self) -> Game[Any]:
        try:
            return game_class(self.game_id)(self.game_options)
        except OptionError as exc:
            raise ConfigError(self.path, f"game.{exc.key}", exc.reason) from None


class _Reader:
    """Typed access to one TOML table with errors that name ``file`` and the dotted key."""

    def __init__(self, file: str, prefix: str, data: Mapping[str, Any]) -> None:
        self.file, self.prefix, self.data = file, prefix, data

    def fail(self, key: str, reason: str) -> ConfigError:
        return ConfigError(self.file, f"{self.prefix}.{key}" if self.prefix else key, reason)

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise self.fail(key, "is missing")
            return default
        value = self.data[key]
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise self.fail(key, f"must be {_kind_name(kind)}, not a boolean")
        if not isinstance(value, kind):
            raise self.fail(key, f"must be {_kind_name(kind)}, not {type(value).__name__} {value!r}")
        return value

    def section(self, key: str) -> _Reader:
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(key, f"must be a table ([{key}]), not {type(value).__name__}")
        return _Reader(self.file, f"{self.prefix}.{key}" if self.prefix else key, value)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "a whole number", str: "text", float: "a number", bool: "true or false", list: "a list", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def load_config(path: str | Path = DEFAULT_CONFIG) -> TableConfig:
    file = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(file, "(file)", "no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(file, "(syntax)", f"not valid TOML: {exc}") from None
    return parse_config(data, file)


def parse_config(data: Mapping[str, Any], file: str = "<config>") -> TableConfig:
    root = _Reader(file, "", data)
    for key in data:
        if key not in KNOWN_SECTIONS:
            raise root.fail(key, f"unknown section: expected one of {', '.join(KNOWN_SECTIONS)}")
    table = root.section("table")
    table_id = table.get("id", str)
    if not table_id or not table_id.replace("-", "").replace("_", "").isalnum():
        raise table.fail("id", f"must be letters, digits, '-' or '_', not {table_id!r}")
    game_id = table.get("game", str)
    try:
        cls = game_class(game_id)
    except GameNotAvailable as exc:
        raise table.fail("game", str(exc)) from None
    spots = table.get("spots", int, cls.max_spots)
    if not 1 <= spots <= cls.max_spots:
        raise table.fail("spots", f"must be 1 to {cls.max_spots} for {cls.title}, not {spots}")
    try:
        rounding = Rounding.parse(table.get("rounding", str, "player"))
    except ValueError as exc:
        raise table.fail("rounding", str(exc)) from None
    limits = _limits(root.section("limits"), cls)
    _check_keys(root.section("journal"), {"path": (str, None), "max_size_mb": (int, (1, 1 << 20))})
    _check_keys(root.section("log"), {"events": (str, None), "max_bytes": (int, (4096, 1 << 40)), "backups": (int, (1, 99))})
    config = TableConfig(
        path=file,
        table_id=table_id,
        game_id=game_id,
        spots=spots,
        rounding=rounding,
        game_options=dict(root.section("game").data),
        limits=limits,
        shoe=dict(root.section("shoe").data),
        shuffler=dict(root.section("shuffler").data),
        log=dict(root.section("log").data),
        sections={k: v for k, v in data.items() if k not in ("table", "game", "limits", "shoe", "shuffler", "log")},
    )
    config.make_game()
    return config


def _check_keys(section: _Reader, keys: Mapping[str, tuple[type, tuple[int, int] | None]]) -> None:
    """Each key known, of its type, and (for numbers) within its range; paths not empty."""
    for key in section.data:
        if key not in keys:
            raise section.fail(key, f"unknown key: expected one of {', '.join(keys)}")
        kind, bounds = keys[key]
        value = section.get(key, kind)
        if bounds and not bounds[0] <= value <= bounds[1]:
            raise section.fail(key, f"must be {bounds[0]} to {bounds[1]}, not {value}")
        if kind is str and not value.strip():
            raise section.fail(key, "must not be empty")


def _limits(section: _Reader, cls: type[Game[Any]]) -> dict[str, tuple[Cents, Cents]]:
    limits = {}
    for wager, value in section.data.items():
        if wager not in cls.wagers:
            raise section.fail(wager, f"{cls.title} has no {wager!r} wager (it has {', '.join(cls.wagers)})")
        if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise section.fail(wager, f"must be [minimum, maximum] in whole cents, e.g. [500, 50000], not {value!r}")
        low, high = value
        if not 0 < low <= high:
            raise section.fail(wager, f"minimum must be above 0 and at most the maximum, not {low} to {high}")
        limits[wager] = (low, high)
    for wager in cls.wagers:
        if wager not in limits:
            raise section.fail(wager, "is missing: every wager needs [minimum, maximum] in cents")
    return limits
