"""How much the journal adds to a round: events journaled per second and latency per event.

Plays Top Card rounds on simulated devices with a journal (SQLite, WAL,
synchronous=FULL, one transaction per dealer action: a wager, a card, and
everything the action sets off; each record chained, each commit checkpointed,
signed and anchored) and the signed event log, timing each commit (journal
transaction, anchor, and the log lines after it). Per-event latency is a
commit's time shared among its events; per-commit latency is what the
dealer's action waits. Target: p99 under 5 ms per event on the table PC.
The same session without a key (no signatures; the chain and anchor stay) runs
first, side by side: the peer that shows what signing costs.

``--open N`` also times opening (checking whole) a journal of N records, and
``audit verify`` of its log: what a start and an audit cost as a table's records grow.

    python benchmarks/journal.py [--rounds 300] [--dir DIR] [--open 1000000]
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
from controller.engine.loop import TableLoop
from controller.engine.players import SimulatedPlayers
from controller.engine.table import Table
from controller.events import ShoeShuffled
from controller.records.audit import ChainedFile
from controller.records.journal import Journal
from controller.records.keys import SigningKey
from controller.records.verify import JournalView, verify


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


def play(config: Any, folder: Path, rounds: int, key: SigningKey | None) -> tuple[TimedLog, float]:
    with Journal.create(folder / "journal.sqlite", table_id=config.table_id, key=key) as journal:
        trail = ChainedFile(folder / "events.jsonl", table_id=config.table_id, key=key, journal_seq=journal.last_seq)
        journal.log_head = trail.position
        log = TimedLog(config.table_id, json_stream=trail, journal=journal)  # type: ignore[arg-type]
        table = Table(config, open_feed(config, log, seed=1), log, session="BENCH")
        loop = TableLoop(table, players=SimulatedPlayers(random.Random(1)), views=False)
        start = time.perf_counter()
        for _ in range(rounds):
            loop.play_round()
        elapsed = time.perf_counter() - start
        trail.close()
    return log, elapsed


def report(name: str, log: TimedLog, rounds: int, elapsed: float) -> None:
    commits = [t for t, _ in log.commits]
    per_event = [t / n for t, n in log.commits for _ in range(n)]
    events = len(per_event)
    print(f"journal ({name}): {events} events in {len(commits)} commits, {rounds} rounds, {elapsed:.2f} s")
    print(f"  events journaled per second  {events / sum(commits):10.0f}")
    print(f"  rounds per second            {rounds / elapsed:10.1f}")
    print(f"  latency per event  median    {statistics.median(per_event) * 1e3:8.3f} ms")
    print(f"  latency per event  p99       {percentile(per_event, 0.99) * 1e3:8.3f} ms   "
          f"(target < 5 ms: {'met' if percentile(per_event, 0.99) < 0.005 else 'NOT met'})")
    print(f"  latency per commit median    {statistics.median(commits) * 1e3:8.3f} ms   (one dealer action and all it sets off)")
    print(f"  latency per commit p99       {percentile(commits, 0.99) * 1e3:8.3f} ms")
    print(f"  latency per commit max       {max(commits) * 1e3:8.3f} ms")


def time_open(folder: Path, records: int, key: SigningKey) -> None:
    """A journal and signed log of ``records`` shuffle records, then the time to open (check) it and to verify the log."""
    with Journal.create(folder / "big.sqlite", table_id="BIG", key=key) as journal:
        trail = ChainedFile(folder / "big.jsonl", table_id="BIG", key=key, journal_seq=0)
        journal.log_head = trail.position
        log = EventLog("BIG", json_stream=trail, journal=journal)  # type: ignore[arg-type]
        start = time.perf_counter()
        for n in range(0, records, 100):
            with log.atomic():
                for k in range(min(100, records - n)):
                    log.emit(ShoeShuffled(shuffle=n + k, burn=1))
        trail.close()
        journal.checkpoint()
        written = time.perf_counter() - start
    size = (folder / "big.sqlite").stat().st_size
    start = time.perf_counter()
    with Journal(folder / "big.sqlite", table_id="BIG", readonly=True) as journal:
        opened = time.perf_counter() - start
        view = JournalView({r["seq"]: r for r in journal.stored()}, [c for _, c in journal.checkpoints()], journal.last_seq)
    start = time.perf_counter()
    result = verify([folder / "big.jsonl"], key.public, view)
    verified = time.perf_counter() - start
    print(f"records: {records} records ({size / 1e6:.0f} MB journal) written in {written:.1f} s")
    print(f"  opening the journal (integrity_check, chain, row checksums, anchor)  {opened:8.2f} s")
    print(f"  audit verify of its signed log, against the journal               {verified:8.2f} s   ({'intact' if result.ok else result.problems[:1]})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--dir", default=None, help="where to put the journal (default: a temporary directory)")
    parser.add_argument("--open", type=int, default=0, help="also time opening a journal of this many records")
    args = parser.parse_args()
    config = load_config()
    config = dataclasses.replace(config, shoe={**config.shoe, "driver": "simulated"})  # the in-process shoe: time the journal only
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        key = SigningKey.generate(Path(tmp) / "bench.key")
        for name, signer in (("unsigned peer", None), ("signed and anchored", key)):
            folder = Path(tmp) / name.split()[0]
            folder.mkdir()
            log, elapsed = play(config, folder, args.rounds, signer)
            report(name, log, args.rounds, elapsed)
        if args.open:
            time_open(Path(tmp), args.open, key)
    return 0


if __name__ == "__main__":
    sys.exit(main())
