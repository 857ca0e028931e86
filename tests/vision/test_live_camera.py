"""The camera witness on a live source (``[vision] source``): here a folder of frames filmed beforehand.

The frames are drawn by the simulated table's ``SceneSource`` and written to disk; the witness
reads them through ``vision.sources`` as it would a camera's, one per look, in order.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import pytest

from controller.cards import Card
from controller.commands.rounds import _text
from controller.engine.camera import CameraUnavailable, CameraWitness, film_session
from controller.engine.config import load_config
from controller.engine.session import open_session
from controller.errors import TableError
from controller.events import CameraAgreed, CameraBack, CameraConfirmed, CameraDisagreed, CameraFailed, CameraLost, CameraOff, CameraScaleLow, from_record
from controller.records.recall import recall
from tests.helpers import MemoryLog, in_process_config, top_card_round
from tests.vision.mjpeg_stream import serve
from vision.setup import layout_from
from vision.synthetic import Camera, SceneSource

AS, KD, TWO_S = Card.parse("AS"), Card.parse("KD"), Card.parse("2S")


def vision_config(**overrides: Any) -> dict[str, Any]:
    return {**load_config().sections["vision"], **overrides}


def film(folder: Path, faces: Mapping[Card, Any], scenes: Sequence[tuple[dict[str, list[Card]], int]]) -> Path:
    """Write ``count`` frames of each ``hands`` in turn, as the default table's camera would see them."""
    layout = layout_from(vision_config())
    assert layout is not None
    source = SceneSource(faces, Camera(layout.table_to_image), zones=layout.zones, seed=1)
    folder.mkdir()
    k = 0
    for hands, count in scenes:
        source.show(hands)
        for _ in range(count):
            assert cv2.imwrite(str(folder / f"{k:04d}.png"), source.read())
            k += 1
    return folder


def deal(witness: CameraWitness, *cards: Card):
    """A Top Card round on the witness's log, a wager placed, ``cards`` dealt; the round and its log."""
    log = witness.log
    assert isinstance(log, MemoryLog)
    round = top_card_round(log, round_id="TC-01-R1")
    round.witness, round.card_witness = witness, witness.confirm_card
    round.start()
    round.place_wager(1, "home", 500)
    round.close_betting()
    for card in cards:
        round.card(card)
    return round, log


def test_a_look_waits_for_the_dealer_to_lay_each_card_and_the_round_settles(tmp_path: Path, faces) -> None:
    folder = film(tmp_path / "frames", faces, [({}, 3), ({"home": [AS]}, 2), ({"home": [AS], "away": [KD]}, 4)])
    witness = CameraWitness(vision_config(source=str(folder), settle_frames=5), MemoryLog("TC-01"))
    round, log = deal(witness, AS, KD)
    assert round.state == "complete", round.hold_reason
    assert [e["event"] for e in log.records() if e["event"].startswith("camera_")] == [CameraConfirmed.EVENT, CameraConfirmed.EVENT, CameraAgreed.EVENT]
    assert witness.source.position == 8  # 4 frames to see the ace laid, 2 the king, 2 the last look


def test_a_card_laid_other_than_the_shoe_dealt_holds_the_round_once_the_camera_has_waited(tmp_path: Path, faces) -> None:
    folder = film(tmp_path / "frames", faces, [({"home": [TWO_S]}, 4)])
    witness = CameraWitness(vision_config(source=str(folder), settle_frames=3), MemoryLog("TC-01"))
    round, log = deal(witness, AS)
    assert round.state == "hold" and round.hold_reason.startswith("camera:")
    [problem] = log.named(CameraDisagreed.EVENT)
    assert (problem["zone"], problem["dealt"], problem["seen"]) == ("home", "AS", "2S")
    assert witness.source.position == 4 and [c for _, c, _ in round.cards] == [AS]


def test_a_camera_that_stops_giving_frames_holds_the_round_naming_it(tmp_path: Path, faces) -> None:
    folder = film(tmp_path / "frames", faces, [({}, 2)])
    round, log = deal(CameraWitness(vision_config(source=str(folder), settle_frames=5), MemoryLog("TC-01")), AS)
    assert round.state == "hold" and f"no more images in {folder}" in round.hold_reason
    assert log.named(CameraFailed.EVENT)[0]["reason"] == f"no more images in {folder}"


def test_a_camera_set_to_another_resolution_than_calibrated_holds_the_round_naming_both(tmp_path: Path, faces) -> None:
    """Its frames would put every card elsewhere on the table: the round holds, saying what to do."""
    folder = film(tmp_path / "frames", faces, [({"home": [AS]}, 3)])
    for path in folder.iterdir():
        cv2.imwrite(str(path), cv2.resize(cv2.imread(str(path)), (1280, 720)))
    vision = vision_config(source=str(folder), settle_frames=2)
    vision["calibration"] = {**vision["calibration"], "image_size": [1920, 1080]}
    round, log = deal(CameraWitness(vision, MemoryLog("TC-01")), AS)
    said = ("the camera sends 1280x720 frames, but [vision.calibration] was measured on 1920x1080 frames: set the camera "
            "to 1920x1080, or calibrate it again at its new size")
    assert round.state == "hold" and round.hold_reason == f"camera: {said}"
    assert log.named(CameraFailed.EVENT)[0]["reason"] == said


