"""A supervisor's PIN at the terminal, for what only a supervisor may do from the command line.

The same accounts as the console (``controller.records.staff``, the config's
``[console] staff``) and the same record: ``--by NAME`` names the supervisor,
the PIN is typed without echo (``--pin-stdin``: the first line of standard
input, for scripts), at most ``TRIES`` times; every try, granted or refused,
is journaled (``supervisor_granted`` or ``supervisor_refused`` with
``step = "command line"``), and nothing is done unless one is granted.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from controller.commands.staff import terminal_present
from controller.console.settings import console_settings
from controller.engine.config import TableConfig
from controller.engine.log import EventLog
from controller.errors import TableError
from controller.events import SupervisorGranted, SupervisorRefusal
from controller.records.staff import StaffError, StaffFile

TRIES = 3


class SupervisorRefused(TableError, PermissionError):
    """No supervisor's PIN was given for a supervisor's action; the message says why."""


def supervisor_options(parser: argparse.ArgumentParser) -> None:
    """``--by NAME`` and ``--pin-stdin`` on a command only a supervisor may run."""
    parser.add_argument("--by", required=True, metavar="NAME", help="the supervisor who acts (asked for their PIN; journaled)")
    parser.add_argument("--pin-stdin", action="store_true", help="read the supervisor's PIN from standard input instead of asking")


def confirm_supervisor(args: argparse.Namespace, config: TableConfig, log: EventLog, action: str, round_id: str | None) -> str:
    """The supervisor's name once their PIN is right; ``SupervisorRefused`` after ``TRIES`` wrong ones (one from stdin)."""
    store = StaffFile(console_settings(config).staff)
    name = str(args.by)[:40]

    def refused(reason: str) -> SupervisorRefusal:
        return SupervisorRefusal(round=round_id, name=name, step="command line", action=action, reason=reason)

    if not args.pin_stdin and not terminal_present():  # getpass would read the PIN with echo, and warn in Python's words
        raise SupervisorRefused("no terminal to ask for the PIN on: nothing was done; give it on standard input with --pin-stdin")
    tries = 1 if args.pin_stdin else TRIES
    for attempt in range(1, tries + 1):
        pin = sys.stdin.readline().strip() if args.pin_stdin else getpass.getpass(f"PIN for {args.by}: ")
        try:
            account = store.verify(args.by, pin)
        except StaffError as exc:
            log.emit(refused(str(exc)))
            raise SupervisorRefused(str(exc)) from None
        if account is not None and account.supervises:
            log.emit(SupervisorGranted(round=round_id, name=name, step="command line", action=action))
            return account.name
        why = "wrong name or PIN" if account is None else f"{args.by} is not a supervisor"
        log.emit(refused(why))
        if attempt < tries:
            print(f"tablectl: {why}: try again", file=sys.stderr)
    raise SupervisorRefused(f"refused: {why}; nothing was done")
