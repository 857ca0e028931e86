"""``tablectl audit verify FILE...``: check the hash chain of the event log, and its tail against the journal.

Give rotated files oldest first (``events.jsonl.2 events.jsonl.1 events.jsonl``).
Exit 0 when the trail is intact, 1 when a record was edited, inserted,
removed, reordered or cut off, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from controller.errors import TableError
from controller.records.audit import verify
from controller.records.journal import Journal


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("audit", help="check the tamper-evident event log")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    check = actions.add_parser("verify", help="find edited, inserted, removed or reordered records and a cut-off tail")
    check.add_argument("files", nargs="+", help="event log files, oldest first")
    check.add_argument("--journal", default=None, help="the table's journal: anchors the tail and the contents")
    check.add_argument("--table", default=None, help="table id of the journal (default: read from the log)")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    missing = [f for f in args.files if not Path(f).is_file()]
    if missing:
        print(f"tablectl: no such log file: {', '.join(missing)}", file=sys.stderr)
        return 2
    journal_records = None
    if args.journal:
        try:
            journal_records = _journal_records(Path(args.journal), args.table or _table_of(args.files[-1]))
        except TableError as exc:
            print(f"tablectl: {exc}", file=sys.stderr)
            return 2
    report = verify(args.files, journal_records)
    if args.json:
        print(json.dumps({"ok": report.ok, "records": report.records, "problems": report.problems, "notes": report.notes}, indent=2))
    else:
        print(f"{report.records} records checked: " + ("the chain is intact" if report.ok else f"{len(report.problems)} problem(s)"))
        for problem in report.problems:
            print(f"  PROBLEM {problem}")
        for note in report.notes:
            print(f"  note    {note}")
    return 0 if report.ok else 1


def _journal_records(path: Path, table_id: str) -> list[dict[str, Any]]:
    if not path.is_file():
        raise TableError(f"no journal at {path}")
    with Journal(path, table_id=table_id) as journal:
        return journal.records()


def _table_of(file: str) -> str:
    with open(file, encoding="utf-8", errors="replace") as f:
        for line in f:
            try:
                table = json.loads(line).get("table")
            except ValueError:
                continue
            if isinstance(table, str):
                return table
    raise TableError(f"{file} names no table: pass --table")
