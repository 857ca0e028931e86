"""Where the recognizer loses each readable card it does not read right, stage by stage.

For every readable card of the tune part's cached envelope frames that is not read
right, the first stage that lost it:

* ``mask``: less than half of its clear index box lies on the card mask;
* ``no corner``: no outline hypothesis starts within ``NEAR`` card widths of either
  of its index corners (oriented as the card is);
* ``far look``: outlines start there, but each one's look is further than
  ``evidence_distance`` from every card (pose, or the index looks unlike its card);
* ``confused``: a look that near names another card;
* ``decision``: a look that near names the card, and the decision (the abstain
  rules, strips, suppression) did not report it read.

Beside it, an oracle: the index reader given the card's true outline from each of
its two index corners (the reader's own pose fitting, the deck's own looks): is
the card's nearest card the card itself within ``anchor_distance``, and by the
gap a read needs? That bounds what a perfect index-corner finder would give the
current classifier.

Run: ``PYTHONPATH=. python benchmarks/vision_losses.py [--frames-per-deck 6] [--decks a,b]``
(reads the frames ``benchmarks/vision.py --part tune`` cached), or on a test lab's own labelled frames
(``tablectl vision score``'s folder) with the deck enrolled for them:
``--labelled FOLDER --deck-file DECK.npz``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse  # noqa: E402
import pickle  # noqa: E402
import tempfile  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.artwork import cache_dir, render_deck  # noqa: E402
from vision.detect import half_size  # noqa: E402
from vision.enroll import faces_from_images  # noqa: E402
from vision.envelope import INDEX_BOX, TruthCard  # noqa: E402
from vision.envelope.decks import TUNE_DECKS  # noqa: E402
from vision.envelope.scoring import Reported, score_frame  # noqa: E402
from vision.labelled import labelled_frames  # noqa: E402
from vision.recognizer import Recognizer, evidence_needed  # noqa: E402
from vision.setup import layout_from, one_core  # noqa: E402
from vision.sources import read_image  # noqa: E402
from vision.templates import DeckTemplates, enrol_faces  # noqa: E402

NEAR = 0.12


def enrol(name: str):  # type: ignore[no-untyped-def]
    faces = render_deck(name)
    with tempfile.TemporaryDirectory() as folder:
        for card, face in faces.items():
            cv2.imwrite(str(Path(folder) / f"{card.code}.png"), face)
        return enrol_faces(name, faces_from_images(Path(folder)))


@dataclass(frozen=True)
class Bins:
    """A labelled frame's conditions, as an envelope frame's ``conditions`` gives them."""

    named: dict[str, str]

    def bins(self) -> dict[str, str]:
        return dict.fromkeys(("glare", "blur", "layout", "felt"), "-") | self.named


@dataclass(frozen=True)
class Scene:
    """A labelled frame as the cached scenes give theirs."""

    frame: np.ndarray
    truth: tuple[TruthCard, ...]
    calibration: dict[str, Any] | None
    conditions: Bins


def labelled(folder: Path):  # type: ignore[no-untyped-def]
    for frame in labelled_frames(folder):
        yield Scene(read_image(frame.path), frame.truth, frame.calibration, Bins(frame.bins))


def cached(name: str, args: argparse.Namespace):  # type: ignore[no-untyped-def]
    folder = cache_dir() / "envelope" / "v1-tune-2049" / name
    for k in range(args.first, args.first + args.frames_per_deck):
        with open(folder / f"{k:04d}.pickle", "rb") as handle:
            yield pickle.load(handle)  # noqa: S301 - the benchmark's own cache


class Spy(Recognizer):
    """A recognizer that keeps what its stages made of the last frame."""

    def _read(self, frame):  # type: ignore[no-untyped-def]
        self.seen: dict = {}
        hyp, reader = self.hypotheses, self.reader
        original_candidates, original_distances = hyp.candidates, reader.distances

        def candidates(*args, **kwargs):  # type: ignore[no-untyped-def]
            out = original_candidates(*args, **kwargs)
            self.seen["filled"] = args[2]
            self.seen["candidates"] = out
            return out

        def distances(*args, **kwargs):  # type: ignore[no-untyped-def]
            out = original_distances(*args, **kwargs)
            self.seen.setdefault("distances", (args[2], args[3], out))
            return out

        hyp.candidates, reader.distances = candidates, distances  # type: ignore[method-assign]
        try:
            return super()._read(frame)
        finally:
            hyp.candidates, reader.distances = original_candidates, original_distances  # type: ignore[method-assign]


def index_points(poly: np.ndarray) -> np.ndarray:
    (u0, u1), (v0, v1) = INDEX_BOX
    gu, gv = np.meshgrid(np.linspace(u0, u1, 4), np.linspace(v0, v1, 5))
    o, a, b = poly[0], poly[1] - poly[0], poly[3] - poly[0]
    return o + gu.reshape(-1, 1) * a + gv.reshape(-1, 1) * b


def on_mask(points: np.ndarray, filled: np.ndarray) -> float:
    half = np.round((points - 0.5) / 2).astype(int)
    h, w = filled.shape
    ok = (half[:, 0] >= 0) & (half[:, 0] < w) & (half[:, 1] >= 0) & (half[:, 1] < h)
    return float((filled[half[ok, 1], half[ok, 0]] > 0).sum() / max(len(points), 1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames-per-deck", type=int, default=6)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--decks")
    parser.add_argument("--labelled", type=Path, help="a folder of labelled frames (tablectl vision score's) instead")
    parser.add_argument("--deck-file", type=Path, help="the deck file enrolled for --labelled")
    args = parser.parse_args()
    one_core()
    decks = args.decks.split(",") if args.decks else list(TUNE_DECKS)
    lost: Counter[str] = Counter()
    by_cond: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    oracle: Counter[str] = Counter()
    oracle_by: dict[str, Counter[str]] = defaultdict(Counter)
    far_dist: list[float] = []
    total = right = 0
    sources = [(args.deck_file.stem, lambda: DeckTemplates.load(args.deck_file), lambda: labelled(args.labelled))] \
        if args.labelled else [(name, lambda name=name: enrol(name), lambda name=name: cached(name, args)) for name in decks]
    for name, deck_of, scenes in sources:
        deck = deck_of()
        for scene in scenes():
            layout = layout_from({"calibration": scene.calibration})
            spy = Spy(deck, layout)
            reads = spy.read(scene.frame)
            outcomes, _, _ = score_frame(scene.truth, [Reported(r.card, r.polygon) for r in reads])
            seen = spy.seen
            width = float(np.median([np.linalg.norm(t.polygon[1] - t.polygon[0]) for t in scene.truth]))
            quads = np.zeros((0, 4, 2))
            look_dist = np.zeros((0, len(deck.cards)))
            if "distances" in seen:
                quads, looks, (judged, _each, _poses, _fit) = seen["distances"]
                look_dist = judged[looks]
            # The oracle: the true outlines from both index corners, each a look of its own.
            truths = [o.truth for o in outcomes]
            if truths:
                true_quads = np.concatenate([[t.polygon, np.roll(t.polygon, 2, axis=0)] for t in truths])
                small = half_size(scene.frame)
                width_px = spy.card_size.width_mm * layout.px_per_mm((960, 540))
                o_dist = spy.reader.distances(scene.frame, small, true_quads.astype(float),
                                              np.arange(len(true_quads)), width_px)[0]
            gap_needed = 2 * evidence_needed(spy.settings.min_confidence)
            for i, o in enumerate(outcomes):
                total += 1
                t = o.truth
                card = deck.cards.index(t.card) if t.card in deck.cards else -1
                # Oracle on the better index corner.
                best_row = None
                for row in o_dist[2 * i: 2 * i + 2]:
                    if best_row is None or row.min() < best_row.min():
                        best_row = row
                assert best_row is not None
                srt = np.sort(best_row)
                if card < 0:
                    verdict = "not in deck"
                elif best_row.argmin() != card:
                    verdict = "names another"
                elif best_row[card] > spy.settings.anchor_distance:
                    verdict = "right but far"
                elif srt[1] ** 2 - srt[0] ** 2 < gap_needed:
                    verdict = "right, short gap"
                else:
                    verdict = "right, decisive"
                oracle[verdict] += 1
                oracle[f"{verdict} / ours {o.result}"] += 1
                kind = ("in a fan" if t.overlapped else "alone") + " / " + t.visible
                oracle_by[kind][verdict] += 1
                bins = scene.conditions.bins()
                for key in ("glare", "blur", "layout", "felt"):
                    oracle_by[f"{key} {bins[key]}"][verdict] += 1
                if o.result == "right":
                    right += 1
                    continue
                # Stage that lost it.
                filled = seen.get("filled")
                corners = [t.polygon, np.roll(t.polygon, 2, axis=0)]
                stage = "mask"
                if filled is not None and max(on_mask(index_points(c), filled) for c in corners) >= 0.5:
                    stage = "no corner"
                    near_rows = []
                    for c in corners:
                        d0 = np.linalg.norm(quads[:, 0] - c[0], axis=1) if len(quads) else np.zeros(0)
                        d1 = np.linalg.norm(quads[:, 1] - c[1], axis=1) if len(quads) else np.zeros(0)
                        near_rows.extend(np.flatnonzero((d0 < NEAR * width) & (d1 < 0.3 * width)).tolist())
                    if near_rows:
                        rows = look_dist[near_rows]
                        nearest = rows.min(axis=1)
                        if (nearest > spy.settings.evidence_distance).all():
                            stage = "far look"
                            if card >= 0:
                                far_dist.append(float(rows[:, card].min()))
                        else:
                            telling = rows[nearest <= spy.settings.evidence_distance]
                            stage = "decision" if card >= 0 and (telling.argmin(axis=1) == card).any() else "confused"
                lost[f"{stage} ({o.result})"] += 1
                for key in scene.conditions.bins().items():
                    by_cond[key][stage] += 1
                kind = ("in a fan" if t.overlapped else "alone", t.visible)
                by_cond[("card", " / ".join(kind))][stage] += 1
        print(f"{name}: {right}/{total} right so far; lost {dict(lost)}", flush=True)
    print(f"\n{total} readable cards, {right} read right ({100 * right / max(total, 1):.1f}%)")
    print("lost at:")
    for stage, n in lost.most_common():
        print(f"  {stage:<28} {n:5d} ({100 * n / total:.1f}% of readable)")
    print("oracle (true outline from either index corner, reader's own pose fitting):")
    for verdict, n in sorted(oracle.items()):
        print(f"  {verdict:<40} {n:5d}")
    for key in sorted(oracle_by):
        print(f"  {key:<30} {dict(oracle_by[key].most_common())}")
    if far_dist:
        print(f"far looks: the true card's distance median {np.median(far_dist):.1f}, p25 {np.percentile(far_dist, 25):.1f}")
    print("by condition (stage counts of the cards lost):")
    for key in sorted(by_cond):
        print(f"  {key[0]:>10} {key[1]:<26} {dict(by_cond[key].most_common())}")


if __name__ == "__main__":
    main()
