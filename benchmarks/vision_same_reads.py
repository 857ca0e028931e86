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
"""

from __future__ import annotations

import sys
from pathlib import Path

# Keep this folder off the path so ``vision`` is the package (``benchmarks/vision.py`` lies beside this file).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import pickle  # noqa: E402
import time  # noqa: E402
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


def read_all(per_deck: int, frames: int | None) -> tuple[list[list[Row]], list[float]]:
    bench = _benchmark()
    one_core()
    reads: list[list[Row]] = []
    times: list[float] = []
    for deck_index, name in enumerate(available_decks(list(TUNE_DECKS))):
        faces = render_deck(name)
        templates, _ = bench.enrol_from_images(name, faces)
        for scene in bench.frames_of("tune", deck_index, name, faces, per_deck, bench.SEEDS["tune"], False):
            if frames is not None and len(times) >= frames:
                return reads, times
            start = time.process_time()
            recognizer = Recognizer(templates, layout_from({"calibration": scene.calibration}))
            found = recognizer.read(scene.frame)
            times.append((time.process_time() - start) * 1000)
            assert recognizer.failures == 0, f"{name}: the recognizer failed"
            reads.append([(r.card.code if r.card else None, r.visible, r.zone, r.guess.code if r.guess else None,
                           np.asarray(r.polygon, float), float(r.confidence)) for r in found])
        print(f"  {name}: {len(times)} frames, median {np.median(times):.1f} ms", flush=True)
    return reads, times


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
    parser.add_argument("--frames-per-deck", type=int, default=10)
    parser.add_argument("--frames", type=int, help="stop after this many frames in all")
    args = parser.parse_args()
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
