"""Tracking: a card appearing, staying, moving and leaving, each reported once."""

import numpy as np

from controller.cards import Card
from vision.recognizer import Read
from vision.tracking import CardAppeared, CardMoved, CardRemoved, Tracker

QUAD = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], float)
AS, KD = Card.parse("AS"), Card.parse("KD")


def _read(card, dx=0.0, zone="player-1"):
    return Read(card, QUAD + [dx, 0], "full", 0.95, zone)


def test_a_card_is_reported_once_after_it_has_been_steady_for_n_frames() -> None:
    tracker = Tracker(stable_frames=3, gone_frames=2)
    events = [tracker.update([_read(AS)]) for _ in range(6)]
    assert [len(e) for e in events] == [0, 0, 1, 0, 0, 0]
    assert isinstance(events[2][0], CardAppeared) and events[2][0].card is AS


def test_a_flicker_shorter_than_n_frames_is_never_reported() -> None:
    tracker = Tracker(stable_frames=3, gone_frames=1)
    assert tracker.update([_read(AS)]) == [] and tracker.update([]) == [] and tracker.update([]) == []


def test_a_card_that_slides_into_another_zone_is_moved_not_counted_twice() -> None:
    tracker = Tracker(stable_frames=2, gone_frames=2)
    tracker.update([_read(AS)])
    tracker.update([_read(AS)])
    events = []
    for step in range(1, 6):
        events += tracker.update([_read(AS, dx=40.0 * step, zone="player-1" if step < 3 else "player-2")])
    assert [type(e) for e in events] == [CardMoved]
    assert (events[0].from_zone, events[0].to_zone) == ("player-1", "player-2")
    assert len(tracker.on_table) == 1


def test_a_card_taken_away_is_reported_removed_once() -> None:
    tracker = Tracker(stable_frames=1, gone_frames=2)
    tracker.update([_read(AS), _read(KD, dx=300)])
    events = tracker.update([_read(KD, dx=300)]) + tracker.update([_read(KD, dx=300)]) + tracker.update([_read(KD, dx=300)])
    assert [(type(e), e.card) for e in events] == [(CardRemoved, AS)]


def test_a_card_read_after_being_unreadable_keeps_its_track() -> None:
    tracker = Tracker(stable_frames=1, gone_frames=2)
    first = tracker.update([Read(None, QUAD, "corner", 0.3, "dealer")])
    second = tracker.update([Read(AS, QUAD, "corner", 0.9, "dealer")])
    assert first[0].card is None and second[0].card is AS and first[0].track == second[0].track
