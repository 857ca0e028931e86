"""Scoring reads against an envelope frame's truth, overall and by condition.

A report is paired with a drawn card when their outlines' centres lie within
``MATCH_WIDTHS`` card widths: first a report naming a card with that card,
then the rest nearest first. For every readable card: read right, read
wrong (named as another card), unreadable (reported, not named), or missed
(not reported at all). A report naming a card that no drawn card stands for
is a card *invented*; one naming a hidden card is right if it names that card
and wrong otherwise. A read that raised instead of answering is a traceback.

``Tally`` counts one group of frames; ``ByCondition`` keeps a tally for every
bin of every condition (``Conditions.bins``) and for kinds of card (in a fan
or alone, a joker, cut by the frame's edge).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from controller.cards import JOKER, Card
from vision.envelope import TruthCard

__all__ = ["MATCH_WIDTHS", "ByCondition", "Outcome", "Tally", "score_frame"]

MATCH_WIDTHS = 0.35


@dataclass(frozen=True)
class Reported:
    """What the scorer needs of a report: the card named (``None``: unreadable) and its outline."""

    card: Card | None
    polygon: np.ndarray


@dataclass(frozen=True)
class Outcome:
    """What became of one readable card: ``right``, ``wrong``, ``unreadable`` or ``missed``."""

    truth: TruthCard
    result: str
    read_as: Card | None = None


@dataclass
class Tally:
    frames: int = 0
    readable: int = 0
    right: int = 0
    wrong: int = 0
    unreadable: int = 0
    missed: int = 0
    invented: int = 0
    tracebacks: int = 0
    cpu_ms: list[float] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)

    def add(self, outcomes: Sequence[Outcome], invented: int, where: str) -> None:
        for o in outcomes:
            self.readable += o.truth.readable
            if o.result == "right":
                self.right += o.truth.readable
            elif o.result == "wrong":
                self.wrong += 1
                self.examples.append(f"{o.truth.card} ({o.truth.visible}) read as {o.read_as} [{where}]")
            elif o.result == "unreadable":
                self.unreadable += 1
            elif o.result == "missed":
                self.missed += 1
        self.invented += invented

    @property
    def share(self) -> float:
        return self.right / self.readable if self.readable else float("nan")

    def line(self, label: str) -> str:
        ms = f"{np.median(self.cpu_ms):6.1f}" if self.cpu_ms else "     -"
        return (f"{label:<26} {self.frames:>5} {self.readable:>6} {100 * self.share:7.2f}% {self.wrong:>5} "
                f"{self.invented:>5} {self.unreadable:>6} {self.missed:>6} {self.tracebacks:>5} {ms}")

    @staticmethod
    def header() -> str:
        return (f"{'':<26} {'frames':>5} {'cards':>6} {'right':>8} {'wrong':>5} {'inv.':>5} {'unread':>6} "
                f"{'missed':>6} {'trace':>5} {'ms':>6}")


def _centre(polygon: np.ndarray) -> np.ndarray:
    return np.asarray(np.asarray(polygon, float).reshape(-1, 2).mean(axis=0), np.float64)


def score_frame(truth: Sequence[TruthCard], reports: Sequence[Reported]) -> tuple[list[Outcome], list[Outcome], int]:
    """The outcome of every readable card of a frame's ``truth``, of every hidden card a report named wrong,
    and how many reports named a card where none was drawn."""
    width = np.array([np.linalg.norm(t.polygon[1] - t.polygon[0]) for t in truth]) if truth else np.zeros(0)
    reach = MATCH_WIDTHS * (float(np.median(width)) if len(width) else 100.0)
    tc = np.array([_centre(t.polygon) for t in truth]).reshape(-1, 2)
    rc = np.array([_centre(r.polygon) for r in reports]).reshape(-1, 2)
    dist = np.linalg.norm(tc[:, None] - rc[None], axis=2) if len(tc) and len(rc) else np.zeros((len(tc), len(rc)))
    pair: dict[int, int] = {}
    used: set[int] = set()
    by_name = [(dist[i, j], i, j) for i in range(len(truth)) for j in range(len(reports))
               if reports[j].card is truth[i].card and dist[i, j] < reach]
    rest = [(dist[i, j], i, j) for i in range(len(truth)) for j in range(len(reports)) if dist[i, j] < reach]
    for group in (by_name, rest):
        for _, i, j in sorted(group):
            if i not in pair and j not in used:
                pair[i] = j
                used.add(j)
    outcomes, hidden_wrong = [], []
    for i, t in enumerate(truth):
        report = reports[pair[i]] if i in pair else None
        if report is None:
            result = "missed"
        elif report.card is None:
            result = "unreadable"
        else:
            result = "right" if report.card is t.card else "wrong"
        outcome = Outcome(t, result, report.card if report is not None else None)
        if t.readable:
            outcomes.append(outcome)
        elif result == "wrong":
            hidden_wrong.append(outcome)
    invented = sum(1 for j, r in enumerate(reports) if j not in used and r.card is not None)
    return outcomes, hidden_wrong, invented


@dataclass
class ByCondition:
    """A tally overall and one for every bin of every condition and kind of card."""

    overall: Tally = field(default_factory=Tally)
    bins: dict[tuple[str, str], Tally] = field(default_factory=dict)

    def _bin(self, key: tuple[str, str]) -> Tally:
        return self.bins.setdefault(key, Tally())

    def add(self, bins: Mapping[str, str], outcomes: list[Outcome], hidden_wrong: list[Outcome], invented: int,
            where: str, cpu_ms: float | None, traceback: bool = False) -> None:
        """One frame's outcomes, under the bin of each of its conditions (``Conditions.bins``)."""
        frame_bins = list(bins.items())
        for tally in [self.overall] + [self._bin(key) for key in frame_bins]:
            tally.frames += 1
            tally.tracebacks += traceback
            tally.add(outcomes + hidden_wrong, invented, where)
            if cpu_ms is not None:
                tally.cpu_ms.append(cpu_ms)
        for o in outcomes + hidden_wrong:
            kinds = [("card", "in a fan" if o.truth.overlapped else "alone"),
                     ("card", "full face" if o.truth.visible == "full" else "index corner only")]
            if o.truth.card is JOKER:
                kinds.append(("card", "joker"))
            if o.truth.cut:
                kinds.append(("card", "cut by the frame's edge"))
            for key in kinds:
                self._bin(key).add([o], 0, where)

    def report(self) -> str:
        lines = [Tally.header(), self.overall.line("all")]
        for name in sorted({k for k, _ in self.bins}):
            lines.append(f"-- {name}")
            for (n, value), tally in sorted(self.bins.items()):
                if n == name:
                    lines.append(tally.line("  " + value))
        return "\n".join(lines)
