"""The floor service's configuration (``config/floor/floor.toml``): broker, database, pits, shifts, jackpots.

Strict like the table's config: unknown keys, wrong types and bad values are
errors naming the file and the key (pydantic, ``extra="forbid"``,
``strict=True``).
"""

from __future__ import annotations

import datetime as dt
import difflib
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from controller.floor import wire
from controller.floor.shifts import Shift, Shifts

DEFAULT_FLOOR_CONFIG = Path("/etc/tablectl/floor.toml")


class FloorConfigError(ValueError):
    """The floor's config file is missing, not TOML, or names a wrong key or value; the message says which."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Broker(_Section):
    servers: list[str] = Field(default_factory=lambda: ["nats://127.0.0.1:4222"], min_length=1)
    replicas: Annotated[int, Field(ge=1, le=5)] = 3
    duplicate_window_hours: Annotated[float, Field(gt=0, le=48)] = 2.0
    max_age_days: Annotated[float, Field(gt=0)] = 90.0
    leaves: dict[str, str] = Field(default_factory=dict)
    """Leaf nodes whose own stream this site's stream gathers from: {leaf name: its JetStream domain}."""


class Database(_Section):
    dsn: str = "host=127.0.0.1 port=5432 dbname=floor user=floor"


class Pit(_Section):
    tables: list[str] = Field(min_length=1)


class ShiftRow(_Section):
    name: str
    start: str

    @field_validator("start")
    @classmethod
    def _start(cls, value: str) -> str:
        dt.time.fromisoformat(value)
        return value


class Jackpot(_Section):
    """A progressive linked across tables: one meter fed by every linked table's progressive wagers."""

    game: str = "high-card-flush"
    wager: str = "progressive"
    tables: list[str] = Field(min_length=1)
    reset: Annotated[int, Field(ge=0)] = Field(description="cents the meter starts from and returns to after a 100% hit")
    rate: str = Field(description='share of every progressive wager added to the meter, e.g. "0.15"')

    @field_validator("rate")
    @classmethod
    def _rate(cls, value: str) -> str:
        rate = Fraction(value)
        if not 0 <= rate < 1:
            raise ValueError(f"must be a fraction in [0, 1), not {value!r}")
        return value

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.rate)


class Floor(_Section):
    site: str
    listen: str = "127.0.0.1:8480"
    time_zone: str = "UTC"
    staff: str | None = None
    """The staff file whose supervisors may log in to the floor's pit page (the tables' own format)."""
    hosts: list[str] = Field(default_factory=list)
    """Other names the pit page is reached by (a DNS name, the server's address): any other Host is refused."""

    @field_validator("site")
    @classmethod
    def _site(cls, value: str) -> str:
        wire.token(value, "site")
        return value

    @field_validator("listen")
    @classmethod
    def _listen(cls, value: str) -> str:
        host, colon, port = value.rpartition(":")
        if not colon or not host or not port.isdigit() or int(port) > 65535:
            raise ValueError(f'must be HOST:PORT (e.g. "127.0.0.1:8480"; port 0: any free port), not {value!r}')
        return value

    @field_validator("time_zone")
    @classmethod
    def _time_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f'no time zone called {value!r}: an IANA name such as "America/New_York" or "UTC"') from None
        return value


class FloorConfig(_Section):
    floor: Floor
    broker: Broker = Broker()
    database: Database = Database()
    pits: dict[str, Pit] = Field(default_factory=dict)
    shifts: list[ShiftRow] = Field(
        default_factory=lambda: [ShiftRow(name="day", start="06:00"), ShiftRow(name="swing", start="14:00"),
                                 ShiftRow(name="grave", start="22:00")]
    )
    jackpots: dict[str, Jackpot] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_pit_each(self) -> FloorConfig:
        seen: dict[str, str] = {}
        for pit, row in self.pits.items():
            for table in row.tables:
                if table in seen:
                    raise ValueError(f"table {table} is in pit {seen[table]} and in pit {pit}")
                seen[table] = pit
        return self

    def pit_of(self) -> dict[str, str]:
        return {table: pit for pit, row in self.pits.items() for table in row.tables}

    def shift_plan(self) -> Shifts:
        return Shifts([Shift(row.name, dt.time.fromisoformat(row.start)) for row in self.shifts], self.floor.time_zone)


def _where(location: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in location)


def _hint(error: Any, model_fields: list[str]) -> str:
    if error["type"] != "extra_forbidden":
        return ""
    near = difflib.get_close_matches(str(error["loc"][-1]), model_fields, n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


def parse_floor_config(data: dict[str, Any], file: str) -> FloorConfig:
    try:
        return FloorConfig.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        names = [n for model in (FloorConfig, Floor, Broker, Database, Jackpot, Pit, ShiftRow) for n in model.model_fields]
        reason = "unknown key" if error["type"] == "extra_forbidden" else str(error["msg"]).removeprefix("Value error, ")
        where = _where(error["loc"]) or "pits"  # a model check (a table in two pits) has no key of its own
        raise FloorConfigError(f"{file}: {where}: {reason}{_hint(error, names)}") from None


def load_floor_config(path: str | Path) -> FloorConfig:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise FloorConfigError(f"{path}: no such file (copy config/floor/floor.toml there and edit it)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise FloorConfigError(f"{path}: cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise FloorConfigError(f"{path}: not valid TOML: {exc}") from None
    return parse_floor_config(data, str(path))
