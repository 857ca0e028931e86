"""``tablectl run``: a session of rounds on simulated devices and players, then its summary.

With ``[shoe] driver = "reference"`` and no ``port``, the shoe is the reference
simulator in its own process on a pseudo-terminal, so the default run goes
through the real serial path: pty, framing, acknowledgements, the driver.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from pathlib import Path
from typing import Any, TextIO

from controller.config import DEFAULT_CONFIG, TableConfig, load_config
from controller.console.runner import console_arguments, serve_until_stopped, with_overrides
from controller.console.server import console_settings
from controller.console.session import TableLoop
from controller.devices import open_feed
from controller.errors import TableError
from controller.events import EventLog, stderr_console
from controller.feeds import ShoeFeed
from controller.money import format_cents
from controller.players import SimulatedPlayers
from controller.round import Round
from controller.table import Table
from drivers.sim.process import SimulatorError, SimulatorProcess


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("run", help="play rounds on simulated devices and print a summary")
    parser.add_argument("--config", default=str(DEFAULT_CONFIG), help="table config (TOML); default: %(default)s")
    parser.add_argument("--rounds", type=_positive, default=20, help="rounds to play (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the shuffles and the players")
    parser.add_argument("--log", default=None, help="JSON-lines event log (default: the config's [log] events)")
    parser.add_argument("--verbose", "-v", action="store_true", help="also show every event on the terminal")
    parser.add_argument("--console", action="store_true", help="serve the dealer console and pit view while playing")
    parser.add_argument("--dealer", action="store_true", help="with --console: no simulated players, wagers and decisions come from the page")
    parser.add_argument("--pace", type=float, default=None, help="with --console: seconds between dealt cards (default: [console] pace, else 1)")
    console_arguments(parser)
    parser.set_defaults(func=run)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def shoe_simulator(config: TableConfig, seed: int, stack: contextlib.ExitStack) -> str | None:
    """A reference shoe with no ``port`` configured is the simulator, on a pseudo-terminal of its own."""
    shoe = config.shoe
    if shoe.get("driver") != "reference" or shoe.get("port") or config.make_game().device != "shoe":
        return None
    args = ["--decks", str(shoe.get("decks", 8)), "--cut", str(shoe.get("cut_from_end", 52)), "--seed", str(seed)]
    return stack.enter_context(SimulatorProcess("shoe", *args)).port


def round_line(table: Table, round: Round) -> str:
    totals = round.totals()
    money = (
        f"wagered {format_cents(totals['wagered']):>10}  paid {format_cents(totals['paid']):>10}  "
        f"house {format_cents(totals['house_win']):>10}"
    )
    if totals["between_players"]:
        money = f"between players {format_cents(totals['between_players']):>10}  fees {format_cents(totals['fees']):>8}"
    hand = table.game.describe(round.hand) if round.hand is not None else "no hand"
    return f"{round.id}  {round.state:<8} {hand:<44} {money}"


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    log_path = Path(args.log or config.log.get("events", "var/log/tablectl-events.jsonl"))
    log_path.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    with contextlib.ExitStack() as stack:
        events: TextIO = stack.enter_context(log_path.open("a", encoding="utf-8"))
        log = EventLog(config.table_id, json_stream=events, console_stream=stderr_console() if args.verbose else None)
        seed = rng.randrange(2**32)
        try:
            feed = open_feed(config, log, seed=seed, shoe_port=shoe_simulator(config, seed, stack))
        except (TableError, SimulatorError) as exc:
            print(f"tablectl: {exc}", file=sys.stderr)
            return 2
        if isinstance(feed, ShoeFeed):
            stack.callback(feed.shoe.close)
        table = Table(config, feed, log)
        players = SimulatedPlayers(random.Random(rng.randrange(2**32)))
        if args.console:
            return run_console(args, config, table, players)
        print(f"{table.game.title} at table {config.table_id} ({config.path}); events to {log_path}")
        for _ in range(args.rounds):
            round = table.play_round(players)
            print(round_line(table, round))
            if round.state == "hold":
                print(f"round {round.id} is on hold: {round.hold_reason}", file=sys.stderr)
                return 1
            if table.stopped:
                print(f"the game stopped: {table.stopped}")
                break
    print("\n".join(["", "summary", *table.meters.summary_lines()]))
    return 0


def run_console(args: argparse.Namespace, config: TableConfig, table: Table, players: SimulatedPlayers) -> int:
    """Play with the console served: simulated players for ``--rounds`` rounds, or the dealer from the page."""
    try:
        settings = with_overrides(console_settings(config), args.host, args.port, args.pace)
        loop = TableLoop(table, players=None if args.dealer else players, pace=settings.pace,
                         rounds=0 if args.dealer else args.rounds)
        serve_until_stopped(loop, settings, allow_remote=args.allow_remote)
    except (TableError, OSError) as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    print("\n".join(["", "summary", *table.meters.summary_lines()]))
    return 0
