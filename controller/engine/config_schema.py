"""The table config's schema: every section and key, with its type, range and default.

A config is checked in two passes (``controller.engine.config.parse_config``):
its TOML tables are read into the models below (pydantic v2, strict: ``"false"``
is not ``false``, ``7.0`` is not ``7``; ``extra="forbid"``: a key no model
names is an error, with the nearest known key offered), then the sections are
held against each other and against the game: the spots against the layout, the limits against each
other, the shoe's cards against the game's deck, the camera's zones against
the game's card targets. Every problem is reported as ``section.key: reason``.

**Adding a key** is one line in its section's model: a name, a type, a
default (``None`` where absence means "not set")::

    class Journal(Section):
        path: Text | None = None
        max_size_mb: Annotated[int, Field(ge=1, le=1 << 20)] | None = None
        keep_days: Annotated[int, Field(ge=1)] = 90        # <- a new key, checked from now on

A new section is a model and one line in ``Config``. Game options live in the
game's model in ``GAME_OPTIONS``; the game itself still checks what only it
knows (a pay table's name) when the table is made.

Why pydantic and not msgspec: both validate strictly and fast enough for a
file read once; pydantic's errors carry the path of every failing value and
its kind (``extra_forbidden``, ``bool_type``, ``greater_than_equal`` ...) with
the offending input, which is what turns into "file: section.key: reason";
its models also hold the defaults and descriptions ``tablectl config init``
writes out, and it is the more widely kept of the two.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Literal, get_args
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from controller.cards import DECKS, shoe
from controller.engine.shuffle.policy import DEVICE_TESTS, SHOE_TESTS
from drivers.shuffles import ShuffleModel, usage as shuffle_usage

Text = Annotated[str, Field(min_length=1)]
Point = Annotated[list[float], Field(min_length=2, max_length=2)]
Limit = Annotated[list[int], Field(min_length=2, max_length=2)]
Seconds = Annotated[float, Field(gt=0, le=3600)]


class Section(BaseModel):
    """A TOML table of the config: strict types, no unknown keys, immutable once read."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    def set_values(self) -> dict[str, Any]:
        """The keys the file set, as plain TOML values (what the code reading a section as a dict gets)."""
        return self.model_dump(exclude_unset=True)


# -- [table] -----------------------------------------------------------------------------------------


