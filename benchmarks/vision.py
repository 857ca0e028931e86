"""Benchmark of the card recognizer across the envelope a casino's table camera presents, by condition.

Frames come from ``vision.envelope`` (every felt, roll, lens, card size, capture,
light, optics and layout of issue #49, drawn independently), never from the
generator the old rules were tuned on. Each deck is enrolled as a casino enrols
its brand: one PNG per card written to a folder and read back by the code behind
``tablectl vision enroll --images``. Each frame is read through the calibration a
technician would have written for its camera (``[vision.calibration]``, its
lens included), by the code behind ``tablectl vision read --config``.

Two parts:

* ``tune`` (default): the tuning decks (``vision.envelope.decks.TUNE_DECKS``)
  under the tuning conditions: the figures every change is judged by;
* ``blind``: decks no rule was tuned on (``BLIND_DECKS``), under the blind
  conditions too (felts no rule saw), from seeds of their own. Run it rarely,
  and report what it prints.

For each part it prints, overall and for every bin of every condition (felt,
roll, lens, calibration error, card size, capture, JPEG, blur, glare, light,
layout, print) and kind of card (alone or in a fan, full face or index corner
only, joker, cut by the frame's edge): readable cards, the share read right,
wrong reads, cards invented (a card named where none lies), unreadable, missed,
tracebacks, and the median CPU milliseconds of one read on one core. The classic
contour-and-template reader most OpenCV projects copy (``vision_peer.py``) reads
every frame right after ours: its share right and wrong reads, and the ratio of
our time to its, frame by frame, are printed below.

Rendered frames are cached under ``$TABLECTL_CACHE/envelope`` (one to two seconds
each to draw); ``--fresh`` draws them again.

``--felt NAME`` draws the part's frames again with only the felt's colour changed (its
random tint kept, the rest of each frame from the same seed): run once per felt, the
gap between the runs is the felt's own, where the felt bins of one run hold other
frames each.

``--jumbo`` prints every deck with a jumbo index (``vision.envelope.jumbo``: each index
corner drawn 1.55 times larger, as casinos' jumbo-index decks print it), enrols it so, and
draws the part's frames again from the same seeds: a card is readable when its jumbo
index shows.

``--small-index`` prints every deck with a small index (``vision.envelope.jumbo``: each index corner drawn 0.65
times the size, as many brands for bridge, poker and home play print it; none of the artwork does), likewise.

``--four-index`` prints every deck's index at all four corners (``vision.envelope.four_index``), as many
casinos' blackjack decks print it, enrols it so and draws the part's frames again from the same seeds.

``--export DIR`` also writes each deck's faces and its frames with their labels, as a test lab's own set is
read: ``tablectl vision enroll --images DIR/DECK/deck --out DECK.npz`` and ``tablectl vision score
DIR/DECK/frames --deck-file DECK.npz`` then give the figures printed here for that deck (``vision.labelled``).

Run: ``PYTHONPATH=. python benchmarks/vision.py [--part tune|blind] [--frames-per-deck 30] [--seed 2049] [--felt grey] [--jumbo]``
(needs the Debian packages gnome-cards-data and kdegames-card-data-kf5, and rsvg-convert).
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is called vision.py: keep its folder off the path so ``vision`` is the package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import pickle  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from dataclasses import replace  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.artwork import available_decks, cache_dir, render_deck  # noqa: E402
from vision.enroll import faces_from_images  # noqa: E402
from vision.envelope import INDEX_BOX, EnvelopeFrame, envelope_frame  # noqa: E402
from vision.envelope.conditions import BLIND_FELTS, FELTS, draw_conditions  # noqa: E402
from vision.envelope.decks import BLIND_DECKS, TUNE_DECKS  # noqa: E402
from vision.envelope.four_index import four_index_faces  # noqa: E402
from vision.envelope.jumbo import jumbo_box, jumbo_faces, small_index_box, small_index_faces  # noqa: E402
from vision.envelope.scoring import ByCondition, Reported, Tally, score_frame  # noqa: E402
from vision.labelled import write_labelled  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.setup import layout_from, one_core  # noqa: E402
from vision.templates import DeckTemplates, TemplateError, enrol_faces  # noqa: E402

#: Bumped whenever ``vision.envelope`` draws a seed differently, so cached frames are drawn again.
GENERATOR_VERSION = 1
SEEDS = {"tune": 2049, "blind": 7331}


def _load_peer():  # type: ignore[no-untyped-def]
    """``vision_peer.py`` beside this file (whose folder is kept off the path, see above)."""
    spec = importlib.util.spec_from_file_location("vision_peer", Path(__file__).with_name("vision_peer.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["vision_peer"] = module
    spec.loader.exec_module(module)
    return module


vision_peer = _load_peer()


def enrol_from_images(name: str, faces: dict) -> tuple[DeckTemplates, dict]:  # type: ignore[type-arg]
    """The deck as ``tablectl vision enroll --images`` enrols it: one PNG per card, read back."""
    with tempfile.TemporaryDirectory() as folder:
        export_deck(Path(folder), faces)
        read_back = faces_from_images(Path(folder))
    return enrol_faces(name, read_back), read_back


def frames_of(part: str, deck_index: int, name: str, faces: dict, count: int, seed: int,  # type: ignore[type-arg]
              fresh: bool, felt: str | None = None, index: str | None = None, four_index: bool = False) -> list[EnvelopeFrame]:
    variant = ("-" + felt if felt else "") + (f"-{index}" if index else "") + ("-four" if four_index else "")
    folder = cache_dir() / "envelope" / f"v{GENERATOR_VERSION}-{part}-{seed}{variant}" / name
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for k in range(count):
        path = folder / f"{k:04d}.pickle"
        if path.is_file() and not fresh:
            with open(path, "rb") as handle:
                out.append(pickle.load(handle))  # noqa: S301 - this script's own cache, written below
            continue
        rng = np.random.default_rng([seed, deck_index, k])
        conditions = draw_conditions(rng, blind=part == "blind")  # as envelope_frame draws them
        if felt is not None:
            felts = {**FELTS, **BLIND_FELTS}
            tint = np.array(conditions.felt_bgr) / np.array(felts[conditions.felt], float)
            conditions = replace(conditions, felt=felt, felt_bgr=tuple(float(c) for c in np.array(felts[felt]) * tint))
        box = jumbo_box(INDEX_BOX) if index == "jumbo" else small_index_box(INDEX_BOX) if index == "small" else INDEX_BOX
        scene = envelope_frame(faces, rng, conditions=conditions, index_box=box)
        with open(path, "wb") as handle:
            pickle.dump(scene, handle)
        out.append(scene)
    return out


def export_deck(folder: Path, faces: dict) -> None:  # type: ignore[type-arg]
    """The faces as ``tablectl vision enroll --images`` reads them: one PNG per card."""
    folder.mkdir(parents=True, exist_ok=True)
    for card, face in faces.items():
        cv2.imwrite(str(folder / f"{card.code}.png"), face)


def run_part(part: str, decks: list[str], per_deck: int, seed: int, fresh: bool,
             felt: str | None = None, index: str | None = None, export: Path | None = None,
             four_index: bool = False) -> tuple[ByCondition, Tally, list[float]]:
    """``index``: "jumbo" or "small" to print every deck's index so (``vision.envelope.jumbo``), else as printed."""
    ours, peer, ratios = ByCondition(), Tally(), []
    for deck_index, name in enumerate(decks):
        faces = render_deck(name)
        faces = jumbo_faces(faces) if index == "jumbo" else small_index_faces(faces) if index == "small" else faces
        faces = four_index_faces(faces) if four_index else faces
        if export is not None:
            export_deck(export / name / "deck", faces)
        try:
            templates, enrolled = enrol_from_images(name, faces)
        except TemplateError as refusal:
            print(f"  {name}: refused at enrolment, its frames not read: {refusal}")
            continue
        if four_index and not templates.side_index:
            print(f"  {name}: printed with four indexes but not enrolled as such")
        if index:
            print(f"  {name}: enrolled with its index read in {templates.index_region[0]:.2f} x {templates.index_region[1]:.2f} of the card")
        for k, scene in enumerate(frames_of(part, deck_index, name, faces, per_deck, seed, fresh, felt, index, four_index)):
            if export is not None:
                write_labelled(export / name / "frames", f"{k:04d}", scene)
            reads, crashed, start = [], False, time.process_time()
            try:
                layout = layout_from({"calibration": scene.calibration})
                recognizer = Recognizer(templates, layout)
                reads = [Reported(r.card, r.polygon) for r in recognizer.read(scene.frame)]
                crashed = recognizer.failures > 0  # caught and logged by the recognizer: still a traceback
            except Exception:  # noqa: BLE001 - a traceback is what this counts; it is printed, never hidden
                crashed = True
                traceback.print_exc()
            ms = (time.process_time() - start) * 1000
            outcomes, hidden_wrong, invented = score_frame(scene.truth, reads)
            ours.add(scene.conditions.bins(), outcomes, hidden_wrong, invented, f"{name} frame {k}", ms, crashed)
            area = scene.conditions.card_width_px ** 2 * scene.card_mm[1] / scene.card_mm[0]
            classic = vision_peer.ClassicReader(enrolled, area)
            start = time.process_time()
            peer_reads = [Reported(r.card, r.polygon) for r in classic.read(scene.frame)]
            peer_ms = (time.process_time() - start) * 1000
            peer_outcomes, peer_hidden, peer_invented = score_frame(scene.truth, peer_reads)
            peer.frames += 1
            peer.add(peer_outcomes + peer_hidden, peer_invented, f"{name} frame {k}")
            peer.cpu_ms.append(peer_ms)
            ratios.append(ms / max(peer_ms, 1e-3))
        print(f"  {name}: {ours.overall.line('so far')}", flush=True)
    return ours, peer, ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("tune", "blind"), default="tune")
    parser.add_argument("--frames-per-deck", type=int, default=30)
    parser.add_argument("--seed", type=int, help="default: the part's own (tune 2049, blind 7331)")
    parser.add_argument("--decks", help="comma-separated deck names instead of the part's")
    parser.add_argument("--fresh", action="store_true", help="draw the frames again rather than read them from the cache")
    parser.add_argument("--felt", help="the same frames with only the felt changed to this one (run once per felt to compare)")
    parser.add_argument("--jumbo", action="store_true", help="every deck printed with a jumbo index (vision.envelope.jumbo)")
    parser.add_argument("--small-index", action="store_true", help="every deck printed with a small index (vision.envelope.jumbo)")
    parser.add_argument("--four-index", action="store_true",
                        help="every deck printed with its index at all four corners (vision.envelope.four_index)")
    parser.add_argument("--export", type=Path, metavar="DIR",
                        help="also write each deck's faces (DIR/DECK/deck) and its frames with their labels (DIR/DECK/frames), "
                             "as `tablectl vision enroll --images` and `tablectl vision score` read them")
    args = parser.parse_args()
    felts = {**FELTS, **BLIND_FELTS} if args.part == "blind" else FELTS
    if args.felt is not None and args.felt not in felts:
        raise SystemExit(f"no felt {args.felt!r} in the {args.part} part: {', '.join(felts)}")
    one_core()
    decks = available_decks(args.decks.split(",") if args.decks else (TUNE_DECKS if args.part == "tune" else BLIND_DECKS))
    if not decks:
        raise SystemExit("the benchmark needs the SVG decks of gnome-cards-data and rsvg-convert (librsvg2-bin)")
    seed = args.seed if args.seed is not None else SEEDS[args.part]
    index = "jumbo" if args.jumbo else "small" if args.small_index else None
    on = (f", every frame on {args.felt} felt" if args.felt else "") + (f", every deck with a {index} index" if index else "") \
        + (", every deck with four indexes" if args.four_index else "")
    print(f"{args.part} part: {args.frames_per_deck} frames of each of {', '.join(decks)} (seed {seed}{on})")
    ours, peer, ratios = run_part(args.part, decks, args.frames_per_deck, seed, args.fresh, args.felt, index,
                                 args.export, args.four_index)
    print()
    print(ours.report())
    for example in ours.overall.examples[:20]:
        print(f"  wrong: {example}")
    print(f"\npeer, side by side: the classic contour-and-template reader ({vision_peer.__name__}.py)")
    print(Tally.header())
    print(peer.line("peer, all"))
    print(f"ours / peer CPU time per frame: median {np.median(ratios):.2f}, p95 {np.percentile(ratios, 95):.2f}")
    t = ours.overall
    print(f"\nours: {100 * t.share:.2f}% of {t.readable} readable cards right, {t.wrong} wrong, {t.invented} invented, "
          f"{t.tracebacks} tracebacks; CPU ms per frame median {np.median(t.cpu_ms):.1f}, p95 {np.percentile(t.cpu_ms, 95):.1f}")


if __name__ == "__main__":
    main()
