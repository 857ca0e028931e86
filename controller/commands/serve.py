"""``tablectl serve``: run the configured table with its dealer console until stopped (what the systemd unit runs).

Start-up opens the journal, the event log and the devices and recovers any
round cut off by the last stop, then starts the console (``controller.console``)
on 127.0.0.1 (another address only with ``--allow-remote``); only then is
systemd told ``READY=1``. A shoe or shuffler not there yet does not stop it: the table
is held ("shoe not connected at PORT: ...", in READY's STATUS too) until the device
answers (``controller.engine.awaited``). The table loop runs on the main thread: it takes the
dealer's wagers and decisions from the page and the cards from the devices,
and between commands checks the table's health and feeds the watchdog only
when it passes, so a hung loop or a failing journal gets the service
restarted. SIGTERM or SIGINT stops it; a round in play stays in the journal
and resumes on restart. A round on hold stays on hold (across restarts too)
until a supervisor clears it on the console.

``[vision] crosscheck = true`` makes the overhead camera the round's second
witness (``controller.engine.camera``): the camera ``[vision] source`` names, or on a
demonstration table without one the simulated camera; a live table whose config
names no source plays unfilmed, logged as ``camera_off``.

``--simulated-players`` makes a demonstration table: simulated players wager
and decide (``--rounds`` of them, ``--interval`` seconds between steps), and a
reference shoe configured without a port is its simulator on a pseudo-terminal;
``--no-console`` serves no page and listens on nothing.
Exit codes: 0 stopped, 2 bad config, 3 the journal or the event log cannot be written or read
(disk full, permission, another process holds the table), 4 the records are damaged or missing
(docs/operations.md says how to restore; the unit does not restart on it).
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from controller.commands.jackpot_awards import award_source
from controller.commands.notify import Notifier
from controller.commands.options import config_argument, config_option
from controller.console.runner import console_arguments, serve_until_stopped, with_overrides
from controller.console.settings import console_settings
from controller.engine.config import load_config
from controller.engine.log import span
from controller.engine.players import SimulatedPlayers
from controller.engine.session import Session, open_session
from controller.errors import TableError
from controller.events import (
    ClockSteppedBack,
    Event,
    LoggedOut,
    LoginGranted,
    RoundCompleted,
    RoundHeld,
    RoundVoided,
    TableServed,
)
from controller.money import format_cents
from controller.records.errors import JournalError, RecordsError
from controller.records.recall import still_logged_in
from controller.records.staff import SessionAccounts, StaffFile


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("serve", help="run the table with its dealer console until stopped (systemd service, Type=notify)")
    config_argument(parser)
    parser.add_argument("--simulated-players", action="store_true",
                        help="a demonstration table: simulated players, and the shoe simulator when no port is configured")
    parser.add_argument("--rounds", type=_count, default=0, help="with --simulated-players: stop after N rounds (default: 0, no limit)")
    parser.add_argument("--interval", type=_seconds, default=1.0, help="with --simulated-players: seconds between steps (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the simulated devices and players")
    parser.add_argument("--no-console", action="store_true", help="serve no console page: listen on nothing")
    parser.add_argument("--journal", default=None, help="journal file (default: the config's [journal] path)")
    console_arguments(parser)
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


def refuse(notifier: Notifier, message: str) -> int:
    """Serve will not start: the operator reads why on stderr, and ``systemctl status`` shows it (STATUS=)."""
    notifier.stopping(f"not started: {message.splitlines()[0]}")
    print(f"tablectl: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    notifier = Notifier()
    try:
        config = load_config(args.config)
        settings = with_overrides(console_settings(config), args.host, args.port, args.interval)
        accounts = SessionAccounts(StaffFile(settings.staff))
        if not args.no_console and not accounts.has_supervisor():
            return refuse(notifier, f"no supervisor account in {settings.staff}: nobody could clear a hold. Create one with\n"
                                    f"  tablectl staff add NAME --role supervisor{config_option(args.config)}\n"
                                    "and the dealers with --role dealer, then start again.")
    except TableError as exc:
        return refuse(notifier, str(exc))
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    rng = random.Random(args.seed)
    try:
        journal = Path(args.journal) if args.journal else None
        with open_session(config, rng, journal=journal, simulate_devices=args.simulated_players,
                          awards=award_source(config), await_devices=True) as session:
            for recovered in session.recovered:
                print(f"tablectl: {recovered.message}", file=sys.stderr)
            if not args.simulated_players:  # a live table's journal now: `tablectl run` refuses it (a demonstration's not)
                mark_served(session)
            end_lost_sessions(session)
            session.log.subscribe(print_round)
            session.log.subscribe(print_clock_step)
            players = SimulatedPlayers(random.Random(rng.randrange(2**32))) if args.simulated_players else None
            from controller.engine.camera import film_session  # OpenCV loads only for a session that may film

            film_session(session, rng.randrange(2**32), asked=None, simulated=args.simulated_players,
                         warn=lambda text: print(f"tablectl: {text}", file=sys.stderr))
            heartbeat = Heartbeat(session, notifier, stop, args.rounds)
            session.log.subscribe(heartbeat.saw)
            loop = session.table_loop(players=players, pace=settings.pace, rounds=args.rounds, heartbeat=heartbeat.beat)
            up = f"table {config.table_id} ({session.table.game.title}) up; journal {session.journal and session.journal.path}"
            awaited = session.table.feed.awaited()
            if awaited is not None:  # the service is up, the table held until its device is connected
                print(f"tablectl: table {config.table_id} on hold: {awaited}", file=sys.stderr, flush=True)
                up += f"; table on hold: {awaited}"
            if args.no_console:
                notifier.ready(up)
                loop.run(stop)
            else:
                serve_until_stopped(loop, settings, accounts, allow_remote=args.allow_remote, stop=stop,
                                    ready=lambda url: notifier.ready(f"{up}; console {url}/"))
    except RecordsError as exc:
        notifier.stopping(f"records failure: {exc}")
        print(f"tablectl: {exc}", file=sys.stderr)
        return exc.exit_code
    except (TableError, OSError) as exc:
        notifier.stopping(f"error: {exc}")
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    notifier.stopping("stopped")
    print("\n".join(["", "summary", *session.table.meters.summary_lines()]), flush=True)
    return 0


def end_lost_sessions(session: Session) -> None:
    """Console sessions the table's last run lost without a logout (it was killed, or the power went) end now, on the
    record (``logout``, ``ended``: ``table restarted``): no session outlives the process that held it, and
    ``tablectl round ID`` and the floor would name their holders as logged in until their next login."""
    if session.journal is None:
        return
    for login in still_logged_in(session.journal.records_of(LoginGranted, LoggedOut)):
        session.log.emit(LoggedOut(name=login.name, client=login.client, ended="table restarted"))


def mark_served(session: Session) -> None:
    """The journal is a live table's from its first serve: marked in its meta (what ``tablectl run`` reads) and
    journaled once as ``table_served``, so the event log witnesses it and a restore carries it."""
    journal = session.journal
    if journal is None or journal.served_since is not None:
        return
    journal.mark_served(session.log.emit(TableServed()).timestamp)


def print_clock_step(event: Event) -> None:
    """The table's clock went back (``clock_stepped_back``): the operator is told on stderr, as the record says it."""
    if isinstance(event, ClockSteppedBack):
        print(f"tablectl: warning: {event.message}", file=sys.stderr, flush=True)


