"""Mutated configs: every shipped config broken one way at a time, each refused by `tablectl run` with one line
naming the file and the key, no traceback, and nothing started or written.

The mutations are made from the shipped files themselves, so a new key or a
new game is mutated too: a misspelt copy of every key (an unknown key, which
must be offered the right one), a value of the wrong type for every key, values
out of range, and missing sections and keys.
"""

from __future__ import annotations

import copy
import subprocess
import tomllib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from controller.commands.cli import main
from controller.engine.config_schema import GAME_OPTIONS, Config, Section, _model_at
from tests.terminal import TABLECTL

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "config").glob("*.toml"))

Mutation = tuple[str, dict[str, Any], str]
"""(what was done, the broken config's tables, the key the error must name)."""


def _model(game: str, path: tuple[str, ...]) -> type[Section] | None:
    if path[:1] == ("game",):
        return GAME_OPTIONS.get(game)
    model = _model_at(Config, path)
    return model if model is None or issubclass(model, Section) else None


def _misspelt(key: str, known: set[str]) -> str:
    """A near miss of ``key`` that is no key of its section: the last letter doubled, else a letter dropped."""
    for word in (key + key[-1], key[:-1], key + "s"):
        if word not in known:
            return word
    raise AssertionError(key)


def _wrong_type(value: Any) -> Any:
    if isinstance(value, bool):
        return "false" if value else "true"  # a string where a boolean belongs
    if isinstance(value, int | float):
        return f"{value}"
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return "a list"
    raise AssertionError(value)


def _scalars(data: dict[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str, Any]]:
    """Every (section path, key, value) of a config whose value is not itself a table."""
    for key, value in data.items():
        if isinstance(value, dict):
            yield from _scalars(value, (*path, key))
        elif path:
            yield path, key, value


def _set(data: dict[str, Any], path: tuple[str, ...], key: str, value: Any = None, *, delete: bool = False) -> dict[str, Any]:
    out = copy.deepcopy(data)
    table = out
    for part in path:
        table = table[part]
    if delete:
        del table[key]
    else:
        table[key] = value
    return out


OUT_OF_RANGE: list[tuple[str, tuple[str, ...], str, Any]] = [
    ("*", ("table",), "spots", 0), ("*", ("table",), "spots", 99), ("*", ("table",), "rounding", "bank"),
    ("*", ("log",), "backups", 0), ("*", ("log",), "backups", 100), ("*", ("log",), "max_bytes", 10),
    ("*", ("log",), "events", ""), ("*", ("journal",), "max_size_mb", 0), ("*", ("journal",), "path", ""),
    ("*", ("console",), "port", 70000), ("*", ("console",), "port", -1), ("*", ("console",), "pace", 61.0),
    ("*", ("console",), "staff", ""), ("*", ("console",), "host", ""),
    ("top-card", ("shoe",), "decks", 0), ("top-card", ("shoe",), "decks", 9), ("top-card", ("shoe",), "decks", 6),
    ("top-card", ("shoe",), "cut_from_end", -1), ("top-card", ("shoe",), "cut_from_end", 416),
    ("top-card", ("shoe",), "burn_after_shuffle", 11), ("top-card", ("shoe",), "jokers_per_deck", 2),
    ("top-card", ("shoe",), "kind", "tarot"), ("top-card", ("shoe",), "driver", "acme"),
    ("top-card", ("shoe",), "baudrate", 10), ("top-card", ("shoe",), "retries", 99),
    ("top-card", ("vision",), "min_confidence", 0.0), ("top-card", ("vision",), "min_confidence", 1.5),
    ("top-card", ("vision",), "stable_frames", 0), ("top-card", ("vision",), "settle_frames", 0),
    ("top-card", ("vision",), "fan_mm", [1.0, 1.0]), ("top-card", ("vision",), "fan_mm", [30.0]),
    ("top-card", ("vision",), "cards", "tarot"), ("top-card", ("vision",), "source", -1),
    ("top-card", ("vision", "zones"), "banker", [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]),
    ("top-card", ("vision", "zones"), "home", [[0.0, 0.0], [1.0, 0.0]]),
    ("no-bust-21", ("game",), "decks", 1), ("no-bust-21", ("game",), "decks", 9), ("no-bust-21", ("game",), "over_above", 23),
    ("no-bust-21", ("game",), "max_splits", 4), ("no-bust-21", ("game",), "player_dealer_seat", 9),
    ("no-bust-21", ("game",), "proposition_player_seats", [0]), ("no-bust-21", ("shoe",), "decks", 6),
    ("no-bust-21", ("shoe",), "jokers_per_deck", 0), ("no-bust-21", ("vision", "zones"), "9", [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]),
    ("pure-21-5", ("game",), "decks", 0), ("pure-21-5", ("shoe",), "kind", "standard"), ("pure-21-5", ("game",), "rule_888", "lose"),
    ("high-card-flush", ("game",), "progressive_reset", -1), ("high-card-flush", ("game",), "progressive_rate", "1.5"),
    ("high-card-flush", ("game",), "flush_bonus", "1-2-3"),
    ("holdem", ("game",), "chip", 0), ("holdem", ("game",), "kill_leg", 0), ("holdem", ("game",), "big_blind", -1),
    ("omaha-hi-lo", ("game",), "qualifier", 11), ("lowball", ("game",), "minutes_per_hand", 0.0),
    ("lowball", ("game",), "limit", "1-2"), ("double-hand-poker", ("game",), "player_dealer_seat", 8),
    ("double-hand-poker", ("game",), "house_way", "no-such-chart"), ("pai-gow-tiles", ("game",), "player_dealer_seat", 0),
    ("three-card-poker", ("game",), "player_dealer_seat", 9), ("fortune-pai-gow", ("game",), "envy_threshold", -5),
    ("top-5-poker", ("game",), "tie", "house"), ("two-cards-high", ("game",), "pair_without_win", "2 to 1"),
]
"""(config or "*" for every one, section, key, a value out of range or unknown to the game)."""


