"""Index patches read against the deck, their pose fitted first: a patch found pixels off is slid back."""

import numpy as np

from controller.cards import parse_cards
from vision.detect import half_size
from vision.recognizer import Recognizer
from vision.synthetic import Camera, Placement, SceneRenderer
from vision.templates import INDEX_SIZE, features


def test_an_index_patch_found_pixels_off_is_slid_back_onto_its_card(faces, deck) -> None:
    """The outline's corner can be a few pixels off; sliding the patch against the nearest cards' looks fixes it."""
    from vision.geometry import patch_homographies

    card = parse_cards("QS")[0]
    camera = Camera.overhead(keystone=0.0)
    scene = SceneRenderer(faces, camera).render([Placement(card, (500.0, 300.0), 8.0)], np.random.default_rng(5), clean=True)
    reader = Recognizer(deck, camera.layout()).reader
    off = scene.truth[0].polygon + np.array([3.5, -3.0])
    homography = patch_homographies(off[None], INDEX_SIZE)
    image = scene.frame
    before = deck.index_distances(reader._features_at(image, homography))[0]
    slid, patches = reader._slid(image, homography, before[None], 3)
    after = deck.index_distances(reader._features_at(image, slid))
    assert deck.cards[int(deck.index_distances(features(patches)).min(axis=0).argmin())] is card
    best = after[int(after.min(axis=1).argmin())]
    assert deck.cards[int(best.argmin())] is card
    assert best.min() < reader.anchor_distance < before.min()


def test_patches_cut_from_a_grown_patch_at_sub_pixel_shifts_match_patches_warped_from_the_frame(faces) -> None:
    from vision.geometry import patch_homographies, warp_patches
    from vision.index_reader import SLIDE, _shifted

    camera = Camera.overhead(keystone=0.0)
    scene = SceneRenderer(faces, camera).render([Placement(parse_cards("7H")[0], (500.0, 300.0), 20.0)], np.random.default_rng(2))
    homography = patch_homographies(scene.truth[0].polygon[None], INDEX_SIZE)
    w, h = INDEX_SIZE
    grown = homography @ np.array([[1.0, 0.0, -SLIDE], [0.0, 1.0, -SLIDE], [0.0, 0.0, 1.0]])
    around = warp_patches(scene.frame, grown, (w + 2 * SLIDE, h + 2 * SLIDE))
    shifts = np.array([[[0.0, 0.0], [2.25, -1.5], [-4.0, 3.75]]])
    cut = _shifted(around, shifts)
    for patch, (dx, dy) in zip(cut, shifts[0]):
        direct = warp_patches(scene.frame, homography @ np.array([[1.0, 0, dx], [0, 1.0, dy], [0, 0, 1.0]]), INDEX_SIZE)[0]
        assert np.abs(patch.astype(int) - direct).mean() < 3.0


def test_a_correlation_peak_is_found_to_a_fraction_of_a_pixel() -> None:
    from vision.index_reader import _peaks
    scores = np.zeros((2, 5, 5), np.float32)
    scores[0, 2, 3], scores[0, 2, 2], scores[0, 2, 4] = 1.0, 0.5, 0.9
    scores[1, 0, 4] = 1.0  # on the border: no neighbour to fit, the whole pixel is kept
    (x, y), edge = _peaks(scores)
    assert 3.0 < x < 3.5 and y == 2.0
    assert edge.tolist() == [4.0, 0.0]


def test_each_look_is_read_at_its_one_best_pose() -> None:
    """Not each card at the pose that suits it: poses that fit no card well would bring the runner-up
    closer and hide the evidence the best pose gives."""
    from vision.index_reader import _best_of_looks
    nearest = np.array([9.0, 6.0, 3.0, 30.0, 12.0])
    assert _best_of_looks(nearest, np.array([1, 1, 0, 2, 0])).tolist() == [2, 1, 3]


def test_outlines_from_one_corner_give_one_row_naming_the_card(faces, deck) -> None:
    card = parse_cards("7H")[0]
    camera = Camera.overhead(keystone=0.0)
    scene = SceneRenderer(faces, camera).render([Placement(card, (500.0, 300.0), 12.0)], np.random.default_rng(3))
    recognizer = Recognizer(deck, camera.layout())
    truth = scene.truth[0].polygon
    quads = np.stack([truth + (4.0, -3.0), truth, np.roll(truth, -2, axis=0)])
    width = float(np.linalg.norm(truth[1] - truth[0]))
    distances, _, poses, fitted = recognizer.reader.distances(scene.frame, half_size(scene.frame), quads, np.array([0, 0, 1]), width)
    assert distances.shape == (2, len(deck.cards)) and poses[1] == 2 and poses[0] in (0, 1)
    assert [deck.cards[int(i)] for i in distances.argmin(axis=1)] == [card, card]
    assert distances.min(axis=1).max() < recognizer.reader.anchor_distance
    assert fitted.shape == (2, 4, 2)


