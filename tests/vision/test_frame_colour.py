"""``vision.sources``: a frame without colour is named, a colour frame or an empty one is not; a JPEG cut short is named."""

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


def test_a_jpeg_cut_short_is_named_and_a_whole_one_reads(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """OpenCV decodes a truncated JPEG with its lost rows grey and says so only on libjpeg's stderr: an outside
    lab's truncated frame read as no card with exit 0."""
    import cv2
    import pytest

    from vision.sources import CameraError, read_image

    rng = np.random.default_rng(5)
    frame = rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)
    whole = tmp_path / "whole.jpg"
    cv2.imwrite(str(whole), frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert read_image(whole).shape == frame.shape
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    with pytest.raises(CameraError, match="cut.jpg is cut short"):
        read_image(cut)
