"""``tablectl journal init|verify|backup|restore|migrate|anchor``: a table's journal, made, checked, copied and put back.

- ``init``: a new table's journal, its anchor and (if missing) its signing key.
  The only way a journal is made: ``run`` and ``serve`` never make one. Run on
  a table that already has a healthy journal it says so and changes nothing.
- ``verify``: the journal checked whole (pages, chain, rows, anchor) and against the event log; with the anchor
  missing or damaged, the rest is checked and reported, and the anchor named (exit 4).
- ``backup [--to FILE]``: a verified copy made with SQLite's online backup API (safe while the table plays).
- ``restore [BACKUP]``: put the journal back from a backup and the event log, verified by the anchor
  (``controller.records.backup``); ``--accept-loss`` records what neither holds as lost.
- ``migrate``: a journal from before the record chain, chained and anchored (the old file kept).
- ``anchor --rewrite``: write the anchor again from the journal, once a person has checked it.

Exit codes: 0 done, 2 bad arguments or config, 3 the files cannot be written or
read now (disk full, permission, the table is running), 4 damaged or missing records.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from controller.commands.options import config_argument, config_option
from controller.engine.config import TableConfig, load_config
from controller.engine.session import RecordPaths, check_game, record_paths
from controller.errors import TableError
from controller.records.anchor import read_anchor
from controller.records.audit import line_hash, logged_seq, read_tail
from controller.records.backup import backup, restore, stamp
from controller.records.chain import GENESIS
from controller.records.errors import RecordsDamaged
from controller.records.journal import Journal
from controller.records.keys import PublicKey, SigningKey, public_path
from controller.records.migrate import NothingToMigrate, migrate
from controller.records.witnesses import check_anchor_signed, check_key, check_log_against_journal


def record_options(parser: argparse.ArgumentParser, *, key: bool = True) -> None:
    config_argument(parser)
    parser.add_argument("--journal", default=None, help="journal file (default: the config's [journal] path)")
    parser.add_argument("--log", default=None, help="event log (default: the config's [log] events)")
    if key:
        parser.add_argument("--key", default=None, help="signing key (default: the config's [log] key, else beside the journal)")


def resolve(args: argparse.Namespace) -> tuple[TableConfig, RecordPaths]:
    config = load_config(args.config)
    return config, record_paths(config, journal=Path(args.journal) if args.journal else None,
                                log=Path(args.log) if getattr(args, "log", None) else None,
                                key=Path(args.key) if getattr(args, "key", None) else None)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("journal", help="make, check, back up and restore the table's journal")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    init = actions.add_parser("init", help="make a new table's journal, anchor and signing key")
    record_options(init)
    init.add_argument("--after-loss", action="store_true",
                      help="the table's journal is lost and no backup holds it: start a new one numbered after what was lost")
    init.set_defaults(func=run_init)
    check = actions.add_parser("verify", help="check the journal whole, against its anchor and the event log")
    record_options(check, key=False)
    check.add_argument("--json", action="store_true")
    check.set_defaults(func=run_verify)
    copy = actions.add_parser("backup", help="copy the journal with SQLite's online backup API, and verify the copy")
    record_options(copy, key=False)
    copy.add_argument("--to", default=None, help="backup file or folder (default: backups/ beside the journal)")
    copy.set_defaults(func=run_backup)
    back = actions.add_parser("restore", help="put the journal back from a backup and the event log, verified by the anchor")
    back.add_argument("backup", nargs="?", default=None, help="a backup made by `tablectl journal backup`")
    record_options(back)
    back.add_argument("--accept-loss", action="store_true",
                      help="record as lost what neither the backup nor the event log holds, and carry on after it")
    back.set_defaults(func=run_restore)
    move = actions.add_parser("migrate", help="chain and anchor a journal from before the record chain (schema 1)")
    record_options(move)
    move.set_defaults(func=run_migrate)
    anchor = actions.add_parser("anchor", help="write the journal's anchor again from the journal")
    record_options(anchor)
    anchor.add_argument("--rewrite", action="store_true", required=True, help="confirm: the journal was checked and is complete")
    anchor.set_defaults(func=run_anchor)


def _fail(exc: TableError) -> int:
    print(f"tablectl: {exc}", file=sys.stderr)
    return getattr(exc, "exit_code", 2)


def _key(paths: RecordPaths) -> tuple[SigningKey, bool]:
    """The table's key, made if there is none yet (``True`` when made now)."""
    if paths.key.exists():
        return SigningKey.load(paths.key), False
    return SigningKey.generate(paths.key), True