def mutations() -> Iterator[Mutation]:
    for path in CONFIGS:
        name = path.stem
        data = tomllib.loads(path.read_text())
        game = data["table"]["game"]
        for section, key, value in _scalars(data):
            model = _model(game, section)
            dotted = ".".join(section)
            if model is not None:
                wrong = _misspelt(key, set(model.model_fields))
                yield f"{name}: unknown key {dotted}.{wrong}", _set(data, section, wrong, value), f"{dotted}.{wrong}"
            yield f"{name}: {dotted}.{key} of the wrong type", _set(data, section, key, _wrong_type(value)), f"{dotted}.{key}"
        for section_name in ("table", "limits"):
            if data.get(section_name):  # [game], [shoe], [log] ... have defaults; [limits] is empty for pot games
                yield f"{name}: no [{section_name}]", {k: v for k, v in data.items() if k != section_name}, section_name
        for key in ("id", "game"):
            yield f"{name}: no table.{key}", _set(data, ("table",), key, delete=True), f"table.{key}"
        for wager, (low, high) in data.get("limits", {}).items():
            yield f"{name}: limits.{wager} from zero", _set(data, ("limits",), wager, [0, high]), f"limits.{wager}"
            yield f"{name}: limits.{wager} upside down", _set(data, ("limits",), wager, [high + 1, low]), f"limits.{wager}"
            yield f"{name}: limits.{wager} left out", _set(data, ("limits",), wager, delete=True), f"limits.{wager}"
        if "vision" in data:
            yield f"{name}: a filming camera without calibration", _set(data, ("vision",), "calibration", delete=True), "vision.calibration"
            yield f"{name}: an unknown vision table", _set(data, ("vision",), "calibratoin", {}), "vision.calibratoin"
        yield f"{name}: an unknown section", {**data, "floor_plan": {"x": 1}}, "floor_plan"
        for only, section, key, value in OUT_OF_RANGE:
            if only in ("*", name) and (only != "*" or section[0] in data or section[0] in ("journal", "console")):
                if only == "*" and section[0] not in data:
                    broken = {**data, section[0]: {key: value}}
                else:
                    broken = _set(data, section, key, value)
                yield f"{name}: {'.'.join(section)}.{key} = {value!r}", broken, f"{'.'.join(section)}.{key}"


def _distinct(found: Iterator[Mutation]) -> list[Mutation]:
    """One mutation per kind and key: ``[log] events`` of the wrong type is tried once, not in all 13 configs
    (the keys of ``[game]`` and ``[limits]`` belong to the game, so those are tried in each)."""
    seen, out = set(), []
    for what, data, key in found:
        name, _, change = what.partition(": ")
        shared = not key.startswith(("game.", "limits.", "table.spots", "shoe", "vision"))
        signature = (change if shared else what, key)
        if signature not in seen:
            seen.add(signature)
            out.append((what, data, key))
    return out


MUTATIONS = _distinct(mutations())


def _kind(what: str) -> str:
    change = what.partition(": ")[2]
    if "unknown" in change:
        return "unknown keys and sections"
    if "wrong type" in change:
        return "wrong types"
    if change.startswith("no ") or "left out" in change or "without" in change:
        return "missing sections and keys"
    return "out-of-range values"


def test_there_are_at_least_two_hundred_mutations_of_each_kind_together(capsys: pytest.CaptureFixture[str]) -> None:
    kinds = Counter(_kind(what) for what, _, _ in MUTATIONS)
    with capsys.disabled():
        print(f"\n{len(MUTATIONS)} mutated configs: " + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())))
    assert len(MUTATIONS) >= 200 and len(kinds) == 4 and min(kinds.values()) >= 20


@pytest.mark.parametrize(("what", "data", "key"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_mutated_config_stops_run_with_one_line_naming_file_and_key(
    what: str, data: dict[str, Any], key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # the shipped configs log and journal under ./var: anything run would show there
    path = tmp_path / "table.toml"
    path.write_text(tomli_w.dumps(data))
    assert main(["run", "--config", str(path), "--rounds", "1", "--no-camera"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"tablectl: {path}: {key}: "), (what, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.toml"]


@pytest.mark.parametrize("index", [0, 1, len(MUTATIONS) // 2, len(MUTATIONS) - 1])
def test_the_installed_command_refuses_a_mutated_config_without_a_traceback(index: int, tmp_path: Path) -> None:
    what, data, key = MUTATIONS[index]
    path = tmp_path / "table.toml"
    path.write_text(tomli_w.dumps(data))
    for argv in (["run", "--config", str(path), "--rounds", "1"], ["config", "check", str(path)]):
        done = subprocess.run([TABLECTL, *argv], cwd=tmp_path, capture_output=True, text=True, check=False)
        assert done.returncode == 2 and done.stdout == "", what
        assert done.stderr.startswith(f"tablectl: {path}: {key}: ") and done.stderr.count("\n") == 1, done.stderr
        assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.toml"]
