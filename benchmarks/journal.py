"""How much the journal adds to a round: events journaled per second and latency per event.

Plays Top Card rounds on simulated devices with a journal (SQLite, WAL,
synchronous=FULL, one transaction per event and one per settlement) and a
hash-chained event log, timing every ``EventLog.emit`` and every atomic
settlement batch. Target: p99 under 5 ms per event on the table PC.

    python benchmarks/journal.py [--rounds 300] [--dir DIR]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.audit import ChainedFile  # noqa: E402
from controller.config import load_config  # noqa: E402
from controller.devices import open_feed  # noqa: E402
from controller.events import EventLog  # noqa: E402
from controller.journal import Journal  # noqa: E402
from controller.players import SimulatedPlayers  # noqa: E402
from controller.table import Table  # noqa: E402


class TimedLog(EventLog):
    """An event log that records how long each event (or atomic batch, per event in it) took to journal and write."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.latencies: list[float] = []
        self._in_batch = False

    def emit(self, event: str, round_id: str | None, **fields: Any) -> dict[str, Any]:
        if self._in_batch:
            return super().emit(event, round_id, **fields)
        start = time.perf_counter()
        record = super().emit(event, round_id, **fields)
        self.latencies.append(time.perf_counter() - start)
        return record

    @contextmanager
    def atomic(self) -> Iterator[None]:
        start, first = time.perf_counter(), self.last_seq
        self._in_batch = True
        try:
            with super().atomic():
                yield
        finally:
            self._in_batch = False
        events = max(1, self.last_seq - first)
        self.latencies += [(time.perf_counter() - start) / events] * events


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--dir", default=None, help="where to put the journal (default: a temporary directory)")
    args = parser.parse_args()
    config = load_config()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        with Journal(Path(tmp) / "journal.sqlite", table_id=config.table_id) as journal:
            trail = ChainedFile(Path(tmp) / "events.jsonl")
            log = TimedLog(config.table_id, json_stream=trail, journal=journal)  # type: ignore[arg-type]
            table = Table(config, open_feed(config, log, seed=1), log, session="BENCH")
            players = SimulatedPlayers(random.Random(1))
            start = time.perf_counter()
            for _ in range(args.rounds):
                table.play_round(players)
            elapsed = time.perf_counter() - start
            trail.close()
    lat = sorted(log.latencies)
    p99 = lat[int(len(lat) * 0.99)]
    print(f"journal: {len(lat)} events in {args.rounds} rounds, {elapsed:.2f} s")
    print(f"  events journaled per second  {len(lat) / sum(lat):10.0f}")
    print(f"  rounds per second            {args.rounds / elapsed:10.1f}")
    print(f"  latency per event  median    {statistics.median(lat) * 1e3:8.3f} ms")
    print(f"  latency per event  p99       {p99 * 1e3:8.3f} ms   (target < 5 ms: {'met' if p99 < 0.005 else 'NOT met'})")
    print(f"  latency per event  max       {lat[-1] * 1e3:8.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
