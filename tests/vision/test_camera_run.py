"""The camera as second witness in ``tablectl run``: agreeing rounds settle, a disagreement holds the round."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cards import Card
from controller.commands.cli import main
from controller.engine.config import DEFAULT_CONFIG
from controller.events import CameraAgreed, CameraConfirmed, CameraDisagreed, CameraOff, CardDealt, RoundCompleted
from tests.helpers import init_table

ROOT = Path(__file__).resolve().parents[2]


def test_the_default_table_films_every_card_unasked_and_settles_every_round(tmp_path: Path, capsys, faces) -> None:
    log = tmp_path / "events.jsonl"
    init_table(str(tmp_path / "j.sqlite"), str(log))
    assert main(["run", "--rounds", "3", "--seed", "5", "--log", str(log), "--journal", str(tmp_path / "j.sqlite")]) == 0
    text = log.read_text()
    assert text.count(f'"{CameraAgreed.EVENT}"') == 3
    assert text.count(f'"{CameraConfirmed.EVENT}"') == text.count(f'"{CardDealt.EVENT}"') == 6  # every card, as it lands
    printed = capsys.readouterr()
    assert f'"{CameraOff.EVENT}"' not in text and printed.err == ""
    assert printed.out.splitlines()[-2] == "camera      6 looks agreed with the shoe as cards landed, 3 before settling, 0 discrepancies"
    # recalled from the journal, as surveillance would (the shoe's own events after it belong to no round)
    last = _last_round(text)
    assert main(["round", last, "--journal", str(tmp_path / "j.sqlite")]) == 0
    assert "  camera   3 looks agreed with the shoe, the last before settling with 2 cards seen" in capsys.readouterr().out.splitlines()


def _last_round(events: str) -> str:
    """The round of the last event that belongs to one."""
    return next(r["round"] for r in map(json.loads, reversed(events.splitlines())) if r.get("round"))


def tablectl_without_rsvg(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``tablectl run`` on a machine that lacks ``rsvg-convert`` (Debian's librsvg2-bin), so the simulated
    camera cannot draw its deck: no program is on the PATH."""
    env = {**os.environ, "PATH": str(tmp_path / "empty"), "PYTHONPATH": str(ROOT), "TABLECTL_CACHE": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-m", "controller.commands.cli", "run", "--no-journal", "--log", str(tmp_path / "e.jsonl"), *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_without_the_artwork_the_default_table_plays_unfilmed_and_says_why(tmp_path: Path) -> None:
    done = tablectl_without_rsvg(tmp_path, "--rounds", "2", "--seed", "5")
    assert done.returncode == 0, done.stderr
    assert "librsvg2-bin" in done.stderr and "playing without the camera" in done.stderr
    events = [json.loads(line) for line in (tmp_path / "e.jsonl").read_text().splitlines()]
    off = [e for e in events if e["event"] == CameraOff.EVENT]
    assert len(off) == 1 and "rsvg-convert" in off[0]["reason"]
    assert not [e for e in events if e["event"].startswith("camera_") and e["event"] != CameraOff.EVENT]
    assert sum(e["event"] == RoundCompleted.EVENT for e in events) == 2
    assert "camera " not in done.stdout  # no camera line in the summary of an unfilmed session


def test_without_the_artwork_a_camera_asked_for_stops_the_run_naming_the_package(tmp_path: Path) -> None:
    done = tablectl_without_rsvg(tmp_path, "--rounds", "2", "--seed", "5", "--camera")
    assert done.returncode == 2
    assert "librsvg2-bin" in done.stderr and "playing without" not in done.stderr
    assert RoundCompleted.EVENT not in (tmp_path / "e.jsonl").read_text()


def test_a_cache_it_cannot_write_does_not_stop_the_table_filming(tmp_path: Path) -> None:
    """A read-only home (a walkthrough's ``HOME=/ro-dir``) stopped ``run`` with "[Errno 1] Operation not permitted:
    '/ro-dir/.cache'": the deck is drawn and enrolled in memory instead, and the camera films as ever."""
    (tmp_path / "a-file").write_text("")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLECTL_CACHE": str(tmp_path / "a-file" / "cache")}
    done = subprocess.run([sys.executable, "-m", "controller.commands.cli", "run", "--no-journal", "--rounds", "1", "--seed", "5",
                           "--log", str(tmp_path / "e.jsonl")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "camera      2 looks agreed" in done.stdout and "Not a directory" not in done.stderr and "Errno" not in done.stderr


def test_an_unknown_deck_stops_the_run_whether_or_not_the_camera_was_asked_for(tmp_path: Path, capsys) -> None:
    config = tmp_path / "table.toml"
    config.write_text(DEFAULT_CONFIG.read_text().replace('deck = "aisleriot-anglo"', 'deck = "no-such-deck"'))
    assert main(["run", "--config", str(config), "--rounds", "1", "--no-journal", "--log", str(tmp_path / "e.jsonl")]) == 2
    assert "unknown deck artwork 'no-such-deck'" in capsys.readouterr().err


def test_filming_a_session_does_not_change_what_is_dealt_or_wagered(tmp_path: Path, capsys, faces) -> None:
    """A seed fixes the session, filmed by the camera or not: its scenes draw on a seed of their own."""
    rounds = []
    for camera in (["--no-camera"], []):
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
    init_table(str(tmp_path / "j.sqlite"), str(log))
    assert main(["run", "--rounds", "3", "--seed", "5", "--camera", "--log", str(log), "--journal", str(tmp_path / "j.sqlite")]) == 1
    assert "camera:" in capsys.readouterr().err
    events = log.read_text()
    assert f'"{CameraDisagreed.EVENT}"' in events and '"zone": "home"' in events and '"zone": "away"' not in events
    held = _last_round(events)
    assert main(["round", held, "--journal", str(tmp_path / "j.sqlite"), "--json"]) == 0
    [problem] = json.loads(capsys.readouterr().out)["camera"]["discrepancies"]
    assert problem["kind"] == "seen-differently" and problem["zone"] == "home" and problem["seen"] in ("2S", "3S")


def test_the_default_config_carries_a_calibrated_camera_with_a_zone_per_target() -> None:
    text = DEFAULT_CONFIG.read_text()
    assert "[vision.calibration]" in text and "home = " in text and "away = " in text


def test_the_demonstration_service_films_its_rounds_too(tmp_path: Path, faces) -> None:
    """``tablectl serve --simulated-players`` (the systemd unit's table, simulated) takes the camera as ``run`` does."""
    config = tmp_path / "table.toml"
    config.write_text(DEFAULT_CONFIG.read_text().replace(
        '[log]\nevents = "var/log/TC-01.events.jsonl"',
        f'[log]\nevents = "{tmp_path}/events.jsonl"\n\n[journal]\npath = "{tmp_path}/journal.sqlite"'))
    init_table(tmp_path / "journal.sqlite", config=config)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NOTIFY_SOCKET", None)
    done = subprocess.run([sys.executable, "-m", "controller.commands.cli", "serve", "--config", str(config), "--simulated-players",
                           "--rounds", "2", "--interval", "0", "--seed", "4", "--no-console"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert sum(e["event"] == CameraAgreed.EVENT for e in events) == sum(e["event"] == RoundCompleted.EVENT for e in events) == 2
