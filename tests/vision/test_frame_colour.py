"""``vision.sources.colour_error``: a frame without colour is named, a colour frame or an empty one is not."""

import numpy as np

from vision.sources import colour_error


def test_a_grey_frame_is_named_and_a_coloured_or_featureless_one_is_not() -> None:
    rng = np.random.default_rng(3)
    grey = rng.integers(0, 256, (120, 160), dtype=np.uint8)
    assert "without colour" in (colour_error(grey) or "")
    assert "without colour" in (colour_error(np.dstack([grey, grey, grey])) or "")
    nearly = np.dstack([grey, grey, grey]).astype(np.int16) + rng.integers(-1, 2, (120, 160, 3))
    assert colour_error(np.clip(nearly, 0, 255).astype(np.uint8)) is not None  # a JPEG's rounding
    felt = np.dstack([grey, grey, grey]).copy()
    felt[60:80, 60:90] = (40, 120, 30)  # a patch of green cloth
    assert colour_error(felt) is None
    assert colour_error(np.zeros((120, 160, 3), np.uint8)) is None  # a covered lens shows nothing either way
