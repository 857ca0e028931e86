"""``tablectl edge [GAME]``: the expected value and house edge of each wager, per pay table (every game by default)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from controller.commands.progress import progress
from controller.engine.config import config_path, load_config
from controller.errors import GameNotAvailable, TableError
from controller.rules.edges import EDGES, compute, selected_paytables, table_edges


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("edge", help="exact expected value of each wager of a game (or of every game)")
    parser.add_argument("game", nargs="?", default=None,
                        help=f"game id (default: every game): {', '.join(EDGES)}")
    parser.add_argument("--paytable", default=None, help="one pay table (default: every pay table the game offers)")
    parser.add_argument("--fast", action="store_true",
                        help="float64 figures where the exact fraction takes a second pass (blackjack base games), "
                             "for sweeps")
    parser.add_argument("--config", default=None, metavar="FILE|GAME",
                        help="a table's config: the edge of its game under the options it sets (its decks, pay "
                             "tables, rules), rather than of every pay table the game offers")
    parser.add_argument("--json", action="store_true", help="print the JSON contract instead of a table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.config is not None:
        return run_table(args)
    games = [args.game] if args.game else list(EDGES)
    if args.paytable is not None and args.game is None:
        print("tablectl: --paytable needs a game", file=sys.stderr)
        return 2
    results = []
    try:
        work = [(game, name) for game in games for name in selected_paytables(game, args.paytable)]
        label = f"edge {args.game}" if args.game else "edge, every game"
        with progress(label, len(work), unit="pay table") as advance:
            for game, name in work:
                started, cpu = time.perf_counter(), time.process_time()
                (table,) = compute(game, name, fast=args.fast)
                table["seconds"] = round(time.perf_counter() - started, 1)
                table["cpu_seconds"] = round(time.process_time() - cpu, 1)
                results.append(table)
                advance(1)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for table in results:
        _print(table)
    return 0


def _print(table: dict[str, Any]) -> None:
    print(f"{table['game']}  pay table {table['paytable']}  ({table['seconds']} s, {table['cpu_seconds']} CPU s)")
    if "config" in table:
        print(f"  table {table['table']} ({table['config']}): " + ", ".join(f"{k} {v}" for k, v in table["options"].items()))
    for wager, edge in table["wagers"].items():
        stderr = f" ± {edge['stderr'] * 100:.4f}%" if edge["stderr"] else ""
        exact = f"  ({_short(edge['exact'])})" if edge["exact"] else ""
        print(f"  {wager:<36} house edge {edge['house_edge'] * 100:8.4f}%{stderr}  {edge['method']}{exact}")
    for note in table.get("not_reflected", []):
        print(f"  not in these figures: {note}")


def run_table(args: argparse.Namespace) -> int:
    """``tablectl edge --config FILE``: the edges of a table's game under the options its config sets."""
    if args.game is not None or args.paytable is not None:
        print("tablectl: --config gives the game and its pay tables: name no GAME and no --paytable with it",
              file=sys.stderr)
        return 2
    try:
        config = load_config(config_path(args.config))
        game = config.make_game()
        if game.id not in EDGES:
            raise GameNotAvailable(f"{config.path}: {game.title} has no house edge to compute: it banks no wager "
                                   "(the house takes its collection fees)")
        started, cpu = time.perf_counter(), time.process_time()
        with progress(f"edge {config.table_id}", 1, unit="table") as advance:
            table = table_edges(game, fast=args.fast, limits=config.limits)
            advance(1)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    if table is None:
        print(f"tablectl: {config.path}: the edge of {game.title} is not computed from a table's options; "
              f"`tablectl edge {game.id}` gives every pay table it offers", file=sys.stderr)
        return 2
    table = {**table, "table": config.table_id, "config": config.path,
             "seconds": round(time.perf_counter() - started, 1), "cpu_seconds": round(time.process_time() - cpu, 1)}
    if args.json:
        print(json.dumps([table], indent=2))
    else:
        _print(table)
    return 0


def _short(fraction: str, width: int = 60) -> str:
    """A fraction as printed on a terminal: whole when short, its size said when long (``--json`` has it whole)."""
    if len(fraction) <= width:
        return fraction
    num, den = fraction.split("/")
    return f"{num[:12]}.../{den[:12]}..., a fraction of {len(num)} and {len(den)} digits"
