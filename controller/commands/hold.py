"""``tablectl hold list|resume|void``: the supervisor ends a round held on a table that is not running.

A ``tablectl run`` stops at a held round (exit 1) and every later run stops
at it again until it is resumed or voided: here, on the table's journal (the
console does the same on a running table). ``resume ROUND [--card QH]``
resumes the round where it was held, entering the card a device could not
read (refused at once, before any PIN, for a round that may only be voided:
``controller.engine.holds.void_only``, journaled as the console journals it);
``void ROUND`` returns every wager. Both are journaled as the
supervisor's action, with ``--reason``, and only once a supervisor's PIN is
typed (``--by NAME``, the console's accounts: ``controller.commands.supervisor``).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import Any

from controller.cards import Card, UnknownCard
from controller.commands.options import config_argument
from controller.commands.supervisor import confirm_supervisor, supervisor_options
from controller.engine.config import load_config
from controller.engine.holds import VoidOnly, act_on_journal, held_rounds, refuse_on_journal
from controller.engine.session import open_records, record_paths
from controller.errors import TableError
from controller.records.journal import Journal


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("hold", help="list, resume or void rounds on hold (the table not running)")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="the rounds on hold, with why")
    resume = actions.add_parser("resume", help="resume a held round where it stopped")
    resume.add_argument("round", help="round id, as `tablectl hold list` shows it")
    resume.add_argument("--card", help="the card a device could not read, identified by the supervisor (e.g. QH)")
    resume.add_argument("--reason", default="resumed by the supervisor", help="why (journaled)")
    void = actions.add_parser("void", help="void a held round: every wager is returned")
    void.add_argument("round", help="round id, as `tablectl hold list` shows it")
    void.add_argument("--reason", default="voided by the supervisor", help="why (journaled)")
    for sub in (listing, resume, void):
        config_argument(sub)
        sub.add_argument("--journal", default=None, help="journal file (default: the config's [journal] path)")
        sub.add_argument("--log", default=None, help="JSON event log (default: the config's [log] events)")
    for sub in (resume, void):
        supervisor_options(sub)
    parser.set_defaults(func=hold)


def hold(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
        paths = record_paths(config, journal=Path(args.journal) if args.journal else None,
                             log=Path(args.log) if args.log else None)
        card = _card(getattr(args, "card", None))
        if args.action == "list":
            with Journal(paths.journal, table_id=config.table_id, readonly=True) as journal:
                held = held_rounds(journal)
            for row in held:
                print(f"{row.round_id}  {row.reason}")
            if not held:
                print("no round is on hold")
            return 0
        with contextlib.ExitStack() as stack:  # the table's records as the table opens them: locked, checked, signed
            store, log = open_records(config, paths, stack)
            assert store is not None
            acted_on = store.round(args.round)
            if acted_on is not None and acted_on.state == "hold":  # anything else is refused below before a PIN is asked
                if args.action == "resume":  # nor is a round that may only be voided: no PIN for nothing
                    refuse_on_journal(store, log, config, args.round, by=str(args.by)[:40])
                args.by = confirm_supervisor(args, config, log, args.action, args.round)
            print(act_on_journal(store, log, config, args.round, args.action, by=args.by, reason=args.reason, card=card))
    except VoidOnly as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        print(f"tablectl: the supervisor voids it: tablectl hold void {args.round} --by NAME", file=sys.stderr)
        return 2
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    return 0


def _card(code: str | None) -> Card | None:
    if code is None:
        return None
    try:
        return Card.parse(code.strip().upper())
    except UnknownCard as exc:
        raise TableError(f"--card {code!r} is not a card: {exc}") from None
