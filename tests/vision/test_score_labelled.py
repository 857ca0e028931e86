"""``tablectl vision score``: a test lab's own labelled frames read and scored as the benchmark scores its own."""

import json
from pathlib import Path

import numpy as np
import pytest

from controller.commands.cli import main
from vision.envelope import envelope_frame
from vision.envelope.scoring import Reported, score_frame
from vision.labelled import LabelError, labelled_frames, write_labelled
from vision.recognizer import Recognizer
from vision.setup import layout_from


def _frames(faces, folder: Path, count: int = 3) -> list:
    scenes = [envelope_frame(faces, np.random.default_rng([2049, 0, k])) for k in range(count)]
    for k, scene in enumerate(scenes):
        write_labelled(folder, f"{k:04d}", scene)
    return scenes


def test_score_gives_the_figures_the_benchmark_gives_for_the_same_frames(tmp_path: Path, faces, deck, capsys) -> None:
    """Each frame read through the calibration its label carries, paired and counted as ``benchmarks/vision.py``
    does: the same readable cards, right, unreadable and not reported as reading the frames in memory."""
    scenes = _frames(faces, tmp_path)
    right = readable = unreadable = missed = 0
    for scene in scenes:
        reads = Recognizer(deck, layout_from({"calibration": scene.calibration})).read(scene.frame)
        outcomes, _, _ = score_frame(scene.truth, [Reported(r.card, r.polygon) for r in reads])
        readable += len(outcomes)
        right += sum(o.result == "right" for o in outcomes)
        unreadable += sum(o.result == "unreadable" for o in outcomes)
        missed += sum(o.result == "missed" for o in outcomes)
    assert main(["vision", "score", str(tmp_path), "--deck", "aisleriot-anglo", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["frames"], figures["readable"], figures["right"]) == (3, readable, right)
    assert (figures["unreadable"], figures["missed"], figures["wrong"], figures["invented"]) == (unreadable, missed, 0, 0)
    assert readable > 10 and right > readable // 2
    assert main(["vision", "score", str(tmp_path), "--deck", "aisleriot-anglo"]) == 0
    printed = capsys.readouterr().out
    assert "-- felt" in printed and f"3 frames: {100 * right / readable:.2f}% of {readable} readable cards" in printed


def test_a_card_labelled_as_another_counts_as_a_wrong_read_and_fails(tmp_path: Path, faces, capsys) -> None:
    _frames(faces, tmp_path, 1)
    label = tmp_path / "0000.json"
    data = json.loads(label.read_text())
    assert main(["vision", "score", str(tmp_path), "--deck", "aisleriot-anglo", "--json"]) == 0
    read_right = json.loads(capsys.readouterr().out)["right"]
    assert read_right
    # every card labelled as a card no table deals with it: each one read is now a wrong read
    data["cards"] = [dict(c, card="JK") for c in data["cards"]]
    label.write_text(json.dumps(data))
    assert main(["vision", "score", str(tmp_path), "--deck", "aisleriot-anglo", "--json"]) == 1
    figures = json.loads(capsys.readouterr().out)
    assert figures["wrong"] >= read_right and figures["right"] == 0
    assert any("(full) read as" in w or "(corner) read as" in w for w in figures["wrong_reads"])


@pytest.mark.parametrize(("card", "why"), [
    ({"card": "1X", "polygon": [[0, 0], [1, 0], [1, 1], [0, 1]], "visible": "full"}, r"0000\.json, card 1: .*1X"),
    ({"card": "AS", "polygon": [[0, 0], [1, 0], [1, 1]], "visible": "full"}, r"card 1 \(AS\): the polygon must be four"),
    ({"card": "AS", "polygon": [[0, 0], [1, 0], [1, 1], [0, 1]], "visible": "partly"}, r"visible must be one of full, corner, hidden, not 'partly'"),
    ("AS", r'each card is a JSON object with "card"'),
])
def test_a_label_that_cannot_be_read_is_refused_naming_the_file_the_card_and_what_is_wrong(tmp_path: Path, card, why, capsys) -> None:
    (tmp_path / "0000.png").write_bytes(b"")
    (tmp_path / "0000.json").write_text(json.dumps({"cards": [card]}))
    with pytest.raises(LabelError, match=why):
        labelled_frames(tmp_path)
    assert main(["vision", "score", str(tmp_path), "--deck", "aisleriot-anglo"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_a_folder_with_a_frame_but_no_label_or_no_frames_is_refused(tmp_path: Path, capsys) -> None:
    (tmp_path / "a.png").write_bytes(b"")
    assert main(["vision", "score", str(tmp_path), "--deck", "aisleriot-anglo"]) == 2
    assert "frames without a label beside them (NAME.json): a.png" in capsys.readouterr().err
    assert main(["vision", "score", str(tmp_path / "none"), "--deck", "aisleriot-anglo"]) == 2
    assert "is not a folder of labelled frames" in capsys.readouterr().err
    (tmp_path / "a.json").write_text("{not json")
    assert main(["vision", "score", str(tmp_path), "--deck", "aisleriot-anglo"]) == 2
    assert "a.json: not a JSON label" in capsys.readouterr().err
    (tmp_path / "a.json").write_text('{"cards": []}')
    assert main(["vision", "score", str(tmp_path), "--deck", "aisleriot-anglo"]) == 2
    assert "a.png is not a readable image" in capsys.readouterr().err
