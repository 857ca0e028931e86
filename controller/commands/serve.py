"""``tablectl serve``: run the configured table on its devices until stopped (what the systemd unit runs).

Start-up opens the journal, the event log and the devices and recovers any
round cut off by the last stop; only then is systemd told ``READY=1``. The
main loop checks the table's health before every round and feeds the
watchdog only when it passes, so a hung loop or a failing journal gets the
service restarted. SIGTERM or SIGINT finishes the round in play, then stops.
A round on hold stays on hold (across restarts too) until the dealer clears
it; the loop keeps the watchdog fed meanwhile and deals no further round.

The controller listens on nothing: no TCP, UDP or listening unix socket. Until
the dealer console exists, rounds are played by simulated players.
Exit codes: 0 stopped, 2 bad config, 3 the journal cannot be written or read.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import threading
from typing import Any

from controller.config import DEFAULT_CONFIG, load_config
from controller.errors import TableError
from controller.events import LogOutputError
from controller.journal import JournalError
from controller.notify import Notifier
from controller.players import SimulatedPlayers
from controller.session import Session, open_session


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("serve", help="run the table until stopped (systemd service, Type=notify)")
    parser.add_argument("--config", default=str(DEFAULT_CONFIG), help="table config (TOML); default: %(default)s")
    parser.add_argument("--rounds", type=_count, default=0, help="stop after N rounds (default: 0, run until stopped)")
    parser.add_argument("--interval", type=_seconds, default=1.0, help="seconds between rounds (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the simulated devices and players")
    parser.set_defaults(func=run)


def _count(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"must be a whole number of rounds (0 for no limit), not {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, not {text!r}") from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"must be 0 to 3600 seconds, not {value}")
    return value


def unhealthy(session: Session) -> str | None:
    """Why the table cannot go on, or ``None``: the journal is readable and has every event the log has."""
    if session.journal is None:
        return None
    try:
        session.journal.rounds_started()
    except JournalError as exc:
        return str(exc)
    if session.journal.last_seq != session.log.last_seq:
        return f"journal at seq {session.journal.last_seq}, event log at seq {session.log.last_seq}"
    return None


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    notifier = Notifier()
    rng = random.Random(args.seed)
    try:
        with open_session(config, rng) as session:
            for recovered in session.recovered:
                print(f"tablectl: {recovered.message}", file=sys.stderr)
            notifier.ready(f"table {config.table_id} ({session.table.game.title}) up; journal {session.journal and session.journal.path}")
            _loop(session, SimulatedPlayers(random.Random(rng.randrange(2**32))), notifier, stop, args)
    except (JournalError, LogOutputError) as exc:
        notifier.stopping(f"journal failure: {exc}")
        print(f"tablectl: {exc}", file=sys.stderr)
        return 3
    except TableError as exc:
        notifier.stopping(f"error: {exc}")
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    notifier.stopping("stopped")
    return 0


def _loop(session: Session, players: SimulatedPlayers, notifier: Notifier, stop: threading.Event, args: argparse.Namespace) -> None:
    played = 0
    held = None
    while not stop.is_set() and not (args.rounds and played >= args.rounds):
        problem = unhealthy(session)
        if problem:
            raise JournalError(f"health check failed: {problem}")
        notifier.watchdog()
        if held is None:
            round = session.play(players)
            played += 1
            if round.state == "hold":
                held = round
                notifier.status(f"round {round.id} on hold: {round.hold_reason}; waiting for the dealer")
            else:
                notifier.status(f"{played} rounds played; last {round.id} {round.state}")
        stop.wait(args.interval if held is None else min(args.interval or 1.0, 1.0))
