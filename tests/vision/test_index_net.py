"""The index net: its numpy forward pass, what the shipped weights read, and how its training labels examples."""

from __future__ import annotations

import numpy as np
import pytest

from controller.cards import parse_cards
from vision.index_net import (
    CLASSES,
    NET_SIZE,
    NOT_AN_INDEX,
    IndexNet,
    _conv_relu_pool,
    net_patches,
    shipped_net,
)
from vision.index_net_training import CLEAR, COVERED, corner_coverage, label_outlines
from vision.synthetic import Camera, Placement, SceneRenderer


def _plain_conv_relu_pool(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """The same layer written out loop by loop, as torch defines it (channels last here)."""
    n, h, w, _ = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((n, h, w, len(weight)))
    for y in range(h):
        for z in range(w):
            window = padded[:, y : y + 3, z : z + 3, :]
            out[:, y, z] = np.einsum("nijc,ocij->no", window, weight) + bias
    out = np.maximum(out, 0.0)[:, : h // 2 * 2, : w // 2 * 2]
    return out.reshape(n, h // 2, 2, w // 2, 2, len(weight)).max(axis=(2, 4))


def test_the_convolution_layer_is_torchs_conv_relu_and_pool_even_on_an_odd_width() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 6, 7, 3)).astype(np.float32)
    weight, bias = rng.normal(size=(4, 3, 3, 3)).astype(np.float32), rng.normal(size=4).astype(np.float32)
    assert np.allclose(_conv_relu_pool(x, weight, bias), _plain_conv_relu_pool(x, weight, bias), atol=1e-5)


def test_the_net_reads_its_own_weights_file_and_gives_a_probability_per_class(tmp_path) -> None:
    rng = np.random.default_rng(1)
    shapes = {"conv0": (16, 3, 3, 3), "conv1": (32, 16, 3, 3), "conv2": (64, 32, 3, 3),
              "fc0": (128, 64 * (NET_SIZE[1] // 8) * (NET_SIZE[0] // 8)), "fc1": (NOT_AN_INDEX + 1, 128)}
    layers = {f"{name}.weight": rng.normal(0, 0.1, shape).astype(np.float32) for name, shape in shapes.items()}
    layers |= {f"{name}.bias": np.zeros(shape[0], np.float32) for name, shape in shapes.items()}
    np.savez(tmp_path / "net.npz", **layers)
    patches = rng.integers(0, 255, (3, NET_SIZE[1], NET_SIZE[0], 3), dtype=np.uint8)
    probabilities = IndexNet.load(tmp_path / "net.npz").probabilities(patches)
    assert probabilities.shape == (3, len(CLASSES) + 1)
    assert np.allclose(probabilities.sum(axis=1), 1.0)


def test_a_weights_file_that_is_missing_or_lacks_a_layer_is_refused_by_name(tmp_path) -> None:
    np.savez(tmp_path / "half.npz", **{"conv0.weight": np.zeros((16, 3, 3, 3), np.float32)})
    with pytest.raises(ValueError, match=r"half\.npz: not index net weights .*lack conv0\.bias"):
        IndexNet.load(tmp_path / "half.npz")
    with pytest.raises(ValueError, match="gone.npz: not index net weights"):
        IndexNet.load(tmp_path / "gone.npz")


@pytest.fixture(scope="module")
def lone_cards(faces):
    camera = Camera.overhead()
    cards = parse_cards("AS 6H 8H 9C TD QS 2C JK")
    placements = [Placement(card, (120.0 + 120.0 * (k % 4), 150.0 + 250.0 * (k // 4)), 15.0 * k) for k, card in enumerate(cards)]
    return SceneRenderer(faces, camera).render(placements, np.random.default_rng(3))


def test_the_shipped_net_names_both_index_corners_of_every_card_of_a_deck_it_was_trained_on(lone_cards) -> None:
    outlines = np.array([np.roll(t.polygon, -corner, axis=0) for t in lone_cards.truth for corner in (0, 2)])
    probabilities = shipped_net().probabilities(net_patches(lone_cards.frame, outlines))
    named = [CLASSES[k] if k < NOT_AN_INDEX else None for k in probabilities.argmax(axis=1)]
    assert named == [t.card for t in lone_cards.truth for _ in (0, 2)]
    assert probabilities.max(axis=1).min() > 0.9


def test_the_shipped_net_finds_no_index_in_the_middle_of_a_face_or_on_the_cloth(lone_cards) -> None:
    middle = np.array([t.polygon - t.polygon[0] + t.polygon.mean(axis=0) for t in lone_cards.truth])
    cloth = middle + np.array([800.0, 0.0])
    probabilities = shipped_net().probabilities(net_patches(lone_cards.frame, np.concatenate([middle, cloth])))
    assert (probabilities.argmax(axis=1) == NOT_AN_INDEX).all()


def test_training_labels_a_clear_index_corner_by_its_card_and_a_covered_one_as_no_index() -> None:
    below = np.array([[0.0, 0.0], [63.0, 0.0], [63.0, 88.0], [0.0, 88.0]])
    above = below + np.array([20.0, 30.0])
    truth = [below, above]
    coverage = {(i, c): corner_coverage(truth, i, c) for i in range(2) for c in (0, 2)}
    assert coverage[(0, 0)] < CLEAR and coverage[(0, 2)] > COVERED and coverage[(1, 0)] == coverage[(1, 2)] == 0.0
    outlines = np.array([below, np.roll(below, -2, axis=0), np.roll(above, -2, axis=0), below + np.array([30.0, 40.0])])
    assert label_outlines(outlines, truth, [7, 12], coverage, 63.0).tolist() == [7, NOT_AN_INDEX, 12, NOT_AN_INDEX]


def test_training_drops_an_index_corner_only_partly_covered() -> None:
    below = np.array([[0.0, 0.0], [63.0, 0.0], [63.0, 88.0], [0.0, 88.0]])
    edge = below + np.array([61.0, 20.0])
    coverage = {(i, c): corner_coverage([below, edge], i, c) for i in range(2) for c in (0, 2)}
    assert CLEAR <= coverage[(0, 2)] <= COVERED
    assert label_outlines(np.roll(below, -2, axis=0)[None], [below, edge], [3, 4], coverage, 63.0).tolist() == [-1]


def _unread(truth, guess: str, gainsaid: bool = False):
    from vision.recognizer import Read, _Found

    (card,) = parse_cards(guess)
    return _Found(Read(None, truth.polygon, "full", 0.9, guess=card), 9.0, truth.polygon[None] if gainsaid else truth.polygon[:0], gainsaid)


def test_a_guess_the_net_names_too_is_read_and_one_it_does_not_stays_unreadable(lone_cards, deck) -> None:
    """An unreadable read whose looks all point to one card: read when the net names that card at its outline."""
    from vision.recognizer import Recognizer

    recognizer = Recognizer(deck, Camera.overhead().layout())
    six = next(t for t in lone_cards.truth if t.card.code == "6H")
    right, wrong = recognizer._confirmed(lone_cards.frame, [_unread(six, "6H"), _unread(six, "8H")])
    assert right.read.card == six.card and right.read.confidence > 0.99 and right.read.guess is None
    assert wrong.read.card is None and wrong.read.guess.code == "8H"


def test_the_net_never_reads_a_joker_nor_a_card_the_strips_gainsaid(lone_cards, deck) -> None:
    """A joker's corner is a picture of its own in every brand, and a read the pips beside the index gainsay
    rests on more than the index: the net, which sees only the index, speaks to neither."""
    from vision.recognizer import Recognizer

    recognizer = Recognizer(deck, Camera.overhead().layout())
    joker = next(t for t in lone_cards.truth if t.card.code == "JK")
    six = next(t for t in lone_cards.truth if t.card.code == "6H")
    for found in recognizer._confirmed(lone_cards.frame, [_unread(joker, "JK"), _unread(six, "6H", gainsaid=True)]):
        assert found.read.card is None


@pytest.fixture(scope="module")
def one_frame_of_examples(faces):
    from vision.index_net_training import deck_examples

    return deck_examples("aisleriot-anglo", frames=1, seed=7)


def test_training_examples_are_index_regions_of_the_cards_shown_and_of_places_with_no_index(one_frame_of_examples) -> None:
    regions, labels = one_frame_of_examples
    assert regions.shape == (len(labels), NET_SIZE[1], NET_SIZE[0], 3) and regions.dtype == np.uint8
    assert ((labels >= 0) & (labels <= NOT_AN_INDEX)).all()
    assert (labels == NOT_AN_INDEX).sum() >= 6 and len(set(labels[labels < NOT_AN_INDEX].tolist())) >= 6


def test_training_gives_weights_the_table_runs_with_numpy(one_frame_of_examples) -> None:
    pytest.importorskip("torch", reason="training the index net needs PyTorch (pip install -e '.[train]')")
    from vision.index_net_training import train

    regions, labels = one_frame_of_examples
    net = IndexNet(train(regions, labels, epochs=1))
    assert net.probabilities(regions[:5]).shape == (5, NOT_AN_INDEX + 1)


def test_looks_all_past_a_close_match_keep_the_card_they_point_to_for_the_net_alone(deck) -> None:
    """A candidate whose one look lies 18 from the six of hearts (past 16, within 22), every other card 30:
    unreadable without a guess, as before the net; the six is kept aside for the net."""
    from vision.recognizer import Recognizer

    codes = [c.code for c in deck.cards]
    looks = np.full((1, len(codes)), 30.0)
    looks[0, codes.index("6H")] = 18.0
    outline = np.array([[[100.0, 100.0], [200.0, 100.0], [200.0, 240.0], [100.0, 240.0]]])
    (found,) = Recognizer(deck)._reads(False, looks, outline)
    assert found.read.card is None and found.read.guess is None and found.far_guess.code == "6H"


def test_a_far_look_is_read_when_the_net_names_the_card_it_points_to_and_else_stays_unreadable(lone_cards, deck) -> None:
    from vision.recognizer import Read, Recognizer, _Found

    recognizer = Recognizer(deck, Camera.overhead().layout())
    six = next(t for t in lone_cards.truth if t.card.code == "6H")
    far = [_Found(Read(None, six.polygon, "corner", 0.0), 18.0, six.polygon[:0], far_guess=card) for card in parse_cards("6H 8H")]
    right, wrong = recognizer._confirmed(lone_cards.frame, far)
    assert right.read.card == six.card and right.read.confidence >= 0.995
    assert wrong.read.card is None and wrong.read.guess is None


def test_a_candidate_with_every_look_past_the_deck_s_reach_is_read_only_where_the_net_names_its_nearest_card(
        lone_cards, deck) -> None:
    """A candidate whose looks all lie beyond ``evidence_distance`` (35 from the six of hearts, the deck's
    nearest card to it, every other card 50): read as the six when the net names the six at the look's outline;
    not read when the deck's nearest card is the eight, which the net does not name; and not read when
    its looks are confirmed as two different cards."""
    from vision.recognizer import Recognizer

    recognizer = Recognizer(deck, Camera.overhead().layout())
    codes = [c.code for c in deck.cards]
    six = next(t for t in lone_cards.truth if t.card.code == "6H")
    other = next(t for t in lone_cards.truth if t.card.code not in ("6H", "8H", "JK"))
    outlines = np.array([six.polygon, six.polygon, other.polygon])
    distances = np.full((3, len(codes)), 50.0)
    distances[0, codes.index("6H")] = 35.0
    distances[1, codes.index("8H")] = 35.0
    distances[2, codes.index(other.card.code)] = 35.0
    (read,) = recognizer._net_reads(lone_cards.frame, [(True, np.array([0]))], distances, outlines)
    assert read.read.card == six.card and read.read.confidence >= 0.995 and read.read.visible == "full"
    assert recognizer._net_reads(lone_cards.frame, [(True, np.array([1]))], distances, outlines) == []
    assert recognizer._net_reads(lone_cards.frame, [(True, np.array([0, 2]))], distances, outlines) == []

