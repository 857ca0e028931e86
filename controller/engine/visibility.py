"""What each audience may see of a round, decided once, here, from the game's rules.

A dealt card lies as the game's rules say at that moment (``Game.face``: face
up, face down until the reveal, or face down for good: burns, discards, folded
hands, hands never compared). From that alone this module decides what each
audience is given:

- ``RECORD`` (the journal, the audit trail, replay) gets everything;
- the screens (``DEALER`` page, ``PIT`` page, ``STREAM`` of events to screens,
  the ``TERMINAL`` of ``tablectl run -v``) get a card's identity only once it
  lies face up: before that, no field of any event or view carries it.

The views do not decide: they ask ``Screens.sight`` which of a round's cards
they may show and pass every event through ``Screens.event``. An event whose
round is no longer known has every card field blanked (never a guess in the
open direction), and free text (a refusal, a hold reason) is scrubbed of the
codes of the round's hidden cards as a last line.

Today the four screens see the same; they stay separate audiences so a
screen that may see more (surveillance) or less is one line here.

>>> SCREENS
(<Audience.DEALER: 'dealer'>, <Audience.PIT: 'pit'>, <Audience.STREAM: 'stream'>, <Audience.TERMINAL: 'terminal'>)
"""

from __future__ import annotations

import enum
import re
from collections import deque
from dataclasses import dataclass
from typing import Any, Protocol

from controller.events import (
    CardBurned,
    CardCorrected,
    CardDealt,
    DecisionRefusal,
    DecisionTaken,
    ShoeCardBurned,
    ShuffleTested,
    StackDispensed,
    SupervisorActed,
)
from controller.rules.base import Game
from controller.tiles import Piece


class Round(Protocol):
    """What visibility reads of a round (``controller.engine.round.Round``, which logs through the event log
    that keeps the ``Screens`` below: a Protocol here, so the two modules do not import each other)."""

    id: str
    cards: list[tuple[str, Piece, str]]
    game: Game[Any]
    hand: Any

    def face_down(self) -> set[int]: ...


class Audience(enum.StrEnum):
    DEALER = "dealer"
    PIT = "pit"
    STREAM = "stream"
    TERMINAL = "terminal"
    RECORD = "record"


SCREENS = (Audience.DEALER, Audience.PIT, Audience.STREAM, Audience.TERMINAL)
HIDDEN = "??"
"""What a scrubbed card code becomes in free text."""
CODE = re.compile(r"(?<![A-Za-z0-9-])(?:[2-9TJQKA][SHDCB]|JK|[1-6]-[1-6])(?![A-Za-z0-9-])")
"""A card code (``QS``, ``TB``, ``JK``) or a tile code (``6-6``) standing alone in text."""

ALWAYS_HIDDEN: dict[str, tuple[str, ...]] = {
    StackDispensed.EVENT: ("cards",),  # a stack out of the shuffler: its cards are dealt face down or up one by one
    ShoeCardBurned.EVENT: ("card",),
    CardBurned.EVENT: ("card",),
    ShuffleTested.EVENT: ("order",),  # a deck's whole order at its end: burns, folded hands, discards among it
}
"""Event fields no screen ever gets: each card in them reaches the screens only as it is placed, if it is face up."""
PLACED: dict[str, tuple[str, ...]] = {
    CardDealt.EVENT: ("card",),
    CardCorrected.EVENT: ("card", "previous"),
}
"""Event fields naming a card placed at the event's ``target``: shown when that card lies face up."""
NAMED: dict[str, tuple[str, ...]] = {
    DecisionTaken.EVENT: ("cards",),
    DecisionRefusal.EVENT: ("cards",),
}
"""Event fields naming cards of a hand (a set hand, a discard): shown when every card named lies face up."""
ENTERED: dict[str, tuple[str, ...]] = {
    SupervisorActed.EVENT: ("card", "previous"),
}
"""Event fields naming a card a supervisor entered (journaled before it is placed) or replaced at ``index``: shown
when the card at ``index`` lies face up, or (no index) when a face-up card of the round has that code."""


@dataclass(frozen=True)
class Sight:
    """What one audience may see of one round now."""

    round_id: str
    shown: tuple[bool, ...]
    """Per card of ``round.cards``, in dealing order: may this audience see its face?"""
    hidden_at: frozenset[tuple[str, str]]
    """(target, code) of every hidden card: an event placing such a card at that target is blanked."""
    shown_codes: frozenset[str]
    hidden_codes: frozenset[str]
    """Codes of hidden cards that no face-up card of the round shares: scrubbed from free text."""

    def named_ok(self, codes: Any) -> bool:
        """Whether every code in ``codes`` names a card that lies face up."""
        return isinstance(codes, list) and all(isinstance(c, str) and c in self.shown_codes for c in codes)

    def scrub(self, text: str) -> str:
        if not self.hidden_codes:
            return text
        return CODE.sub(lambda m: HIDDEN if m.group(0) in self.hidden_codes else m.group(0), text)


