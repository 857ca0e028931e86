"""Check that a change to the recognizer reads the same frames the same way, and time it.

Reads 10 frames (by default) of each tune deck, drawn and cached as ``benchmarks/vision.py`` draws
them, each through a fresh ``Recognizer`` as that benchmark builds one, and records every read
(card, visible, zone, guess, polygon, confidence) with the CPU time of each frame. ``--record FILE``
writes them; ``--compare FILE`` reads the frames again with the code on ``PYTHONPATH`` and reports
every read that differs (polygons beyond 1e-6 px, confidences beyond 1e-9, anything else at all)
and the median and total CPU ms per frame of both runs. Times are of one process on a shared
machine: compare runs made back to back.

Run: ``PYTHONPATH=. python benchmarks/vision_same_reads.py --record /tmp/main_reads.pickle`` on the
code before a change, then ``... --compare /tmp/main_reads.pickle`` on the code after it.

On a shared machine two runs made back to back can differ by 10% with the other jobs' load, more
than most changes save. ``--against DIR`` (a checkout of the code before, say ``git worktree add``
or ``git archive`` of it) reads every frame with the code on ``PYTHONPATH`` and with ``DIR``'s, in
two processes taking turns frame by frame (``--rounds`` times each, who goes first alternating),
and reports both versions' CPU time per frame (each frame's least over the rounds), the median
ratio of after over before, and every read that differs between them.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Keep this folder off the path so ``vision`` is the package (``benchmarks/vision.py`` lies beside this file).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import os  # noqa: E402
import pickle  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from vision.artwork import available_decks, render_deck  # noqa: E402
from vision.envelope.decks import TUNE_DECKS  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.setup import layout_from, one_core  # noqa: E402


def _benchmark():  # type: ignore[no-untyped-def]
    """``benchmarks/vision.py`` (its frames and enrolment), loaded from beside this file."""
    spec = importlib.util.spec_from_file_location("vision_benchmark", Path(__file__).with_name("vision.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


Row = tuple[str | None, str, str | None, str | None, np.ndarray, float]


def scenes(per_deck: int, frames: int | None) -> Iterator[tuple[str, Any, Any]]:
    """The deck's name, its templates (enrolled as ``benchmarks/vision.py`` enrols) and each frame's scene."""
    bench = _benchmark()
    one_core()
    count = 0
    for deck_index, name in enumerate(available_decks(list(TUNE_DECKS))):
        faces = render_deck(name)
        templates, _ = bench.enrol_from_images(name, faces)
        for scene in bench.frames_of("tune", deck_index, name, faces, per_deck, bench.SEEDS["tune"], False):
            if frames is not None and count >= frames:
                return
            count += 1
            yield name, templates, scene


def read_one(name: str, templates: Any, scene: Any) -> tuple[float, list[Row]]:
    """One frame read through a fresh ``Recognizer``: the CPU ms it took and its reads."""
    start = time.process_time()
    recognizer = Recognizer(templates, layout_from({"calibration": scene.calibration}))
    found = recognizer.read(scene.frame)
    ms = (time.process_time() - start) * 1000
    assert recognizer.failures == 0, f"{name}: the recognizer failed"
    return ms, [(r.card.code if r.card else None, r.visible, r.zone, r.guess.code if r.guess else None,
                 np.asarray(r.polygon, float), float(r.confidence)) for r in found]


def read_all(per_deck: int, frames: int | None) -> tuple[list[list[Row]], list[float]]:
    reads: list[list[Row]] = []
    times: list[float] = []
    last = None
    for name, templates, scene in scenes(per_deck, frames):
        if last is not None and name != last:
            print(f"  {last}: {len(times)} frames, median {np.median(times):.1f} ms", flush=True)
        last = name
        ms, rows = read_one(name, templates, scene)
        times.append(ms)
        reads.append(rows)
    print(f"  {last}: {len(times)} frames, median {np.median(times):.1f} ms", flush=True)
    return reads, times


def serve(per_deck: int, frames: int | None) -> None:
    """Read the frame whose number comes on stdin (in order; again while the same), pickle the answer to stdout."""
    out, sys.stdout = sys.stdout.buffer, sys.stderr  # anything printed goes to stderr, not into the answers
    print(f"reading with {Path(sys.modules[Recognizer.__module__].__file__ or '?').parent}", flush=True)
    source = scenes(per_deck, frames)
    at, current = -1, None
    while line := sys.stdin.readline():
        wanted = int(line)
        while at < wanted:
            current, at = next(source), at + 1
        assert current is not None
        pickle.dump(read_one(*current), out)
        out.flush()


def against(other: Path, per_deck: int, frames: int | None, rounds: int) -> None:
    """Each frame read in turn by this code and by ``other``'s (see the module's doc), and both compared."""
    command = [sys.executable, str(Path(__file__).resolve()), "--serve", "--frames-per-deck", str(per_deck)]
    command += ["--frames", str(frames)] if frames is not None else []
    worker = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              env={**os.environ, "PYTHONPATH": str(other.resolve())})
    assert worker.stdin is not None and worker.stdout is not None
    least: list[list[float]] = [[], []]  # before (other), after (this)
    reads: list[list[list[Row]]] = [[], []]
    for k, (name, templates, scene) in enumerate(scenes(per_deck, frames)):
        best = [np.inf, np.inf]
        for turn in range(rounds):
            for side in (0, 1) if (k + turn) % 2 == 0 else (1, 0):
                if side == 0:
                    worker.stdin.write(f"{k}\n".encode())
                    worker.stdin.flush()
                    ms, rows = pickle.load(worker.stdout)  # noqa: S301 - this script's own worker
                else:
                    ms, rows = read_one(name, templates, scene)
                best[side] = min(best[side], ms)
                if turn == 0:
                    reads[side].append(rows)
        for side in (0, 1):
            least[side].append(best[side])
    worker.stdin.close()
    worker.wait()
    found = differences(reads[0], reads[1])
    for line in found[:40]:
        print(line)
    before, after = np.array(least[0]), np.array(least[1])
    print(f"before ({other}): median {np.median(before):.1f} ms, total {before.sum():.0f} ms; "
          f"after: median {np.median(after):.1f} ms, total {after.sum():.0f} ms "
          f"({len(after)} frames, each frame's least of {rounds} reads, taken in turn)")
    print(f"after / before per frame: median {np.median(after / before):.3f}")
    print(f"reads identical: {len(after)} frames" if not found else f"reads differ: {len(found)} reads")
    raise SystemExit(1 if found else 0)


def differences(before: list[list[Row]], after: list[list[Row]]) -> list[str]:
    out = []
    for k, (one, two) in enumerate(zip(before, after, strict=True)):
        if len(one) != len(two):
            out.append(f"frame {k}: {len(one)} reads before, {len(two)} after")
            continue
        for a, b in zip(one, two):
            if a[:4] != b[:4] or a[4].shape != b[4].shape or np.abs(a[4] - b[4]).max() > 1e-6 or abs(a[5] - b[5]) > 1e-9:
                out.append(f"frame {k}: {a[:4]} {a[4].tolist()} {a[5]!r} before, {b[:4]} {b[4].tolist()} {b[5]!r} after")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--record", type=Path, help="write the reads and times here")
    what.add_argument("--compare", type=Path, help="compare with the reads and times recorded here")
    what.add_argument("--against", type=Path, help="a checkout of the code before: read each frame in turn with both")
    what.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--frames-per-deck", type=int, default=10)
    parser.add_argument("--frames", type=int, help="stop after this many frames in all")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: reads of each frame by each version")
    args = parser.parse_args()
    if args.serve:
        serve(args.frames_per_deck, args.frames)
        return
    if args.against:
        against(args.against, args.frames_per_deck, args.frames, args.rounds)
    reads, times = read_all(args.frames_per_deck, args.frames)
    if args.record:
        with open(args.record, "wb") as handle:
            pickle.dump({"reads": reads, "times": times}, handle)
        print(f"recorded {len(reads)} frames: median {np.median(times):.1f} ms, total {sum(times):.0f} ms")
        return
    with open(args.compare, "rb") as handle:
        recorded: dict[str, Any] = pickle.load(handle)  # noqa: S301 - this script's own record
    before = recorded["reads"][: len(reads)]
    found = differences(before, reads)
    for line in found[:40]:
        print(line)
    then = recorded["times"][: len(times)]
    print(f"recorded: median {np.median(then):.1f} ms, total {sum(then):.0f} ms; "
          f"now: median {np.median(times):.1f} ms, total {sum(times):.0f} ms ({len(times)} frames)")
    print(f"reads identical: {len(reads)} frames" if not found else f"reads differ: {len(found)} reads")
    raise SystemExit(1 if found else 0)


if __name__ == "__main__":
    main()
