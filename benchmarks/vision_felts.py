"""Does a felt colour by itself cost reads? The same frames drawn on each felt, everything else alike.

``benchmarks/vision.py`` reports by felt, but each felt's frames there are other frames (other layouts, light,
lenses), so a bin of 15 frames moves by several points with the mix. Here every frame of a part is drawn once
per felt: the conditions are drawn from the frame's own seed as that benchmark draws them, then only the felt's
colour is changed (its random tint kept), and the rest of the frame is drawn from the same seed. The gap between
felts is then the felt's alone.

Run: ``PYTHONPATH=. python benchmarks/vision_felts.py [--part tune|blind] [--frames-per-deck 5]
[--felts green,black,...]`` (about 2 s a frame per felt on the 2-core machine; nothing is cached).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Keep this folder off the path so ``vision`` is the package (``benchmarks/vision.py`` lies beside this file).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse  # noqa: E402
import importlib.util  # noqa: E402
from dataclasses import replace  # noqa: E402

import numpy as np  # noqa: E402

from vision.artwork import available_decks, render_deck  # noqa: E402
from vision.envelope import envelope_frame  # noqa: E402
from vision.envelope.conditions import BLIND_FELTS, FELTS, draw_conditions  # noqa: E402
from vision.envelope.decks import BLIND_DECKS, TUNE_DECKS  # noqa: E402
from vision.envelope.scoring import Reported, Tally, score_frame  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.setup import layout_from, one_core  # noqa: E402
from vision.templates import TemplateError  # noqa: E402


def _benchmark():  # type: ignore[no-untyped-def]
    """``benchmarks/vision.py`` (its seeds and enrolment), loaded from beside this file."""
    spec = importlib.util.spec_from_file_location("vision_benchmark", Path(__file__).with_name("vision.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("tune", "blind"), default="tune")
    parser.add_argument("--frames-per-deck", type=int, default=5)
    parser.add_argument("--felts", help="comma-separated felts (default: every felt of the part)")
    args = parser.parse_args()
    bench = _benchmark()
    one_core()
    blind = args.part == "blind"
    every = {**FELTS, **BLIND_FELTS} if blind else dict(FELTS)
    felts = args.felts.split(",") if args.felts else list(every)
    unknown = [f for f in felts if f not in every]
    if unknown:
        raise SystemExit(f"no felt {', '.join(unknown)} in the {args.part} part: {', '.join(every)}")
    seed = bench.SEEDS[args.part]
    tallies = {felt: Tally() for felt in felts}
    print(f"{args.part} part: {args.frames_per_deck} frames a deck, each drawn on {len(felts)} felts (seed {seed})")
    for deck_index, name in enumerate(available_decks(BLIND_DECKS if blind else TUNE_DECKS)):
        faces = render_deck(name)
        try:
            templates, _ = bench.enrol_from_images(name, faces)
        except TemplateError:
            print(f"  {name}: refused at enrolment")
            continue
        for k in range(args.frames_per_deck):
            for felt in felts:
                rng = np.random.default_rng([seed, deck_index, k])  # the frame's seed, as benchmarks/vision.py's
                drawn = draw_conditions(rng, blind=blind)
                tint = np.array(drawn.felt_bgr) / np.array(every[drawn.felt], float)
                conditions = replace(drawn, felt=felt, felt_bgr=tuple(float(c) for c in np.array(every[felt]) * tint))
                scene = envelope_frame(faces, rng, conditions=conditions)
                recognizer = Recognizer(templates, layout_from({"calibration": scene.calibration}))
                reads = [Reported(r.card, r.polygon) for r in recognizer.read(scene.frame)]
                outcomes, hidden_wrong, invented = score_frame(scene, reads)
                tallies[felt].frames += 1
                tallies[felt].add(outcomes + hidden_wrong, invented, f"{name} frame {k} on {felt}")
        print(f"  {name}: " + " · ".join(f"{felt} {100 * t.share:.1f}%" for felt, t in tallies.items()), flush=True)
    print(Tally.header())
    for felt, tally in tallies.items():
        print(tally.line(felt))
    shares = [100 * t.share for t in tallies.values()]
    print(f"spread between felts: {max(shares) - min(shares):.2f} points (best {max(shares):.2f}%, worst {min(shares):.2f}%)")
    for felt, tally in tallies.items():
        for example in tally.examples:
            print(f"  wrong on {felt}: {example}")


if __name__ == "__main__":
    main()
