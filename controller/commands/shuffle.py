"""``tablectl shuffle report [--table ID] [--shoe N]``: the shuffle tests of every shoe, read from the journal;
``tablectl shuffle warm``: the tests' kernels compiled into numba's cache ahead of the first table (``warm``).

Per device, each shoe's p-value per test and its alarms, then the device's
cumulative tests (CUSUMs, and the lab's chi-square of positions); with
``--shoe N`` every statistic of that shoe and its deck inventory. A picture of
every test over the shoes, with the warning and hold lines, is written beside
(``--picture``, PNG or SVG; needs matplotlib: ``pip install 'tablectl[report]'``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from controller.commands.rounds import journal_options, open_journal
from controller.engine.config import load_config
from controller.engine.shuffle import report, warm
from controller.errors import TableError
from controller.events import CameraDisagreed, CardBurned, CardDealt, DeckReconciled, ShuffleAlarm, ShuffleTested


def register(subparsers: Any) -> None:
    shuffle = subparsers.add_parser("shuffle", help="shuffle and deck assurance: the tests of every shoe")
    actions = shuffle.add_subparsers(dest="action", required=True, metavar="ACTION")
    show = actions.add_parser("report", help="each shoe's shuffle tests and each device's cumulative tests, with a picture")
    show.add_argument("--table", metavar="ID", help="the table whose journal to read (default: the config's table)")
    show.add_argument("--shoe", type=_shoe_number, metavar="N", help="show shoe N's tests and inventory in full")
    show.add_argument("--picture", type=Path, metavar="FILE",
                      help="where to draw the tests over the shoes (.png or .svg; default: var/report/shuffle-TABLE.png)")
    show.add_argument("--no-picture", action="store_true", help="text only")
    journal_options(show)
    show.set_defaults(func=report_command)
    warm_up = actions.add_parser("warm", help="compile the shuffle tests' kernels into numba's cache (run at install)")
    warm_up.set_defaults(func=warm_command)


def _shoe_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a shoe number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"shoes are numbered from 1, not {value}")
    return value


def report_command(args: argparse.Namespace) -> int:
    try:
        table = args.table or load_config(args.config).table_id
        if args.table and not args.journal:
            args.journal = str(Path("var/journal") / f"{args.table}.sqlite")
        with open_journal(args, table) as journal:
            records = journal.records_of(ShuffleTested, ShuffleAlarm, DeckReconciled, CardDealt, CardBurned,
                                         CameraDisagreed)
            shoes = report.shoes(r for r in records if r.table == table)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    if args.shoe is not None and not any(s.shoe == args.shoe for s in shoes):
        known = ", ".join(str(s.shoe) for s in shoes[-5:]) or "none yet"
        print(f"tablectl: no shoe {args.shoe} in the journal of {table} (the last shoes: {known})", file=sys.stderr)
        return 2
    if args.json:
        chosen = [s for s in shoes if args.shoe is None or s.shoe == args.shoe]
        print(json.dumps([s.as_json() for s in chosen], indent=2))
    else:
        print("\n".join(report.text(shoes, args.shoe)))
    if args.no_picture or not shoes:
        return 0
    path = args.picture or Path("var/report") / f"shuffle-{table}.png"
    if path.suffix.lower() not in (".png", ".svg"):
        print(f"tablectl: the picture is drawn as .png or .svg, not {path.name!r}", file=sys.stderr)
        return 2
    try:
        drawn = report.picture(shoes, path, f"table {table}")
    except ModuleNotFoundError:
        print("tablectl: no picture: matplotlib is not installed (pip install 'tablectl[report]')", file=sys.stderr)
        return 0
    except OSError as exc:
        print(f"tablectl: cannot write the picture {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"picture: {drawn}", file=sys.stderr)
    return 0


def warm_command(args: argparse.Namespace) -> int:
    try:
        seconds = warm.warm()
    except Exception as exc:  # noqa: BLE001 - numba's errors are many; the table still compiles on use
        print(f"tablectl: the shuffle kernels did not compile: {exc}", file=sys.stderr)
        return 1
    ready = warm.kernels_ready()
    if not ready:
        print("tablectl: no shuffle kernel was compiled or loaded: the tests would compile at the first table",
              file=sys.stderr)
        return 1
    print(f"shuffle kernels ready in {seconds:.1f} s: {ready} kernels (numba cache: {warm.cache_dir()})")
    return 0