def run_init(args: argparse.Namespace) -> int:
    try:
        config, paths = resolve(args)
        if paths.journal.exists() and paths.journal.stat().st_size > 0:
            with Journal(paths.journal, table_id=config.table_id, readonly=True) as journal:
                check_game(journal, config)
                print(f"journal {paths.journal} is already the journal of table {config.table_id} (seq {journal.last_seq}, "
                      f"{journal.rounds_started()} rounds): nothing changed")
            return 0
        head = read_anchor(paths.anchor)
        logged = logged_seq(paths.log)
        history = max(head.seq if head else 0, logged)
        if history and not args.after_loss:
            raise RecordsDamaged(
                f"journal {paths.journal} is missing or empty, but table {config.table_id} has history: "
                + (f"its anchor {paths.anchor} saw seq {head.seq}" if head else "")
                + ("; " if head and logged else "") + (f"its event log {paths.log} reaches seq {logged}" if logged else "")
                + ". Restore it (`tablectl journal restore BACKUP`); only if no backup exists, "
                "`tablectl journal init --after-loss` starts a new journal numbered after what is lost")
        key, made = _key(paths)
        lost = (1, history, "the journal was lost with no backup; a new one was begun (journal init --after-loss)") if history else None
        tail = read_tail(paths.log).last
        genesis = head.hash if head else line_hash(tail) if history and tail else GENESIS
        with Journal.create(paths.journal, table_id=config.table_id, key=key, first_seq=history + 1, genesis=genesis,
                            lost=lost) as journal:
            seq = journal.last_seq
    except TableError as exc:
        return _fail(exc)
    print(f"journal {paths.journal} made for table {config.table_id}" + (f", numbered on after seq {seq} (1-{seq} lost)" if seq else ""))
    print(f"  anchor  {paths.anchor}")
    print(f"  key     {paths.key} ({key.fingerprint}){' made now: keep a copy somewhere safe' if made else ''}")
    print(f"  public  {key.public.source}: what a verifier needs (`tablectl audit verify --public-key`)")
    print(f"  log     {paths.log}")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    try:
        config, paths = resolve(args)
        unanchored = _anchor_problem(paths.anchor)
        with Journal(paths.journal, table_id=config.table_id, readonly=True, anchored=unanchored is None) as journal:
            if public_path(paths.key).exists():
                check_anchor_signed(journal, PublicKey.load(public_path(paths.key)))
            check_log_against_journal(journal, paths.log)
            result: dict[str, Any] = {"journal": str(paths.journal), "ok": unanchored is None, "records": journal.chain.records,
                      "first_seq": journal.first_seq, "last_seq": journal.last_seq, "hash": journal.last_hash,
                      "rounds": journal.rounds_started(), "anchor": str(paths.anchor),
                      "anchored_seq": journal.anchored.seq if journal.anchored else None, "anchor_problem": unanchored,
                      "log": str(paths.log), "logged_seq": logged_seq(paths.log),
                      "gaps": [list(g) for g in journal.gaps()], "key": journal.meta().get("key") or None}
    except TableError as exc:
        return _fail(exc)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        _print_verified(paths, result)
    return 0 if unanchored is None else RecordsDamaged.exit_code


def _anchor_problem(anchor: Path) -> str | None:
    """What is wrong with the journal's anchor (missing, damaged), or ``None``: ``journal verify`` then checks the
    journal without it, and says what it found, so that a person can decide to write the anchor again."""
    try:
        return "missing" if read_anchor(anchor) is None else None
    except RecordsDamaged:
        return "damaged"