class Table(Section):
    id: str = Field(description="the table's name in the journal, the logs and on the floor: letters, digits, '-', '_'")
    game: str = Field(description="the game dealt here (tablectl config init GAME lists them)")
    spots: Annotated[int, Field(ge=1)] | None = Field(default=None, description="betting spots in play (default: all the layout has)")
    rounding: Literal["player", "house"] = Field(default="player", description="who gets an odd cent: 'player' rounds up, 'house' down")
    time_zone: Text | None = Field(default=None, description="the table's local time, which its screens show times in: an IANA "
                                   "name such as 'America/New_York' (default: this machine's)", examples=["America/New_York"])

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not value or not value.replace("-", "").replace("_", "").isalnum() or not value.isascii():
            raise ValueError(f"must be letters, digits, '-' or '_', not {value!r}")
        return value

    @field_validator("time_zone")
    @classmethod
    def _time_zone(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                ZoneInfo(value)
            except (ZoneInfoNotFoundError, ValueError):
                raise ValueError(f'no time zone called {value!r}: an IANA name such as "America/New_York" or "UTC"') from None
        return value


# -- [game]: one model per game -------------------------------------------------------------------------


def _text_or_rows(value: Any, what: str) -> Any:
    """A pay table named by text, or written inline as a TOML table of text rows."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, dict) and value and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        return value
    raise ValueError(f'must be {what} by name, or rows like {{ 3 = "1 to 1" }}, not {_shown(value)}')


class TopCardGame(Section):
    paytable: Text = "standard"


class Top5PokerGame(Section):
    ace_or_face: Text = "1.54%"
    tens_or_better: Text = "2.17%"
    tie: Text = "push"
    required: list[Text] = []


class HighCardFlushGame(Section):
    flush_bonus: Text = "300-100-10-1"
    straight_flush_bonus: Text = "500-200-100-50-9"
    progressive: Any = "standard"
    progressive_reset: Annotated[int, Field(ge=0)] = 1_000_000
    progressive_rate: Text = "0.15"

    _progressive = field_validator("progressive")(lambda value: _text_or_rows(value, "a pay table"))


class ThreeCardPokerGame(Section):
    pair_plus: Text = "seed"
    seats: Annotated[int, Field(ge=2, le=8)] = 8
    player_dealer_seat: Annotated[int, Field(ge=1, le=8)] = 1


class TwoCardsHighGame(Section):
    pair_without_win: Text = "1 to 1"
    side_paytable: Text = "standard"


class DoubleHandPokerGame(Section):
    house_way: Text = Field(default="double-hand-poker", description="a House Way chart: a shipped one by name, or a file")
    wheel: Text = "lowest"
    player_dealer_seat: Annotated[int, Field(ge=1, le=7)] = 1
    extra_seats: list[list[int]] = []
    fee_schedule: Text = "pai-gow-player"
    bank_fee_schedule: Text = "pai-gow-player-dealer"


class FortunePaiGowGame(DoubleHandPokerGame):
    paytable: Text = "FPG-04"
    overlap: Text = "higher-payout"
    envy_threshold: Annotated[int, Field(ge=0)] = 500


class PaiGowTilesGame(Section):
    house_way: Text = Field(default="pai-gow-tiles", description="a House Way chart: a shipped one by name, or a file")
    player_dealer_seat: Annotated[int, Field(ge=1, le=8)] = 1


class BlackjackGame(Section):
    decks: Annotated[int, Field(ge=1, le=8)] = 8
    max_splits: Annotated[int, Field(ge=0, le=3)] = 3
    surrender: bool = True
    double_after_split: bool = False
    seats: Annotated[int, Field(ge=2, le=8)] = 8
    player_dealer_seat: Annotated[int, Field(ge=1, le=8)] = 1
    proposition_player_seats: list[Annotated[int, Field(ge=1, le=8)]] = []
    bonus_paytable: Text = "seed"
    buster_paytable: Any = "seed"

    _buster = field_validator("buster_paytable")(lambda value: _text_or_rows(value, "a pay table"))


class NoBust21Game(BlackjackGame):
    decks: Annotated[int, Field(ge=2, le=8)] = 8
    over_above: Literal[21, 22] = 21


class Pure215Game(BlackjackGame):
    decks: Annotated[int, Field(ge=1, le=8)] = 6
    blackjack_pays: Text = "3 to 2"
    rule_888: Text = "push"
    insurance: bool = True


class PokerGame(Section):
    limit: Text = "3-6"
    chip: Annotated[int, Field(ge=1)] = 100
    small_blind: Annotated[int, Field(ge=0)] | None = None
    big_blind: Annotated[int, Field(ge=0)] | None = None
    fee_schedule: Text = "none"
    kill: bool = False
    kill_leg: Annotated[int, Field(ge=1)] = 2000


class HoldemGame(PokerGame):
    fee_schedule: Text = "holdem"


class OmahaHiLoGame(PokerGame):
    fee_schedule: Text = "omaha-hi-lo"
    joker: bool = False
    qualifier: Annotated[int, Field(ge=5, le=10)] = 8


class LowballGame(PokerGame):
    limit: Text = "2-6"
    minutes_per_hand: Annotated[float, Field(gt=0, le=60)] = 2


GAME_OPTIONS: dict[str, type[Section]] = {
    "top-card": TopCardGame,
    "top-5-poker": Top5PokerGame,
    "high-card-flush": HighCardFlushGame,
    "three-card-poker": ThreeCardPokerGame,
    "two-cards-high": TwoCardsHighGame,
    "double-hand-poker": DoubleHandPokerGame,
    "fortune-pai-gow": FortunePaiGowGame,
    "pai-gow-tiles": PaiGowTilesGame,
    "no-bust-21": NoBust21Game,
    "pure-21-5": Pure215Game,
    "lowball": LowballGame,
    "holdem": HoldemGame,
    "omaha-hi-lo": OmahaHiLoGame,
}
"""Each game's ``[game]`` keys; a game id in ``controller.rules.registry.GAMES`` without an entry here takes none."""


# -- devices: [shoe] and [shuffler] ---------------------------------------------------------------------

SERIAL_KEYS = ("port", "baudrate")
USB_KEYS = ("vendor_id", "product_id", "serial")
LINK_KEYS = ("expected_model", "expected_serial", "expected_firmware", "heartbeat", "ack_timeout", "retries",
             "reply_timeout")
"""Keys every real device takes; which driver takes which keys is checked in ``_device_keys``."""


class Device(Section):
    """What every device section holds: the driver, and how to reach and recognise a real device."""

    driver: Text = Field(default="simulated", description="simulated, reference (serial) or reference-usb")
    port: Text | None = Field(default=None, description="serial port, pty or socket:// URL (prefer /dev/serial/by-id/...)")
    baudrate: Annotated[int, Field(ge=300, le=4_000_000)] | None = None
    vendor_id: Annotated[int, Field(ge=0, le=0xFFFF)] | None = None
    product_id: Annotated[int, Field(ge=0, le=0xFFFF)] | None = None
    serial: Text | None = Field(default=None, description="USB serial number that picks the device")
    expected_model: Text | None = None
    expected_serial: Text | None = Field(default=None, description="refuse any device reporting another serial number")
    expected_firmware: Text | None = None
    heartbeat: Seconds | None = None
    ack_timeout: Seconds | None = None
    retries: Annotated[int, Field(ge=0, le=20)] | None = None
    reply_timeout: Seconds | None = None
    shuffle: Text | None = Field(default=None, description=f"simulated only, for drills: how it shuffles: {shuffle_usage()} "
                                 "(docs/shuffle.md)", examples=["riffles:2"])

    @field_validator("shuffle")
    @classmethod
    def _shuffle(cls, value: str | None) -> str | None:
        if value is not None:
            ShuffleModel.parse(value, ())
        return value


class Shoe(Device):
    decks: Annotated[int, Field(ge=1, le=8)] = 8
    jokers_per_deck: Annotated[int, Field(ge=0, le=1)] = 0
    kind: Text = Field(default="standard", description=f"deck kind: {', '.join(DECKS)}")
    cut_from_end: Annotated[int, Field(ge=1)] = Field(
        default=52, description="cards left behind the cut card: at least 1, fewer than the shoe holds")
    burn_after_shuffle: Annotated[int, Field(ge=0, le=10)] = 1
    deal_on_demand: bool | None = None

    _kind = field_validator("kind")(lambda value: _one_of(value, DECKS, "deck kind"))

    @field_validator("cut_from_end", mode="before")
    @classmethod
    def _cut_card_before_the_end(cls, value: Any, info: ValidationInfo) -> Any:
        """A cut card at the very end (or past it) would have the shoe dealt to its last card: refused in words, with
        the range (its top, one fewer than the shoe holds, is checked again with the game's own shoe in ``config``)."""
        if isinstance(value, int) and not isinstance(value, bool) and value < 1:
            try:
                held = len(shoe(info.data["decks"], jokers_per_deck=info.data["jokers_per_deck"], kind=info.data["kind"]))
                top = f"1 to {held - 1} for this shoe of {held} cards"
            except (KeyError, ValueError):  # the shoe's own keys are wrong: they are reported on their own
                top = "at least 1 and fewer than the cards the shoe holds"
            raise ValueError(f"must be {top}: the cards left behind the cut card; with none the shoe would be dealt "
                             f"to its last card and a round could run out of cards; not {value}")
        return value


class Shuffler(Device):
    decks: Annotated[int, Field(ge=1, le=2)] | None = Field(default=None, description="decks the shuffler alternates")


FEED_KEYS = {"driver", "decks", "jokers_per_deck", "kind", "cut_from_end", "burn_after_shuffle", "shuffle"}
"""Shoe keys the table's card feed reads; the rest go to the driver (``Config.device_options``)."""


# -- [vision] ------------------------------------------------------------------------------------------


class Calibration(Section):
    image_points: Annotated[list[Point], Field(min_length=4)]
    table_points: Annotated[list[Point], Field(min_length=4)]
    camera_matrix: Annotated[list[Annotated[list[float], Field(min_length=3, max_length=3)]],
                             Field(min_length=3, max_length=3)] | None = Field(
        default=None, description="the lens: OpenCV's camera matrix [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] (docs/vision.md)")
    distortion: Annotated[list[float], Field(min_length=4, max_length=8)] | None = Field(
        default=None, description="the lens: OpenCV's distortion [k1, k2, p1, p2, k3]")
    image_size: Annotated[list[Annotated[int, Field(gt=0)]], Field(min_length=2, max_length=2)] | None = Field(
        default=None, description="[width, height] of the frames it was measured on: frames of another size are refused")

    @model_validator(mode="after")
    def _same_count(self) -> Calibration:
        if len(self.image_points) != len(self.table_points):
            raise ValueError(f"image_points has {len(self.image_points)} points, table_points "
                             f"{len(self.table_points)}: each mark needs both")
        return self


class Vision(Section):
    crosscheck: bool = Field(default=False, description="film every card and hold the round when camera and shoe disagree")
    source: Any = Field(default=None, description="the camera: a device index, /dev/video*, a stream URL, a folder or a video")
    deck: Text = Field(default="aisleriot-anglo", description="SVG artwork enrolled on first use")
    deck_file: Text | None = Field(default=None, description="a deck enrolled with `tablectl vision enroll`")
    cards: Text | None = Field(default=None, description="read only the cards of this deck kind")
    min_confidence: Annotated[float, Field(gt=0, le=1)] = 0.99
    stable_frames: Annotated[int, Field(ge=1, le=1000)] = 2
    settle_frames: Annotated[int, Field(ge=1, le=10_000)] = 90
    fan_mm: Point = Field(default=[26.0, 38.0], description="where the simulated dealer lays each next card: [right, down] mm")
    card_height_mm: Annotated[float, Field(gt=0)] | None = None
    max_distance: Annotated[float, Field(gt=0)] | None = None
    anchor_distance: Annotated[float, Field(gt=0)] | None = None
    evidence_distance: Annotated[float, Field(gt=0)] | None = None
    inside_share: Annotated[float, Field(gt=0, le=1)] | None = None
    calibration: Calibration | None = None
    zones: dict[str, Annotated[list[Point], Field(min_length=3)]] = {}

    _cards = field_validator("cards")(lambda value: _one_of(value, DECKS, "deck kind"))

    @field_validator("source")
    @classmethod
    def _source(cls, value: Any) -> Any:
        if (isinstance(value, int) and not isinstance(value, bool) and value >= 0) or (isinstance(value, str) and value):
            return value
        raise ValueError("must be a camera index (0, 1 ...) or text: /dev/video*, a stream URL, a folder of images "
                         f"or a video file; not {_shown(value)}")

    @field_validator("fan_mm")
    @classmethod
    def _fan(cls, value: list[float]) -> list[float]:
        right, down = value
        if right < 16.0 and down < 28.0:
            raise ValueError(f"each card must lie at least 16 mm right of the last or 28 mm below it (or it covers "
                             f"that card's index), not {value}")
        return value


# -- [shuffle]: the shuffle monitor (docs/shuffle.md) -------------------------------------------------------

Rate = Annotated[float, Field(ge=0, lt=1)]


class Shuffle(Section):
    enabled: bool = Field(default=True, description="test every shoe and shuffler deck for randomness as it is dealt")
    hold_rate: Rate = Field(default=1e-4, description="false holds allowed per shoe, the shoe tests together (split evenly)")
    warn_rate: Rate = Field(default=1e-2, description="false pit warnings allowed per shoe, the shoe tests together")
    device_hold_rate: Rate = Field(default=1e-4, description="false holds per shoe in the long run, the device tests that hold (positions, drift) together")
    device_warn_rate: Rate = Field(default=1e-2, description="false pit warnings per shoe in the long run, the device tests together")
    history: Annotated[int, Field(ge=0, le=1_000_000)] = Field(default=10_000, description="earlier shoes whose first cards a new shoe is compared with")
    hold: dict[str, Rate] = Field(
        default={}, description=f"one test's own hold rate (0: it only warns); tests: {', '.join(SHOE_TESTS + DEVICE_TESTS)}", examples=[{"moved": 0.0}])
    warn: dict[str, Rate] = Field(default={}, description="one test's own warning rate (0: it never warns)")

    @field_validator("hold", "warn")
    @classmethod
    def _tests(cls, value: dict[str, float]) -> dict[str, float]:
        for test in value:
            if test not in SHOE_TESTS + DEVICE_TESTS:
                raise ValueError(f"no shuffle test {test!r}{did_you_mean(test, SHOE_TESTS + DEVICE_TESTS)}: "
                                 f"one of {', '.join(SHOE_TESTS + DEVICE_TESTS)}")
        return value


# -- operations: [journal], [log], [console] ------------------------------------------------------------


class Journal(Section):
    path: Text | None = Field(default=None, description="the journal (SQLite); default var/journal/TABLE-ID.sqlite",
                              examples=["/var/lib/tablectl/journal.sqlite"])
    max_size_mb: Annotated[int, Field(ge=1, le=1 << 20)] | None = Field(
        default=None, description="a cap on the journal's size; reaching it holds the table (default: none)", examples=[2048])


class Log(Section):
    events: Text | None = Field(default=None, description="the table's signed JSON-lines event log; default var/log/TABLE-ID.events.jsonl",
                                examples=["/var/log/tablectl/TC-01.events.jsonl"])
    key: Text | None = Field(default=None, description="the table's Ed25519 signing key (mode 0600, the service user's); "
                             "default beside the journal (TABLE-ID.key), never beside the log",
                             examples=["/var/lib/tablectl/keys/TC-01.key"])
    max_bytes: Annotated[int, Field(ge=4096, le=1 << 40)] | None = Field(
        default=None, description="rotate the log at this size (default: never)", examples=[104_857_600])
    backups: Annotated[int, Field(ge=1, le=99)] = Field(default=5, description="rotated files kept")


HostName = Annotated[str, Field(min_length=1, pattern=r"^[^/\s]+$")]


class Console(Section):
    host: Text = Field(default="127.0.0.1", description="address the dealer console listens on (another machine's: --allow-remote)")
    port: Annotated[int, Field(ge=0, le=65535)] = Field(default=8470, description="the console's TCP port")
    staff: Text = Field(default="var/staff.json", description="the dealers' and supervisors' accounts (tablectl staff add)")
    hosts: list[HostName] = Field(default=[], description="other names the console is reached by (Host and Origin are checked)")
    supervisor_token: Any = Field(default=None, description="no longer read: supervisors log in with their own PIN")
    pace: Annotated[float, Field(ge=0, le=60)] = Field(default=1.0, description="seconds between dealt cards on a demonstration table")

    @field_validator("supervisor_token")
    @classmethod
    def _no_shared_token(cls, value: Any) -> None:
        if value is not None:
            raise ValueError("supervisors now log in with their own PIN: remove the token and add accounts with "
                             "`tablectl staff add NAME --role supervisor`")


# -- the floor: [floor] (docs/floor.md) ----------------------------------------------------------------


def _token(value: str) -> str:
    if not value or not value.replace("-", "").replace("_", "").isalnum() or not value.isascii():
        raise ValueError(f"must be letters, digits, '-' or '_', not {value!r}")
    return value


class Floor(Section):
    site: Text = Field(description="the floor's site, as the floor's own config names it ([floor] site)", examples=["main-floor"])
    servers: list[Text] = Field(min_length=1, description="the floor's NATS servers, or the pit's leaf node with leaf",
                                examples=[["nats://10.20.0.11:4222", "nats://10.20.0.12:4222", "nats://10.20.0.13:4222"]])
    leaf: Text | None = Field(default=None, description="publish to this leaf node's own stream (servers: the leaf's address)")
    jackpot: Text | None = Field(default=None, description="High Card Flush: the floor's linked jackpot the Progressive pays from")
    catch_up_rate: Annotated[float, Field(gt=0, le=1_000_000)] = Field(
        default=2000.0, description="records a second at most while catching up after an outage")

    @field_validator("site", "leaf", "jackpot")
    @classmethod
    def _names(cls, value: str | None) -> str | None:
        return None if value is None else _token(value)

    @field_validator("servers")
    @classmethod
    def _urls(cls, value: list[str]) -> list[str]:
        for url in value:
            if not url.startswith(("nats://", "tls://")):
                raise ValueError(f"a NATS server is written nats://HOST:PORT, not {url!r}")
        return value


# -- the whole file ------------------------------------------------------------------------------------


class Config(Section):
    """A table config. ``game`` and ``limits`` depend on the game: ``GAME_OPTIONS`` and the game's wagers check them."""

    table: Table
    game: dict[str, Any] = {}
    limits: dict[str, Any] = {}
    shoe: Shoe | None = None
    shuffler: Shuffler | None = None
    vision: Vision | None = None
    shuffle: Shuffle = Shuffle()
    journal: Journal = Journal()
    log: Log = Log()
    console: Console = Console()
    floor: Floor | None = None


SECTIONS: tuple[str, ...] = tuple(Config.model_fields)


class Problem(Exception):
    """One thing wrong with a config: the dotted ``key`` and the ``reason``, in the reader's words."""

    def __init__(self, key: str, reason: str) -> None:
        self.key, self.reason = key, reason
        super().__init__(f"{key}: {reason}")


def _shown(value: Any) -> str:
    """A TOML value as the reader wrote it, for an error message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        hint = " (true and false are written without quotes)" if value.lower() in ("true", "false") else ""
        return f'the text "{value}"{hint}'
    if isinstance(value, dict):
        return "a table"
    return repr(value)


def did_you_mean(word: object, choices: Any) -> str:
    """`` (did you mean 'x'?)`` for the choice nearest ``word``, or nothing."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _one_of(value: Any, choices: tuple[str, ...] | list[str], what: str) -> Any:
    if value is None or value in choices:
        return value
    raise ValueError(f"unknown {what} {value!r}{did_you_mean(value, choices)}: expected one of {', '.join(choices)}")


def game_model(game_id: str) -> type[Section]:
    return GAME_OPTIONS.get(game_id, Section)


def _model_at(model: type[BaseModel], path: tuple[Any, ...]) -> type[BaseModel] | None:
    """The section model at a dotted path of ``Config`` (``("vision", "calibration")``), if one is."""
    for part in path:
        field = model.model_fields.get(str(part))
        if field is None:
            return None
        kind = field.annotation
        inner = [a for a in getattr(kind, "__args__", (kind,)) if isinstance(a, type) and issubclass(a, BaseModel)]
        if not inner:
            return None
        model = inner[0]
    return model


def _reason(error: Mapping[str, Any], model: type[BaseModel]) -> str:
    """One pydantic error in the reader's words; ``error["loc"]`` is relative to ``model``."""
    kind, value, ctx = error["type"], error.get("input"), error.get("ctx") or {}
    loc = tuple(error["loc"])
    if kind == "extra_forbidden":
        owner = _model_at(model, loc[:-1])
        allowed = list(owner.model_fields) if owner else []
        what = "section" if model is Config and len(loc) == 1 else "key"
        return f"unknown {what}{did_you_mean(loc[-1], allowed)}: expected one of {', '.join(allowed)}"
    if kind == "missing":
        return "is missing"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"must be a whole number, not {_shown(value)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"must be true or false, not {_shown(value)}"
    if kind == "string_type":
        return f"must be text in quotes, not {_shown(value)}"
    if kind in ("float_type", "float_parsing"):
        return f"must be a number, not {_shown(value)}"
    if kind in ("list_type", "tuple_type"):
        return f"must be a list [...], not {_shown(value)}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"must be a table ([{'.'.join(map(str, loc))}] or {{ ... }}), not {_shown(value)}"
    bounds = {"greater_than_equal": ("at least", "ge"), "greater_than": ("above", "gt"),
              "less_than_equal": ("at most", "le"), "less_than": ("below", "lt")}
    if kind in bounds:
        low, high = _bounds(model, loc)
        if low is not None and high is not None:
            return f"must be {low} to {high}, not {_shown(value)}"
        word, key = bounds[kind]
        return f"must be {word} {ctx[key]}, not {_shown(value)}"
    if kind == "string_too_short":
        least = ctx.get("min_length", 1)
        return "must not be empty" if least == 1 else f"must be text of at least {least} characters"
    if kind in ("too_short", "too_long"):
        if ctx.get("min_length") == ctx.get("max_length") or (kind == "too_long" and ctx.get("max_length") == 2):
            return f"must hold exactly {ctx.get('max_length', ctx.get('min_length'))} items, not {ctx.get('actual_length')}"
        if kind == "too_short":
            return f"must hold at least {ctx['min_length']} items, not {ctx.get('actual_length')}"
        return f"must hold at most {ctx['max_length']} items, not {ctx.get('actual_length')}"
    if kind == "literal_error":
        return f"must be {ctx.get('expected')}, not {_shown(value)}{did_you_mean(value, [])}"
    if kind in ("value_error", "assertion_error"):
        message = str(error["msg"])
        return message.split(", ", 1)[1] if message.startswith(("Value error, ", "Assertion failed, ")) else message
    return str(error["msg"])


def _bounds(model: type[BaseModel], loc: tuple[Any, ...]) -> tuple[Any, Any]:
    """The inclusive (lowest, highest) a numeric key allows, where its field states both."""
    owner = _model_at(model, loc[:-1])
    field = owner.model_fields.get(str(loc[-1])) if owner else None
    if field is None:
        return None, None
    found: dict[str, Any] = {}

    def scan(kind: Any, metadata: list[Any]) -> None:
        for item in metadata:
            for name in ("ge", "le"):
                if getattr(item, name, None) is not None:
                    found[name] = getattr(item, name)
            scan(None, list(getattr(item, "metadata", []) or []))
        for arg in get_args(kind):
            scan(arg, list(getattr(arg, "__metadata__", ())))

    scan(field.annotation, list(field.metadata))
    return found.get("ge"), found.get("le")


def _key(loc: tuple[Any, ...]) -> str:
    """A pydantic location as the dotted key the reader wrote (``vision.zones.3``, ``limits.tie``)."""
    parts = [str(p) for p in loc if not isinstance(p, int)]
    return ".".join(parts) or "(file)"


def problems_of(exc: ValidationError, model: type[BaseModel], prefix: tuple[str, ...] = ()) -> Iterator[Problem]:
    """The problems of a failed ``model.model_validate``, keyed by their place in the file (``prefix``: the
    section the model was read from)."""
    for error in exc.errors(include_url=False):
        yield Problem(_key((*prefix, *error["loc"])), _reason(error, model))
