"""The floor at scale: 500 simulated tables through a three-node JetStream cluster into PostgreSQL, through every fault.

    python benchmarks/floor.py                  # 500 tables, 10 minutes of play (about 15 minutes in all)
    python benchmarks/floor.py --tables 100 --seconds 120

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
import sys
import tempfile
from pathlib import Path

# run as a script, this folder comes first on the path, where benchmarks/vision.py would hide the vision package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.floor.proof import Plan, report, run_proof


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--workers", type=int, default=4, help="processes the simulated tables are spread over")
    parser.add_argument("--seconds", type=float, default=600.0, help="seconds of play (default: 600)")
    parser.add_argument("--round-seconds", type=float, default=75.0, help="a table's mean round length (default: 75)")
    parser.add_argument("--cut-seconds", type=float, default=180.0, help="how long a quarter of the tables stay cut off")
    parser.add_argument("--no-faults", action="store_true", help="run without faults (a baseline)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", metavar="DIR", help="keep the journals and logs in DIR")
    args = parser.parse_args()
    plan = Plan(tables=args.tables, workers=args.workers, seconds=args.seconds, round_seconds=args.round_seconds,
                faults=not args.no_faults, cut_seconds=args.cut_seconds, seed=args.seed)
    if args.keep:
        result = run_proof(plan, Path(args.keep))
    else:
        with tempfile.TemporaryDirectory(prefix="tablectl-floor-") as folder:
            result = run_proof(plan, Path(folder))
    print(report(result))
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
