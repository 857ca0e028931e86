"""The overhead camera as the round's second witness.

After every card is placed, and once more before the round settles, the
camera's frames go through the recognizer and the tracker, and
``vision.crosscheck`` compares what was dealt with what was seen. Any
discrepancy (a card seen but not dealt, dealt but not seen, seen differently,
or unreadable) is logged as ``camera_discrepancy`` and returned as the reason
that holds the round, the card kept where the shoe put it.

The frames come from ``[vision] source`` (a camera index, ``/dev/video*``, a
stream URL, a folder of images or a video file: ``vision.sources.open_source``),
and a look waits up to ``settle_frames`` frames for the dealer to lay the card
where the camera agrees. Without a source, on a simulated table, the cards the
shoe dealt to each target are drawn into the matching zones of the layout
(``vision.synthetic.SceneSource``) from the deck's artwork, on the table's own
cloth, with each hand where the table's dealer lays it (both drawn from the
table's id): a restarted table is the same table, only its frames are new.

A round recovered from the journal after a restart is filmed like any other
(``Table.witnessed``): the camera's first look at it takes in every face-up card
on the layout, those dealt before the restart too, since nobody watched the
layout while the table was down.

It is switched on by ``crosscheck = true`` in the config's ``[vision]`` table
(the default config's and the blackjack tables' have it), whose
``[vision.zones]`` must name every card target of the game, or the seat of a
split hand (``3`` for ``3.1``). Burn cards go face down to the discard and
cards the game deals face down (``Game.face_down``) are not filmed until they
are turned.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from controller.cards import Card
from controller.engine.log import EventLog
from controller.engine.round import Round
from controller.engine.session import Session
from controller.errors import TableError
from controller.events import (
    CameraAgreed,
    CameraBack,
    CameraConfirmed,
    CameraDisagreed,
    CameraFailed,
    CameraLost,
    CameraOff,
    CameraScaleLow,
    Event,
)
from vision.artwork import ArtworkMissing, ArtworkNotInstalled, render_deck
from vision.calibration import CalibrationError, scale_warning
from vision.crosscheck import Discrepancy, Seen, Unsure, crosscheck, seen_by_zone
from vision.hands import dealt_zones
from vision.recognizer import Read
from vision.setup import build_recognizer, layout_from
from vision.sources import CameraError, CameraSource, EndOfFrames, FrameSource, colour_error, open_source
from vision.synthetic import DEALER_SPREAD, Camera, SceneSource
from vision.templates import TemplateError
from vision.tracking import Tracker


class CameraUnavailable(TableError):
    """No camera can film here: a simulated one whose deck's artwork (a Debian package) is not
    installed, or a live table whose config names no ``[vision] source``. A config that is wrong
    (an unknown deck, no calibration, a source that cannot be opened) is a ``TableError``."""


class CameraWitness:
    """Films the table as cards are dealt and cross-checks what it reads with the shoe.

    ``confirm_card`` (the round's ``card_witness``) looks after every card;
    ``__call__`` (the round's ``witness``) looks once more before settling.
    A look reads one frame (``stable_frames`` before settling, through the
    tracker); when it disagrees with the shoe, the simulated table's camera
    reads ``stable_frames + 1`` further frames and reports only a disagreement
    found in every one of them, so a glint on one frame does not stop the
    table, and a live camera reads on until it agrees, for up to
    ``settle_frames`` frames (``_filmed``). A card once confirmed is not asked
    for again in the round: a later look that misses it does not hold the
    round, one that sees another card there does.
    """

    def __init__(self, vision: Mapping[str, Any], log: EventLog, *, base: Path | None = None, seed: int = 0,
                 dealt: Collection[Card] | None = None, scene: int | None = None) -> None:
        """``dealt``: the cards of the game's shoe or deck, the only cards the camera reads. The simulated table's
        frames: ``scene`` draws the table (its cloth, where each hand lies; default ``seed``), ``seed`` their noise."""
        self.stable_frames = _whole(vision, "stable_frames", 2, least=1)
        self.settle_frames = _whole(vision, "settle_frames", 90, least=1)
        try:
            layout = layout_from(vision)
            if layout is None:
                raise CalibrationError("[vision] crosscheck needs [vision.calibration] and [vision.zones]")
            self.recognizer = build_recognizer(vision, base, dealt)
            live = _live_source(vision.get("source"), base)
            self.scenes: SceneSource | None = None
            if live is None:
                self.scenes = SceneSource(
                    render_deck(str(vision.get("deck", "aisleriot-anglo"))), Camera(layout.table_to_image),
                    zones=layout.zones, seed=seed if scene is None else scene, spread=_fan(vision.get("fan_mm", DEALER_SPREAD)),
                    noise_seed=None if scene is None else seed)
                live = self.scenes
        except ArtworkNotInstalled as error:
            raise CameraUnavailable(f"camera: {error}") from error
        except (ArtworkMissing, CalibrationError, TemplateError, CameraError) as error:
            raise TableError(f"camera: {error}") from error
        self.source: FrameSource = live
        self.layout = layout
        self.zones = {zone.name for zone in layout.zones}
        self.log = log
        self.tally: Counter[type[Event]] = Counter()
        """Looks by outcome (``camera_confirms``, ``camera_agrees``, ``camera_failed``) and discrepancies found."""
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
        return self._look(round, CameraConfirmed, first_frames=1)

    def __call__(self, round: Round) -> str | None:
        """Before settling: the last look at the whole layout."""
        return self._look(round, CameraAgreed, first_frames=self.stable_frames)

    def close(self) -> None:
        self.source.close()
        self._log_outages(None)

    def summary(self) -> str:
        """One line for a session's summary: what the camera confirmed and what it disputed."""
        t = self.tally
        return (f"camera      {t[CameraConfirmed]} looks agreed with the shoe as cards landed, {t[CameraAgreed]} before settling, "
                f"{t[CameraDisagreed]} discrepancies" + (f", {t[CameraFailed]} looks failed" if t[CameraFailed] else "")
                + (f", lost {t[CameraLost]} time(s)" if t[CameraLost] else ""))

    def _log_outages(self, round_id: str | None) -> None:
        """A live camera's outages since the last look, each when it happened: it may have stopped
        giving frames and come back between two looks, which no look would otherwise show."""
        if isinstance(self.source, CameraSource):
            for giving, at in self.source.changes():
                change = CameraBack if giving else CameraLost
                self.tally[change] += 1
                self.log.emit(change(round=round_id, device=str(self.source.name), at=at))

    def _look(self, round: Round, agreed: type[CameraConfirmed | CameraAgreed], first_frames: int) -> str | None:
        hands = self._face_up(round)
        if self.scenes is not None:
            self.scenes.show(hands, self.zone_of)
        dealt: dict[str, list[Any]] = {}
        for target, cards in hands.items():
            dealt.setdefault(self.zone_of(target), []).extend(cards)
        self._log_outages(round.id)
        try:
            problems = (self._drawn(round.id, dealt, first_frames) if self.scenes is not None
                        else self._filmed(round.id, dealt, first_frames))
        except (CameraError, EndOfFrames) as error:
            self._log_outages(round.id)
            self.tally[CameraFailed] += 1
            self.log.emit(CameraFailed(round=round.id, reason=str(error)))
            return f"camera: {error}"
        self._log_outages(round.id)
        self.tally[agreed if not problems else CameraDisagreed] += max(1, len(problems))
        if not problems:
            self._confirmed = (round.id, {zone: Counter(cards) for zone, cards in dealt.items()})
        for problem in problems:
            self.log.emit(CameraDisagreed(round=round.id, kind=problem.kind, zone=problem.zone,
                                          dealt=problem.dealt.code if problem.dealt else None,
                                          seen=problem.seen.code if problem.seen else None))
        if problems:
            return "camera: " + "; ".join(str(p) for p in problems)
        self.log.emit(agreed(round=round.id, cards=sum(len(c) for c in dealt.values())))
        return None

    def _drawn(self, round_id: str, dealt: dict[str, list[Any]], first_frames: int) -> list[Discrepancy]:
        """The simulated table, whose cards lie where the shoe put them from the first frame: a
        disagreement is read again on ``stable_frames + 1`` frames and only what lasts in all is kept."""
        tracker = Tracker(stable_frames=first_frames)
        for _ in range(first_frames):
            tracker.update(self._seen(dealt))
        problems = crosscheck(dealt, self._remembering(round_id, seen_by_zone(tracker.on_table)))
        for _ in range(self.stable_frames + 1 if problems else 0):
            again = crosscheck(dealt, self._remembering(round_id, seen_by_zone(self._seen(dealt))))
            problems = [p for p in problems if p in again]
        return problems

    def _filmed(self, round_id: str, dealt: dict[str, list[Any]], first_frames: int) -> list[Discrepancy]:
        """A live camera, which sees a card only once the dealer has laid it: frames go through the
        tracker until what it holds agrees with the shoe, for at most ``settle_frames`` frames after
        the first look's; what still disagrees then is what the camera saw last."""
        tracker = Tracker(stable_frames=first_frames)
        problems: list[Discrepancy] = []
        for frame in range(first_frames + self.settle_frames):
            tracker.update(self._seen(dealt))
            if frame + 1 >= first_frames:
                problems = crosscheck(dealt, self._remembering(round_id, seen_by_zone(tracker.on_table)))
                if not problems:
                    break
        return problems

    def _seen(self, dealt: dict[str, list[Any]]) -> list[Read]:
        """The cards of the next frame, each in the zone of its hand, or in the zone the shoe dealt it to
        where its outline reaches into that zone (``vision.hands``): a fanned hand crossing a zone's line
        is no discrepancy."""
        frame = self.source.read()
        mismatch = self.layout.frame_size_error(frame) or colour_error(frame)
        if mismatch:
            raise CameraError(mismatch)
        reads = self.recognizer.read(frame)
        zones = dealt_zones([r.card for r in reads], [r.polygon for r in reads], [r.zone for r in reads], dealt, self.layout)
        return [replace(r, zone=zone) for r, zone in zip(reads, zones)]

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


def film_session(
    session: Session, seed: int, *, asked: bool | None, simulated: bool, warn: Callable[[str], None],
) -> CameraWitness | None:
    """Make the camera the session's witness, closed with the session; the camera, or ``None``.

    ``asked`` is the command line's word (``--camera`` True, ``--no-camera``
    False, neither ``None``: the config's ``[vision] crosscheck`` decides).
    Without ``[vision] source`` the camera is the simulated table's, which only
    a ``simulated`` table may have. Asked for on the command line, the camera
    must film or this raises. Asked for by the config alone, a camera that
    cannot film here (``CameraUnavailable``) is logged as ``camera_off`` with
    the reason and ``warn`` is told; a config that is wrong raises either way.
    A live camera calibrated to see the cards smaller than the recognizer is
    measured at is logged as ``camera_scale_low`` and ``warn`` is told; it films.
    ``seed`` draws the simulated table's frames; the table itself is the same at every start (``table_scene``).
    """
    vision = session.config.sections.get("vision", {})
    if asked is False or not (asked or vision.get("crosscheck", False)):
        return None
    try:
        if "source" not in vision and not simulated:
            raise CameraUnavailable("camera: [vision] crosscheck at a live table needs [vision] source, the camera "
                                    "(a device index, /dev/video*, a stream URL, a folder of images or a video file)")
        camera = CameraWitness(vision, session.log, base=Path(session.config.path).parent, seed=seed,
                               dealt=session.table.game.deck(), scene=table_scene(session.config.table_id))
    except CameraUnavailable as unavailable:
        if asked:
            raise
        session.log.emit(CameraOff(reason=str(unavailable)))
        warn(f"{unavailable}; playing without the camera")
        return None
    small = scale_warning(camera.layout) if camera.scenes is None else None
    if small:
        session.log.emit(CameraScaleLow(px_per_mm=round(camera.layout.centre_px_per_mm, 3), reason=small))
        warn(f"camera: {small}")
    session.table.witness, session.table.card_witness = camera, camera.confirm_card
    session.closing.callback(camera.close)
    return camera


def table_scene(table_id: str) -> int:
    """The simulated table's own scene (its cloth, where its dealer lays each hand), the same at every start of the
    table, as a real table's cloth does not change when its controller restarts: a round recovered after a restart
    is filmed on the cloth it was dealt on."""
    return zlib.crc32(table_id.encode())


def _live_source(spec: Any, base: Path | None) -> FrameSource | None:
    """``[vision] source``: the camera's frames (``None``: the simulated table's drawn scenes). A
    folder or video named by a relative path lies beside the config."""
    if spec is None:
        return None
    if isinstance(spec, int) and not isinstance(spec, bool) and spec >= 0:
        return open_source(str(spec))
    if not isinstance(spec, str) or not spec:
        raise CalibrationError(f"[vision] source must be a camera index, a /dev/video* path, a stream URL, "
                               f"a folder of images or a video file, not {spec!r}")
    if spec.isdigit() or spec.startswith("/dev/") or "://" in spec or base is None:
        return open_source(spec)
    return open_source(str(base / spec))


def _whole(vision: Mapping[str, Any], key: str, default: int, least: int) -> int:
    value = vision.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise TableError(f"camera: [vision] {key} must be a whole number of frames, at least {least}, not {value!r}")
    return value


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
