"""Scoring reads against the cards drawn, and trial frames of a deck just enrolled."""

import numpy as np

from controller.cards import parse_cards
from vision.recognizer import Read
from vision.synthetic import Scene, TruthCard
from vision.trial import BLIND_SHARE, MATCH_PX, WEAK_SHARE, Tally, run_trial, score, table_frames, witnessed_under


def _square(x: float, y: float) -> np.ndarray:
    return np.array([[x, y], [x + 60, y], [x + 60, y + 90], [x, y + 90]], float)


def test_each_drawn_card_is_paired_with_the_nearest_report_and_counted_once() -> None:
    six, eight, ace, king, queen, two = parse_cards("6H 8H AS KD QC 2C")
    scene = Scene(np.zeros((10, 10, 3), np.uint8), (
        TruthCard(six, _square(0, 0), "full"),
        TruthCard(eight, _square(300, 0), "corner"),
        TruthCard(ace, _square(600, 0), "corner"),
        TruthCard(king, _square(900, 0), "full"),
        TruthCard(queen, _square(1200, 0), "hidden"),
    ))
    reads = [
        Read(six, _square(5, 5), "full", 1.0),  # right, a few pixels off
        Read(six, _square(300, 0), "corner", 1.0),  # the eight read as the six
        Read(None, _square(600, 0), "corner", 0.9, guess=ace),  # unreadable, the right guess
        # the king is not reported: the nearest report is further than MATCH_PX
        Read(king, _square(900 + MATCH_PX + 1, 0), "full", 1.0),  # so this one lies where no card does
        Read(two, _square(1500, 0), "full", 1.0),  # a card read where none lies
    ]
    tally = Tally()
    score(scene, reads, tally, "here", 3)
    assert (tally.frames, tally.cards, tally.fanned, tally.hidden) == (1, 5, 3, 1)
    assert tally.full == [1, 2] and tally.corner == [0, 2]
    assert tally.unreadable == 1 and tally.guessed == [1, 1] and tally.missed == 1
    assert tally.wrong == 3
    assert tally.wrong_examples == ["8H (corner) read as 6H [here, frame 3]", "nothing read as KD [here, frame 3]",
                                    "nothing read as 2C [here, frame 3]"]
    # witnessed: read right, or unreadable with the right guess (as the table's witness counts); the queen lay hidden
    assert tally.by_card == {("here", six): [1, 1], ("here", eight): [0, 1], ("here", ace): [1, 1], ("here", king): [0, 1]}


def test_cards_witnessed_in_too_few_of_their_showings_are_named_least_witnessed_first() -> None:
    six, eight, ace, king = parse_cards("6H 8H AS KD")
    tally = Tally(by_card={
        ("a", six): [9, 10],  # 90%: not weak
        ("a", eight): [8, 10],  # weak
        ("b", eight): [1, 3],  # too few showings to judge
        ("a", ace): [2, 4],  # half: weak, not blind
        ("b", king): [1, 4],  # blind
    })
    assert [str(s) for s in witnessed_under(tally, WEAK_SHARE)] == ["KD 1/4", "AS 2/4", "8H 8/10"]
    blind = witnessed_under(tally, BLIND_SHARE)
    assert [(s.deck, s.card, s.witnessed, s.shown) for s in blind] == [("b", king, 1, 4)]


def test_trial_frames_repeat_for_a_seed_and_hold_no_more_cards_than_the_deck(faces) -> None:
    few = {card: faces[card] for card in parse_cards("AS KD 7C 9H 2D QS JK TC")}
    first = [scene.truth for scene, _ in table_frames(few, 3, seed=5)]
    again = [scene.truth for scene, _ in table_frames(few, 3, seed=5)]
    assert [[t.card for t in truth] for truth in first] == [[t.card for t in truth] for truth in again]
    assert all(1 <= len(truth) <= 8 for truth in first)


def test_a_deck_read_on_its_own_trial_frames(faces, deck) -> None:
    tally = run_trial(faces, deck, frames=4, seed=1)
    assert tally.frames == 4 and tally.wrong == 0
    assert tally.cards == tally.full[1] + tally.corner[1] + tally.hidden
    assert tally.full[0] + tally.corner[0] >= 0.6 * (tally.full[1] + tally.corner[1]) > 0


def test_a_deck_with_a_jumbo_index_is_read_on_its_own_trial_frames() -> None:
    """Its suit lies under the usual index region: enrolled in a taller one, it reads with no card named wrong,
    counted readable only where its whole jumbo index shows."""
    from tests.vision.drawn_deck import jumbo_face
    from vision.geometry import INDEX_REGIONS
    from vision.templates import enrol_faces

    faces = {card: jumbo_face(card) for card in parse_cards("AS AC AH AD 6S 6C 6H 6D 9S 9C KH KD")}
    deck = enrol_faces("jumbo", faces)
    assert deck.index_region != INDEX_REGIONS[0]
    tally = run_trial(faces, deck, frames=4, seed=1)
    assert tally.frames == 4 and tally.wrong == 0
    assert tally.full[0] + tally.corner[0] >= 0.5 * (tally.full[1] + tally.corner[1]) > 0
