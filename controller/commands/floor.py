"""``tablectl floor``: the floor service and its checks.

- ``floor serve --config FILE``: consume the site's stream into PostgreSQL,
  keep the linked jackpots, serve the floor's pit page (the systemd unit
  ``tablectl-floor.service`` runs it).
- ``floor check --config FILE JOURNAL...``: compare each table's journal with
  what the floor holds, record by record and meter by meter, to the cent.
- ``floor shifts --config FILE [--table ID] [--day YYYY-MM-DD] [--json]``:
  each table's figures per gaming day and shift (drop, paid, fees, win, hold,
  rounds, voided rounds, holds), as the floor's meters hold them.
- ``floor edges --config FILE [--from EDGES.json]``: load each game's house
  edges (``tablectl edge --json``) for the theoretical hold, and recompute it.
- ``floor enrol --config FILE TABLE --public-key TABLE.pub [--replace]``: pin
  the table's public key, with which the floor verifies its signed checkpoints
  (``controller.floor.checkpoints``).
- ``floor checkpoints --config FILE TABLE [--out FILE]``: the table's enrolled
  key and every signed checkpoint the floor holds, for ``tablectl audit verify
  --floor-checkpoints``.
- ``floor aside --config FILE [--table ID] [--json]``: what the floor keeps
  aside or does not count, per table, and why (``controller.floor.aside``).
- ``floor recheck --config FILE TABLE [--wait SECONDS]``: once the cause is
  fixed, have the floor look at a table's set-aside records again.

Exit codes: 0 fine, 1 a check found differences, 2 bad config, 3 a server
(broker or database) cannot be reached.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from controller.floor.config import (
    DEFAULT_FLOOR_CONFIG,
    FloorConfigError,
    load_floor_config,
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("floor", help="the floor: every table's journal in PostgreSQL, the pit view, linked jackpots")
    commands = parser.add_subparsers(dest="floor_command", required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", help="run the floor service until stopped (systemd: tablectl-floor.service)")
    serve.add_argument("--config", default=str(DEFAULT_FLOOR_CONFIG), help="floor config (TOML); default: %(default)s")
    serve.set_defaults(func=_serve)

    check = commands.add_parser("check", help="compare tables' journals with the floor's database, to the cent")
    check.add_argument("--config", default=str(DEFAULT_FLOOR_CONFIG), help="floor config (TOML); default: %(default)s")
    check.add_argument("journals", nargs="+", metavar="JOURNAL", help="a table's journal file (SQLite)")
    check.add_argument("--json", action="store_true", help="print the result as JSON")
    check.set_defaults(func=_check)

    shifts = commands.add_parser("shifts", help="each table's drop, win and hold per gaming day and shift")
    shifts.add_argument("--config", default=str(DEFAULT_FLOOR_CONFIG), help="floor config (TOML); default: %(default)s")
    shifts.add_argument("--table", default=None, metavar="ID", help="only this table")
    shifts.add_argument("--day", default=None, metavar="YYYY-MM-DD", help="only this gaming day")
    shifts.add_argument("--json", action="store_true", help="print JSON (money in cents beside its dollar text)")
    shifts.set_defaults(func=_shifts)

    edges = commands.add_parser("edges", help="load the games' house edges for the theoretical hold")
    edges.add_argument("--config", default=str(DEFAULT_FLOOR_CONFIG), help="floor config (TOML); default: %(default)s")
    edges.add_argument("--from", dest="source", metavar="FILE", help="a saved `tablectl edge GAME --json` output "
                       "(a list, or several concatenated); default: compute them now for the games the floor has seen")
    edges.set_defaults(func=_edges)

    enrol = commands.add_parser("enrol", help="pin a table's public key: the floor verifies its checkpoints with it")
    enrol.add_argument("--config", default=str(DEFAULT_FLOOR_CONFIG), help="floor config (TOML); default: %(default)s")
    enrol.add_argument("table", help="the table's id (as in its config)")
    enrol.add_argument("--public-key", required=True, metavar="FILE",
                       help="the table's .pub (made by `tablectl journal init`; compare its fingerprint with the table's screen)")
    enrol.add_argument("--replace", action="store_true", help="the table has a new key on purpose: retire the old one")
    enrol.set_defaults(func=_enrol)

    held = commands.add_parser("checkpoints", help="a table's enrolled key and signed checkpoints, for `tablectl audit verify`")
    held.add_argument("--config", default=str(DEFAULT_FLOOR_CONFIG), help="floor config (TOML); default: %(default)s")
    held.add_argument("table", help="the table's id")
    held.add_argument("--out", default=None, metavar="FILE", help="write them to FILE (default: print them)")
    held.set_defaults(func=_checkpoints)

    aside = commands.add_parser("aside", help="the records the floor keeps aside or does not count, per table, and why")
    aside.add_argument("--config", default=str(DEFAULT_FLOOR_CONFIG), help="floor config (TOML); default: %(default)s")
    aside.add_argument("--table", default=None, metavar="ID", help="only this table")
    aside.add_argument("--json", action="store_true", help="print the result as JSON")
    aside.set_defaults(func=_aside)

    recheck = commands.add_parser("recheck", help="once the cause is fixed, have the floor look at a table's set-aside "
                                  "records again (the table publishes them again)")
    recheck.add_argument("--config", default=str(DEFAULT_FLOOR_CONFIG), help="floor config (TOML); default: %(default)s")
    recheck.add_argument("table", help="the table's id")
    recheck.add_argument("--wait", type=float, default=0.0, metavar="SECONDS",
                         help="wait up to SECONDS for the floor to take them in again, then say what is still aside")
    recheck.set_defaults(func=_recheck)


def _config(path: str, refused: Callable[[str], None] | None = None) -> Any:
    try:
        return load_floor_config(path)
    except FloorConfigError as exc:
        if refused is not None:
            refused(str(exc))
        print(f"tablectl floor: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def _serve(args: argparse.Namespace) -> int:
    from controller.commands.notify import Notifier
    from controller.floor.service import serve

    notifier = Notifier()

    def refused(message: str) -> None:  # what ``systemctl status`` shows of a floor that would not start
        notifier.stopping(f"not started: {message.splitlines()[0]}")

    config = _config(args.config, refused)
    problem = _no_supervisor(config)
    if problem:
        refused(problem)
        print(f"tablectl floor: {problem}", file=sys.stderr)
        return 2

    def ready(status: str) -> None:
        print(status, flush=True)
        notifier.ready(status)

    try:
        asyncio.run(serve(config, on_ready=ready))
    except OSError as exc:
        notifier.stopping(f"error: {exc}")
        print(f"tablectl floor: {exc}", file=sys.stderr)
        return 3
    notifier.stopping("floor stopped")
    return 0


def _no_supervisor(config: Any) -> str | None:
    """Why the floor's pit page would have nobody to let in, or None."""
    from controller.records.staff import StaffError, StaffFile

    how = ("add one with `tablectl staff add NAME --role supervisor --file FILE` and name the file in "
           f"[floor] staff of {config.floor.site!r}'s floor config")
    if not config.floor.staff:
        return f"the floor's pit page needs a supervisor to log in: {how}"
    try:
        if not StaffFile(config.floor.staff).has_supervisor():
            return f"{config.floor.staff} has no supervisor: {how}"
    except StaffError as exc:
        return str(exc)
    return None


