"""Time every ``tablectl edge GAME --json`` call and print the seconds, per game and in total.

Each game runs in a fresh interpreter, as an operator would run it, so the
figures include start-up and loading the compiled (numba) kernels from their
cache. A first run on a new checkout also compiles them; ``--warm-up`` runs
each game once untimed first so the figures show the steady state. The CPU
seconds are printed beside the wall-clock ones: on a machine shared with other
work the wall clock says more about the neighbours than about the code.

    python benchmarks/edges.py [--warm-up] [GAME ...]

The targets: the exact edges of Top 5 Poker, High Card Flush, Three Card Poker
and Two Cards High together in under 60 seconds on this machine (issue 5);
every game and pay table in under 10 minutes on its two cores (issue 45).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.commands.progress import progress  # noqa: E402
from controller.rules.edges import EDGES  # noqa: E402

ISSUE_5 = ("top-5-poker", "high-card-flush", "three-card-poker", "two-cards-high")


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_edge(game: str) -> tuple[float, float, list[dict[str, object]]]:
    """Wall-clock and CPU seconds of one ``tablectl edge GAME --json``, and its JSON."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cpu, start = _child_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "controller.commands.cli", "edge", game, "--json"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"tablectl edge {game} failed ({done.returncode}):\n{done.stderr}")
    return seconds, _child_cpu() - cpu, json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game ids (default: every game with an edge calculation)")
    parser.add_argument("--warm-up", action="store_true", help="run each game once untimed first (compiles kernels)")
    args = parser.parse_args(argv)
    games = args.games or list(EDGES)
    if args.warm_up:
        with progress("warming up", len(games), unit="game") as advance:
            for game in games:
                run_edge(game)
                advance(1)
    total = issue_5 = total_cpu = 0.0
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'game':<20} {'seconds':>8} {'cpu s':>8}  wagers in pay tables")
    with progress("edges", len(games), unit="game") as advance:
        for game in games:
            seconds, cpu, tables = run_edge(game)
            total += seconds
            total_cpu += cpu
            issue_5 += seconds if game in ISSUE_5 else 0.0
            count = sum(len(t["wagers"]) for t in tables)  # type: ignore[arg-type]
            advance.print(f"{game:<20} {seconds:8.2f} {cpu:8.2f}  {count} in {len(tables)}")
            advance(1)
    print(f"{'total':<20} {total:8.2f} {total_cpu:8.2f}")
    print(f"{'issue 5 games':<20} {issue_5:8.2f}  (target: under 60 seconds)")
    print(f"{'every game':<20} {total:8.2f} {total_cpu:8.2f}  (issue 45 target: under 600 seconds on two cores; "
          "the CPU seconds say what the wall clock would be on an idle machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