def test_a_looks_outline_is_given_at_the_pose_its_index_was_fitted_to(faces, deck) -> None:
    """An outline found 4 px right and 3 px up of the card (5 px off) is slid onto the card's index: the
    outline the fitted pose gives lies within 2 px of the truth (the strip that needs the pose, the suit
    symbol's, is read there), in frame pixels also when the patches come from the half-size frame (as
    they do for cards over 150 px wide)."""
    card = parse_cards("7H")[0]
    camera = Camera.overhead(keystone=0.0)
    scene = SceneRenderer(faces, camera).render([Placement(card, (500.0, 300.0), 12.0)], np.random.default_rng(3))
    recognizer = Recognizer(deck, camera.layout())
    truth = scene.truth[0].polygon
    width = float(np.linalg.norm(truth[1] - truth[0]))
    assert width < 150
    for width_px in (width, 200.0):
        *_, fitted = recognizer.reader.distances(scene.frame, half_size(scene.frame), (truth + (4.0, -3.0))[None], np.array([0]), width_px)
        assert np.linalg.norm(fitted[0] - truth, axis=1).max() < 2.0


def test_a_pose_much_nearer_a_part_of_a_face_than_any_index_is_not_fitted(faces, deck) -> None:
    """A card's corner that holds no index (a pip) is much nearer to that part of its face than to any
    card: sliding it against the cards' indexes would cost time and never read a card."""
    from vision.geometry import patch_homographies
    from vision.index_reader import FACE_MARGIN

    card = parse_cards("9D")[0]
    camera = Camera.overhead(keystone=0.0)
    scene = SceneRenderer(faces, camera).render([Placement(card, (500.0, 300.0), 0.0)], np.random.default_rng(4), clean=True)
    recognizer = Recognizer(deck, camera.layout())
    truth = scene.truth[0].polygon
    width = float(np.linalg.norm(truth[1] - truth[0]))
    height = float(np.linalg.norm(truth[3] - truth[0]))
    down, left = (truth[2] - truth[1]) / height, (truth[0] - truth[1]) / width
    other_corner = truth[1] + np.array([[0.0, 0.0], [width, 0.0], [width, height], [0.0, height]]) @ np.stack([down, left])
    quads = np.stack([truth + (3.5, -3.0), other_corner])
    vectors = recognizer.reader._features_at(scene.frame, patch_homographies(quads, INDEX_SIZE))
    distances, background = deck.index_and_background_distances(vectors)
    nearest = distances.min(axis=1)
    assert nearest[0] > recognizer.reader.refine_above and FACE_MARGIN * background[1] < nearest[1]
    slid: list[int] = []
    original = recognizer.reader._slid

    def counted(image: np.ndarray, homographies: np.ndarray, distances: np.ndarray, cards: int) -> tuple[np.ndarray, np.ndarray]:
        slid.append(len(homographies))
        return original(image, homographies, distances, cards)

    recognizer.reader._slid = counted
    distances, *_ = recognizer.reader.distances(scene.frame, half_size(scene.frame), quads, np.array([0, 1]), width)
    assert slid[0] == 1
    assert deck.cards[int(distances[0].argmin())] is card


def test_a_close_look_that_does_not_alone_tell_its_card_from_the_next_is_fitted_further(deck) -> None:
    """A look at 5 from a card and 9 from its suit twin gives evidence (81 - 25) / 2 = 28, short of the
    36.8 a read needs at confidence 0.99: it is slid against the looks of both. At 20 from the twin
    it names its card alone, and is left as it is."""
    from vision.recognizer import evidence_needed

    reader = Recognizer(deck).reader
    assert reader.decisive_gap == 2 * evidence_needed(0.99)
    distances = np.array([[5.0, 9.0, 30.0], [5.0, 20.0, 30.0], [9.0, 5.0, np.inf]])
    assert reader._undecided(distances).tolist() == [True, False, True]
    assert reader._undecided(distances[:, :1]).tolist() == [False, False, False]
