"""The strips beside a card's index, read at its outline in a frame: the suit shows there."""

import numpy as np

from controller.cards import parse_cards
from vision.detect import half_size
from vision.geometry import STRIPS
from vision.strip_reader import strip_distances
from vision.synthetic import Camera, Placement, SceneRenderer, fan


def _lone(faces, deck, code: str) -> tuple[np.ndarray, np.ndarray, float]:
    """One card lying alone, seen from straight above: the frame, the card's outline (1, 4, 2), and a
    card's width in pixels."""
    camera = Camera.overhead(keystone=0.0)
    scene = SceneRenderer(faces, camera).render([Placement(parse_cards(code)[0], (500.0, 300.0), 12.0)], np.random.default_rng(6))
    return scene.frame, scene.truth[0].polygon[None], deck.aspect * 88.0 * camera.layout().px_per_mm((960.0, 540.0))


def test_the_strips_of_a_fanned_card_show_its_suit_and_not_its_twins(faces, deck) -> None:
    camera = Camera.overhead()
    scene = SceneRenderer(faces, camera).render(fan(parse_cards("6S 9H KD"), (400.0, 220.0), 15.0), np.random.default_rng(5))
    width = deck.aspect * 88.0 * camera.layout().px_per_mm((960.0, 540.0))
    lower = [t for t in scene.truth if t.card.code in ("6S", "9H")]
    distances = strip_distances(deck, scene.frame, half_size(scene.frame), np.stack([t.polygon for t in lower]), width)
    assert distances.shape == (2, len(STRIPS), len(deck.cards))
    codes = [card.code for card in deck.cards]
    for truth, rows in zip(lower, distances):
        twin = truth.card.code[0] + {"S": "C", "H": "D"}[truth.card.code[1]]
        top = rows[0]
        assert deck.cards[int(top.argmin())].suit == truth.card.suit and top.min() <= 16.0
        assert (top[codes.index(twin)] ** 2 - top[codes.index(truth.card.code)] ** 2) / 2 > 36.8


def test_a_deck_enrolled_without_strips_has_none_to_read(deck) -> None:
    import dataclasses

    bare = dataclasses.replace(deck, strips=())
    frame = np.zeros((100, 100, 3), np.uint8)
    quad = np.array([[[10.0, 10.0], [60.0, 10.0], [60.0, 80.0], [10.0, 80.0]]])
    assert strip_distances(bare, frame, half_size(frame), quad, 50.0).shape == (1, 0, len(deck.cards))


def test_the_suit_strip_tells_an_aces_suit_from_its_twins_and_no_rank_from_another(faces, deck) -> None:
    """An ace's corner has no pips beside it: its suit symbol under the "A", read finer than the index
    patch reads it, is what tells the ace of spades from the ace of clubs. That strip speaks to the suit
    only: every spade is as near as the ace, and a card without a suit (the joker) is never near (under
    its index lies blank card or picture, like much of any face)."""
    suit = next(k for k, strip in enumerate(STRIPS) if strip.suit)
    codes = [card.code for card in deck.cards]
    for code, twin in (("AS", "AC"), ("AC", "AS"), ("AH", "AD"), ("AD", "AH")):
        frame, quad, width = _lone(faces, deck, code)
        rows = strip_distances(deck, frame, half_size(frame), quad, width)[0]
        same = [i for i, card in enumerate(deck.cards) if card.suit == parse_cards(code)[0].suit]
        assert np.all(rows[suit, same] == rows[suit, codes.index(code)])
        # On this clean lone ace, heard within a pixel of the outline: 32 (AC) to 226 (AD); a perfect
        # look at the index patch gives at most about 37 against the twin.
        assert (rows[suit, codes.index(twin)] ** 2 - rows[suit, codes.index(code)] ** 2) / 2 > 25.0
        assert np.isinf(rows[suit, codes.index("JK")]) and np.isfinite(rows[suit]).any()  # no suit: never near


