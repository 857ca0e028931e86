"""Training the index net (``vision.index_net``) on the CPU, from synthetic table frames of the tuning decks.

Run ``python -m vision.index_net_training`` (needs PyTorch: ``pip install -e '.[train]'``,
the Debian packages ``gnome-cards-data``, ``kdegames-card-data-kf5`` and
``librsvg2-bin``); it writes ``vision/index_net.npz``, the weights tablectl ships,
in about a quarter of an hour on two cores. Everything is seeded, so a run
gives the same examples, and the same weights on the same machine.

The examples are index regions (``vision.index_net.net_patches``) cut from
table frames drawn as the benchmark draws its own (``vision.trial.table_frames``),
at a seed of their own, from every deck the recognizer was tuned on
(``TRAINING_DECKS``): never a held-out deck, nor a KDE deck, which
``--validate`` reads instead as brands the net never saw. Three kinds:

* the looks the recognizer itself weighs on those frames (each look's best
  pose, as the index reader gives it) and the outlines of the cards it reports,
  so the net learns from the poses and the mistakes it will be asked about:
  a look lying on a card's index corner that nothing covers is that card, one
  lying anywhere else (a pip, a picture, a covered corner, two cards' edges)
  is no index;
* every clear index corner of the truth, at poses jittered as a corner found
  a few pixels off jitters them, three times, and every covered one once as
  no index;
* a region somewhere on each face, at any angle, as no index.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from vision.artwork import (
    MORE_DECKS,
    SEEN_DECKS,
    TUNING_DECKS,
    available_decks,
    render_deck,
)
from vision.geometry import INDEX_FX, INDEX_FY, points_inside, rotate_quad
from vision.index_net import (
    CLASSES,
    NET_SIZE,
    NOT_AN_INDEX,
    WEIGHTS,
    IndexNet,
    net_input,
    net_patches,
)
from vision.recognizer import Recognizer
from vision.templates import TemplateError, enrol_faces
from vision.trial import table_frames

__all__ = ["TRAINING_DECKS", "Examples", "corner_coverage", "deck_examples", "examples", "label_outlines", "main", "report", "train"]

TRAINING_DECKS: tuple[str, ...] = (*SEEN_DECKS, *TUNING_DECKS, *MORE_DECKS)
VALIDATION_DECKS: tuple[str, ...] = ("kde-jolly-royal", "kde-penguins", "kde-tigullio-international")
SEED = 5001
FRAMES_PER_DECK = 150
EPOCHS = 6
#: Looks this far from every card (in the enrolled deck's units) are kept as examples too: further than any
#: look the recognizer decides on (``RecognizerSettings.evidence_distance``), so the net sees the near misses.
LOOK_REACH = 40.0
#: A look whose three corners beside the index lie this close (card widths) to a card's is a look at that card.
SAME_OUTLINE = 0.12
#: An index corner this little covered shows its index; this much covered, none; between, the example is dropped.
CLEAR, COVERED = 0.02, 0.25
_GRID = np.stack(np.meshgrid(np.linspace(0.05, 0.95, 5), np.linspace(0.05, 0.95, 7)), axis=-1).reshape(-1, 2)

Examples = tuple[np.ndarray, np.ndarray]
"""Index regions (N, h, w, 3) and their classes (N,: ``CLASSES`` index, or ``NOT_AN_INDEX``)."""


def corner_coverage(outlines: Sequence[np.ndarray], card: int, corner: int) -> float:
    """The share of the index patch at ``corner`` (0 or 2) of ``outlines[card]`` that cards drawn after it cover."""
    q = rotate_quad(outlines[card], corner)
    o, u, v = q[0], q[1] - q[0], q[3] - q[0]
    points = o + _GRID[:, :1] * INDEX_FX * u + _GRID[:, 1:] * INDEX_FY * v
    covered = np.zeros(len(points), bool)
    for later in outlines[card + 1 :]:
        covered |= points_inside(points, later)
    return float(covered.mean())


def label_outlines(outlines: np.ndarray, truth: Sequence[np.ndarray], classes: Sequence[int],
                   coverage: dict[tuple[int, int], float], width_px: float) -> np.ndarray:
    """The class of each outline (index corner first): the card whose index corner it lies on when nothing
    covers that corner, ``NOT_AN_INDEX`` elsewhere, -1 (no example) on a corner partly covered."""
    labels = np.full(len(outlines), NOT_AN_INDEX)
    for i, outline in enumerate(truth):
        for corner in (0, 2):
            q = rotate_quad(outline, corner)
            apart = np.linalg.norm(outlines[:, [0, 1, 3]] - q[[0, 1, 3]], axis=2).max(axis=1)
            covered = coverage[(i, corner)]
            labels[apart < SAME_OUTLINE * width_px] = \
                classes[i] if covered < CLEAR else (NOT_AN_INDEX if covered > COVERED else -1)
    return labels


def _jittered(quad: np.ndarray, rng: np.random.Generator, width_px: float, far: bool = False) -> np.ndarray:
    """``quad`` turned about its index corner, scaled and shifted as a corner found a little off would be."""
    angle = np.radians(rng.normal(0, 4.0 if far else 2.0))
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    shift = rng.normal(0, (0.04 if far else 0.02) * width_px, 2)
    return np.asarray((quad - quad[0]) @ turn.T * rng.uniform(0.95, 1.05) + quad[0] + shift)


def _looks_weighed(recognizer: Recognizer, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The best pose of every look the recognizer weighs on ``frame`` within ``LOOK_REACH`` of a card, and the
    outlines of the cards it reports."""
    weighed: list[np.ndarray] = []
    reader = recognizer.reader.distances

    def spy(frame: np.ndarray, small: np.ndarray, quads: np.ndarray, looks: np.ndarray, width_px: float,
            as_found: np.ndarray | None = None) -> Any:
        result = reader(frame, small, quads, looks, width_px, as_found)
        judged, _, poses, _ = result
        weighed.append(quads[poses][judged.min(axis=1) <= LOOK_REACH])
        return result

    recognizer.reader.distances = spy  # type: ignore[method-assign]
    reads = recognizer.read(frame)
    looks = np.concatenate(weighed) if weighed else np.zeros((0, 4, 2))
    return looks, np.array([r.polygon for r in reads]).reshape(-1, 4, 2)


