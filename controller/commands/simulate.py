"""``tablectl simulate shoe|shuffler``: a simulated device on a pseudo-terminal (or socket) until killed.

Prints ``PORT <url>`` first: point a table config's ``[shoe] port`` (or
``[shuffler] port``) at it. Control commands (faults, scripted card order)
are read from standard input; see ``drivers.sim.device``.
"""

from __future__ import annotations

import argparse
from typing import Any

from drivers.sim.cli import add_arguments, serve


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate", help="run a simulated shoe or shuffler on a real pseudo-terminal",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    parser.set_defaults(func=serve)