def sight(round: Round, audience: Audience) -> Sight:
    """What ``audience`` may see of ``round`` at this moment (``Game.face`` and whether the round has revealed)."""
    if audience is Audience.RECORD:
        shown = tuple(True for _ in round.cards)
    else:
        down = round.face_down()
        shown = tuple(i not in down for i in range(len(round.cards)))
    hidden = [(t, c.code) for (t, c, _), ok in zip(round.cards, shown, strict=True) if not ok]
    shown_codes = frozenset(c.code for (_, c, _), ok in zip(round.cards, shown, strict=True) if ok)
    return Sight(round.id, shown, frozenset(hidden), shown_codes, frozenset(c for _, c in hidden) - shown_codes)


def hands(round: Round, seen: Sight) -> list[dict[str, Any]]:
    """Each hand on the table as ``seen`` allows, in the order the game shows them (``Game.hands_now``: a split
    blackjack hand's cards where they lie, not where they were dealt): its target, the spot it shows on (``None``:
    the dealer's, the board, a pile not given out yet) and what the dealer reads beside it, from its face-up cards
    alone."""
    dealt = [(target, card) for target, card, _ in round.cards]
    out = []
    for target, indexes in round.game.hands_now(round.hand, dealt):
        if target == "burn":
            continue
        cards = [dealt[i][1] for i in indexes if seen.shown[i]]
        try:
            label = round.game.hand_label(round.hand, target, cards) if cards else None
        except ValueError:  # a hand the game cannot read yet (a short hand mid-deal)
            label = None
        out.append({"target": target, "spot": round.game.spot_of(round.hand, target), "label": label})
    return out


def places(round: Round) -> list[str]:
    """Where each of the round's cards lies now, in dealing order (``Game.hands_now``): the hand a screen shows it in."""
    lies = [target for target, _, _ in round.cards]
    for target, indexes in round.game.hands_now(round.hand, [(t, c) for t, c, _ in round.cards]):
        for index in indexes:
            lies[index] = target
    return lies


def blank(record: dict[str, Any], sight: Sight | None) -> dict[str, Any]:
    """``record`` as a screen may show it; ``sight`` is its round's (``None``: the round is unknown, blank all)."""
    event = record.get("event")
    out = dict(record)
    for key in ALWAYS_HIDDEN.get(event, ()):  # type: ignore[arg-type]
        if key in out:
            value = out[key]
            out[key] = None
            if isinstance(value, list):
                out["count"] = len(value)
    for key in PLACED.get(event, ()):  # type: ignore[arg-type]
        if key in out and (sight is None or (str(out.get("target")), str(out[key])) in sight.hidden_at):
            out[key] = None
    for key in NAMED.get(event, ()):  # type: ignore[arg-type]
        if out.get(key) and (sight is None or not sight.named_ok(out[key])):
            out[key] = None
            out[f"{key}_count"] = len(record[key]) if isinstance(record[key], list) else None
    for key in ENTERED.get(event, ()):  # type: ignore[arg-type]
        if isinstance(out.get(key), str) and not _entered_ok(out[key], out.get("index"), sight):
            out[key] = None
    return scrub_all(out, sight) if sight is not None else out


def _entered_ok(code: str, index: Any, sight: Sight | None) -> bool:
    if sight is None:
        return False
    if isinstance(index, int) and not isinstance(index, bool):
        return 0 <= index < len(sight.shown) and sight.shown[index]
    return code in sight.shown_codes


def scrub_all(value: Any, sight: Sight) -> Any:
    """``value`` (JSON-like) with hidden card codes taken out of every string in it."""
    if isinstance(value, str):
        return sight.scrub(value)
    if isinstance(value, dict):
        return {k: scrub_all(v, sight) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_all(v, sight) for v in value]
    return value


class Screens:
    """The rounds the engine has in play (and the last few it finished), to decide any event's screen form.

    Every ``Round`` registers itself here (through its event log) when it is made.
    """

    KEPT = 6

    def __init__(self) -> None:
        self._rounds: deque[Round] = deque(maxlen=self.KEPT)

    def track(self, round: Round) -> None:
        self._rounds = deque((r for r in self._rounds if r.id != round.id), maxlen=self.KEPT)
        self._rounds.append(round)

    def round(self, round_id: str | None) -> Round | None:
        return next((r for r in reversed(self._rounds) if r.id == round_id), None) if round_id else None

    def sight(self, round_id: str | None, audience: Audience) -> Sight | None:
        round = self.round(round_id)
        return sight(round, audience) if round is not None else None

    def event(self, record: dict[str, Any], audience: Audience) -> dict[str, Any]:
        """``record`` as ``audience`` may receive it now."""
        if audience is Audience.RECORD:
            return record
        return blank(record, self.sight(record.get("round"), audience))

    def text(self, text: str, round_id: str | None, audience: Audience) -> str:
        """Free text about ``round_id`` (a refusal, a hold reason) with its hidden card codes scrubbed."""
        seen = self.sight(round_id, audience)
        return seen.scrub(text) if seen is not None else text
