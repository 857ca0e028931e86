"""The overhead camera: frame sources, card recognizer, calibration, tracking and the shoe cross-check.

Imports nothing from ``controller`` but the card vocabulary (``controller.cards``).
See ``docs/vision.md``.
"""
