"""``tablectl shuffle report --shoe N`` lists the camera's discrepancies while the shoe was dealt: the round, the
zone, the card the shoe dealt and the card the camera saw (docs/shuffle.md, deck inventory: the camera is the
second witness). Before, the report dropped them: a surveillance officer asking where the camera disagreed with
the shoe found nothing under the shoe.

The shoe is the reference simulator on a pseudo-terminal (``tablectl run`` starts it); the simulated table's
dealer lays another card on ``home`` than the shoe gave, as in tests/vision/test_camera_run.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cards import Card
from controller.commands.cli import main
from controller.engine.config import DEFAULT_CONFIG
from controller.events import CameraDisagreed
from tests.helpers import init_table
from vision.artwork import ArtworkNotInstalled, render_deck


def test_the_report_names_each_camera_discrepancy_of_the_shoe_with_its_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    try:
        render_deck("aisleriot-anglo")
    except ArtworkNotInstalled as missing:
        pytest.skip(f"card artwork not installed: {missing}")
    from vision.synthetic import SceneSource

    show = SceneSource.show

    def swap_the_home_card(self: SceneSource, hands: dict[str, list[Card]], zone_of: object) -> None:
        cards = dict(hands)
        if cards.get("home"):
            cards["home"] = [Card.parse("2S") if cards["home"][0] != Card.parse("2S") else Card.parse("3S")]
        show(self, cards, zone_of)  # type: ignore[arg-type]

    monkeypatch.setattr(SceneSource, "show", swap_the_home_card)
    journal, log = tmp_path / "j.sqlite", tmp_path / "events.jsonl"
    init_table(journal, log)
    assert main(["run", "--rounds", "3", "--seed", "5", "--camera", "--log", str(log), "--journal", str(journal)]) == 1
    filmed = [r for r in map(json.loads, log.read_text().splitlines()) if r["event"] == CameraDisagreed.EVENT]
    assert filmed
    capsys.readouterr()
    base = ["shuffle", "report", "--config", str(DEFAULT_CONFIG), "--journal", str(journal), "--no-picture", "--shoe", "1"]
    assert main(base) == 0
    out = capsys.readouterr().out
    for r in filmed:
        assert (f"camera in round {r['round']}: {r['kind']} in {r['zone']}: dealt {r['dealt']}, seen {r['seen']}") in out, out
    assert main([*base, "--json"]) == 0
    (shoe,) = json.loads(capsys.readouterr().out)
    assert [(c["round"], c["zone"], c["dealt"], c["seen"]) for c in shoe["camera"]] == [
        (r["round"], r["zone"], r["dealt"], r["seen"]) for r in filmed]