def _connect(dsn: str) -> Any:
    import psycopg

    try:
        return psycopg.connect(dsn, connect_timeout=5)
    except psycopg.Error as exc:
        print(f"tablectl floor: cannot reach the floor database ({dsn}): {str(exc).strip()}", file=sys.stderr)
        raise SystemExit(3) from None


def _has_floor_tables(conn: Any) -> bool:
    """Whether the floor service has made its tables in this database (it makes them on its first start)."""
    return conn.execute("SELECT to_regclass('events') IS NOT NULL").fetchone()[0] is True


def _check(args: argparse.Namespace) -> int:
    from controller.floor.reconcile import check_table
    from controller.records.journal import journal_table

    config = _config(args.config)
    for journal in args.journals:
        if not Path(journal).is_file():
            print(f"tablectl floor check: {journal}: no such journal", file=sys.stderr)
            return 2
        try:
            journal_table(journal)
        except ValueError as exc:
            print(f"tablectl floor check: {exc}", file=sys.stderr)
            return 2
    results = []
    with _connect(config.database.dsn) as conn:
        if not _has_floor_tables(conn):
            print(f"tablectl floor check: the floor database ({config.database.dsn}) holds no table's records yet: "
                  "`tablectl floor serve` makes its tables and stores the records the tables publish", file=sys.stderr)
            return 1
        for journal in args.journals:
            results.append(check_table(conn, journal))
    if args.json:
        print(json.dumps([{"table": r.table, "ok": r.ok, "journal_records": r.journal_records,
                           "floor_records": r.floor_records, "problems": r.problems, "notes": r.notes} for r in results],
                         indent=2))
    else:
        for r in results:
            verdict = "the floor equals the journal" if r.ok else "DIFFERS"
            print(f"{r.table:12} {r.journal_records:8} records  {verdict}")
            for problem in r.problems:
                print(f"    {problem}")
            for note in r.notes:
                print(f"    note: {note}")
    return 0 if all(r.ok for r in results) else 1


