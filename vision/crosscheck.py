"""The shoe and the camera as two witnesses: compare the cards dealt to each zone with those read there.

The round engine knows which cards the shoe dealt into which zone; the
recognizer says which cards it sees in each zone. ``crosscheck`` returns every
disagreement as a ``Discrepancy``; an empty list means the two agree. A card
the camera could not read counts as a disagreement too (``unreadable``), so
the round is held until someone looks.

>>> from controller.cards import parse_cards
>>> crosscheck({"dealer": parse_cards("AS KD")}, {"dealer": parse_cards("AS KH")})
[Discrepancy(kind='seen-differently', zone='dealer', dealt=Card('KD'), seen=Card('KH'))]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from controller.cards import Card
from vision.recognizer import Read

__all__ = ["Discrepancy", "Unsure", "crosscheck", "seen_by_zone"]

Kind = Literal["dealt-not-seen", "seen-not-dealt", "seen-differently", "unreadable"]


@dataclass(frozen=True)
class Discrepancy:
    """One disagreement between shoe and camera in one zone."""

    kind: Kind
    zone: str | None
    dealt: Card | None = None
    seen: Card | None = None

    def __str__(self) -> str:
        where = self.zone or "outside every zone"
        if self.kind == "dealt-not-seen":
            return f"{self.dealt} was dealt to {where} but the camera does not see it"
        if self.kind == "seen-not-dealt":
            return f"the camera sees {self.seen} in {where} but it was not dealt there"
        if self.kind == "seen-differently":
            return f"{self.dealt} was dealt to {where} but the camera reads {self.seen}"
        return f"the camera sees a card in {where} it cannot read"


@dataclass(frozen=True)
class Unsure:
    """An unreadable card whose look points to ``card``: it may corroborate ``card`` being dealt there,
    never name a card by itself."""

    card: Card


Seen = Card | Unsure | None


def seen_by_zone(reads: Iterable[Read]) -> dict[str | None, list[Seen]]:
    """The cards read per zone (``Unsure`` for an unreadable card with a guess, ``None`` without one)."""
    out: dict[str | None, list[Seen]] = {}
    for read in reads:
        out.setdefault(read.zone, []).append(read.card if read.card is not None else
                                             Unsure(read.guess) if read.guess is not None else None)
    return out


def crosscheck(dealt: Mapping[str, Sequence[Card]], seen: Mapping[str | None, Sequence[Seen]]) -> list[Discrepancy]:
    """Disagreements zone by zone: cards missing, extra, read as another card, or unreadable.

    An unreadable card whose look points to a card dealt there and not read
    (``Unsure``) corroborates it: the camera is a witness to what the shoe
    says, not the one who names the card.
    """
    out: list[Discrepancy] = []
    for zone in sorted(set(dealt) | set(seen), key=lambda z: (z is None, z or "")):
        want = Counter(dealt.get(zone, ())) if zone is not None else Counter()
        got_all = list(seen.get(zone, ()))
        got = Counter(c for c in got_all if isinstance(c, Card))
        missing_now = want - got
        unreadable = 0
        for item in got_all:
            if isinstance(item, Unsure) and missing_now[item.card] > 0:
                missing_now[item.card] -= 1
                got[item.card] += 1
            elif not isinstance(item, Card):
                unreadable += 1
        missing = sorted((want - got).elements())
        extra = sorted((got - want).elements())
        while missing and extra:
            out.append(Discrepancy("seen-differently", zone, missing.pop(0), extra.pop(0)))
        out.extend(Discrepancy("unreadable", zone) for _ in range(unreadable))
        blank = unreadable
        for card in missing:
            if blank:
                blank -= 1
                continue
            out.append(Discrepancy("dealt-not-seen", zone, dealt=card))
        out.extend(Discrepancy("seen-not-dealt", zone, seen=card) for card in extra)
    return out
