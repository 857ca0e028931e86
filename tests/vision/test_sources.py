"""Frame sources: a folder of images, a video file, a camera that is not there."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sources import CameraError, CameraSource, EndOfFrames, FolderSource, VideoFileSource, open_source, read_image, record


def _frames(n: int) -> list[np.ndarray]:
    return [np.full((48, 64, 3), 40 * i, np.uint8) for i in range(n)]


def test_a_folder_replays_its_images_in_name_order_then_ends(tmp_path: Path) -> None:
    for i, frame in enumerate(_frames(3)):
        cv2.imwrite(str(tmp_path / f"frame-{i}.png"), frame)
    (tmp_path / "notes.txt").write_text("not a frame")
    source = open_source(str(tmp_path))
    assert isinstance(source, FolderSource)
    assert [int(source.read()[0, 0, 0]) for _ in range(3)] == [0, 40, 80]
    with pytest.raises(EndOfFrames):
        source.read()


def test_a_video_file_is_replayed_frame_by_frame(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25, (64, 48))
    for frame in _frames(4):
        writer.write(frame)
    writer.release()
    source = VideoFileSource(path, realtime=False)
    shades = [int(source.read().mean()) for _ in range(4)]
    assert shades == sorted(shades) and shades[-1] > 100
    with pytest.raises(EndOfFrames):
        source.read()
    source.close()


def test_a_garbled_image_is_named_in_the_error(tmp_path: Path) -> None:
    bad = tmp_path / "frame.png"
    bad.write_bytes(b"\x89PNG not really")
    with pytest.raises(CameraError, match="frame.png"):
        read_image(bad)


def test_a_camera_that_is_not_there_is_named_in_the_error() -> None:
    with pytest.raises(CameraError, match="/dev/video-none"):
        CameraSource("/dev/video-none")


def test_a_recording_replays_frame_for_frame_and_stops_where_its_source_ends(tmp_path: Path) -> None:
    frames = list(_frames(3))
    source_folder = tmp_path / "in"
    source_folder.mkdir()
    for k, frame in enumerate(frames):
        cv2.imwrite(str(source_folder / f"f{k}.png"), frame)
    written = record(FolderSource(source_folder), tmp_path / "out", 5)
    assert [p.name for p in written] == ["000000.png", "000001.png", "000002.png"]
    replay = FolderSource(tmp_path / "out")
    assert all(np.array_equal(replay.read(), frame) for frame in frames)
    with pytest.raises(CameraError, match="already holds images"):
        record(FolderSource(source_folder), tmp_path / "out", 1)
