"""``tablectl audit verify|keygen|checkpoint``: the table's signed event log, checked by anyone with its public key.

``audit verify`` reads the table's event log (the config's, with its rotated
files, or FILES given oldest first) and says plainly: *intact* (every line
signed by the table's key, linked, complete up to the journal's newest
checkpoint), in how many chains (one per start of the controller), or exactly
what was changed, added, removed, moved, repeated or cut off; an empty log is
reported as *empty*. ``--public-key`` is the table's ``.pub`` (what a lab needs;
by default the one beside the config's key); ``--journal`` (by default the
config's, when it exists) anchors the end. ``--floor-checkpoints FILE`` (what
``tablectl floor checkpoints TABLE`` prints on the floor) checks with the key
the floor enrolled, and finds a journal or log cut back, rewound or rewritten
behind the checkpoints the floor holds. ``--legacy`` checks a log from
before signed records. ``audit keygen`` makes a table's key pair;
``audit checkpoint`` prints the newest signed checkpoint (for the floor or a lab);
``audit new-log`` begins a new log when the old one is lost (its remains kept aside).

Exit 0 intact, 1 changed, added, removed, cut off or empty, 2 bad arguments,
3 a file cannot be read, 4 the journal given is damaged.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from controller.commands.journal import record_options, resolve
from controller.errors import TableError
from controller.records import legacy
from controller.records.audit import GENESIS, trail_files
from controller.records.backup import stamp
from controller.records.checkpoints import FloorCopy, latest
from controller.records.errors import storage_error
from controller.records.journal import Journal
from controller.records.keys import PublicKey, SigningKey, public_path
from controller.records.verify import JournalView, Report, verify


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("audit", help="check the signed event log; make the table's key")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    check = actions.add_parser("verify", help="find changed, added, removed, moved or cut-off records in the event log")
    check.add_argument("files", nargs="*", help="event log files, oldest first (default: the config's log and its rotated files)")
    record_options(check)
    check.add_argument("--public-key", default=None, help="the table's public key (.pub); default: beside the config's key")
    check.add_argument("--no-journal", action="store_true", help="check the log alone (lines cut off the end go unseen)")
    check.add_argument("--table", default=None, help="table id of the journal (default: the config's)")
    check.add_argument("--floor-checkpoints", default=None, metavar="FILE",
                       help="the floor's copy of the table's signed checkpoints and enrolled key (`tablectl floor checkpoints "
                            "TABLE` on the floor): the records must reach them, checked with the floor's key")
    check.add_argument("--excerpt", action="store_true",
                       help="the files are lines cut from the trail (`tablectl round ID --signed FILE`): check them against "
                            "the table's public key alone, the lines before and after them not given")
    check.add_argument("--legacy", action="store_true", help="a log from before signed records (plain hash chain)")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.set_defaults(func=run)
    keygen = actions.add_parser("keygen", help="make the table's Ed25519 key pair (refuses to replace one)")
    record_options(keygen)
    keygen.set_defaults(func=run_keygen)
    fresh = actions.add_parser("new-log", help="the event log is lost or damaged: keep what is left aside and begin a new one")
    record_options(fresh)
    fresh.set_defaults(func=run_new_log)
    point = actions.add_parser("checkpoint", help="print the journal's newest signed checkpoint (for the floor or a lab)")
    record_options(point, key=False)
    point.set_defaults(func=run_checkpoint)


def run(args: argparse.Namespace) -> int:
    try:
        config, paths = resolve(args)
        files = [Path(f) for f in args.files] or trail_files(paths.log)
        missing = [str(f) for f in files if not f.is_file()]
        if missing or not files:
            print(f"tablectl: no such log file: {', '.join(missing) or paths.log}", file=sys.stderr)
            return 2
        table = args.table or config.table_id
        journal_file = Path(args.journal) if args.journal else paths.journal
        use_journal = not args.no_journal and not args.excerpt and (args.journal is not None or journal_file.exists())
        if args.legacy:
            return _legacy(files, journal_file if use_journal else None, table, args.json)
        public = PublicKey.load(Path(args.public_key)) if args.public_key else (
            PublicKey.load(public_path(paths.key)) if public_path(paths.key).exists() else None)
        view = _journal_view(journal_file, table) if use_journal else None
        floor = FloorCopy.load(Path(args.floor_checkpoints)) if args.floor_checkpoints else None
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    if floor is not None and floor.table != table:
        print(f"tablectl: {args.floor_checkpoints} holds the floor's checkpoints of table {floor.table}, not {table} "
              "(--table names the table)", file=sys.stderr)
        return 2
    if args.excerpt and public is None:
        print("tablectl: an excerpt is checked against the table's public key: give it with --public-key FILE.pub",
              file=sys.stderr)
        return 2
    report = verify(files, public, view, floor, excerpt=args.excerpt)
    _print(report, args.json, excerpt=args.excerpt)
    return 0 if report.ok else 1


def _journal_view(path: Path, table: str) -> JournalView:
    with Journal(path, table_id=table, readonly=True) as journal:
        return JournalView({r["seq"]: r for r in journal.stored()}, [c for _, c in journal.checkpoints()],
                           journal.last_seq, journal.first_seq, dict(journal.chain_hashes()),
                           [(first, last) for first, last, _, _ in journal.gaps()])


def _print(report: Report, as_json: bool, *, excerpt: bool = False) -> None:
    if as_json:
        print(json.dumps(report.as_dict(), indent=2))
        return
    print(f"{', '.join(report.files)}: {report.summary()}")
    for finding in report.findings:
        print(f"  {finding.kind.upper():<10} {finding.text}")
    for n, chain in enumerate(report.chains, 1):
        seqs = f"seq {min(chain.seqs)}-{max(chain.seqs)}" if chain.seqs else "no journaled records"
        if excerpt:  # where the chain began and whether it was closed lie outside the lines given
            print(f"  chain {n}: from {chain.start}, {chain.records} records, {seqs}")
            continue
        print(f"  chain {n}: from {chain.start} ({chain.started or 'time unknown'}), {chain.records} records, {seqs}"
              f"{'' if chain.journaled else ', run without a journal'}; before it: {chain.previous}; "
              f"{'closed' if chain.closed else 'not closed (stopped by a crash or still running)'}")
    for note in report.notes:
        print(f"  note: {note}")


def _legacy(files: list[Path], journal_file: Path | None, table: str, as_json: bool) -> int:
    records = None
    if journal_file is not None:
        with Journal(journal_file, table_id=table, readonly=True) as journal:
            records = journal.stored()
    report = legacy.verify(files, records)
    if as_json:
        print(json.dumps({"ok": report.ok, "records": report.records, "problems": report.problems, "notes": report.notes}, indent=2))
    else:
        print(f"{report.records} records checked (legacy, unsigned chain): "
              + ("the chain is intact" if report.ok else f"{len(report.problems)} problem(s)"))
        for problem in report.problems:
            print(f"  PROBLEM {problem}")
        for note in report.notes:
            print(f"  note    {note}")
    return 0 if report.ok else 1


def run_keygen(args: argparse.Namespace) -> int:
    try:
        _, paths = resolve(args)
        key = SigningKey.generate(paths.key)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    print(f"key {paths.key} made ({key.fingerprint}), mode 0600: only the service user may read it; keep a copy somewhere safe")
    print(f"public key {key.public.source}: give it (or its fingerprint {key.fingerprint}) to whoever verifies the table's log")
    return 0


def run_new_log(args: argparse.Namespace) -> int:
    """Begin a new event log: what is left of the old one is kept aside, and the next start writes every
    journaled record to the new one again (signed), so the table's trail is whole once more."""
    try:
        config, paths = resolve(args)
        key = SigningKey.load(paths.key)
        kept = []
        with Journal(paths.journal, table_id=config.table_id, key=key) as journal:
            when = stamp()
            for file in trail_files(paths.log):
                aside = file.with_name(f"{file.name}.lost-{when}")
                file.rename(aside)
                kept.append(aside)
            journal.log_head = lambda: {"file": paths.log.name, "n": 0, "head": GENESIS, "seq": 0, "restarted": when}
            journal.checkpoint()
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    except OSError as exc:
        print(f"tablectl: {storage_error(paths.log, exc, 'moving the event log aside')}", file=sys.stderr)
        return 3
    print(f"a new event log begins at {paths.log}: the next start writes the journal's records to it again, signed")
    for aside in kept:
        print(f"  kept {aside}")
    return 0


def run_checkpoint(args: argparse.Namespace) -> int:
    try:
        config, paths = resolve(args)
        with Journal(paths.journal, table_id=config.table_id, readonly=True) as journal:
            checkpoint = latest(journal)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    if checkpoint is None:
        print("tablectl: the journal holds no checkpoint yet", file=sys.stderr)
        return 1
    print(checkpoint.message().decode())
    return 0