def _print_verified(paths: RecordPaths, result: dict[str, Any]) -> None:
    whole = "intact" if result["ok"] else "whole in itself"
    print(f"journal {paths.journal}: {whole}: {result['records']} records (seq {result['first_seq']}-{result['last_seq']}), "
          f"{result['rounds']} rounds, chain and every row check")
    if result["anchor_problem"] is None:
        print(f"  anchor {paths.anchor} at seq {result['anchored_seq']}: reached with the committed hash")
    else:
        print(f"  anchor {paths.anchor}: {result['anchor_problem'].upper()}: nothing shows whether records were committed "
              f"after seq {result['last_seq']} and lost")
    print(f"  event log {paths.log} at seq {result['logged_seq']}: not ahead of the journal, not behind its checkpoint")
    for first, last, at, why in result["gaps"]:
        print(f"  gap: seq {first}-{last} recorded as lost at {at}: {why}")
    if result["anchor_problem"] is not None:
        print(f"tablectl: the anchor is {result['anchor_problem']}: if the journal's last record (seq {result['last_seq']}) "
              f"is the table's last (the event log ends at seq {result['logged_seq']}; `tablectl audit verify` checks every "
              "line of it against the journal), write the anchor again with `tablectl journal anchor --rewrite`; "
              "if records are missing, `tablectl journal restore BACKUP`", file=sys.stderr)


def run_backup(args: argparse.Namespace) -> int:
    try:
        config, paths = resolve(args)
        target = Path(args.to) if args.to else paths.journal.parent / "backups"
        if args.to is None or target.is_dir() or args.to.endswith("/"):
            target = target / f"{paths.journal.stem}-{stamp()}.sqlite"
        made = backup(paths.journal, config.table_id, target)
    except TableError as exc:
        return _fail(exc)
    print(f"backup {made.path}: {made.records} records, seq {made.first_seq}-{made.last_seq}, head {made.last_hash[:16]}..., "
          "chain verified")
    given = "".join(f" --{name} {shlex.quote(value)}" for name in ("journal", "log") if (value := getattr(args, name)))
    print(f"  restore with: tablectl journal restore {shlex.quote(str(made.path))}{config_option(args.config)}{given}")
    return 0


def run_restore(args: argparse.Namespace) -> int:
    try:
        config, paths = resolve(args)
        if args.backup and (wrong := _not_a_backup(Path(args.backup), paths.journal)):
            print(f"tablectl: {wrong}", file=sys.stderr)
            return 2
        key = SigningKey.load(paths.key)
        result = restore(paths.journal, config.table_id, Path(args.backup) if args.backup else None, log=paths.log, key=key,
                         accept_loss=args.accept_loss)
    except TableError as exc:
        return _fail(exc)
    print("\n".join(result.lines()))
    return 0


def _not_a_backup(given: Path, journal: Path) -> str | None:
    """Why ``given`` cannot be the backup to restore from (nothing there, a folder), naming the newest backups; or
    ``None``. A misspelt name must not restore the journal from itself and set the healthy one aside."""
    if given.is_file():
        return None
    what = "is a folder, not a backup file" if given.is_dir() else "does not exist"
    folder = journal.parent / "backups"
    newest = sorted(folder.glob(f"{journal.stem}-*.sqlite"))[-3:] if folder.is_dir() else []
    known = f"; the newest in {folder}: {', '.join(p.name for p in reversed(newest))}" if newest else ""
    return f"backup {given} {what}: nothing was restored or changed{known}"


def run_migrate(args: argparse.Namespace) -> int:
    try:
        config, paths = resolve(args)
        made = not paths.key.exists()
        done = migrate(paths.journal, config.table_id, lambda: _key(paths)[0])  # a key only for a journal to migrate
        key = SigningKey.load(paths.key)
    except NothingToMigrate as exc:
        print(exc)
        return 0
    except TableError as exc:
        return _fail(exc)
    print(f"journal {done.journal} migrated: {done.records} records chained (seq 1-{done.last_seq}) and anchored in {paths.anchor}")
    print(f"  the schema-1 file is kept as {done.kept}")
    print(f"  key {paths.key} ({key.fingerprint}){' made now: keep a copy somewhere safe' if made else ''}")
    print(f"  the event log is now {paths.log}; an older shared log stays as it was (`tablectl audit verify --legacy FILE`)")
    return 0


def run_anchor(args: argparse.Namespace) -> int:
    try:
        config, paths = resolve(args)
        key = SigningKey.load(paths.key)
        with Journal(paths.journal, table_id=config.table_id, key=key, anchored=False) as journal:
            check_key(journal, key)
            check_log_against_journal(journal, paths.log)
            journal.rewrite_anchor()
            seq = journal.last_seq
    except TableError as exc:
        return _fail(exc)
    print(f"anchor {paths.anchor} written again: seq {seq}")
    return 0