def deck_examples(name: str, frames: int = FRAMES_PER_DECK, seed: int = SEED, deck_index: int = 0) -> Examples:
    """The examples of one deck's ``frames`` frames (none for a deck enrolment refuses)."""
    faces = render_deck(name)
    try:
        deck = enrol_faces(name, faces)
    except TemplateError:
        return np.zeros((0, NET_SIZE[1], NET_SIZE[0], 3), np.uint8), np.zeros(0, int)
    rng = np.random.default_rng([seed, deck_index, 99])
    regions, labels = [], []
    for scene, layout in table_frames(faces, frames, seed, deck_index):
        truth = [t.polygon for t in scene.truth]
        classes = [CLASSES.index(t.card) for t in scene.truth]
        width_px = float(np.median([np.linalg.norm(q[1] - q[0]) for q in truth]))
        coverage = {(i, c): corner_coverage(truth, i, c) for i in range(len(truth)) for c in (0, 2)}
        outlines, made = [], []
        for weighed in _looks_weighed(Recognizer(deck, layout), scene.frame):
            label = label_outlines(weighed, truth, classes, coverage, width_px)
            outlines.append(weighed[label >= 0])
            made.append(label[label >= 0])
        for i, outline in enumerate(truth):
            for corner in (0, 2):
                q = rotate_quad(outline, corner)
                if coverage[(i, corner)] < CLEAR:
                    outlines.append(np.array([_jittered(q, rng, width_px, far=k == 2) for k in range(3)]))
                    made.append(np.full(3, classes[i]))
                elif coverage[(i, corner)] > COVERED:
                    outlines.append(_jittered(q, rng, width_px)[None])
                    made.append(np.array([NOT_AN_INDEX]))
            o, u, v = outline[0], outline[1] - outline[0], outline[3] - outline[0]
            at = o + rng.uniform(0.2, 0.8) * u + rng.uniform(0.2, 0.8) * v
            angle = rng.uniform(0, 2 * np.pi)
            along_w = np.array([np.cos(angle), np.sin(angle)]) * np.linalg.norm(u)
            along_h = np.array([-along_w[1], along_w[0]]) * np.linalg.norm(v) / np.linalg.norm(u)
            outlines.append(np.array([[at, at + along_w, at + along_w + along_h, at + along_h]]))
            made.append(np.array([NOT_AN_INDEX]))
        regions.append(net_patches(scene.frame, np.concatenate(outlines)))
        labels.append(np.concatenate(made))
    return np.concatenate(regions), np.concatenate(labels)


def _deck_examples(job: tuple[str, int, int, int]) -> Examples:
    from vision.setup import one_core

    one_core()
    return deck_examples(*job)


def examples(decks: Sequence[str], frames: int, seed: int, jobs: int) -> Examples:
    """Every deck's examples, ``jobs`` decks at a time."""
    work = [(name, frames, seed, k) for k, name in enumerate(decks)]
    with ProcessPoolExecutor(jobs) as pool:
        made = list(pool.map(_deck_examples, work))
    return np.concatenate([m[0] for m in made]), np.concatenate([m[1] for m in made])


