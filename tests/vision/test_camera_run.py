"""The camera as second witness in ``tablectl run``: agreeing rounds settle, a disagreement holds the round."""

from pathlib import Path

import pytest

from controller.cards import Card
from controller.cli import main
from controller.config import DEFAULT_CONFIG


def test_a_session_filmed_by_the_camera_settles_every_round(tmp_path: Path, capsys, faces) -> None:
    log = tmp_path / "events.jsonl"
    assert main(["run", "--rounds", "3", "--seed", "5", "--camera", "--log", str(log), "--journal", str(tmp_path / "j.sqlite")]) == 0
    text = log.read_text()
    assert text.count('"camera_agrees"') == 3
    assert text.count('"camera_confirms"') == text.count('"card_dealt"')  # every card, as it lands


def test_filming_a_session_does_not_change_what_is_dealt_or_wagered(tmp_path: Path, capsys, faces) -> None:
    """A seed fixes the session, filmed by the camera or not: its scenes draw on a seed of their own."""
    rounds = []
    for camera in ([], ["--camera"]):
        log = tmp_path / f"events{len(camera)}.jsonl"
        assert main(["run", "--rounds", "3", "--seed", "7", "--no-journal", "--log", str(log), *camera]) == 0
        lines = [line.split(None, 1)[1] for line in capsys.readouterr().out.splitlines() if " complete " in line]
        rounds.append(lines)
    assert len(rounds[0]) == 3 and rounds[0] == rounds[1]


def test_a_card_the_camera_sees_differently_holds_the_round(tmp_path: Path, capsys, faces, monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.synthetic import SceneSource

    show = SceneSource.show

    def swap_the_home_card(self, hands, zone_of):  # the dealer put another card on "home" than the shoe gave
        cards = dict(hands)
        if cards.get("home"):
            cards["home"] = [Card.parse("2S") if cards["home"][0] != Card.parse("2S") else Card.parse("3S")]
        show(self, cards, zone_of)

    monkeypatch.setattr(SceneSource, "show", swap_the_home_card)
    log = tmp_path / "events.jsonl"
    assert main(["run", "--rounds", "3", "--seed", "5", "--camera", "--log", str(log), "--journal", str(tmp_path / "j.sqlite")]) == 1
    assert "camera:" in capsys.readouterr().err
    events = log.read_text()
    assert '"camera_discrepancy"' in events and '"zone": "home"' in events and '"zone": "away"' not in events


def test_the_default_config_carries_a_calibrated_camera_with_a_zone_per_target() -> None:
    text = DEFAULT_CONFIG.read_text()
    assert "[vision.calibration]" in text and "home = " in text and "away = " in text
