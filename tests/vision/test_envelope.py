"""The envelope generator: every condition drawn, the truth it keeps, and decks held apart."""

import dataclasses

import numpy as np
import pytest

from controller.cards import Card
from vision.envelope import envelope_frame
from vision.envelope.conditions import BLIND_FELTS, FELTS, draw_conditions
from vision.envelope.decks import BLIND_DECKS, TRAIN_DECKS, TUNE_DECKS
from vision.envelope.scoring import Reported, score_frame


def test_train_tune_and_blind_decks_share_no_deck() -> None:
    assert not set(TRAIN_DECKS) & set(TUNE_DECKS)
    assert not set(TRAIN_DECKS) & set(BLIND_DECKS)
    assert not set(TUNE_DECKS) & set(BLIND_DECKS)


def test_conditions_cover_the_issues_envelope() -> None:
    drawn = [draw_conditions(np.random.default_rng(k)) for k in range(400)]
    assert {c.felt for c in drawn} == set(FELTS)
    assert not {c.felt for c in drawn} & set(BLIND_FELTS)
    assert {c.layout for c in drawn} == {"lone", "blackjack", "poker", "paigow"}
    assert min(c.card_width_px for c in drawn) < 100 and max(c.card_width_px for c in drawn) > 180
    assert min(c.k1 for c in drawn) < -0.045 and max(c.k1 for c in drawn) > 0.045
    assert max(abs(c.zoom_error) for c in drawn) > 0.055
    assert any(abs((c.roll_deg % 360) - 180) < 5 for c in drawn)
    assert min(c.jpeg_quality for c in drawn) <= 57 and max(c.jpeg_quality for c in drawn) >= 90
    assert max(c.defocus_sigma for c in drawn) > 1.6 and any(c.motion_px > 0 for c in drawn)
    assert 0.55 < np.mean([c.glare_spots > 0 for c in drawn]) < 0.78
    assert any(c.capture_scale < 1 for c in drawn) and any(c.out_of_frame for c in drawn)
    assert {f for c in (draw_conditions(np.random.default_rng(k), blind=True) for k in range(200)) for f in [c.felt]} & set(BLIND_FELTS)


def test_a_frame_is_drawn_the_same_from_the_same_seed_with_its_truth(faces: dict[Card, np.ndarray]) -> None:
    one = envelope_frame(faces, np.random.default_rng([3, 1]), layout="blackjack")
    two = envelope_frame(faces, np.random.default_rng([3, 1]), layout="blackjack")
    assert np.array_equal(one.frame, two.frame) and one.frame.shape == (1080, 1920, 3)
    assert len(one.truth) >= 4 and {t.visible for t in one.truth} >= {"full", "corner"}
    assert any(t.overlapped for t in one.truth)
    assert len({t.card for t in one.truth}) == len(one.truth)
    for t in one.truth:
        width = np.linalg.norm(t.polygon[1] - t.polygon[0])
        assert 0.85 * one.conditions.card_width_px < width < 1.2 * one.conditions.card_width_px
    assert set(one.calibration) >= {"image_points", "table_points", "camera_matrix", "distortion"}


def test_a_card_shows_where_its_truth_puts_it_through_the_lens(faces: dict[Card, np.ndarray]) -> None:
    """The truth outline goes through the same lens the frame was drawn through: the centre of a card
    lying alone on a black felt is card-white, a little outside its outline is felt."""
    rng = np.random.default_rng(5)
    conditions = dataclasses.replace(draw_conditions(rng, layout="lone"), felt="black", felt_bgr=(20.0, 20.0, 20.0),
                                     k1=-0.05, printed_lines=False, logo=False, glare_spots=0, out_of_frame=False)
    scene = envelope_frame(faces, rng, conditions=conditions)
    for t in scene.truth:
        if t.visible != "full":
            continue
        centre = t.polygon.mean(axis=0)
        out = t.polygon[0] + 1.12 * (t.polygon[0] - centre)
        x, y = np.round(out).astype(int)
        if 0 <= x < 1920 and 0 <= y < 1080:
            assert scene.frame[y, x].max() < 90


def test_scoring_tells_right_wrong_unreadable_missed_and_invented(faces: dict[Card, np.ndarray]) -> None:
    scene = envelope_frame(faces, np.random.default_rng(8), layout="lone")
    readable = [t for t in scene.truth if t.readable]
    assert len(readable) >= 3
    other = next(c for c in faces if c not in {t.card for t in scene.truth})
    reports = [Reported(readable[0].card, readable[0].polygon), Reported(other, readable[1].polygon),
               Reported(None, readable[2].polygon), Reported(other, readable[0].polygon + [900, 900])]
    outcomes, _, invented = score_frame(scene.truth, reports)
    results = {o.truth.card: o.result for o in outcomes}
    assert results[readable[0].card] == "right" and results[readable[1].card] == "wrong"
    assert results[readable[2].card] == "unreadable"
    assert all(results[t.card] == "missed" for t in readable[3:])
    assert invented == 1


@pytest.mark.parametrize("layout", ["poker", "paigow"])
def test_tight_fans_and_piles_leave_some_cards_with_no_index_to_read(faces: dict[Card, np.ndarray], layout: str) -> None:
    seen = [t.visible for k in range(4) for t in envelope_frame(faces, np.random.default_rng([k, 9]), layout=layout).truth]
    assert "corner" in seen and (layout == "poker" or "hidden" in seen)


def test_a_jumbo_index_is_drawn_larger_and_a_card_is_readable_only_where_it_shows(faces: dict[Card, np.ndarray]) -> None:
    from vision.envelope import INDEX_BOX, region_box
    from vision.envelope.jumbo import JUMBO_SCALE, jumbo_box, jumbo_faces
    from vision.geometry import INDEX_REGIONS

    six = Card.parse("6S")
    jumbo = jumbo_faces({six: faces[six], Card.parse("JK"): faces[Card.parse("JK")]})
    assert jumbo[Card.parse("JK")] is faces[Card.parse("JK")]  # a joker's corner is its artwork's

    def ink_rows(face: np.ndarray) -> np.ndarray:
        h, w = face.shape[:2]
        corner = face[: h // 2, int(0.04 * w): int(0.18 * w), :3].min(axis=2)
        return np.flatnonzero((corner < 100).any(axis=1))

    ordinary, grown = ink_rows(faces[six]), ink_rows(jumbo[six])
    assert grown.max() - grown.min() > 1.4 * (ordinary.max() - ordinary.min())
    (x0, x1), (y0, y1) = jumbo_box(INDEX_BOX)
    assert (x0, y0) == (INDEX_BOX[0][0], INDEX_BOX[1][0]) and x1 > INDEX_BOX[0][1] and y1 > INDEX_BOX[1][1]
    assert round((y1 - 0.03) / (INDEX_BOX[1][1] - 0.03), 6) == JUMBO_SCALE
    assert region_box(INDEX_REGIONS[0]) == INDEX_BOX
    rng = np.random.default_rng(3)
    conditions = draw_conditions(rng, layout="poker")
    drawn = {box: envelope_frame(faces, np.random.default_rng(3), conditions=conditions, index_box=box)
             for box in (INDEX_BOX, jumbo_box(INDEX_BOX))}
    usual, larger = (sum(t.readable for t in drawn[box].truth) for box in drawn)
    assert larger < usual  # a tight fan covers more of a jumbo index
