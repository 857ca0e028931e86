"""Assembling the recognizer from a ``[vision]`` table: its settings and the threads it runs on."""

from __future__ import annotations

import cv2
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from controller.cards import JOKER, deck_by_name, shoe
from tests.vision.conftest import DECK
from vision.calibration import CalibrationError
from vision.setup import build_recognizer, settings_from


def test_a_recognizer_keeps_the_process_arithmetic_to_one_thread(deck):
    threadpool_limits(limits=2, user_api="blas")
    cv2.setNumThreads(2)
    build_recognizer({"deck": DECK})
    blas = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas and set(blas) == {1}
    assert cv2.getNumThreads() == 1


@pytest.mark.parametrize("vision, named", [({"min_confidence": "high"}, "min_confidence"),
                                           ({"min_confidence": 1.5}, "min_confidence"),
                                           ({"card_height_mm": True}, "card_height_mm")])
def test_a_broken_setting_is_named(vision, named):
    with pytest.raises(CalibrationError, match=named):
        settings_from(vision)


def test_the_recognizer_reads_only_the_cards_the_table_deals(deck):
    assert JOKER in build_recognizer({"deck": DECK}).deck.cards
    assert set(build_recognizer({"deck": DECK}, dealt=shoe(8)).deck.cards) == set(shoe(1))
    no_face = build_recognizer({"deck": DECK, "cards": "no-face"}, dealt=shoe(2, jokers_per_deck=1)).deck.cards
    assert set(no_face) == set(deck_by_name("no-face")) and len(no_face) == 40
