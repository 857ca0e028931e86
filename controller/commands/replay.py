"""``tablectl replay ID``: re-run a round from its journal through the real round engine.

Every event the engine emits must equal the journaled one (see
``controller.engine.recovery``), and the settlement must come out the same to the
cent; any difference is reported and the command exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from controller.commands.rounds import journal_options, open_journal
from controller.engine.recovery import JournalMismatch, rebuild
from controller.errors import TableError
from controller.events import RoundCompleted, RoundEvent, RoundVoided, to_record
from controller.money import format_cents


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("replay", help="re-run a round from the journal and check its settlement to the cent")
    parser.add_argument("id", help="round id, as `tablectl rounds` lists it")
    journal_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        with open_journal(args) as journal:
            row = journal.round(args.id)
            if row is None:
                raise TableError(f"no round {args.id!r} in {journal.path}: `tablectl rounds` lists the last ones")
            if row.ended_seq is None:
                raise TableError(f"round {args.id} has not ended (it is {row.state}): there is no settlement to reproduce yet")
            records = journal.round_records(args.id)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    end = to_record(next(r for r in records if isinstance(r, RoundCompleted | RoundVoided)))
    try:
        round = rebuild(records, None)
        totals = round.totals()
        if {k: end[k] for k in totals} != totals:
            raise JournalMismatch(f"round {args.id}: the journal's totals {end} differ from the replay's {totals}")
    except JournalMismatch as exc:
        print(f"tablectl: replay of {args.id} does NOT match the journal: {exc}", file=sys.stderr)
        return 1
    result = {"round": args.id, "state": round.state, "events": sum(1 for r in records if isinstance(r, RoundEvent)), "matches": True,
              "settlements": [s.as_event() for s in round.settlements], "totals": totals}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"round {args.id} replayed through the engine: {result['events']} events match the journal")
        print(f"settlement reproduced to the cent: wagered {format_cents(totals['wagered'])}, "
              f"paid {format_cents(totals['paid'])}, house win {format_cents(totals['house_win'])}")
    return 0
