"""The overhead camera as the round's second witness on the simulated table.

Before a round settles, the cards the shoe dealt to each target are drawn into
the matching zones of the layout (``vision.synthetic.SceneSource``), the frames
go through the recognizer and the tracker, and ``vision.crosscheck`` compares
what was dealt with what was seen. Any discrepancy (a card seen but not dealt,
dealt but not seen, seen differently, or unreadable) is logged as
``camera_discrepancy`` and returned as the reason that holds the round.

It is switched on by ``crosscheck = true`` in the config's ``[vision]`` table,
whose ``[vision.zones]`` must name every card target of the game (burn cards
go face down to the discard and are not filmed).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from controller.errors import TableError
from controller.events import EventLog
from controller.round import Round
from vision.artwork import ArtworkMissing, render_deck
from vision.calibration import CalibrationError
from vision.crosscheck import crosscheck, seen_by_zone
from vision.enroll import load_deck
from vision.setup import layout_from, settings_from
from vision.recognizer import Recognizer
from vision.synthetic import Camera, SceneSource
from vision.templates import TemplateError
from vision.tracking import Tracker


class CameraWitness:
    """Films each round's dealt cards on the simulated table and cross-checks them with the shoe."""

    def __init__(self, vision: Mapping[str, Any], log: EventLog, *, base: Path | None = None, seed: int = 0) -> None:
        try:
            layout = layout_from(vision)
            if layout is None:
                raise CalibrationError("[vision] crosscheck needs [vision.calibration] and [vision.zones]")
            deck = load_deck(vision, base)
            faces = render_deck(str(vision.get("deck", "aisleriot-anglo")))
        except (ArtworkMissing, CalibrationError, TemplateError) as error:
            raise TableError(f"camera: {error}") from error
        self.source = SceneSource(faces, Camera(layout.table_to_image), zones=layout.zones, seed=seed)
        self.recognizer = Recognizer(deck, layout, settings_from(vision))
        self.stable_frames = int(vision.get("stable_frames", 2))
        self.log = log

    def __call__(self, round: Round) -> str | None:
        dealt: dict[str, list[Any]] = {}
        for target, card, _source in round.cards:
            if target != "burn":
                dealt.setdefault(target, []).append(card)
        self.source.show(dealt)
        tracker = Tracker(stable_frames=self.stable_frames)
        for _ in range(self.stable_frames):
            tracker.update(self.recognizer.read(self.source.read()))
        problems = crosscheck(dealt, seen_by_zone(tracker.on_table))
        for problem in problems:
            self.log.emit("camera_discrepancy", round.id, kind=problem.kind, zone=problem.zone,
                          dealt=problem.dealt.code if problem.dealt else None, seen=problem.seen.code if problem.seen else None)
        if problems:
            return "camera: " + "; ".join(str(p) for p in problems)
        self.log.emit("camera_agrees", round.id, cards=sum(len(c) for c in dealt.values()))
        return None