def test_the_suit_strip_is_read_at_the_pose_the_index_was_fitted_to_and_the_others_at_the_outline(faces, deck) -> None:
    """The strips in the index (suit and rank) at ``fitted`` (the suit strip within ``SUIT_POSE_SLACK`` of
    it), the others at the outline."""
    frame, truth, width = _lone(faces, deck, "AS")
    off = truth + (4.0, -3.0)
    small = half_size(frame)
    at_truth, at_off = (strip_distances(deck, frame, small, quads, width) for quads in (truth, off))
    fitted = strip_distances(deck, frame, small, off, width, fitted=truth)
    for k, strip in enumerate(STRIPS):
        assert np.array_equal(fitted[:, k], (at_truth if strip.in_index else at_off)[:, k]), strip.name
    assert not np.array_equal(at_truth, at_off)


def test_the_suit_strip_says_only_what_it_says_within_a_pixel_of_the_pose(faces, deck, monkeypatch) -> None:
    """Each suit's distance is its largest over the pose and the pose moved ``SUIT_POSE_SLACK`` along
    each axis: never nearer than at the pose alone."""
    import vision.strip_reader as strip_reader_module

    frame, quad, width = _lone(faces, deck, "AC")
    suit = next(k for k, strip in enumerate(STRIPS) if strip.suit)
    slack = strip_distances(deck, frame, half_size(frame), quad, width)[0, suit]
    monkeypatch.setattr(strip_reader_module, "SUIT_POSE_SLACK", 0.0)
    at_pose = strip_distances(deck, frame, half_size(frame), quad, width)[0, suit]
    moved = [strip_distances(deck, frame, half_size(frame), quad + move, width)[0, suit]
             for move in ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0))]
    # Equal to float32 rounding: the slack's five poses go through the strip model in one batch, the others one by
    # one, and a BLAS product need not round a batch's rows as it rounds them alone.
    np.testing.assert_allclose(slack, np.max([at_pose, *moved], axis=0), rtol=1e-5)
    assert (slack[np.isfinite(slack)] > at_pose[np.isfinite(at_pose)]).any()


def test_the_rank_strip_tells_a_six_from_an_eight_and_no_suit_from_another(faces, deck) -> None:
    """The index's upper half, where the rank lies, read finer than the index patch reads it (the rank
    strip), tells ranks whose index differs by a few pixels: a six from an eight. It speaks to the rank
    only: every card of the rank is as near, and a joker (no rank under its corner) is never near."""
    rank = next(k for k, strip in enumerate(STRIPS) if strip.rank)
    codes = [card.code for card in deck.cards]
    for code, other in (("6S", "8S"), ("8S", "6S"), ("8D", "6D"), ("3C", "8C")):
        card = parse_cards(code)[0]
        frame, quad, width = _lone(faces, deck, code)
        rows = strip_distances(deck, frame, half_size(frame), quad, width)[0]
        same = [i for i, c in enumerate(deck.cards) if c.rank == card.rank]
        assert len(same) == 4 and np.all(rows[rank, same] == rows[rank, codes.index(code)])
        # On these clean lone cards: 109 (8D against 6D) to 236 (3C against 8C).
        assert (rows[rank, codes.index(other)] ** 2 - rows[rank, codes.index(code)] ** 2) / 2 > 60.0
        assert np.isinf(rows[rank, codes.index("JK")])


def test_the_centre_of_a_face_is_read_only_for_a_card_lying_alone_and_tells_a_six_from_an_eight(faces, deck) -> None:
    """The middle column of pips, which no strip beside the index sees, is all that tells a six from an eight
    beyond their index; the centre pip is what tells an ace of clubs from the ace of spades. On a card lying
    alone it shows; on a card in a fan other cards cover it, so it is read only where asked (``lone``)."""
    centre = next(k for k, strip in enumerate(STRIPS) if strip.lone)
    codes = [card.code for card in deck.cards]
    for code, other in (("6S", "8S"), ("8S", "6S"), ("6D", "8D"), ("AC", "AS")):
        frame, quad, width = _lone(faces, deck, code)
        small = half_size(frame)
        rows = strip_distances(deck, frame, small, quad, width, lone=np.array([True]))[0]
        assert codes[int(rows[centre].argmin())] == code
        # On these clean lone cards: 1357 (AC against AS) to 5151 (6D against 8D).
        assert (rows[centre, codes.index(other)] ** 2 - rows[centre, codes.index(code)] ** 2) / 2 > 500.0
        assert np.isinf(strip_distances(deck, frame, small, quad, width)[0, centre]).all()
