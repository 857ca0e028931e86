"""False holds: rounds the camera held although the shoe dealt them right, per 1,000 simulated rounds.

Plays every game whose config films (``[vision] crosscheck = true``) on
simulated devices with its simulated camera, exactly as ``tablectl run`` does,
and counts the rounds held by the camera (a hold whose reason starts with
``camera:``). On the simulated table the shoe is right by construction, so
every camera hold is a false hold. A held round ends its session; the count
goes on in a fresh session from the next seed, until ``--rounds`` rounds of
each game are played.

Run: ``PYTHONPATH=. python benchmarks/false_holds.py [--rounds 1000] [--seed 1] [--config config/no-bust-21.toml]``
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import tomllib
from pathlib import Path

# This folder holds vision.py, the vision benchmark: keep it off the path so ``vision`` is the package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from controller.engine.camera import film_session  # noqa: E402
from controller.engine.config import load_config  # noqa: E402
from controller.engine.players import SimulatedPlayers  # noqa: E402
from controller.engine.session import open_session  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def filming_configs() -> list[Path]:
    """The configs under ``config/`` whose ``[vision]`` films every card."""
    out = []
    for path in sorted((ROOT / "config").rglob("*.toml")):
        with open(path, "rb") as handle:
            if tomllib.load(handle).get("vision", {}).get("crosscheck") is True:
                out.append(path)
    return out


def play(config_path: Path, rounds: int, seed: int) -> tuple[int, int, list[str]]:
    """Rounds played, camera holds, and each hold's round and reason."""
    config = load_config(config_path)
    played, holds, reasons = 0, 0, []
    while played < rounds:
        rng = random.Random(seed)
        with tempfile.TemporaryDirectory() as folder, \
                open_session(config, rng, journaled=False, simulate_devices=True, events=Path(folder) / "events.jsonl") as session:
            players_seed, camera_seed = rng.randrange(2**32), rng.randrange(2**32)
            camera = film_session(session, camera_seed, asked=True, simulated=True, warn=lambda text: None)
            assert camera is not None
            players = SimulatedPlayers(random.Random(players_seed))
            while played < rounds:
                round = session.play(players)
                played += 1
                if round.state == "hold":
                    reason = str(round.hold_reason)
                    if reason.startswith("camera"):
                        holds += 1
                        reasons.append(f"seed {seed} {round.id}: {reason}")
                    break
                if session.table.stopped:
                    break
        seed += 1
    return played, holds, reasons


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000, help="rounds of each game (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--config", type=Path, action="append", help="a config to play (default: every one that films)")
    args = parser.parse_args()
    configs = args.config or filming_configs()
    for path in configs:
        start = time.perf_counter()
        played, holds, reasons = play(path, args.rounds, args.seed)
        print(f"{path.relative_to(ROOT) if path.is_absolute() else path}: {holds} camera holds in {played} rounds "
              f"({1000 * holds / played:.1f} per 1,000), {time.perf_counter() - start:.0f} s", flush=True)
        for reason in reasons:
            print(f"  {reason}", flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
