"""Which decks the envelope's work may learn from, tune on, and never look at.

* ``TRAIN_DECKS``: what a learned part (the index net) is trained on;
* ``TUNE_DECKS``: what ``benchmarks/vision.py --part tune`` reads, the figures every change is judged by;
* ``BLIND_DECKS``: what ``--part blind`` reads, rarely, under the blind conditions too
  (``vision.envelope.conditions.BLIND_FELTS``): no rule, threshold or training sample comes from them.
  Three were the old generator's held-out brands (never tuned on, by its own record); three no
  session has looked at (``vision.artwork.NEVER_SEEN_DECKS``), two of them four-colour decks.

The three sets share no deck (``tests/vision/test_envelope.py`` holds them apart).
"""

from __future__ import annotations

from vision.artwork import HELD_OUT_DECKS, KDE_DECKS, MORE_DECKS, NEVER_SEEN_DECKS, SEEN_DECKS, TUNING_DECKS

__all__ = ["BLIND_DECKS", "TRAIN_DECKS", "TUNE_DECKS"]

#: Decks enrolment refuses (their index corners do not tell their cards apart): never read.
_REFUSED = ("kde-oxygen", "kde-oxygen-air", "kde-oxygen-white")

TUNE_DECKS: tuple[str, ...] = (
    "aisleriot-anglo", "aisleriot-paris", "aisleriot-ornamental", "aisleriot-simplistic", "aisleriot-guyenne-classic",
    "aisleriot-lattmann", "aisleriot-berlin", "kde-standard", "kde-penguins", "kde-jolly-royal",
)
TRAIN_DECKS: tuple[str, ...] = tuple(d for d in (*SEEN_DECKS, *TUNING_DECKS, *MORE_DECKS, *KDE_DECKS)
                                     if d not in _REFUSED and d not in TUNE_DECKS)
BLIND_DECKS: tuple[str, ...] = (*HELD_OUT_DECKS, *NEVER_SEEN_DECKS)
