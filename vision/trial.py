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
from vision.envelope import INDEX_BOX, Box, EnvelopeFrame, envelope_frame, region_box
from vision.geometry import quad_center
from vision.recognizer import Read, Recognizer
from vision.templates import DeckTemplates

__all__ = ["BLIND_SHARE", "LEAST_SHOWINGS", "MATCH_PX", "WEAK_SHARE", "Shortfall", "Tally", "run_trial", "score",
           "table_frames", "witnessed_under"]

#: A report is paired with a drawn card when their centres lie this close (pixels of a 1920x1080 frame: a
#: third of the narrowest card the envelope draws).
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


def table_frames(faces: Mapping[Card, np.ndarray], frames: int, seed: int, deck_index: int = 0,
                 index_box: Box = INDEX_BOX) -> Iterator[tuple[EnvelopeFrame, Layout]]:
    """``frames`` seeded table frames of these cards across the envelope (``vision.envelope``: every felt,
    mounting, lens, light and layout), each with the calibration a technician would have measured for
    the camera that filmed it (frame ``k`` of deck ``deck_index`` is drawn from the seed ``[seed, deck_index, k]``)."""
    for k in range(frames):
        scene = envelope_frame(faces, np.random.default_rng([seed, deck_index, k]), index_box=index_box)
        yield scene, Layout.from_toml({"calibration": scene.calibration})


def score(scene: EnvelopeFrame, reads: list[Read], tally: Tally, deck: str, frame: int) -> None:
    """Pair each drawn card with the nearest report and count what happened to it (``deck`` and ``frame``
    are named in the examples of wrong reads so that they can be looked at again)."""
    where = f"{deck}, frame {frame}"
    tally.frames += 1
    tally.cards += len(scene.truth)
    tally.fanned += sum(1 for t in scene.truth if t.visible != "full")
    pair = _pairs(scene, reads)
    used = set(pair.values())
    for t, truth in enumerate(scene.truth):
        read = reads[pair[t]] if t in pair else None
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


def _pairs(scene: EnvelopeFrame, reads: list[Read]) -> dict[int, int]:
    """Each drawn card's report: a report naming a card goes first to that card within ``MATCH_PX``
    (in a pile the card read may lie nearer another card's centre than its own), then each drawn card
    takes the nearest report left within ``MATCH_PX``, nearest pairs first."""
    if not reads or not scene.truth:
        return {}
    truth = np.array([quad_center(t.polygon) for t in scene.truth])
    found = np.array([quad_center(r.polygon) for r in reads])
    apart = np.linalg.norm(truth[:, None] - found[None], axis=2)
    pair: dict[int, int] = {}
    for same_card in (True, False):
        for t, r in zip(*np.unravel_index(np.argsort(apart, axis=None), apart.shape)):
            t, r = int(t), int(r)
            if apart[t, r] >= MATCH_PX:
                break
            if t in pair or r in pair.values():
                continue
            if not same_card or reads[r].card is scene.truth[t].card:
                pair[t] = r
    return pair


def run_trial(faces: Mapping[Card, np.ndarray], deck: DeckTemplates, frames: int, seed: int = 0,
              advance: Callable[[int], None] | None = None) -> Tally:
    """Read ``frames`` table frames drawn from ``faces`` with ``deck`` (enrolled from those faces);
    ``advance`` (a progress bar's) is called once per frame read."""
    tally = Tally()
    for k, (scene, layout) in enumerate(table_frames(faces, frames, seed, index_box=region_box(deck.index_region))):
        score(scene, Recognizer(deck, layout).read(scene.frame), tally, deck.name, k)
        if advance is not None:
            advance(1)
    return tally
