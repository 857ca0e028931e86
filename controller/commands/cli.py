"""``tablectl``: the command line. Subcommands live in ``controller.commands``."""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import os
import sys
from collections.abc import Sequence

from controller.commands import COMMANDS
from controller.commands.interrupt import EXIT_INTERRUPTED
from controller.engine.log import route_stdlib_logging


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """Every command's parser, or with ``argv`` naming a command only that command's: each command module imports
    what its command needs, and a command that reads the journal need not wait for the console's or the camera's."""
    parser = argparse.ArgumentParser(prog="tablectl", description="Run and inspect a casino table game.")
    parser.add_argument("--version", action="version", version=f"tablectl {version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in _modules(argv):
        importlib.import_module(name).register(subparsers)
    return parser


def _modules(argv: Sequence[str] | None) -> Sequence[str]:
    """The module of the command ``argv`` names first, or all of them: for ``--help``, no command, or a name none
    has (argparse then lists the commands it knows)."""
    first = next((arg for arg in argv or () if not arg.startswith("-")), None)
    named = [module for module, commands in COMMANDS.items() if first in commands]
    return named or list(COMMANDS)


def version() -> str:
    """The installed distribution's version (``pyproject.toml``)."""
    try:
        return importlib.metadata.version("tablectl")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        route_stdlib_logging()
    try:
        args = build_parser(sys.argv[1:] if argv is None else argv).parse_args(argv)
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        # Ctrl-C: whatever the command had open (the records, a device, the console) was closed on the way here.
        print(f"{os.linesep if sys.stderr.isatty() else ''}tablectl: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `tablectl run | head`: the reader went away; end quietly. SIGPIPE itself stays ignored (Python's default):
        # its default action would kill tablectl without a word whenever a socket:// device closed its end.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
