"""``tablectl run``: a session of rounds on simulated devices and players, then its summary.

With ``[shoe] driver = "reference"`` and no ``port``, the shoe is the reference
simulator in its own process on a pseudo-terminal, so the default run goes
through the real serial path: pty, framing, acknowledgements, the driver.

Every event is journaled first (``controller.records.journal``); a run started on a
journal that holds an unfinished round recovers it before playing new ones.
With ``--console`` the session is served on the dealer console (``controller.console``):
simulated players play ``--rounds`` rounds while a person watches, or with ``--dealer``
the person enters every wager and decision; it runs until interrupted.

Exit codes: 0 done, 1 a round is on hold, 2 bad config or arguments, 3 the
journal or the event log cannot be written or read (disk full, permission,
another process holds the table; the round in progress holds), 4 the records
are damaged or missing (``controller.records.errors``; docs/operations.md says
how to restore).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.commands.interrupt import EXIT_INTERRUPTED, StopAfter
from controller.commands.jackpot_awards import award_source
from controller.commands.options import config_argument
from controller.commands.progress import progress
from controller.commands.rounds import unsettled
from controller.commands.serve import print_clock_step
from controller.console.runner import console_arguments, serve_until_stopped, with_overrides
from controller.console.settings import console_settings
from controller.engine.config import TableConfig, load_config
from controller.engine.holds import void_only
from controller.engine.players import SimulatedPlayers
from controller.engine.round import Round
from controller.engine.session import Session, journal_path, log_path, open_session
from controller.engine.table import Table
from controller.errors import TableError
from controller.money import format_cents
from controller.records.errors import EXIT_STORAGE, RecordsError
from controller.records.journal import served
from controller.records.meters import Meters
from controller.records.staff import SessionAccounts, StaffFile, one_session_account
from drivers.sim.process import SimulatorError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("run", help="play rounds on simulated devices and print a summary")
    config_argument(parser)
    parser.add_argument("--rounds", type=_positive, default=20, help="rounds to play (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the shuffles and the players")
    parser.add_argument("--log", default=None, help="JSON-lines event log (default: the config's [log] events)")
    parser.add_argument("--journal", default=None, help="journal file (default: the config's [journal] path)")
    parser.add_argument("--no-journal", action="store_true",
                        help="play without a journal (a throwaway simulation: no event log either, unless --log names one)")
    parser.add_argument("--key", default=None, help="the table's signing key (default: the config's [log] key, else beside the journal)")
    parser.add_argument("--json", action="store_true",
                        help="print the session as one JSON document (each round, the meters in cents) instead of text")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="also show every event on standard error (a terminal, a pipe or a file alike)")
    parser.add_argument("--console", action="store_true", help="serve the dealer console and pit view while playing")
    parser.add_argument("--dealer", action="store_true", help="with --console: no simulated players, wagers and decisions come from the page")
    parser.add_argument("--pace", type=float, default=None, help="with --console: seconds between dealt cards (default: [console] pace, else 1)")
    console_arguments(parser)
    camera = parser.add_mutually_exclusive_group()
    camera.add_argument("--camera", action="store_true",
                        help="film every card on the simulated table and hold the round when camera and shoe disagree "
                             "(also on with [vision] crosscheck = true)")
    camera.add_argument("--no-camera", action="store_true",
                        help="play without the camera even when the config's [vision] crosscheck films the table")
    parser.set_defaults(func=run)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of rounds, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def round_line(table: Table, round: Round) -> str:
    totals = round.totals()
    money = (
        f"wagered {format_cents(totals['wagered']):>10}  paid {format_cents(totals['paid']):>10}  "
        f"house {format_cents(totals['house_win']):>10}"
    )
    if totals["between_players"]:
        money = f"between players {format_cents(totals['between_players']):>10}  fees {format_cents(totals['fees']):>8}"
    if not round.settlements:  # on hold, or stopped before settling: its wagers are still on the layout
        money = unsettled(sum(round.wagers.values()))
    hand = table.game.describe(round.hand) if round.state == "complete" else f"({round.state}, {len(round.cards)} cards out)"
    return f"{round.id}  {round.state:<8} {hand:<44} {money}"


def round_json(round: Round) -> dict[str, Any]:
    """One round for ``--json``: its id, how it ended, and its money in cents."""
    return {"id": round.id, "state": round.state, **round.totals()}


def session_json(config: TableConfig, table: Table, rounds: list[dict[str, Any]], journal_meters: Meters | None,
                 camera: Any, *, held: str | None = None) -> dict[str, Any]:
    """``tablectl run --json``: the session's rounds and meters (amounts in cents, as in the journal)."""
    return {
        "table": config.table_id,
        "game": config.game_id,
        "config": config.path,
        "rounds": rounds,
        "meters": table.meters.as_dict(),
        "journal_meters": journal_meters.as_dict() if journal_meters is not None else None,
        "camera": dict(camera.tally) if camera is not None else None,
        "stopped": table.stopped or None,
        "held": held,
    }


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    events = Path(args.log) if args.log else None
    journal = Path(args.journal) if args.journal else None
    console = sys.stderr if args.verbose else None
    dealt = (journal or journal_path(config)) if not args.no_journal else None
    since = served(dealt) if dealt is not None and dealt.exists() else None
    if since is not None:  # before the session opens: opening it recovers the table's rounds into the journal
        print(f"tablectl: journal {dealt} is table {config.table_id}'s own: `tablectl serve` has dealt its rounds since "
              f"{since}, and `tablectl run` plays simulated players, whose wagers would go into its records and its "
              "never-reset meters. For a trial, give a game's own config (`--config top-card`) or a journal of the "
              "trial's own (`tablectl journal init --journal FILE`, then `--journal FILE`)", file=sys.stderr)
        return 2
    playing = False
    try:
        with open_session(config, rng, events=events, journal=journal, key=Path(args.key) if args.key else None,
                          journaled=not args.no_journal, console=console, simulate_devices=True,
                          warn=lambda text: print(f"tablectl: {text}", file=sys.stderr),
                          awards=award_source(config)) as session:
            playing = True
            table = session.table
            # Both seeds are drawn whether the camera films or not, so a seed fixes the wagers either way.
            players_seed, camera_seed = rng.randrange(2**32), rng.randrange(2**32)
            from controller.engine.camera import film_session  # OpenCV loads only for a session that may film

            asked = True if args.camera else False if args.no_camera else None
            camera = film_session(session, camera_seed, asked=asked, simulated=True,
                                  warn=lambda text: print(f"tablectl: {text} (--no-camera to say so)", file=sys.stderr))
            for recovered in session.recovered:
                print(f"tablectl: {recovered.message}", file=sys.stderr)
            session.log.subscribe(print_clock_step)
            players = SimulatedPlayers(random.Random(players_seed))
            say: Callable[..., None] = (lambda *_, **__: None) if args.json else print
            say(f"{table.game.title} at table {config.table_id} ({config.path}); "
                f"events to {events or (log_path(config) if session.journal else 'nowhere')}, "
                f"journal {session.journal.path if session.journal else 'off'}")
            if args.console:
                serve_console(args, session, players)
            rounds = 0 if args.console else args.rounds
            played: list[dict[str, Any]] = []
            # -v writes every event to stderr, where a bar would tear through them: the events are the progress then.
            with (StopAfter("after the round in play") as stop,
                  progress(f"{config.table_id} rounds", rounds, unit="round", show=bool(rounds) and not args.verbose) as advance):
                tell: Callable[..., None] = (lambda *_, **__: None) if args.json else advance.print
                loop = session.table_loop(players=players, views=False, recovery_wait=table.recovery_timeout)
                if rounds and table.stopped and not loop.wait_for_player_dealer(say=tell):
                    rounds = 0
                for _ in range(rounds):
                    if stop.requested.is_set():
                        break
                    round = loop.play_round(say=tell)
                    played.append(round_json(round))
                    if not args.json:
                        advance.print(round_line(table, round))
                    advance(1)
                    if round.state == "hold":
                        advance.print(f"round {round.id} is on hold: {round.hold_reason}", file=sys.stderr)
                        records = session.journal.round_records(round.id) if session.journal else []
                        if (why := void_only(round, records=records)) is not None:  # as `tablectl hold resume` decides
                            advance.print(f"tablectl: the supervisor voids it (tablectl hold void {round.id} --by NAME): "
                                          f"it cannot be resumed: {why}", file=sys.stderr)
                        else:
                            advance.print(f"tablectl: the supervisor resumes it (tablectl hold resume {round.id} --by NAME "
                                          f"[--card CODE]) or voids it (tablectl hold void {round.id} --by NAME)", file=sys.stderr)
                        if args.json:
                            print(json.dumps(session_json(config, table, played, None, camera, held=round.hold_reason), indent=2))
                        return 1
                    if table.stopped and not loop.wait_for_player_dealer(say=tell):
                        break
            journal_meters = session.journal.meters() if session.journal else None
    except RecordsError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        if exc.exit_code == EXIT_STORAGE and playing:
            print("tablectl: the round in progress holds at its last journaled event and resumes on restart", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        raise  # standard output's reader went away (`tablectl run | head`): cli.main ends quietly
    except (TableError, SimulatorError, OSError) as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    summary(args, config, table, played, journal_meters, camera)
    if stop.requested.is_set():
        print(f"tablectl: interrupted after {len(played)} of {rounds} rounds", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def summary(args: argparse.Namespace, config: TableConfig, table: Table, played: list[dict[str, Any]],
            journal_meters: Meters | None, camera: Any) -> None:
    """The session's rounds and meters on standard output: text, or ``--json``."""
    if args.json:
        print(json.dumps(session_json(config, table, played, journal_meters, camera), indent=2))
        return
    print("\n".join(["", "summary", *table.meters.summary_lines(), *([camera.summary()] if camera else [])]))
    if journal_meters is not None:
        print(f"journal meters: {journal_meters.rounds} rounds, wagered {format_cents(journal_meters.total.wagered)}, "
              f"house win {format_cents(journal_meters.total.house_win)}")


def serve_console(args: argparse.Namespace, session: Session, players: SimulatedPlayers) -> None:
    """The session on the dealer console until interrupted: simulated players for ``--rounds``, or ``--dealer``.

    A simulated table works out of the box: besides the accounts of the staff file (if any), a supervisor
    account made for this process only, with a fresh PIN, is printed here and forgotten when it stops.
    """
    settings = with_overrides(console_settings(session.config), args.host, args.port, args.pace)
    name, pin = one_session_account()
    accounts = SessionAccounts(StaffFile(settings.staff), {name: ("supervisor", pin)})
    print(f"console login for this session only: name {name}, PIN {pin} (a supervisor; "
          f"staff accounts from {settings.staff} work too)", file=sys.stderr, flush=True)
    loop = session.table_loop(players=None if args.dealer else players, pace=settings.pace,
                              rounds=0 if args.dealer else args.rounds)
    serve_until_stopped(loop, settings, accounts, allow_remote=args.allow_remote)