def train(regions: np.ndarray, labels: np.ndarray, epochs: int = EPOCHS, seed: int = 0,
          validation: Examples | None = None) -> dict[str, np.ndarray]:
    """The net's weights (``IndexNet``'s names) trained on the examples: three 3x3 convolutions of 16, 32
    and 64 channels, each with ReLU and 2x2 max pooling, then 128 units and one output per class."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    net = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * (NET_SIZE[1] // 8) * (NET_SIZE[0] // 8), 128), nn.ReLU(), nn.Dropout(0.3),
        nn.Linear(128, NOT_AN_INDEX + 1),
    )
    x = torch.empty((len(regions), 3, NET_SIZE[1], NET_SIZE[0]))
    for i in range(0, len(regions), 8192):
        x[i : i + 8192] = torch.from_numpy(net_input(regions[i : i + 8192]).transpose(0, 3, 1, 2))
    y = torch.from_numpy(labels.astype(np.int64))
    batch = min(256, len(x))
    optimiser = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=epochs * (len(x) // batch))
    loss_of = nn.CrossEntropyLoss()
    shuffle = torch.Generator().manual_seed(seed)
    start = time.time()
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(x), generator=shuffle)
        total = 0.0
        for i in range(0, len(x) - batch + 1, batch):
            rows = order[i : i + batch]
            # Exposure and sensor noise vary from frame to frame beyond what the examples show.
            xb = x[rows] * (1 + 0.15 * torch.randn(batch, 1, 1, 1, generator=shuffle)) \
                + 0.05 * torch.randn(x[rows].shape, generator=shuffle)
            loss = loss_of(net(xb), y[rows])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * batch
        print(f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f} ({time.time() - start:.0f} s)", flush=True)
    names = {0: "conv0", 3: "conv1", 6: "conv2", 10: "fc0", 13: "fc1"}
    weights = {f"{names[int(key.split('.')[0])]}.{key.split('.')[1]}": value.detach().numpy().copy()
               for key, value in net.state_dict().items()}
    if validation is not None:
        report(IndexNet(weights), *validation)
    return weights


def report(net: IndexNet, regions: np.ndarray, labels: np.ndarray) -> None:
    """How the net reads examples: right, and wrong at each level of its confidence."""
    probabilities = np.concatenate([net.probabilities(regions[i : i + 4096]) for i in range(0, len(regions), 4096)])
    named, sure = probabilities.argmax(axis=1), probabilities.max(axis=1)
    print(f"  {len(labels)} examples: {100 * (named == labels).mean():.2f}% right")
    for line in (0.99, 0.995, 0.999):
        wrong = (sure >= line) & (named != labels)
        print(f"  at {line}: {100 * (sure >= line).mean():.1f}% named, {wrong.sum()} wrong "
              f"({(wrong & (labels < NOT_AN_INDEX) & (named < NOT_AN_INDEX)).sum()} a card for another)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--frames", type=int, default=FRAMES_PER_DECK, help="frames per deck")
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--jobs", type=int, default=2, help="decks rendered at a time")
    parser.add_argument("--validate", action="store_true", help="read KDE decks the net never saw, after training")
    parser.add_argument("--examples", type=Path, help="keep the examples in this file, and take them from it when it exists")
    args = parser.parse_args()
    decks = available_decks(TRAINING_DECKS)
    if len(decks) < len(TRAINING_DECKS):
        raise SystemExit("training needs every deck of TRAINING_DECKS: gnome-cards-data, kdegames-card-data-kf5, librsvg2-bin")
    start = time.time()
    if args.examples is not None and args.examples.exists():
        with np.load(args.examples) as kept:
            regions, labels = kept["regions"], kept["labels"]
    else:
        regions, labels = examples(decks, args.frames, SEED, args.jobs)
        if args.examples is not None:
            np.savez(args.examples, regions=regions, labels=labels)
    print(f"{len(labels)} examples from {len(decks)} decks, {(labels == NOT_AN_INDEX).sum()} of no index "
          f"({time.time() - start:.0f} s)", flush=True)
    validation = examples(available_decks(VALIDATION_DECKS), 60, SEED + 1, args.jobs) if args.validate else None
    # numpy's stub types the keyword `allow_pickle` among the arrays, so a dict of arrays looks like it could hold it
    np.savez_compressed(args.out, **train(regions, labels, args.epochs, validation=validation))  # type: ignore[arg-type]
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