def _shifts(args: argparse.Namespace) -> int:
    import datetime as dt

    from controller.floor.views import in_shift_order, shift_meters

    day = None
    if args.day is not None:
        try:
            day = dt.date.fromisoformat(args.day)
        except ValueError:
            print(f"tablectl floor shifts: --day {args.day!r} is not a date (YYYY-MM-DD, a gaming day)", file=sys.stderr)
            return 2
    config = _config(args.config)
    with _connect(config.database.dsn) as conn:
        if not _has_floor_tables(conn):
            print(f"tablectl floor shifts: the floor database ({config.database.dsn}) holds no table's records yet: "
                  "`tablectl floor serve` makes its tables and stores the records the tables publish", file=sys.stderr)
            return 1
        rows = in_shift_order(shift_meters(conn, table=args.table, day=day), config.shift_plan())
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print("no rounds on the floor" + (f" for table {args.table}" if args.table else "") + (f" on gaming day {day}" if day else ""))
        return 0
    linked = any(row["progressive_contributed_exact"] != "0" or row["progressive_hits"] for row in rows)
    table_w = max(10, *(len(row["table"]) for row in rows))
    game_w = max(4, *(len(row["game"] or "") for row in rows))
    print(f"{'gaming day':10}  {'shift':8} {'table':{table_w}} {'game':{game_w}} {'rounds':>6} {'voided':>6} {'drop':>14} "
          f"{'paid':>14} {'fees':>11} {'win':>14} {'hold':>8} {'theo':>8} {'holds':>5} {'on hold':>9} {'faults':>6} "
          f"{'camera':>6}" + (f" {'progressive fed':>15} {'hits':>4} {'hits paid':>14}" if linked else ""))
    for row in rows:
        line = (f"{row['gaming_day']:10}  {row['shift']:8} {row['table']:{table_w}} {row['game'] or '':{game_w}} "
                f"{row['rounds']:6} {row['voided']:6} {row['drop_text']:>14} {row['paid_text']:>14} {row['fees_text']:>11} "
                f"{row['win_text']:>14} {row['hold_pct']:>8} {row['theoretical_hold_pct']:>8} {row['holds']:5} "
                f"{row['hold_minutes']:>5.1f} min {row['device_faults']:6} {row['camera_discrepancies']:6}")
        if linked and (row["progressive_contributed_exact"] != "0" or row["progressive_hits"]):
            line += (f" {row['progressive_contributed_text']:>15} {row['progressive_hits']:4} "
                     f"{row['progressive_awarded_text']:>14}")
        print(line)
    print("theo: the theoretical hold (`tablectl floor edges` loads the games' edges); on hold: minutes the table's "
          "rounds stood on hold; faults: device faults; camera: the camera's discrepancies")
    if linked:
        print("progressive fed: what the table's Progressive wagers added to the linked meter (whole cents; "
              "--json gives the exact amount); hits paid: what the meter paid the table's verified hits")
    return 0


