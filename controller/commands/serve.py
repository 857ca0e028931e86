"""``tablectl serve``: run the configured table with its dealer console until stopped.

The devices come from the config (a reference shoe with no ``port`` is the
simulator on a pseudo-terminal, as in ``tablectl run``), the dealer enters
wagers and decisions on the console page, and the pit view shows meters,
rounds and faults. SIGTERM or SIGINT stops it. Exit codes: 0 stopped, 2 bad
config or a port that cannot be opened.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from pathlib import Path
from typing import Any

from controller.commands.run import shoe_simulator
from controller.config import DEFAULT_CONFIG, load_config
from controller.console.runner import console_arguments, serve_until_stopped, with_overrides
from controller.console.server import console_settings
from controller.console.session import TableLoop
from controller.devices import open_feed
from controller.errors import TableError
from controller.events import EventLog
from controller.feeds import ShoeFeed
from controller.players import SimulatedPlayers
from controller.table import Table
from drivers.sim.process import SimulatorError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("serve", help="run the table with its dealer console until stopped")
    parser.add_argument("--config", default=str(DEFAULT_CONFIG), help="table config (TOML); default: %(default)s")
    parser.add_argument("--seed", type=int, default=None, help="seed for simulated devices and players")
    parser.add_argument("--simulated-players", action="store_true", help="simulated players wager and decide (a demonstration table)")
    console_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
        settings = with_overrides(console_settings(config), args.host, args.port)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    log_path = Path(config.log.get("events", "var/log/tablectl-events.jsonl"))
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        log = EventLog(config.table_id, json_stream=stack.enter_context(log_path.open("a", encoding="utf-8")))
        seed = rng.randrange(2**32)
        try:
            feed = open_feed(config, log, seed=seed, shoe_port=shoe_simulator(config, seed, stack))
            if isinstance(feed, ShoeFeed):
                stack.callback(feed.shoe.close)
            players = SimulatedPlayers(random.Random(rng.randrange(2**32))) if args.simulated_players else None
            loop = TableLoop(Table(config, feed, log), players=players, pace=settings.pace)
            serve_until_stopped(loop, settings, allow_remote=args.allow_remote)
        except (TableError, SimulatorError, OSError) as exc:
            print(f"tablectl: {exc}", file=sys.stderr)
            return 2
    return 0
