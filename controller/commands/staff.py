"""``tablectl staff add|remove|list``: the dealer and supervisor accounts who may log in at the console.

The file is ``[console] staff`` of the config (default ``var/staff.json``), or
``--file``. A PIN (4 to 12 digits) is asked for twice without echo on a
terminal; ``--pin-stdin`` reads it from the first line of standard input
(for scripts and installers). ``--card`` asks for the ID a card reader types
instead of, or as well as, a PIN. Only scrypt hashes are stored
(``controller.records.staff``).

Exit codes: 0 done, 2 bad arguments, config or file, or no PIN given; 130 interrupted (Ctrl-C), nothing saved.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path
from typing import Any

from controller.commands.interrupt import EXIT_INTERRUPTED
from controller.commands.options import CONFIG_HELP
from controller.console.settings import console_settings
from controller.engine.config import load_config
from controller.errors import TableError
from controller.records.staff import ROLES, StaffError, StaffFile


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("staff", help="add, remove or list the dealers and supervisors who log in at the console")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = actions.add_parser("add", help="add an account (or give an existing one a new PIN, card or role)")
    add.add_argument("name", help="the name typed at login: a letter, then letters, digits, '.', '_' or '-'")
    add.add_argument("--role", choices=ROLES, required=True, help="dealer: runs the table; supervisor: also resumes, voids, corrects")
    add.add_argument("--card", action="store_true", help="also ask for the ID the person's card reader types")
    add.add_argument("--no-pin", action="store_true", help="with --card: the card alone, no PIN")
    add.add_argument("--pin-stdin", action="store_true", help="read the PIN (and then the card ID) from standard input, one a line")
    remove = actions.add_parser("remove", help="remove an account")
    remove.add_argument("name")
    actions.add_parser("list", help="list the accounts (names, roles, which secrets they have)")
    for sub in (add, remove, actions.choices["list"]):
        where = sub.add_mutually_exclusive_group()
        where.add_argument("--config", default=None, metavar="FILE|GAME",
                           help=f"{CONFIG_HELP}; its [console] staff names the file")
        where.add_argument("--file", default=None, help="the staff file itself")
    parser.set_defaults(func=run)


def staff_file(args: argparse.Namespace) -> StaffFile:
    if args.file:
        return StaffFile(Path(args.file))
    return StaffFile(console_settings(load_config(args.config)).staff)


def run(args: argparse.Namespace) -> int:
    try:
        store = staff_file(args)
        if args.action == "list":
            accounts = store.accounts()
            if not accounts:
                print(f"no accounts in {store.path}: add one with `tablectl staff add NAME --role supervisor`")
            for account in accounts:
                secrets = " and ".join(k for k, has in (("PIN", account.pin), ("card", account.card)) if has)
                print(f"{account.name:<20} {account.role:<11} {secrets}")
            return 0
        if args.action == "remove":
            store.remove(args.name)
            print(f"removed {args.name} from {store.path}")
            return 0
        if args.no_pin and not args.card:
            raise StaffError("--no-pin needs --card: an account needs a PIN or a card")
        lines = iter(sys.stdin.read().splitlines()) if args.pin_stdin else None
        pin = None if args.no_pin else ask(lines, f"PIN for {args.name} (4 to 12 digits)")
        card = ask(lines, f"swipe {args.name}'s card (or type its ID)") if args.card else None
        account = store.add(args.name, args.role, pin=pin, card=card)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    except EOFError:
        print(f"tablectl: no PIN given for {args.name} (the input ended): nothing saved; type it at a terminal, "
              "or give it with --pin-stdin", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{os.linesep if sys.stderr.isatty() else ''}tablectl: interrupted: nothing saved", file=sys.stderr)
        return EXIT_INTERRUPTED
    print(f"{account.name} ({account.role}) saved in {store.path}")
    return 0


def ask(lines: Any, prompt: str) -> str:
    """A secret from the next line of ``lines``, or asked twice on the terminal without echo."""
    if lines is not None:
        try:
            return str(next(lines)).strip()
        except StopIteration:
            raise StaffError(f"standard input ended before the {prompt.split(' ', maxsplit=1)[0]}") from None
    if not terminal_present():
        raise StaffError(f"no terminal to ask for the {prompt.split(' ', maxsplit=1)[0]} on: nothing saved; "
                         "give it on standard input with --pin-stdin")
    first = getpass.getpass(f"{prompt}: ")
    if getpass.getpass("again: ") != first:
        raise StaffError("the two entries differ: nothing saved")
    return first.strip()


def terminal_present() -> bool:
    """Whether there is a terminal to ask a secret on without echo (``getpass`` opens ``/dev/tty``)."""
    try:
        os.close(os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY))
    except OSError:
        return False
    return True
