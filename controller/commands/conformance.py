"""``tablectl conformance shoe|shuffler PORT``: check a device against docs/protocol.md, clause by clause.

For device makers and test labs: the kit (``drivers.conformance``) drives the
device through every command, fault, reconnection and replay the document
defines and prints ``pass``, ``FAIL`` or ``skip`` for each numbered clause.
Faults need someone at the machine: ``--operator prompt`` asks for each
("open the door, then press Enter"); without it those clauses are skipped.
``--simulator READING`` checks tablectl's own simulator in that reading
(``drivers/sim/readings.toml``; ``all`` runs every reading), which the kit
then drives itself. Exit status: 0 if no clause failed, 1 if one did, 2 if the device could
not be checked at all (the port does not open, or nothing answers the first Hello: it says which).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from drivers.conformance.run import check, check_simulator, operator_named, summary
from drivers.errors import DeviceError
from drivers.sim.behaviour import readings


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("conformance", help="check a shoe or shuffler against docs/protocol.md, clause by clause")
    parser.add_argument("device", choices=("shoe", "shuffler"), help="what is connected")
    parser.add_argument("port", nargs="?", help="its port: /dev/serial/by-id/..., /dev/ttyUSB0, socket://host:port")
    parser.add_argument("--operator", choices=("none", "prompt"), default="none",
                        help="prompt: ask someone at the machine to make each fault (default: skip those clauses)")
    parser.add_argument("--simulator", metavar="READING",
                        help="check tablectl's simulator in this reading instead of a port ('all': every reading)")
    parser.set_defaults(func=conformance)


def conformance(args: argparse.Namespace) -> int:
    if (args.port is None) == (args.simulator is None):
        print("tablectl: conformance needs a PORT, or --simulator READING", file=sys.stderr)
        return 2
    names = sorted(readings(args.device)) if args.simulator == "all" else [args.simulator] if args.simulator else []
    failed = False
    try:
        for name in names or [None]:
            print(f"{args.device} {'simulator reading ' + name if name else 'at ' + args.port}")
            report = lambda outcome: print(outcome.line(), flush=True)  # noqa: E731
            if name is None:
                outcomes = check(args.device, args.port, operator_named(args.operator), report)
            else:
                outcomes = check_simulator(args.device, name, report)
            print(summary(outcomes) + "\n")
            failed = failed or any(o.status == "FAIL" for o in outcomes)
    except (DeviceError, ValueError, OSError) as exc:
        print(f"tablectl: cannot check the {args.device}: {exc}", file=sys.stderr)
        return 2
    return 1 if failed else 0