def print_round(event: Event) -> None:
    """A line on standard output as each round ends (the journal has already taken it): what ``run`` prints."""
    match event:
        case RoundCompleted() | RoundVoided():
            state = "complete" if isinstance(event, RoundCompleted) else "void"
            money = (f"wagered {format_cents(event.wagered):>10}  paid {format_cents(event.paid):>10}  "
                     f"house {format_cents(event.house_win):>10}")
            print(f"{event.round}  {state:<8} {money}" + (f"  ({event.reason})" if isinstance(event, RoundVoided) else ""),
                  flush=True)
        case RoundHeld():
            print(f"{event.round}  hold     {event.reason}", flush=True)


class Heartbeat:
    """Called on the table loop's thread between commands: the health check, then the watchdog."""

    def __init__(self, session: Session, notifier: Notifier, stop: threading.Event, rounds: int) -> None:
        self.session, self.notifier, self.stop, self.rounds = session, notifier, stop, rounds
        self.status = ""
        self.clock = ""
        """The last step back of the table's clock this service saw, as STATUS says it."""

    def saw(self, event: Event) -> None:
        """A log subscriber: a step back of the clock is shown in STATUS from then on."""
        if isinstance(event, ClockSteppedBack):
            self.clock = f"; clock stepped back {span(event.seconds)} at seq {event.seq} (set the clock)"

    def beat(self) -> None:
        loop = self.session.loop
        assert loop is not None
        problem = unhealthy(self.session)
        if problem:
            raise JournalError(f"health check failed: {problem}")
        self.notifier.watchdog()
        round = loop.round
        status = (f"round {round.id} on hold: {round.hold_reason}; waiting for a supervisor" if round is not None and round.state == "hold"
                  else f"table on hold: {loop.table_fault}" if loop.table_fault is not None
                  else f"{loop.rounds_finished} rounds played" + (f"; round {round.id} {round.state}" if round is not None else ""))
        status += self.clock
        if status != self.status:
            self.status = status
            self.notifier.status(status)
        if self.rounds and loop.players is not None and loop.rounds_finished >= self.rounds:
            self.stop.set()
