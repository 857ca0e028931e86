"""``tablectl meters``: the table's meters as kept in the journal (never reset, not even by an error)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from controller.commands.rounds import journal_options, open_journal
from controller.errors import TableError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("meters", help="the table's meters from the journal: rounds, wagered, paid, house win")
    journal_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        with open_journal(args) as journal:
            meters = journal.meters()
            last_seq = journal.last_seq
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    if args.json:
        between = meters.between_players
        print(json.dumps({**meters.as_dict(), "journal_seq": last_seq,
                          "between_players": {"count": between.count, "staked": between.wagered, "returned": between.paid}}, indent=2))
    else:
        print(f"meters at journal seq {last_seq}")
        print("\n".join(meters.summary_lines()))
    return 0
