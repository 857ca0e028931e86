"""The overhead camera as the round's second witness on the simulated table.

After every card is placed, and once more before the round settles, the cards
the shoe dealt to each target are drawn into the matching zones of the layout
(``vision.synthetic.SceneSource``), the frames go through the recognizer and
the tracker, and ``vision.crosscheck`` compares what was dealt with what was
seen. Any discrepancy (a card seen but not dealt, dealt but not seen, seen
differently, or unreadable) is logged as ``camera_discrepancy`` and returned as
the reason that holds the round, the card kept where the shoe put it.

It is switched on by ``crosscheck = true`` in the config's ``[vision]`` table,
whose ``[vision.zones]`` must name every card target of the game, or the seat
of a split hand (``3`` for ``3.1``). Burn cards go face down to the discard
and cards the game deals face down (``Game.face_down``) are not filmed until
they are turned.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from controller.cards import Card
from controller.errors import TableError
from controller.events import EventLog
from controller.round import Round
from vision.artwork import ArtworkMissing, render_deck
from vision.calibration import CalibrationError
from vision.crosscheck import Seen, Unsure, crosscheck, seen_by_zone
from vision.setup import build_recognizer, layout_from
from vision.synthetic import DEALER_SPREAD, Camera, SceneSource
from vision.templates import TemplateError
from vision.tracking import Tracker


class CameraWitness:
    """Films the simulated table as cards are dealt and cross-checks what it reads with the shoe.

    ``confirm_card`` (the round's ``card_witness``) looks after every card;
    ``__call__`` (the round's ``witness``) looks once more before settling.
    A look reads one frame (``stable_frames`` before settling, through the
    tracker); when it disagrees with the shoe, ``stable_frames + 1`` further
    frames are read and only a disagreement found in every one of them is
    reported, so a glint on one frame does not stop the table. A card once
    confirmed is not asked for again in the round: a later look that misses
    it does not hold the round, one that sees another card there does.
    """

    def __init__(self, vision: Mapping[str, Any], log: EventLog, *, base: Path | None = None, seed: int = 0) -> None:
        try:
            layout = layout_from(vision)
            if layout is None:
                raise CalibrationError("[vision] crosscheck needs [vision.calibration] and [vision.zones]")
            self.recognizer = build_recognizer(vision, base)
            faces = render_deck(str(vision.get("deck", "aisleriot-anglo")))
        except (ArtworkMissing, CalibrationError, TemplateError) as error:
            raise TableError(f"camera: {error}") from error
        self.zones = {zone.name for zone in layout.zones}
        self.source = SceneSource(faces, Camera(layout.table_to_image), zones=layout.zones, seed=seed,
                                  spread=_fan(vision.get("fan_mm", DEALER_SPREAD)))
        self.stable_frames = int(vision.get("stable_frames", 2))
        self.log = log
        self._confirmed: tuple[str, dict[str, Counter[Card]]] = ("", {})
        """The round and, zone by zone, the cards the camera has confirmed in it so far."""

    def zone_of(self, target: str) -> str:
        """The zone a card target's cards lie in: the zone of that name, or of the seat a split hand
        (``"3.1"``) belongs to."""
        if target in self.zones:
            return target
        seat = target.split(".", 1)[0]
        if seat in self.zones:
            return seat
        raise TableError(f"camera: no [vision.zones] entry for the card target {target!r}")

    def confirm_card(self, round: Round) -> str | None:
        """After a card is placed: the camera must see every face-up card where the shoe put it."""
        return self._look(round, "camera_confirms", first_frames=1)

    def __call__(self, round: Round) -> str | None:
        """Before settling: the last look at the whole layout."""
        return self._look(round, "camera_agrees", first_frames=self.stable_frames)

    def _look(self, round: Round, agreed: str, first_frames: int) -> str | None:
        hands = self._face_up(round)
        self.source.show(hands, self.zone_of)
        dealt: dict[str, list[Any]] = {}
        for target, cards in hands.items():
            dealt.setdefault(self.zone_of(target), []).extend(cards)
        tracker = Tracker(stable_frames=first_frames)
        for _ in range(first_frames):
            tracker.update(self.recognizer.read(self.source.read()))
        problems = crosscheck(dealt, self._remembering(round.id, seen_by_zone(tracker.on_table)))
        for _ in range(self.stable_frames + 1 if problems else 0):
            again = crosscheck(dealt, self._remembering(round.id, seen_by_zone(self.recognizer.read(self.source.read()))))
            problems = [p for p in problems if p in again]
        if not problems:
            self._confirmed = (round.id, {zone: Counter(cards) for zone, cards in dealt.items()})
        for problem in problems:
            self.log.emit("camera_discrepancy", round.id, kind=problem.kind, zone=problem.zone,
                          dealt=problem.dealt.code if problem.dealt else None, seen=problem.seen.code if problem.seen else None)
        if problems:
            return "camera: " + "; ".join(str(p) for p in problems)
        self.log.emit(agreed, round.id, cards=sum(len(c) for c in dealt.values()))
        return None

    def _remembering(self, round_id: str, seen: dict[str | None, list[Seen]]) -> dict[str | None, list[Seen]]:
        """What a frame shows, with the cards confirmed earlier in the round taken as still there when the
        frame misses them (a later card's shadow, a glint): an unreadable card stands for one of them, and
        any left are added as ``Unsure``. A card seen differently, or one not dealt, still shows."""
        if self._confirmed[0] != round_id:
            return seen
        out = {zone: list(items) for zone, items in seen.items()}
        for zone, cards in self._confirmed[1].items():
            items = out.setdefault(zone, [])
            read = Counter(i for i in items if isinstance(i, Card)) + Counter(i.card for i in items if isinstance(i, Unsure))
            lost = list((cards - read).elements())
            for k, item in enumerate(items):
                if item is None and lost:
                    items[k] = Unsure(lost.pop())
            items.extend(Unsure(card) for card in lost)
        return out

    def _face_up(self, round: Round) -> dict[str, list[Any]]:
        """The cards on the layout by target, in the order dealt, without burns and cards lying face down."""
        hands: dict[str, list[Any]] = {}
        down = round.face_down()
        for index, (target, card, _source) in enumerate(round.cards):
            if target == "burn":
                continue
            hands.setdefault(target, [])
            if index not in down:
                hands[target].append(card)
        return hands


def _fan(value: Any) -> tuple[float, float]:
    """``[vision] fan_mm``: how far right and down the simulated dealer lays each next card of a hand."""
    try:
        right, down = (float(v) for v in value)
    except (TypeError, ValueError):
        raise TableError(f"camera: [vision] fan_mm must be two numbers of millimetres [right, down], not {value!r}") from None
    if right < 16.0 and down < 28.0:
        raise TableError(f"camera: [vision] fan_mm: each card must lie at least 16 mm right of the last or 28 mm "
                         f"below it (or it covers that card's index), not {[right, down]}")
    return right, down
