"""``tablectl config check [FILE ...]`` and ``tablectl config init GAME``: check a table config without
running anything, and write a commented one to start from.

``check`` reads each file against the schema (``controller.engine.config_schema``)
and the game, and prints every problem, one line each, naming the file, the key
and the reason; it opens no device, journal or log. Exit 0 when every file
passes, 2 otherwise.

``init`` writes the shipped config of the game (its comments cite the rules)
and, commented out below it, the operations settings it does not set, each
with its default and what it does, from the schema.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tomlkit
from pydantic import BaseModel

from controller import shipped
from controller.engine.config import TableConfig, load_config, parse_config
from controller.engine.config_schema import Console, Floor, Journal, Log, Shuffle, did_you_mean
from controller.engine.session import journal_path, log_path
from controller.errors import ConfigError
from controller.rules.registry import GAMES


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("config", help="check a table config, or write one to start from")
    sub = parser.add_subparsers(dest="config_command", required=True, metavar="ACTION")
    check = sub.add_parser("check", help="check table configs without running anything (exit 2 if any is wrong)")
    check.add_argument("files", nargs="*", metavar="FILE|GAME",
                       help="configs to check (default: the one `tablectl run` would read)")
    check.set_defaults(func=check_command)
    init = sub.add_parser("init", help="write a commented starting config for a game")
    init.add_argument("game", help=f"the game: {', '.join(GAMES)}")
    init.add_argument("--out", "-o", type=Path, help="file to write (default: standard output)")
    init.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    init.set_defaults(func=init_command)


def check_command(args: argparse.Namespace) -> int:
    bad = 0
    seen: dict[tuple[str, str], str] = {}  # (key, value) -> the config checked first that has it
    for name in args.files or [None]:
        try:
            config = load_config(name)
        except ConfigError as exc:
            bad += 1
            print("\n".join(f"tablectl: {line}" for line in str(exc).splitlines()), file=sys.stderr)
            continue
        shared = list(_shared(config, seen))
        if shared:
            bad += 1
            for line in shared:
                print(f"tablectl: {config.path}: {line}", file=sys.stderr)
            continue
        game = config.make_game()
        print(f"{config.path}: ok: {game.title} at table {config.table_id}, {config.spots} spots")
    return 2 if bad else 0


def _shared(config: TableConfig, seen: dict[tuple[str, str], str]) -> Iterator[str]:
    """What a config checked with others shares with one before it that no two tables may: the table's id, its
    journal, its event log (``seen`` keeps the first config of each)."""
    own = (("table.id", config.table_id, "table id", True),  # a journal or log named by the id: the id says it
           ("journal.path", str(journal_path(config).resolve()), "journal", "path" in config.sections.get("journal", {})),
           ("log.events", str(log_path(config).resolve()), "event log", "events" in config.log))
    for key, value, what, given in own:
        first = seen.setdefault((key, value), config.path)
        if first != config.path and given:
            yield (f"{key}: {value!r} is also the {what} of {first}: two tables cannot share one "
                   + ("(its journal, event log and key are named by it, and the floor tells tables apart by it): give "
                      "this table an id of its own" if key == "table.id" else f"(one writer per table): give this "
                      f"table its own {key}"))


def init_command(args: argparse.Namespace) -> int:
    if args.game not in shipped.shipped_configs():
        print(f"tablectl config: no game {args.game!r}{did_you_mean(args.game, shipped.shipped_configs())}: "
              f"expected one of {', '.join(shipped.shipped_configs())}", file=sys.stderr)
        return 2
    source = shipped.shipped_dir() / f"{args.game}.toml"
    text = starting_config(source)
    parse_config(tomllib.loads(text), str(source))  # what is written passes the check it names
    if args.out is None:
        sys.stdout.write(text)
        return 0
    if args.out.exists() and not args.force:
        print(f"tablectl config: {args.out} exists: pass --force to overwrite it", file=sys.stderr)
        return 2
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"tablectl config: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: {args.game}, checked; edit it, then `tablectl config check {args.out}`")
    return 0


def starting_config(source: Path) -> str:
    """The shipped config's text with the operations settings it leaves out added as comments, each with its
    default and what it does: under its section where the file has one, else in a section of comments at the end."""
    doc = tomlkit.parse(source.read_text(encoding="utf-8"))
    tail = []
    for name, model in (("shuffle", Shuffle), ("journal", Journal), ("log", Log), ("console", Console), ("floor", Floor)):
        section = doc.get(name)
        rows = _commented(model, set(section) if section is not None else set())
        if not rows:
            continue
        if section is not None:
            for row in rows:
                section.add(tomlkit.comment(row))
            section.add(tomlkit.nl())
        else:
            tail += ["", f"# [{name}]", *(f"# {row}" for row in rows)]
    text = tomlkit.dumps(doc).rstrip("\n") + "\n"
    if tail:
        text += "\n# -- Further settings with their defaults: uncomment a section and the lines to change --\n"
        text += "\n".join(tail[1:]) + "\n"
    return text


def _commented(model: type[BaseModel], present: set[str]) -> list[str]:
    """``key = default  # what it does`` for each key of ``model`` not in ``present`` that has a value to show."""
    rows = []
    for key, field in model.model_fields.items():
        value = field.default if not field.is_required() and field.default is not None else (field.examples or [None])[0]
        if key in present or value is None:
            continue
        rows.append(f"{key + ' = ' + _toml(value):<40} # {field.description or ''}".rstrip(" #"))
    return rows


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return repr(value)

