"""The strips beside a card's index, read at its outline in a frame: the suit shows there."""

import numpy as np

from controller.cards import parse_cards
from vision.detect import half_size
from vision.geometry import STRIPS
from vision.strip_reader import strip_distances
from vision.synthetic import Camera, SceneRenderer, fan


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
