"""How much the journal adds to a round: events journaled per second and latency per event.

Plays Top Card rounds on simulated devices with a journal (SQLite, WAL,
synchronous=FULL, one transaction per dealer action: a wager, a card, and
everything the action sets off) and a hash-chained event log, timing each
commit (journal transaction plus the log lines after it). Per-event latency
is a commit's time shared among its events; per-commit latency is what the
dealer's action waits. Target: p99 under 5 ms per event on the table PC.

    python benchmarks/journal.py [--rounds 300] [--dir DIR]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.log import EventLog
from controller.engine.players import SimulatedPlayers
from controller.engine.table import Table
from controller.records.audit import ChainedFile
from controller.records.journal import Journal


class TimedLog(EventLog):
    """An event log that times each commit: the journal transaction and the log lines written after it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commits: list[tuple[float, int]] = []

    def _commit(self, records: list[dict[str, Any]]) -> None:
        start = time.perf_counter()
        super()._commit(records)
        if records:
            self.commits.append((time.perf_counter() - start, len(records)))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--dir", default=None, help="where to put the journal (default: a temporary directory)")
    args = parser.parse_args()
    config = load_config()
    config = dataclasses.replace(config, shoe={**config.shoe, "driver": "simulated"})  # the in-process shoe: time the journal only
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp, Journal(Path(tmp) / "journal.sqlite", table_id=config.table_id) as journal:
        trail = ChainedFile(Path(tmp) / "events.jsonl")
        log = TimedLog(config.table_id, json_stream=trail, journal=journal)  # type: ignore[arg-type]
        table = Table(config, open_feed(config, log, seed=1), log, session="BENCH")
        players = SimulatedPlayers(random.Random(1))
        start = time.perf_counter()
        for _ in range(args.rounds):
            table.play_round(players)
        elapsed = time.perf_counter() - start
        trail.close()
    commits = [t for t, _ in log.commits]
    per_event = [t / n for t, n in log.commits for _ in range(n)]
    events = len(per_event)
    print(f"journal: {events} events in {len(commits)} commits, {args.rounds} rounds, {elapsed:.2f} s")
    print(f"  events journaled per second  {events / sum(commits):10.0f}")
    print(f"  rounds per second            {args.rounds / elapsed:10.1f}")
    print(f"  latency per event  median    {statistics.median(per_event) * 1e3:8.3f} ms")
    print(f"  latency per event  p99       {percentile(per_event, 0.99) * 1e3:8.3f} ms   "
          f"(target < 5 ms: {'met' if percentile(per_event, 0.99) < 0.005 else 'NOT met'})")
    print(f"  latency per commit median    {statistics.median(commits) * 1e3:8.3f} ms   (one dealer action and all it sets off)")
    print(f"  latency per commit p99       {percentile(commits, 0.99) * 1e3:8.3f} ms")
    print(f"  latency per commit max       {max(commits) * 1e3:8.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
