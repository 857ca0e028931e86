"""Deck inventory: the cards a shoe or a shuffler deck showed, reconciled against what the deck must hold.

At the end of every shoe and at every shuffler verify, the cards seen (read
by the device, and by the camera as a second witness) are counted against the
deck's composition. Every card that is missing, extra (more copies than the
deck holds), foreign (not of this deck at all) or unreadable is named, and a
device count that differs from the deck's size is reported. Any of these
holds the table: a deck with a card too many or too few is not the game's deck.

>>> from controller.cards import parse_cards, standard_deck
>>> deck = standard_deck()
>>> seen = list(deck[:-1]) + parse_cards(["AS"])
>>> report = reconcile(deck, seen, complete=True)
>>> report.problems()
['missing AC', 'extra AS (2 seen, the deck holds 1)']
>>> reconcile(deck, deck[:10], counted=51).problems()
['the device counted 51 cards; the deck holds 52']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from controller.cards import Card


@dataclass(frozen=True)
class Inventory:
    """What a reconciliation found; ``problems()`` names each in words, ``held`` says whether to stop the table."""

    size: int
    seen: int
    counted: int | None
    unreadable: int
    missing: tuple[str, ...]
    extra: tuple[tuple[str, int, int], ...]
    """(card, copies seen, copies the deck holds)."""
    foreign: tuple[str, ...]
    camera_only: tuple[str, ...]
    """Cards the camera saw more often than the device read them (a misread or a card slipped past the reader)."""

    @property
    def held(self) -> bool:
        return bool(self.missing or self.extra or self.foreign or self.camera_only
                    or (self.counted is not None and self.counted != self.size))

    def problems(self) -> list[str]:
        out = []
        if self.counted is not None and self.counted != self.size:
            out.append(f"the device counted {self.counted} cards; the deck holds {self.size}")
        out += [f"missing {card}" for card in self.missing]
        out += [f"extra {card} ({seen} seen, the deck holds {holds})" for card, seen, holds in self.extra]
        out += [f"foreign card {card} (not of this deck)" for card in self.foreign]
        out += [f"{card} seen by the camera but not read by the device" for card in self.camera_only]
        return out

    def as_fields(self) -> dict[str, Any]:
        return {"size": self.size, "seen": self.seen, "counted": self.counted, "unreadable": self.unreadable,
                "missing": list(self.missing), "extra": [list(e) for e in self.extra], "foreign": list(self.foreign),
                "camera_only": list(self.camera_only), "held": self.held, "problems": self.problems()}


def reconcile(
    deck: Sequence[Card],
    seen: Iterable[Card | None],
    *,
    complete: bool = False,
    counted: int | None = None,
    camera: Iterable[Card] | None = None,
) -> Inventory:
    """Reconcile the cards ``seen`` (``None``: unreadable) against ``deck``.

    ``complete``: every card of the deck was dealt, so a card never seen is
    missing. ``counted``: the device's own count of the deck. ``camera``: the
    cards the camera read over the same shoe (it sees only cards turned up).
    """
    holds = Counter(deck)
    cards = list(seen)
    read = Counter(c for c in cards if c is not None)
    unreadable = sum(c is None for c in cards)
    extra = tuple(sorted((c.code, n, holds[c]) for c, n in read.items() if c in holds and n > holds[c]))
    foreign = tuple(sorted(c.code for c in read if c not in holds))
    missing: tuple[str, ...] = ()
    if complete and not unreadable:
        missing = tuple(c.code for c in dict.fromkeys(deck) for _ in range(holds[c] - read[c]) if read[c] < holds[c])
    camera_only: tuple[str, ...] = ()
    if camera is not None:
        filmed = Counter(camera)
        camera_only = tuple(sorted(c.code for c, n in filmed.items() if n > read[c]))
    return Inventory(len(deck), len(cards), counted, unreadable, missing, extra, foreign, camera_only)
