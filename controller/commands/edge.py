"""``tablectl edge GAME``: the expected value and house edge of each wager, per pay table."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from controller.commands.progress import progress
from controller.errors import TableError
from controller.rules.edges import EDGES, compute, selected_paytables


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("edge", help="exact expected value of each wager of a game")
    parser.add_argument("game", help=f"game id: {', '.join(EDGES)}")
    parser.add_argument("--paytable", default=None, help="one pay table (default: every pay table the game offers)")
    parser.add_argument("--json", action="store_true", help="print the JSON contract instead of a table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        names = selected_paytables(args.game, args.paytable)
        with progress(f"edge {args.game}", len(names), unit="pay table") as advance:
            results = compute(args.game, args.paytable, advance)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for table in results:
        print(f"{table['game']}  pay table {table['paytable']}")
        for wager, edge in table["wagers"].items():
            stderr = f" ± {edge['stderr'] * 100:.4f}%" if edge["stderr"] else ""
            exact = f"  ({edge['exact']})" if edge["exact"] else ""
            print(f"  {wager:<16} house edge {edge['house_edge'] * 100:8.4f}%{stderr}  {edge['method']}{exact}")
    return 0
