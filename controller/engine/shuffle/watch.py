"""The shuffle monitor at a table: fed by the card feed, journaling every result, holding what must not pay.

A feed (``controller.feeds``) tells its ``ShuffleWatch`` each card its device
deals (``card``), when a shoe or deck starts (``shoe_started``, with the
device's own count) and ends (``shoe_ended``). The watch journals:

- ``ShuffleAlarm``: a test crossed its line (``level`` hold or warn; the pit page shows it);
- ``ShuffleTested``: at the end of each shoe, every test's statistic, p-value and score, with the shoe's order and
  the rounds it was dealt to;
- ``DeckReconciled``: the deck inventory of the shoe (every missing, extra, foreign or unreadable card named).

A hold alarm during a shoe becomes the round's doubt (``doubt``, asked by the
table after each card is placed, before anything settles) and the shoe is
due for a reshuffle; a hold at a shoe's end or start (a device test, a wrong
count) is returned for the feed to hold the next round before betting.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from controller.cards import Card
from controller.engine.log import EventLog
from controller.engine.shuffle import warm
from controller.engine.shuffle.inventory import reconcile
from controller.engine.shuffle.policy import Policy
from controller.events import CameraDisagreed, DeckReconciled, Event, ShuffleAlarm, ShuffleTested

if TYPE_CHECKING:
    from controller.engine.shuffle.monitor import Alarm


class ShuffleWatch:
    """See module doc. ``deck``: every card of one shoe or one shuffler deck."""

    def __init__(self, deck: Sequence[Card], log: EventLog, *, device: str, policy: Policy | None = None) -> None:
        # the shuffle kernels (numba) are imported with the first watch, not with the engine: a command that only
        # reads the journal (`tablectl hold list`, `journal verify`) starts in half the time
        from controller.engine.shuffle.monitor import ShuffleMonitor

        self.monitor = ShuffleMonitor(deck, policy, device=device, defer=True)
        warm.start()  # the kernels compile while the table shuffles and takes bets (``warm``)
        self.deck = tuple(deck)
        self.log = log
        self.device = device
        self._doubt: str | None = None
        self._counted: int | None = None
        self._seen: list[Card | None] = []
        self._rounds: list[str] = []
        """The rounds the shoe's cards were dealt to, in order (journaled with its tests)."""
        self._filmed: list[Card] = []
        self._camera_notes: list[str] = []
        self.reshuffle_due = False
        """Set by a hold during a shoe: the feed should start a new shoe for the next round."""
        log.subscribe(self._camera)

    @property
    def enabled(self) -> bool:
        return self.monitor.policy.enabled

    def shoe_started(self, round_id: str | None, counted: int | None, *, decks: int = 1) -> list[str]:
        """A new shoe (or deck) was shuffled; ``counted``: the device's count of it, if it gives one; ``decks``: how
        many decks the device deals in turn (2: each deck is tested against the order it was itself last dealt in).

        Returns the reasons to hold the next round (a wrong count), each journaled.
        """
        self.monitor.decks = decks
        self.monitor.start_shoe()
        self._seen, self._rounds, self._counted, self.reshuffle_due = [], [], counted, False
        self._filmed, self._camera_notes = [], []
        if counted is not None and counted != len(self.deck):
            inventory = reconcile(self.deck, [], counted=counted)
            self.log.emit(DeckReconciled(round=round_id, device=self.device, shoe=self.monitor.shoe, at="shuffle",
                                         **inventory.as_fields()))
            return [f"deck count on {self.device} shoe {self.monitor.shoe}: {'; '.join(inventory.problems())}"]
        return []

    def card(self, card: Card | None, round_id: str | None) -> None:
        """A card the device dealt (``None``: one it could not read), in the order dealt."""
        if not self.monitor.open:  # a shoe its device began without a shuffle reported: nothing of the last one
            self.monitor.start_shoe()
            self._seen, self._rounds, self._counted = [], [], None
            self._filmed, self._camera_notes = [], []
        self._seen.append(card)
        if round_id is not None and round_id not in self._rounds:
            self._rounds.append(round_id)
        self._raised(self.monitor.card(card), round_id)

    def stack(self, cards: Sequence[Card | None], round_id: str | None) -> None:
        """A shuffler's stack, tested whole as it is dispensed (before its first card is placed): an alarm raised by
        one of its cards names the stack, since the round holds at the first card of it placed."""
        first = len(self.monitor.dealt) + 1 if self.monitor.open else 1
        self.monitor.stack = (first, first + len(cards) - 1)
        try:
            for card in cards:
                self.card(card, round_id)
        finally:
            self.monitor.stack = None

    def _raised(self, alarms: list[Alarm], round_id: str | None) -> None:
        for alarm in alarms:
            self._alarm(alarm, round_id)
            if alarm.level == "hold":
                self._doubt = self._doubt or alarm.reason
                self.reshuffle_due = True

    def doubt(self, round_id: str | None = None, *, settling: bool = False) -> str | None:
        """The reason to hold the round now (a hold alarm since the last ask), once.

        ``settling``: the round is about to settle, so the cards kept untested while the kernels compiled
        (``warm``) are tested first, waiting for the kernels if need be: nothing pays on untested cards.
        """
        if settling:
            self._raised(self.monitor.catch_up(), round_id)
        doubt, self._doubt = self._doubt, None
        return doubt

    def shoe_ended(self, round_id: str | None, *, complete: bool = False) -> list[str]:
        """Close the shoe: journal its tests and its inventory. Returns the reasons to hold the next round."""
        if not self.monitor.open:
            return []
        report = self.monitor.end_shoe()
        reasons = []
        for alarm in report.alarms:
            self._alarm(alarm, round_id)
            if alarm.level == "hold":
                reasons.append(alarm.reason)
        if report.cards:
            self.log.emit(ShuffleTested(round=round_id, **report.as_fields(), rounds=list(self._rounds)))
        inventory = reconcile(self.deck, self._seen, complete=complete, counted=self._counted,
                              camera=self._filmed if self._camera_notes else None)
        self.log.emit(DeckReconciled(round=round_id, device=self.device, shoe=report.shoe, at="end of shoe",
                                     **inventory.as_fields(), camera_disagreed=self._camera_notes))
        if inventory.held:
            reasons.append(f"deck inventory of {self.device} shoe {report.shoe}: {'; '.join(inventory.problems())}")
        return reasons

    def restore(self, tested: Sequence[ShuffleTested]) -> int:
        """Take back this device's shoes from the journal's ``ShuffleTested`` records; how many."""
        orders = [[None if code == "--" else Card.parse(code) for code in r.order] for r in tested if r.device == self.device]
        self.monitor.restore(orders)
        return len(orders)

    def _camera(self, event: Event) -> None:
        """The camera, second witness: each card it read differently from the device (its discrepancies) is kept
        for the shoe's inventory, which names a card the camera saw more often than the device read it."""
        if not isinstance(event, CameraDisagreed) or not self.monitor.open:
            return
        self._camera_notes.append(f"{event.kind} in {event.zone}: device {event.dealt or '-'}, camera {event.seen or '-'}")
        try:
            if event.seen:
                self._filmed.append(Card.parse(event.seen))
        except ValueError:
            pass  # not a card of any deck: the discrepancy itself is journaled and held the round

    def _alarm(self, alarm: Alarm, round_id: str | None) -> None:
        fields: dict[str, Any] = alarm.as_fields()
        self.log.emit(ShuffleAlarm(round=round_id, device=self.device, **fields))
