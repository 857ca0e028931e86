"""The commands the console's table loop takes from its queue: from the page, the devices and the supervisor.

Each is a frozen record; the loop carries them out one at a time, in the
order they arrived, and answers each on its ``Future``.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.errors import TableError
from controller.events import Event
from controller.money import Cents


class CommandRefused(TableError, ValueError):
    """A console command the table cannot carry out now; the message says why."""


@dataclass(frozen=True, slots=True)
class OpenRound:
    """Start the next round (betting opens)."""


@dataclass(frozen=True, slots=True)
class PlaceWager:
    """Place or correct a wager; 0 takes it back."""

    spot: int
    wager: str
    amount: Cents


@dataclass(frozen=True, slots=True)
class Sit:
    """Deal a spot in without a wager (poker: the stakes come from the blinds and the betting)."""

    spot: int


@dataclass(frozen=True, slots=True)
class CloseBetting:
    """The dealer calls "no more bets"."""


@dataclass(frozen=True, slots=True)
class Decide:
    """A player's decision, tapped in by the dealer: with the amount, the cards (codes) or the numbers it carries."""

    spot: int
    action: str
    hand: int = 0
    amount: Cents | None = None
    cards: tuple[str, ...] = ()
    values: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class EnterPiece:
    """The dealer keys in the card or tile just dealt (Pai Gow Tiles: no device deals the tiles)."""

    code: str


@dataclass(frozen=True, slots=True)
class TakePosition:
    """A player takes the player-dealer position of a game stopped for want of one."""

    spot: int


@dataclass(frozen=True, slots=True)
class DeviceFault:
    """A device reports a fault (door open, jam, lost link): the round in play goes on hold."""

    device: str
    reason: str


@dataclass(frozen=True, slots=True)
class Resume:
    """Supervisor: the fault is dealt with, resume the held round where it stopped."""

    reason: str
    by: str = "supervisor"
    """The supervisor who confirmed it with their PIN."""


@dataclass(frozen=True, slots=True)
class VoidRound:
    """Supervisor: misdeal, every wager is returned."""

    reason: str
    by: str = "supervisor"
    """The supervisor who confirmed it with their PIN."""


@dataclass(frozen=True, slots=True)
class CorrectCard:
    """Supervisor: a card that could not be placed was misread; this is the card really dealt."""

    card: str
    reason: str
    by: str = "supervisor"
    """The supervisor who confirmed it with their PIN."""


@dataclass(frozen=True, slots=True)
class CorrectPlacedCard:
    """Supervisor: card ``index`` (0-based, in dealing order) was placed but misread; ``card`` was really dealt."""

    index: int
    card: str
    reason: str
    by: str = "supervisor"
    """The supervisor who confirmed it with their PIN."""


@dataclass(frozen=True, slots=True)
class Record:
    """Journal ``event`` from the table loop's own thread (logins, PIN checks, refused requests)."""

    event: Event


Command = (OpenRound | PlaceWager | Sit | CloseBetting | Decide | EnterPiece | DeviceFault | Resume | VoidRound | CorrectCard
           | CorrectPlacedCard | Record | TakePosition)
