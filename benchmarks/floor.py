"""The floor at scale: 500 simulated tables through a three-node JetStream cluster into PostgreSQL, through every fault.

    python benchmarks/floor.py                  # 500 tables, 10 minutes of play (about 15 minutes in all)
    python benchmarks/floor.py --tables 100 --seconds 120
    python benchmarks/floor.py --outbox-cost    # does publishing to the floor slow a table's rounds? (it must not)

Needs Debian's nats-server and postgresql. Prints events per second
sustained, end-to-end latency (table journal to PostgreSQL) p50 / p99 in
normal running and while recovering, the faults survived, and the checks:
every table's journal against the floor record by record and meter by meter
(0 lost, 0 duplicated), the linked jackpot reconciled to the exact fraction
of a cent. Exit 0 only when every check passes. Listens on 127.0.0.1 only
and stops everything it started.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

# run as a script, this folder comes first on the path, where benchmarks/vision.py would hide the vision package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.floor.proof import Plan, report, run_proof  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--workers", type=int, default=4, help="processes the simulated tables are spread over")
    parser.add_argument("--seconds", type=float, default=600.0, help="seconds of play (default: 600)")
    parser.add_argument("--round-seconds", type=float, default=160.0,
                        help="a table's mean round length (default: 160: about 250 records a second from 500 tables)")
    parser.add_argument("--cut-seconds", type=float, default=180.0, help="how long a quarter of the tables stay cut off")
    parser.add_argument("--no-faults", action="store_true", help="run without faults (a baseline)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", metavar="DIR", help="keep the journals and logs in DIR")
    parser.add_argument("--outbox-cost", action="store_true",
                        help="time a table's rounds with and without its outbox publishing to a broker, side by side")
    args = parser.parse_args()
    if args.outbox_cost:
        return outbox_cost()
    plan = Plan(tables=args.tables, workers=args.workers, seconds=args.seconds, round_seconds=args.round_seconds,
                faults=not args.no_faults, cut_seconds=args.cut_seconds, seed=args.seed)
    if args.keep:
        result = run_proof(plan, Path(args.keep))
    else:
        with tempfile.TemporaryDirectory(prefix="tablectl-floor-") as folder:
            result = run_proof(plan, Path(folder))
    print(report(result))
    return 0 if result.ok else 1


def outbox_cost(rounds: int = 150, runs: int = 3) -> int:
    """Median seconds per round of `tablectl run`, without and with [floor], alternating so load hits both alike."""
    import os
    import resource
    import statistics
    import subprocess

    from controller.floor.localservers import NatsCluster

    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="tablectl-outbox-") as folder:
        cluster = NatsCluster(Path(folder) / "nats", size=1)
        cluster.start()
        try:
            base = (root / "config" / "top-card.toml").read_text()
            plain, linked = Path(folder) / "plain.toml", Path(folder) / "floor.toml"
            plain.write_text(base)
            linked.write_text(base + f'\n[floor]\nsite = "cost"\nservers = {json.dumps(cluster.urls)}\n')
            _make_stream(cluster.urls)
            times: dict[str, list[float]] = {"without the outbox": [], "with the outbox": []}
            cpu: dict[str, list[float]] = {"without the outbox": [], "with the outbox": []}
            for run in range(runs):
                for name, config in (("without the outbox", plain), ("with the outbox", linked)):
                    journal = Path(folder) / f"{name[:4]}-{run}.sqlite"
                    subprocess.run([sys.executable, "-m", "controller.commands.cli", "journal", "init", "--config", str(config),
                                    "--journal", str(journal), "--log", str(journal.with_suffix(".jsonl"))],
                                   check=True, capture_output=True, cwd=root)
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    subprocess.run([sys.executable, "-m", "controller.commands.cli", "run", "--config", str(config),
                                    "--rounds", str(rounds), "--seed", str(run), "--journal", str(journal),
                                    "--log", str(journal.with_suffix(".jsonl")), "--no-camera"],
                                   check=True, capture_output=True, cwd=root)
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    times[name].append(_seconds_a_round(journal, rounds))
                    cpu[name].append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / rounds)
        finally:
            cluster.stop()
    medians = {name: statistics.median(values) for name, values in times.items()}
    used = {name: statistics.median(values) for name, values in cpu.items()}
    print(f"Top Card on simulated devices, {runs} runs of {rounds} rounds each way, alternating; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name, value in medians.items():
        print(f"{name:20} {value * 1000:7.2f} ms a round by the journal's clock, {used[name] * 1000:6.2f} ms of CPU a round "
              "(the table's processes, the outbox's included)")
    print(f"ratio with / without: {medians['with the outbox'] / medians['without the outbox']:.3f} (time), "
          f"{used['with the outbox'] / used['without the outbox']:.3f} (CPU)")
    return 0


def _seconds_a_round(journal: Path, rounds: int) -> float:
    """From the first round's start to the last round's end, by the journal's own clock, per round."""
    import datetime as dt
    import sqlite3

    db = sqlite3.connect(journal)
    from controller.events import RoundCompleted, RoundStarted, RoundVoided

    marks = (RoundStarted.EVENT, RoundCompleted.EVENT, RoundVoided.EVENT)
    stamps = [json.loads(text)["timestamp"] for (text,) in db.execute(
        "SELECT record FROM events WHERE event IN (?, ?, ?) ORDER BY seq", marks)]
    db.close()
    first, last = (dt.datetime.fromisoformat(stamps[i]) for i in (0, -1))
    return (last - first).total_seconds() / rounds


def _make_stream(servers: list[str]) -> None:
    import asyncio

    import nats

    from controller.floor.stream import StreamSettings, ensure_stream

    async def make() -> None:
        client = await nats.connect(servers=servers)
        await ensure_stream(client.jetstream(), "cost", StreamSettings(replicas=1))
        await client.close()

    asyncio.run(make())


if __name__ == "__main__":
    sys.exit(main())
