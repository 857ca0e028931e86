"""Benchmark of the card recognizer on seeded synthetic table frames, seen decks against held-out decks.

Renders a fixed set of 1920x1080 frames (default 1,000: half from the decks
used while tuning, half from decks kept out of all tuning), up to 20 cards
each with about a third of them fanned over each other, and prints for each
group: accuracy on cards lying whole ("full") and on cards showing only an
index corner ("corner"), wrong reads (a card reported as another card, or a
card reported where there is none), unreadable reports (and how often the
guess an unreadable card carries is right), cards not reported at all, the
cards of a deck the table's camera witness would see in under half of their
showings (read, or unreadable with the right guess), and the
milliseconds per frame of ``Recognizer.read`` on one core. A peer reads every
frame right after ours (``vision_peer.py``: the classic contour-and-template
card reader most OpenCV projects copy); its figures are printed below ours,
with the ratio of our time to its, frame by frame, which the machine's swings
in speed move far less than either time alone.

Every deck, seen or held out, is enrolled from its own artwork, one image per
card, exactly as ``tablectl vision enroll`` would enrol a casino's deck.

Run: ``PYTHONPATH=. python benchmarks/vision.py [--frames 1000] [--seed 2024]``
(needs the Debian package gnome-cards-data and rsvg-convert from librsvg2-bin).
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is called vision.py: keep its folder off the path so ``vision`` is the package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

import numpy as np  # noqa: E402

from vision.artwork import (  # noqa: E402
    HELD_OUT_DECKS,
    KDE_DECKS,
    MORE_DECKS,
    SEEN_DECKS,
    TUNING_DECKS,
    available_decks,
    render_deck,
)
from vision.recognizer import Recognizer  # noqa: E402
from vision.setup import one_core  # noqa: E402
from vision.templates import TemplateError, enrol_faces  # noqa: E402
from vision.trial import BLIND_SHARE, Tally, score, table_frames, witnessed_under  # noqa: E402


def _load_peer():  # type: ignore[no-untyped-def]
    """``vision_peer.py`` beside this file (whose folder is kept off the path, see above)."""
    spec = importlib.util.spec_from_file_location("vision_peer", Path(__file__).with_name("vision_peer.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["vision_peer"] = module
    spec.loader.exec_module(module)
    return module


vision_peer = _load_peer()


@dataclass
class TimedTally(Tally):
    """A group's tally, with each frame's milliseconds of reading and the decks enrolment refused."""

    ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def run_group(decks: list[str], frames: int, seed: int, tally: TimedTally, peer: TimedTally) -> None:
    """Read each frame with ours and, right after, with the peer (``vision_peer``), each tallied. A deck
    enrolment refuses is left out, its frames unread, and the refusal is tallied."""
    for deck_index, name in enumerate(decks):
        faces = render_deck(name)
        try:
            templates = enrol_faces(name, faces)
        except TemplateError as refusal:
            tally.refused.append(str(refusal))
            continue
        count = frames // len(decks) + (1 if deck_index < frames % len(decks) else 0)
        for k, (scene, layout) in enumerate(table_frames(faces, count, seed, deck_index)):
            recognizer = Recognizer(templates, layout)
            scale = layout.px_per_mm((scene.frame.shape[1] / 2, scene.frame.shape[0] / 2))
            size = recognizer.card_size
            classic = vision_peer.ClassicReader(faces, size.width_mm * size.height_mm * scale**2)
            for reader, counts in ((recognizer, tally), (classic, peer)):
                start, cpu = time.perf_counter(), time.process_time()
                reads = reader.read(scene.frame)
                counts.ms.append((time.perf_counter() - start) * 1000)
                counts.cpu_ms.append((time.process_time() - cpu) * 1000)
                score(scene, reads, counts, name, k)


def report(title: str, decks: list[str], t: TimedTally) -> None:
    def pct(bucket: list[int]) -> str:
        return f"{100 * bucket[0] / bucket[1]:6.2f}% ({bucket[0]}/{bucket[1]})" if bucket[1] else "   n/a"

    print(f"\n{title}: {', '.join(decks)}")
    print(f"  frames {t.frames}, cards {t.cards}, overlapped by another card {t.fanned} ({100 * t.fanned / max(t.cards, 1):.0f}%), no index visible {t.hidden}")
    print(f"  full faces correct    {pct(t.full)}")
    print(f"  index corners correct {pct(t.corner)}")
    print(f"  wrong reads           {t.wrong}")
    print(f"  unreadable reports    {t.unreadable} on visible cards, {t.spurious_unreadable} where no card could be matched")
    print(f"    with a guess        {t.guessed[1]}, the guess right {t.guessed[0]} (the table's camera witness lets a guess corroborate the shoe)")
    print(f"  not reported at all   {t.missed}")
    blind = witnessed_under(t, BLIND_SHARE)
    print(f"  cards seen in under half their showings (read, or the right guess): "
          f"{', '.join(f'{s.deck} {s}' for s in blind) or 'none'}")
    print(f"  ms per frame          median {np.median(t.ms):.1f}, p95 {np.percentile(t.ms, 95):.1f} wall clock; "
          f"CPU time median {np.median(t.cpu_ms):.1f}, p95 {np.percentile(t.cpu_ms, 95):.1f} (one thread)")
    for example in t.wrong_examples[:10]:
        print(f"    wrong: {example}")
    for refusal in t.refused:
        print(f"  refused at enrolment, its frames not read: {refusal}")


def report_peer(ours: TimedTally, peer: TimedTally) -> None:
    """The peer's figures on the same frames, and the ratio of our time to its, frame by frame: the two ran
    in turn on each frame, so a machine that slows down for a while slows both."""
    def pct(bucket: list[int]) -> str:
        return f"{100 * bucket[0] / bucket[1]:.2f}% ({bucket[0]}/{bucket[1]})" if bucket[1] else "n/a"

    ratio = np.array(ours.cpu_ms) / np.maximum(np.array(peer.cpu_ms), 1e-3)
    print(f"  peer, run side by side: the classic contour-and-template reader ({vision_peer.__name__}.py)")
    print(f"    full faces correct {pct(peer.full)}, index corners correct {pct(peer.corner)}, "
          f"wrong reads {peer.wrong}, not reported {peer.missed}")
    print(f"    CPU time median {np.median(peer.cpu_ms):.1f}, p95 {np.percentile(peer.cpu_ms, 95):.1f} ms; "
          f"ours / peer per frame: median {np.median(ratio):.2f}, p95 {np.percentile(ratio, 95):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=1000, help="frames in all, split evenly between the groups")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--group", choices=("both", "seen", "held-out", "tuning", "more", "kde"), default="both",
                        help="run one group only (two processes can then share the work); 'tuning', 'more' and 'kde': "
                             "the further decks tuned on, which 'both' leaves out ('more' and 'kde': brands first run "
                             "blind; 'kde' needs the Debian package kdegames-card-data-kf5)")
    args = parser.parse_args()
    one_core()
    seen, held_out = available_decks(SEEN_DECKS), available_decks(HELD_OUT_DECKS)
    if not seen or not held_out:
        raise SystemExit("the benchmark needs the SVG decks of gnome-cards-data and rsvg-convert (librsvg2-bin)")
    groups = {"seen": ("seen decks (used while tuning)", seen), "held-out": ("held-out decks (never used while tuning)", held_out),
              "tuning": ("further decks used while tuning", available_decks(TUNING_DECKS)),
              "more": ("more decks (run blind once, tuned on since)", available_decks(MORE_DECKS)),
              "kde": ("KDE's decks (run blind once, looked at since)", available_decks(KDE_DECKS))}
    for key, (title, decks) in groups.items():
        if args.group != key and (args.group != "both" or key in ("tuning", "more", "kde")):
            continue
        tally, peer = TimedTally(), TimedTally()
        run_group(decks, args.frames // 2, args.seed, tally, peer)
        report(title, decks, tally)
        report_peer(tally, peer)


if __name__ == "__main__":
    main()
