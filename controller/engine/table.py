"""A table: one game, its devices, its limits and meters, and the rounds it opens one after another.

The table holds what lasts from round to round; the table loop
(``controller.engine.loop``) plays each round on it, and the round
(``controller.engine.round``) decides everything within a round.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from typing import Any

from controller.engine.config import TableConfig
from controller.engine.feeds import CardFeed, DeviceFaulted, FeedError
from controller.engine.log import EventLog
from controller.engine.round import Limits, Round
from controller.events import PositionTaken
from controller.records.meters import Meters
from controller.rules.base import Game


def banked(round: Round) -> bool:
    """Whether a finished round counts as one of the player-dealer's banks: a voided round returned every wager
    and played no hand, so it is no bank (Double Hand Poker's general rule 5 says so; every player-dealer game
    is read the same way), and the position does not pass or stop after it."""
    return round.state == "complete"


class Table:
    def __init__(
        self,
        config: TableConfig,
        feed: CardFeed,
        log: EventLog,
        *,
        session: str | None = None,
        witness: Callable[[Round], str | None] | None = None,
        card_witness: Callable[[Round], str | None] | None = None,
        recovery_timeout: float = 30.0,
    ) -> None:
        self.config = config
        self.recovery_timeout = recovery_timeout
        """How long a round held for a device fault waits for the device to report it cleared."""
        self.witness = witness
        self.card_witness = card_witness
        self.game: Game[Any] = config.make_game()
        self.feed = feed
        self.log = log
        self.limits = Limits(config.limits)
        self.meters = Meters()
        self.session = session or dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")
        self.rounds_played = 0
        self.stopped: str | None = None
        self.last_round: str | None = None
        """The id of the latest round opened (or journaled), under which a position taken between rounds is logged."""

    def next_round_id(self) -> str:
        return f"{self.config.table_id}-{self.session}-{self.rounds_played + 1:06d}"

    def new_round(self) -> Round:
        round_id = self.last_round = self.next_round_id()
        return self._round(round_id, self.feed.prepare_round(round_id))

    def _round(self, round_id: str, burns: int) -> Round:
        round = Round(
            round_id,
            self.game,
            self.log,
            spots=self.config.spots,
            limits=self.limits,
            rounding=self.config.rounding,
            burns=burns,
        )
        return self.witnessed(round)

    def witnessed(self, round: Round) -> Round:
        """``round`` with the table's witnesses (the shuffle monitor's doubts, the camera): a new round, or one
        recovered from the journal after a restart, whose cards from then on are tested and filmed as any round's."""
        round.witness = self._witness
        round.card_witness = self._card_witness
        return round

    def _card_witness(self, round: Round) -> str | None:
        """After each card is placed: the feed's doubt (a shuffle test's hold), then the camera's."""
        doubt = self.feed.doubt()
        if doubt is None and self.card_witness is not None:
            doubt = self.card_witness(round)
        return doubt

    def _witness(self, round: Round) -> str | None:
        """Before settling: the same (every card dealt tested by now), with the camera's last look."""
        doubt = self.feed.doubt(round.id, settling=True)
        if doubt is None and self.witness is not None:
            doubt = self.witness(round)
        return doubt

    def open_round(self) -> Round:
        """The next round, opened for betting before its device is made ready (``ready``)."""
        round = self._round(self.next_round_id(), 0)
        self.last_round = round.id
        round.start()
        return round

    def ready(self, round: Round, wait: float) -> bool:
        """Get the feed ready for ``round`` (a shuffle, a fresh deck), holding the round while its device cannot be
        made ready and going on once the device reports it can, for up to ``wait`` seconds; False if the round
        stays held (only the supervisor can end the fault, or the device did not report it over in time)."""
        deadline = time.monotonic() + wait
        while True:
            try:
                round.burns_due += self.feed.prepare_round(round.id)
            except FeedError as exc:
                round.put_on_hold(f"the {self.feed.source} is not ready: {exc}")
                supervisor = getattr(exc, "supervisor", not isinstance(exc, DeviceFaulted))
                left = max(0.0, deadline - time.monotonic())
                if supervisor or not self.feed.wait_recovered(round.id, left, preparing=True):
                    return False
                continue
            if round.state == "hold":
                round.release(by="device recovered")
            return True

    def take_position(self, seat: int, round_id: str | None) -> dict[str, Any]:
        """A stopped game goes on: ``seat`` takes the player-dealer position (``ValueError`` if it may not)."""
        facts = self.game.take_position(seat)
        self.log.emit(PositionTaken(round=round_id or self.last_round, game=self.game.id, details=facts))
        self.stopped = None
        return facts

    def offer_position(self, accepts: Callable[[int], bool], round_id: str | None) -> dict[str, Any] | None:
        """Offer a stopped game's position clockwise; the first seat that ``accepts`` takes it. ``None``: nobody did."""
        for seat in self.game.position_offer():
            if accepts(seat):
                return self.take_position(seat, round_id)
        return None
