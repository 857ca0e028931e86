"""Reading a deck on table frames drawn from its own faces, and scoring the reads against the truth.

The benchmark (``benchmarks/vision.py``) scores every group of decks this way, and
``tablectl vision enroll --trial N`` does it for the deck just enrolled: a brand unlike
those the recognizer was tuned on can read far worse, and can read cards wrong (KDE's
decks, ``docs/vision.md``), which a technician should learn before the camera
witnesses that deck at a table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from controller.cards import Card
from vision.calibration import Layout
from vision.geometry import quad_center
from vision.recognizer import Read, Recognizer
from vision.synthetic import Camera, Scene, SceneRenderer, random_placements
from vision.templates import DeckTemplates

__all__ = ["BLIND_SHARE", "LEAST_SHOWINGS", "MATCH_PX", "WEAK_SHARE", "Shortfall", "Tally", "run_trial", "score",
           "table_frames", "witnessed_under"]

#: A report is paired with a drawn card when their centres lie this close (pixels of a 1920x1080 frame).
MATCH_PX = 30.0

#: A card witnessed in fewer than this share of its showings is named as weak.
WEAK_SHARE = Fraction(9, 10)
#: A deck with a card witnessed in fewer than this share of its showings should not witness a table: as
#: the camera corroborates the shoe, a dealt card it does not see holds the round, so most rounds dealing
#: that card would be held.
BLIND_SHARE = Fraction(1, 2)
#: A card shown fewer times than this is not judged: a share of one to three showings says little.
LEAST_SHOWINGS = 4


@dataclass
class Tally:
    """What happened to the cards of some frames. ``full`` and ``corner`` are [read right, shown]."""

    frames: int = 0
    cards: int = 0
    fanned: int = 0
    full: list[int] = field(default_factory=lambda: [0, 0])
    corner: list[int] = field(default_factory=lambda: [0, 0])
    wrong: int = 0
    unreadable: int = 0
    guessed: list[int] = field(default_factory=lambda: [0, 0])
    spurious_unreadable: int = 0
    missed: int = 0
    hidden: int = 0
    wrong_examples: list[str] = field(default_factory=list)
    #: Per deck and card, [witnessed, shown] over full faces and index corners: witnessed when read right,
    #: or unreadable with the right guess, which is what the table's camera witness accepts.
    by_card: dict[tuple[str, Card], list[int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Shortfall:
    """A card of a deck that the camera witnessed in ``witnessed`` of the ``shown`` times it showed."""

    deck: str
    card: Card
    witnessed: int
    shown: int

    def __str__(self) -> str:
        return f"{self.card} {self.witnessed}/{self.shown}"


def witnessed_under(tally: Tally, share: Fraction) -> list[Shortfall]:
    """The cards shown at least ``LEAST_SHOWINGS`` times and witnessed in fewer than ``share`` of them,
    least witnessed first."""
    short = [Shortfall(deck, card, seen, shown) for (deck, card), (seen, shown) in tally.by_card.items()
             if shown >= LEAST_SHOWINGS and seen < share * shown]
    return sorted(short, key=lambda s: (Fraction(s.witnessed, s.shown), s.deck, s.card.code))


def table_frames(faces: Mapping[Card, np.ndarray], frames: int, seed: int, deck_index: int = 0) -> Iterator[tuple[Scene, Layout]]:
    """``frames`` seeded table frames of 6 to 20 of these cards, about a third of them fanned, each with
    the calibration of the camera that filmed it (the benchmark's frames: frame ``k`` of deck
    ``deck_index`` is drawn from the seed ``[seed, deck_index, k]``)."""
    cards = np.array(sorted(faces), dtype=object)
    most = min(20, len(cards))
    for k in range(frames):
        rng = np.random.default_rng([seed, deck_index, k])
        camera = Camera.overhead(rng)
        renderer = SceneRenderer(faces, camera)
        chosen = list(rng.permutation(cards)[: int(rng.integers(min(6, most), most + 1))])
        yield renderer.render(random_placements(chosen, rng), rng), camera.layout()


def score(scene: Scene, reads: list[Read], tally: Tally, deck: str, frame: int) -> None:
    """Pair each drawn card with the nearest report and count what happened to it (``deck`` and ``frame``
    are named in the examples of wrong reads so that they can be looked at again)."""
    where = f"{deck}, frame {frame}"
    tally.frames += 1
    tally.cards += len(scene.truth)
    tally.fanned += sum(1 for t in scene.truth if t.visible != "full")
    used: set[int] = set()
    for truth in scene.truth:
        center = quad_center(truth.polygon)
        distances = [float(np.linalg.norm(quad_center(r.polygon) - center)) for r in reads]
        candidates = [i for i in np.argsort(distances) if distances[i] < MATCH_PX and i not in used] if reads else []
        read = reads[candidates[0]] if candidates else None
        if candidates:
            used.add(int(candidates[0]))
        if read is not None and read.card is not None and read.card is not truth.card:
            tally.wrong += 1
            tally.wrong_examples.append(f"{truth.card} ({truth.visible}) read as {read.card} [{where}]")
        if truth.visible == "hidden":
            tally.hidden += 1
            continue
        bucket = tally.full if truth.visible == "full" else tally.corner
        bucket[1] += 1
        counts = tally.by_card.setdefault((deck, truth.card), [0, 0])
        counts[1] += 1
        counts[0] += read is not None and (read.card is truth.card or (read.card is None and read.guess is truth.card))
        if read is None:
            tally.missed += 1
        elif read.card is truth.card:
            bucket[0] += 1
        elif read.card is None:
            tally.unreadable += 1
            if read.guess is not None:
                tally.guessed[1] += 1
                tally.guessed[0] += read.guess is truth.card
    for i, read in enumerate(reads):
        if i in used:
            continue
        if read.card is not None:
            tally.wrong += 1
            tally.wrong_examples.append(f"nothing read as {read.card} [{where}]")
        else:
            tally.spurious_unreadable += 1


def run_trial(faces: Mapping[Card, np.ndarray], deck: DeckTemplates, frames: int, seed: int = 0,
              advance: Callable[[int], None] | None = None) -> Tally:
    """Read ``frames`` table frames drawn from ``faces`` with ``deck`` (enrolled from those faces);
    ``advance`` (a progress bar's) is called once per frame read."""
    tally = Tally()
    for k, (scene, layout) in enumerate(table_frames(faces, frames, seed)):
        score(scene, Recognizer(deck, layout).read(scene.frame), tally, deck.name, k)
        if advance is not None:
            advance(1)
    return tally