def _enrol(args: argparse.Namespace) -> int:
    from controller.errors import TableError
    from controller.floor.checkpoints import EnrolError, enrol
    from controller.records.keys import PublicKey

    config = _config(args.config)
    try:
        public = PublicKey.load(Path(args.public_key))
    except TableError as exc:
        print(f"tablectl floor enrol: {exc}", file=sys.stderr)
        return 2
    with _connect(config.database.dsn) as conn:
        try:
            done = enrol(conn, args.table, public, replace=args.replace, by=_who())
        except (EnrolError, ValueError) as exc:
            print(f"tablectl floor enrol: {exc}", file=sys.stderr)
            return 1
    print(f"table {done.table}: key {done.fingerprint} enrolled" + (f" (replacing {done.replaced}, kept retired)" if done.replaced else "")
          + f"; the floor verifies the table's checkpoints with it ({done.accepted_waiting} waiting checkpoint(s) accepted)")
    return 0


def _who() -> str | None:
    """Who enrols a key (kept with it): the login that ran the command, when it can be told."""
    import getpass
    import os

    try:
        return os.environ.get("SUDO_USER") or getpass.getuser()
    except (OSError, KeyError):
        return None


def _checkpoints(args: argparse.Namespace) -> int:
    from controller.floor.checkpoints import export

    config = _config(args.config)
    with _connect(config.database.dsn) as conn:
        document = export(conn, args.table)
    text = json.dumps(document, indent=1) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        try:
            Path(args.out).write_text(text)
        except OSError as exc:
            print(f"tablectl floor checkpoints: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
            return 3
        print(f"{len(document['checkpoints'])} checkpoint(s) of {args.table} (key {document['fingerprint'] or 'none enrolled'}) "
              f"written to {args.out}: `tablectl audit verify --floor-checkpoints {args.out}` on the table's records")
    if document["refused"]:
        print(f"tablectl floor checkpoints: {document['refused']} checkpoint(s) of {args.table} were refused "
              "(the floor's log and its checkpoint_refusals table say why)", file=sys.stderr)
    if document["conflicts"]:
        first = document["conflicts"][0]
        print(f"tablectl floor checkpoints: {args.table} signed the same journal seq twice with different records "
              f"({len(document['conflicts'])} seq(s), first seq {first['journal_seq']}, signed at {first['held_at']} and at "
              f"{first['new_at']}): its journal was put back to an older copy or rewritten", file=sys.stderr)
    if document["fingerprint"] is None:
        print(f"tablectl floor checkpoints: no key is enrolled for {args.table}: "
              f"`tablectl floor enrol {args.table} --public-key {args.table}.pub`", file=sys.stderr)
    return 1 if document["fingerprint"] is None or document["conflicts"] else 0


def _aside(args: argparse.Namespace) -> int:
    from controller.floor.aside import report

    config = _config(args.config)
    with _connect(config.database.dsn) as conn:
        tables = report(conn, args.table, config.shift_plan().zone)
    if args.json:
        print(json.dumps([entry.as_json() for entry in tables], indent=2))
        return 0
    _print_aside(tables, args.table)
    return 0


def _print_aside(tables: list[Any], table: str | None) -> None:
    if not tables:
        print("the floor counts every record it holds" + (f" of table {table}" if table else "") + ": nothing is set aside")
        return
    for entry in tables:
        print(f"table {entry.table}:")
        for line in entry.lines():
            print(f"    {line}")


def _recheck(args: argparse.Namespace) -> int:
    import time

    from controller.floor.aside import recheck, report, settled

    config = _config(args.config)
    with _connect(config.database.dsn) as conn:
        conn.autocommit = True  # the release is committed before the table is asked
        done = recheck(conn, config.broker.servers, config.floor.site, args.table, by=_who())
        if done.from_seq is None:
            print(f"table {args.table}: the floor counts every record it holds of it: nothing to look at again")
            return 0
        if not done.answered:
            print(f"tablectl floor recheck: {done.reason}; its records stay set aside as they were: run the recheck "
                  "again once the table runs", file=sys.stderr)
            return 3
        print(f"table {args.table}: {done.released} set-aside record(s) released; the table publishes its records again "
              f"from seq {done.from_seq}, and the floor checks each one afresh as it arrives")
        if args.wait <= 0:
            print(f"`tablectl floor aside --table {args.table}` shows what is still set aside, and why")
            return 0
        deadline = time.monotonic() + args.wait
        while not settled(conn, args.table) and time.monotonic() < deadline:
            time.sleep(0.2)
        if not settled(conn, args.table):
            print(f"tablectl floor recheck: the floor has not taken them all in within {args.wait:g} s (is `tablectl floor "
                  "serve` running?)", file=sys.stderr)
        tables = report(conn, args.table, config.shift_plan().zone)
    _print_aside(tables, args.table)
    return 1 if tables else 0


def _edges(args: argparse.Namespace) -> int:
    from controller.floor.store import create_schema, recompute_theoretical, refresh_paytables, set_edges

    config = _config(args.config)
    with _connect(config.database.dsn) as conn:
        create_schema(conn)  # edges loaded before the service's first start wait there for the meters
        if args.source:
            rows = _edges_from_file(Path(args.source))
        else:
            games = [g for (g,) in conn.execute("SELECT DISTINCT game FROM rounds")]
            rows = _edges_computed(games)
        set_edges(conn, rows)
        refresh_paytables(conn)  # rounds a floor stored before it named pay tables as `tablectl edge` does
        updated = recompute_theoretical(conn)
    print(f"{len(rows)} wagers' edges loaded; theoretical win recomputed on {updated} meter rows")
    return 0


def _edges_from_file(path: Path) -> list[tuple[str, str, str, Any]]:
    try:
        text = path.read_text()
    except OSError as exc:
        print(f"tablectl floor edges: {path}: {exc.strerror}", file=sys.stderr)
        raise SystemExit(2) from None
    decoder, index, entries = json.JSONDecoder(), 0, []
    try:
        while index < len(text.strip()):
            value, end = decoder.raw_decode(text, index)
            entries.extend(value if isinstance(value, list) else [value])
            index = end
            while index < len(text) and text[index].isspace():
                index += 1
        return _rows(entries)
    except (ValueError, KeyError, TypeError, AttributeError, ArithmeticError) as exc:
        why = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
        print(f"tablectl floor edges: {path} is not what `tablectl edge GAME --json` prints ({why})", file=sys.stderr)
        raise SystemExit(2) from None


def _edges_computed(games: list[str]) -> list[tuple[str, str, str, Any]]:
    from controller.rules.edges import EDGES, compute

    entries = []
    for game in games:
        if game in EDGES:
            entries.extend(compute(game))
    return _rows(entries)


def _rows(entries: list[dict[str, Any]]) -> list[tuple[str, str, str, Any]]:
    from decimal import Decimal

    rows = []
    for entry in entries:
        for wager, figures in entry["wagers"].items():
            exact = figures.get("exact")
            edge = -Fraction(exact) if exact else Fraction(str(figures["house_edge"]))
            rows.append((entry["game"], entry["paytable"], wager, Decimal(edge.numerator) / Decimal(edge.denominator)))
    return rows
