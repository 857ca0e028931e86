"""Tracking cards across frames: report a card once it is steady, report its removal, never twice.

Each frame's reads are matched to the tracks already known, by card and by
distance on the table (a card may slide; it keeps its track). A new track is
reported with ``CardAppeared`` after it has been seen in ``stable_frames``
frames in a row; a reported track that goes unseen for ``gone_frames`` frames
is reported with ``CardRemoved``. A reported card that moves to another zone
gives ``CardMoved``, not a second appearance. Unreadable reads are tracked
too: a track reported unreadable that is later read gives a ``CardAppeared``
with its card under the same track number; a read card that turns unreadable
for a frame keeps its card.

>>> import numpy as np
>>> from controller.cards import Card
>>> quad = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], float)
>>> tracker = Tracker(stable_frames=2, gone_frames=2)
>>> tracker.update([Read(Card.parse("AS"), quad, "full", 0.9, "dealer")])
[]
>>> [type(e).__name__ for e in tracker.update([Read(Card.parse("AS"), quad, "full", 0.9, "dealer")])]
['CardAppeared']
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from controller.cards import Card
from vision.geometry import quad_center
from vision.recognizer import Read

__all__ = ["CardAppeared", "CardMoved", "CardRemoved", "TrackEvent", "Tracker"]


@dataclass(frozen=True)
class CardAppeared:
    track: int
    card: Card | None
    zone: str | None
    read: Read = field(compare=False, repr=False)


@dataclass(frozen=True)
class CardMoved:
    track: int
    card: Card | None
    from_zone: str | None
    to_zone: str | None


@dataclass(frozen=True)
class CardRemoved:
    track: int
    card: Card | None
    zone: str | None


TrackEvent = CardAppeared | CardMoved | CardRemoved


@dataclass(eq=False)
class _Track:
    id: int
    read: Read
    seen: int = 1
    missed: int = 0
    reported: bool = False

    @property
    def center(self) -> np.ndarray:
        return quad_center(self.read.polygon)


class Tracker:
    """Turns per-frame reads into appear / move / remove events (see the module doc)."""

    def __init__(self, stable_frames: int = 3, gone_frames: int = 3, max_move_px: float = 400.0) -> None:
        if stable_frames < 1 or gone_frames < 1:
            raise ValueError("stable_frames and gone_frames must be at least 1")
        self.stable_frames = stable_frames
        self.gone_frames = gone_frames
        self.max_move_px = max_move_px
        self.tracks: list[_Track] = []
        self._ids = itertools.count(1)

    def update(self, reads: Sequence[Read]) -> list[TrackEvent]:
        events: list[TrackEvent] = []
        unmatched = list(range(len(reads)))
        for track in sorted(self.tracks, key=lambda t: -t.seen):
            best = self._nearest(track, reads, unmatched)
            if best is None:
                track.missed += 1
                continue
            unmatched.remove(best)
            events.extend(self._refresh(track, reads[best]))
        for i in unmatched:
            self.tracks.append(_Track(next(self._ids), reads[i]))
            events.extend(self._refresh(self.tracks[-1], None))
        for track in [t for t in self.tracks if t.missed >= self.gone_frames]:
            self.tracks.remove(track)
            if track.reported:
                events.append(CardRemoved(track.id, track.read.card, track.read.zone))
        return events

    def _nearest(self, track: _Track, reads: Sequence[Read], candidates: list[int]) -> int | None:
        """The closest read that can be this track: the same card, or either side unreadable."""
        best, best_distance = None, self.max_move_px
        for i in candidates:
            read = reads[i]
            if track.read.card is not None and read.card is not None and read.card is not track.read.card:
                continue
            distance = float(np.linalg.norm(quad_center(read.polygon) - track.center))
            if distance < best_distance:
                best, best_distance = i, distance
        return best

    def _refresh(self, track: _Track, read: Read | None) -> list[TrackEvent]:
        events: list[TrackEvent] = []
        if read is not None:
            previous = track.read
            if read.card is None and previous.card is not None:
                read = Read(previous.card, read.polygon, read.visible, previous.confidence, read.zone, previous.guess)
            if track.reported and read.zone != previous.zone:
                events.append(CardMoved(track.id, read.card, previous.zone, read.zone))
            if track.reported and previous.card is None and read.card is not None:
                events.append(CardAppeared(track.id, read.card, read.zone, read))
            track.read, track.seen, track.missed = read, track.seen + 1, 0
        if not track.reported and track.seen >= self.stable_frames:
            track.reported = True
            events.append(CardAppeared(track.id, track.read.card, track.read.zone, track.read))
        return events

    @property
    def on_table(self) -> list[Read]:
        """The reads of every reported card still on the table."""
        return [t.read for t in self.tracks if t.reported]