def test_a_network_camera_that_drops_its_stream_films_on_and_its_outages_are_logged(faces) -> None:
    """The default table filmed over an MJPEG stream (as an IP camera serves one), the connection
    dropped every 10 frames: the card dealt is confirmed, and the outages before and during the
    look are logged with the time each happened."""
    layout = layout_from(vision_config())
    assert layout is not None
    source = SceneSource(faces, Camera(layout.table_to_image), zones=layout.zones, seed=1)
    source.show({"home": [AS]})
    table = cv2.imencode(".jpg", source.read(), [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    with serve(10, "close", picture=lambda n: table) as served:
        witness = CameraWitness(vision_config(source=served.url), MemoryLog("TC-01"))
        witness.source.reopen_s = 0.05
        time.sleep(1.0)
        round, log = deal(witness, AS)
        witness.close()
    assert round.state != "hold", round.hold_reason
    assert [e["event"] for e in log.records() if e["event"] in (CameraConfirmed.EVENT, CameraFailed.EVENT, CameraDisagreed.EVENT)] == [CameraConfirmed.EVENT]
    lost, back = log.named(CameraLost.EVENT), log.named(CameraBack.EVENT)
    assert lost and len(back) >= len(lost) - 1 and lost[0]["round"] == "TC-01-R1"
    assert lost[0]["device"] == served.url and lost[0]["at"] <= back[0]["at"] <= lost[0]["timestamp"]
    assert f"lost {len(lost)} time(s)" in witness.summary()
    recalled = recall([from_record(r) for r in log.records() if r["round"] == "TC-01-R1"])  # as `tablectl round` tells it
    assert recalled["camera"]["outages"][0] == {"event": CameraLost.EVENT, "device": served.url, "at": lost[0]["at"]}
    assert f"  camera   {served.url} lost at {lost[0]['at']}" in _text(recalled)


def test_a_relative_source_lies_beside_the_config_and_a_missing_one_is_named(tmp_path: Path, faces) -> None:
    film(tmp_path / "frames", faces, [({}, 1)])
    assert CameraWitness(vision_config(source="frames"), MemoryLog(), base=tmp_path).source.folder == tmp_path / "frames"
    with pytest.raises(TableError, match=f"camera: video {tmp_path / 'nowhere'} does not exist"):
        CameraWitness(vision_config(source="nowhere"), MemoryLog(), base=tmp_path)
    with pytest.raises(TableError, match="settle_frames must be a whole number of frames, at least 1, not 0"):
        CameraWitness(vision_config(source="frames", settle_frames=0), MemoryLog(), base=tmp_path)
    with pytest.raises(TableError, match="source must be a camera index"):
        CameraWitness(vision_config(source=1.5), MemoryLog(), base=tmp_path)


def test_a_live_table_without_a_source_plays_unfilmed_unless_the_camera_is_asked_for(tmp_path: Path) -> None:
    said: list[str] = []
    with open_session(in_process_config(), random.Random(1), events=tmp_path / "e.jsonl", journaled=False) as session:
        assert film_session(session, 0, asked=None, simulated=False, warn=said.append) is None
        assert session.table.witness is None and "needs [vision] source" in said[0]
        with pytest.raises(CameraUnavailable, match="needs \\[vision\\] source"):
            film_session(session, 0, asked=True, simulated=False, warn=said.append)
        assert film_session(session, 0, asked=False, simulated=False, warn=said.append) is None and len(said) == 1
    [off] = [json.loads(line) for line in (tmp_path / "e.jsonl").read_text().splitlines() if f'"{CameraOff.EVENT}"' in line]
    assert "needs [vision] source" in off["reason"] and off["round"] is None


def test_a_live_table_films_from_its_source(tmp_path: Path, faces) -> None:
    film(tmp_path / "frames", faces, [({}, 1)])
    config = in_process_config()
    config = dataclasses.replace(config, sections={**config.sections, "vision": vision_config(source=str(tmp_path / "frames"))})
    with open_session(config, random.Random(1), events=tmp_path / "e.jsonl", journaled=False) as session:
        camera = film_session(session, 0, asked=None, simulated=False, warn=pytest.fail)
        assert camera is not None and session.table.card_witness == camera.confirm_card
        assert camera.scenes is None and camera.source.folder == tmp_path / "frames"


def test_a_live_camera_that_sees_the_cards_smaller_than_measured_films_and_says_so(tmp_path: Path, faces) -> None:
    """The same marks calibrated as lying 1.6 times further apart: the camera sees the table at under
    1.5 px/mm, where the recognizer is not measured (docs/vision.md). The table films, and says so."""
    film(tmp_path / "frames", faces, [({}, 1)])
    vision = vision_config(source=str(tmp_path / "frames"))
    calibration = vision["calibration"]
    far = {"image_points": calibration["image_points"], "table_points": [[1.6 * x, 1.6 * y] for x, y in calibration["table_points"]]}
    config = in_process_config()
    config = dataclasses.replace(config, sections={**config.sections, "vision": {**vision, "calibration": far}})
    said: list[str] = []
    with open_session(config, random.Random(1), events=tmp_path / "e.jsonl", journaled=False) as session:
        assert film_session(session, 0, asked=None, simulated=False, warn=said.append) is not None
    [low] = [json.loads(line) for line in (tmp_path / "e.jsonl").read_text().splitlines() if f'"{CameraScaleLow.EVENT}"' in line]
    assert low["round"] is None and low["px_per_mm"] < 1.6 and said == [f"camera: {low['reason']}"]
    assert "below the 1.5 px/mm the recognizer is measured at" in low["reason"]


@pytest.mark.hardware
def test_a_real_camera_gives_colour_frames(request: pytest.FixtureRequest) -> None:
    from vision.sources import open_source

    device = request.config.getoption("--camera-device")
    if not device:
        pytest.skip("no --camera-device given")
    source = open_source(device)
    try:
        frames = [source.read() for _ in range(3)]
    finally:
        source.close()
    assert all(f.dtype == "uint8" and f.ndim == 3 and f.shape[2] == 3 for f in frames)
