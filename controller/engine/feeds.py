"""Where a round's cards come from: a dealing shoe, or a shuffler's stacks.

A feed wraps a device and adds the table's procedure around it: when to
shuffle, how many cards to burn after a shuffle, what to do when the cut card
comes out. Table-level happenings (a shuffle, the cut card) are logged here,
and so is everything the device reports (docs/protocol.md 10.3): each fault
and its end, each warning, each card it lets out, exactly once, whether it
went to a player, to the burn, was unreadable, or came while no round could
take it.

A device fault raises ``DeviceFaulted``; ``supervisor`` says whether only the
supervisor can end it (an unreadable card, a restart mid-round, lost events, a
stack whose cards are not known) or the device's own report will
(``wait_recovered``). ``supervisor_resumed`` tells the feed the supervisor
resumed the round (``controller.holds``).
"""

from __future__ import annotations

import abc
import random
import time
from collections.abc import Sequence
from typing import Any

from controller import events as ev
from controller.cards import Card
from controller.engine.awaited import AwaitedShoe, AwaitedShuffler
from controller.engine.log import EventLog
from controller.engine.round import Round
from controller.engine.shuffle.watch import ShuffleWatch
from controller.events import UNSET
from drivers.errors import DeviceError, DeviceLost, DeviceTimeout
from drivers.shoe import (
    CardBurned,
    CardDrawn,
    CardUnreadable,
    CutCardReached,
    DeviceFault,
    DeviceRecovered,
    DeviceWarning,
    Shoe,
    ShoeEmpty,
)
from drivers.shuffler import Shuffler, ShufflerError, ShufflerOffline, ShufflerRestarted, StackUnknown

RESTARTED_AFTER_CARDS = ("the shuffler restarted (power cut or reset): the deck of this round is gone, cards of it "
                        "already dealt, and a fresh deck could deal them again: void the round")
"""Why a round whose shuffler restarted after cards of its deck were dealt may only be voided (8.4)."""


class FeedError(RuntimeError):
    """The device cannot give the card the round needs (shoe empty, shuffler fault)."""


class ShuffleHeld(FeedError):
    """The shoe or deck must not be dealt from: a shuffle test's hold, or its count is wrong (the reasons joined)."""


class NoCardYet(FeedError):
    """The shoe gave no card within the wait: at a real table, the dealer has not drawn it yet."""


class PieceRefused(ValueError):
    """A piece the dealer keyed in that the set does not hold, or holds no copy of left this round."""


class DeviceFaulted(FeedError):
    """The device reported a fault; ``code`` names it (``jam``, ``door-open``, ``communication-lost``, ...).

    ``supervisor``: the device will not end it by itself; the supervisor resumes or voids the round.
    """

    def __init__(self, code: str, message: str, *, supervisor: bool = False) -> None:
        self.code = code
        self.supervisor = supervisor
        super().__init__(message)


class CardFeed(abc.ABC):
    source: str

    @abc.abstractmethod
    def prepare_round(self, round_id: str) -> int:
        """Get ready for a round (shuffle if due); return how many cards the round must burn first."""

    @abc.abstractmethod
    def next_card(self, round_id: str) -> Any:
        """The next card (or tile) for the round."""

    def deal(self, round: Round) -> str:
        """Give ``round`` its next card (a burn where the device burned it); returns where it went."""
        return round.card(self.next_card(round.id), self.source)

    def supervisor_resumed(self, round_id: str | None) -> None:  # noqa: B027 - optional hook
        """The supervisor resumed a round this feed held (having entered any card it could not read), or the table
        (``None``: no round in play) held for a fault of the feed."""

    def void_only(self, round_id: str) -> str | None:
        """Why the held round ``round_id`` may only be voided, not resumed (a shuffler's deck lost to a restart with
        cards of it dealt, 8.4); ``None``: a resume may go on."""
        return None

    def end_round(self, round_id: str) -> None:  # noqa: B027 - optional hook
        """The round is over."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the device behind the feed."""

    def wait_recovered(self, round_id: str, timeout: float, *, preparing: bool = False) -> bool:
        """After ``DeviceFaulted``: wait until the device reports every open fault cleared. False if it does not.
        ``preparing``: the wait is for ``prepare_round`` (no card of the round dealt since the device was made ready
        for it), so a restart of the device only means what it means between rounds (8.4)."""
        return False

    def poll(self, round_id: str | None) -> str | None:
        """A fault the device reported on its own (between rounds), without waiting or dealing; ``None`` if none."""
        return None

    def current_fault(self) -> str | None:
        """The faults open now, in a line (``None`` if none): whether a hold the supervisor clears is over."""
        return None

    def blocking_fault(self) -> str | None:
        """The faults open now that keep the next round from opening, in a line (``None``: it may open). Asked when a
        round ends by a supervisor's void: a device still unplugged then holds the table at once."""
        return self.current_fault()

    def device_down(self) -> str | None:
        """The faults that keep the next round from opening and that only the device ends (plugged in again,
        cleared at the machine), in a line; ``None``: nothing a supervisor's resume cannot end. While one is
        open the table's hold is not resumed."""
        return self.blocking_fault()

    def awaited(self) -> str | None:
        """Why the table waits for its device, not connected since the table started (``AwaitedShoe``); ``None``
        once it is (or when it was there from the start)."""
        return None

    def doubt(self, round_id: str | None = None, *, settling: bool = False) -> str | None:
        """Why the round must be held now (a shuffle test's hold since the last ask), once; ``None`` if nothing.
        ``settling``: asked before the round settles (every card dealt must have been tested by then)."""
        return None


LASTING = frozenset({"jam", "door-open", "duplicate-card", "unrecognised-card", "integrity", "count-mismatch"})
"""The device's own faults that last until cleared at the machine (docs/protocol.md 10.1)."""
SUPERVISOR_CODES = frozenset({"unreadable-card", "events-lost", "shoe-size", "stack-unknown", "deck-size"})
"""Faults no device report ends: the supervisor resumes (entering a card where one is missing) or voids the round."""
RECONNECT_WAIT = 5.0
"""How long opening a round waits for a shuffler whose link is being remade (docs/protocol.md 9.1's reply timeout):
a device unplugged for a moment is asked again once back, not reported as gone to a supervisor."""
HALF_DECK = 26
"""How far (in cards) the cut card may come out from where ``cut_from_end`` puts it before it is warned about (5.4)."""


class ShoeFeed(CardFeed):
    """A dealing shoe: shuffle at start and after the cut card, burn after each shuffle (docs/protocol.md 5).

    ``shoe_cards`` is the size of the table's shoe (checked against what the shoe says, 5.5); ``cut_from_end``
    where the table's procedure puts the cut card (5.4). ``None``: not checked.
    """

    source = "shoe"

    def __init__(
        self,
        shoe: Shoe,
        log: EventLog,
        *,
        burn_after_shuffle: int = 1,
        timeout: float = 5.0,
        shoe_cards: int | None = None,
        decks: int | None = None,
        cut_from_end: int | None = None,
        watch: ShuffleWatch | None = None,
    ) -> None:
        self.shoe = shoe
        self.log = log
        self.watch = watch
        self.burn_after_shuffle = burn_after_shuffle
        self.timeout = timeout
        self.shoe_cards = shoe_cards
        self.decks = decks
        self.cut_from_end = cut_from_end
        self.shuffle_due = True
        self.shuffles = 0
        self.open_faults: dict[str, str] = {}
        """Faults the shoe (or its link) reported and has not reported over, code -> the dealer's message."""
        self._cleared: list[str] = []  # every fault the shoe reported over, in order (a refusal may come after)
        self.supervisor_faults: dict[str, str] = {}
        self._held_back: list[tuple[str, Card | None, int]] = []
        self._cut_seen = False
        self._own_cut_warned = False
        self._empty = False
        self._empty_count = 0
        self._reshuffle_now = False
        self._round_id: str | None = None

    def close(self) -> None:
        """Close the gate, record the cards the shoe let out that no round took (5.7), and release the shoe."""
        if self.watch is not None:
            self.watch.shoe_ended(None)
        try:
            self.shoe.close_gate()
            deadline = time.monotonic() + 0.3  # a card already through the gate is still recorded
            while time.monotonic() < deadline:
                self._drain(self._round_id)
                time.sleep(0.05)
        except FeedError:
            pass
        for how, card, count in self._held_back:
            self.log.emit(ev.CardUnplaced(
                round=self._round_id, device="shoe", how=how, count=count, card=card.code if card else "--",
                message=f"card {count} of the shoe came out while no round could take it: it is on the table; the "
                        "supervisor decides where it goes"))
        self._held_back.clear()
        self.shoe.close()

    # -- the table's procedure ------------------------------------------

    def prepare_round(self, round_id: str) -> int:
        self._round_id = round_id
        self._drain(round_id)
        if self.watch is not None and self.watch.reshuffle_due:
            self.shuffle_due = True
        if "device-restarted" in self.open_faults:
            self.shuffle_due = True  # 8.4: between rounds a restart only means a new shoe
        blocking = self._blocking()
        if blocking:
            raise self._fault_of(blocking)
        self._reshuffle_now = False
        if not self.shuffle_due:
            return 0
        held = self.watch.shoe_ended(round_id) if self.watch is not None else []
        self._shuffle(round_id)
        if self.watch is not None:
            held += self.watch.shoe_started(round_id, self.shoe.counted())
        if held:
            raise ShuffleHeld("; ".join(held))
        return self.burn_after_shuffle

    def _shuffle(self, round_id: str | None) -> None:
        cleared = len(self._cleared)
        try:
            self.shoe.shuffle()
        except DeviceError as exc:
            raise self._refused(exc, round_id, cleared) from exc
        self._drain(round_id)
        self.shuffles += 1
        self.shuffle_due, self._cut_seen, self._empty = False, False, False
        size = self.shoe.counted()
        self.log.emit(ev.ShoeShuffled(round=round_id, shuffle=self.shuffles, burn=self.burn_after_shuffle, cards=size))
        if self.shoe_cards is not None and size is not None and size != self.shoe_cards:
            decks = self.decks or 1
            per_deck = self.shoe_cards / decks
            message = (f"the shoe holds {size} cards ({size / per_deck:g} decks) but the table is set for {decks} "
                       f"decks, {self.shoe_cards} cards ([shoe] decks): load the right shoe, or correct the "
                       "configuration; then the supervisor resumes")
            self.supervisor_faults["shoe-size"] = message
            self.shuffle_due = True
            self.log.emit(ev.ShoeFaulted(round=round_id, code="shoe-size", message=message))
            raise DeviceFaulted("shoe-size", f"shoe fault (shoe-size): {message}", supervisor=True)

    def next_card(self, round_id: str) -> Card:
        """The next card for a player (a burn the shoe marked is recorded and skipped)."""
        if self._reshuffle_now:
            self._reshuffle_now = False
            self._shuffle(round_id)
        while True:
            how, card = self._next(round_id)
            if how == "drawn" and card is not None:
                return card
            self.log.emit(ev.ShoeCardBurned(round=round_id, card=card.code if card else "--"))

    def deal(self, round: Round) -> str:
        if self._reshuffle_now:  # 8.4: resumed after a restart: a new shoe before any card, burned as after any shuffle
            self._reshuffle_now = False
            self._shuffle(round.id)
            round.burns_due += self.burn_after_shuffle
        how, card = self._next(round.id)
        assert card is not None
        if how == "burned":
            round.burns_due = max(round.burns_due, 1)  # 5.2: the shoe burned it: it is the burn, whether due or not
        return round.card(card, self.source)

    def _next(self, round_id: str) -> tuple[str, Card | None]:
        """The next card out of the shoe, with how it came (drawn or burned); faults raise ``DeviceFaulted``."""
        self._round_id = round_id
        while True:
            if self._held_back:
                how, card, count = self._held_back.pop(0)
                if how != "unreadable":
                    return how, card
                message = (f"card {count} of the shoe could not be read: the supervisor identifies it and enters it, "
                           "or voids the round")
                self.supervisor_faults["unreadable-card"] = message
                raise DeviceFaulted("unreadable-card", message, supervisor=True)
            blocking = self.open_faults | self.supervisor_faults
            if blocking:
                raise self._fault_of(blocking)
            if self._empty:
                raise FeedError(self._empty_message)
            try:
                event = self.shoe.next_event(self.timeout)
            except DeviceTimeout as exc:
                raise NoCardYet(f"the shoe gave no card in {self.timeout:g} s: the dealer draws the next card") from exc
            self._take(event, round_id)

    def _refused(self, exc: DeviceError, round_id: str | None, cleared: int) -> DeviceFaulted:
        """A Shuffle the shoe refused or did not answer: a lasting fault is open until the shoe clears it (10.1),
        unless the shoe reported it cleared after the Shuffle was sent (the refusal came late, 9.2); anything else
        is tried again by the table (``wait_recovered`` then finds nothing open)."""
        code = getattr(exc, "code", None) or (
            "communication-lost" if isinstance(exc, DeviceLost) else "no-answer" if isinstance(exc, DeviceTimeout)
            else "protocol-error")
        message = str(exc) if code != "communication-lost" else "the shoe stopped answering: check its cable and power"
        self._drain(round_id)
        if code in LASTING and code not in self._cleared[cleared:]:
            self.open_faults[code] = message
        self.log.emit(ev.ShoeFaulted(round=round_id, code=code, message=message))
        return DeviceFaulted(code, f"shoe fault ({code}): {message}")

    def _fault_of(self, faults: dict[str, str]) -> DeviceFaulted:
        code, message = next(iter(faults.items()))
        if code == "device-restarted":  # mid-round: only the supervisor says whether the round goes on (8.4)
            return DeviceFaulted(code, f"shoe fault ({code}): {message}: void the round, or resume it (a new shoe "
                                       "is shuffled first)", supervisor=True)
        supervisor = code in self.supervisor_faults or code in SUPERVISOR_CODES
        return DeviceFaulted(code, f"shoe fault ({code}): {message}", supervisor=supervisor)

    def wait_recovered(self, round_id: str, timeout: float, *, preparing: bool = False) -> bool:
        """Read the shoe until each fault it reported is over; cards drawn meanwhile are kept, in order.
        False at once when only the supervisor can end a fault: a restart, mid-round. ``preparing`` (no card of the
        round dealt yet): a restart only means a new shoe (8.4), which ``prepare_round`` shuffles when tried again."""
        deadline = time.monotonic() + timeout
        while True:
            self._drain(round_id)
            restarted = "device-restarted" in self.open_faults
            if self.supervisor_faults or (restarted and not preparing):
                return False
            if not (self._blocking() if preparing else self.open_faults):
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                self._take(self.shoe.next_event(min(left, 0.5), want_card=self._probe_due()), round_id)
            except DeviceTimeout:
                continue

    def doubt(self, round_id: str | None = None, *, settling: bool = False) -> str | None:
        return self.watch.doubt(round_id, settling=settling) if self.watch is not None else None

    def awaited(self) -> str | None:
        shoe = self.shoe
        return shoe.why if isinstance(shoe, AwaitedShoe) and shoe.connected is None else None

    def current_fault(self) -> str | None:
        """The shoe's faults open now. A restart is not one once the shoe answers again: between rounds it only
        means a new shoe for the next round (8.4); a round it cut into holds for the supervisor by its own reason."""
        return ", ".join(f"shoe fault ({code})" for code in sorted(self._blocking())) or None

    def blocking_fault(self) -> str | None:
        return "; ".join(f"shoe fault ({code}): {message}" for code, message in sorted(self._blocking().items())) or None

    def device_down(self) -> str | None:
        own = {c: m for c, m in self._blocking().items() if c not in self.supervisor_faults and c not in SUPERVISOR_CODES}
        return "; ".join(f"shoe fault ({code}): {message}" for code, message in sorted(own.items())) or None

    def _blocking(self) -> dict[str, str]:
        """The faults ``prepare_round`` refuses a round for: a restart between rounds only means a new shoe (8.4)."""
        return {c: m for c, m in self.open_faults.items() if c != "device-restarted"} | self.supervisor_faults

    def _probe_due(self) -> bool:
        """While a shoe accepts commands but does not answer them (``no-answer``), asking it for a card is how to
        learn it answers again; no other fault lets a card be asked for."""
        return set(self.open_faults) == {"no-answer"}

    def supervisor_resumed(self, round_id: str | None) -> None:
        for code in ("unreadable-card", "events-lost"):
            self.supervisor_faults.pop(code, None)
            self.open_faults.pop(code, None)
        if self.supervisor_faults.pop("shoe-size", None) is not None:
            self.shuffle_due = True
        if "device-restarted" in self.open_faults:
            self._reshuffle_now = True

    def poll(self, round_id: str | None) -> str | None:
        """Read what the shoe already sent: a card drawn is kept for the round, the first fault is returned (and
        stays open until the shoe reports it over); a restart with no round in play holds nothing (8.4)."""
        before = dict(self.open_faults)
        self._drain(round_id)
        new = {c: m for c, m in self.open_faults.items()
               if c not in before and (round_id is not None or c != "device-restarted")}  # 8.4: between rounds, a new shoe
        if not new:
            return None
        code, message = next(iter(new.items()))
        return f"shoe fault ({code}): {message}"

    def _drain(self, round_id: str | None) -> None:
        for event in self.shoe.waiting_events():
            self._take(event, round_id)

    # -- what the shoe reports ------------------------------------------

    @property
    def _empty_message(self) -> str:
        return f"the shoe is empty after {self._empty_count} cards"

    def _take(self, event: object, round_id: str | None) -> None:
        """Record one shoe event; a card is kept, in order, for the round that asks for the next one."""
        if isinstance(event, CardDrawn | CardBurned):
            self._held_back.append(("drawn" if isinstance(event, CardDrawn) else "burned", event.card, event.count))
            if self.watch is not None:
                self.watch.card(event.card, round_id)
            self._check_own_cut(event.count, round_id)
        elif isinstance(event, CardUnreadable):
            self._held_back.append(("unreadable", None, event.count))
            if self.watch is not None:
                self.watch.card(None, round_id)
            self.log.emit(ev.CardUnreadable(round=round_id, device="shoe", count=event.count, why=event.why or UNSET))
        elif isinstance(event, CutCardReached):
            self.shuffle_due, self._cut_seen = True, True
            self.log.emit(ev.CutCardReached(round=round_id, count=event.count))
            self._check_cut(event.count, round_id)
        elif isinstance(event, ShoeEmpty):
            self.shuffle_due, self._empty, self._empty_count = True, True, event.count
            self.log.emit(ev.ShoeEmpty(round=round_id, count=event.count))
        elif isinstance(event, DeviceFault):
            if event.code not in self.open_faults:
                self.log.emit(ev.ShoeFaulted(round=round_id, code=event.code, message=event.message))
            self.open_faults[event.code] = event.message
            if event.code == "device-restarted":
                self.shuffle_due = True
            if event.code in SUPERVISOR_CODES:
                self.supervisor_faults[event.code] = event.message
        elif isinstance(event, DeviceRecovered):
            self.open_faults.pop(event.code, None)
            self._cleared.append(event.code)
            self.log.emit(ev.ShoeRecovered(round=round_id, code=event.code, message=event.message))
        elif isinstance(event, DeviceWarning):
            self.log.emit(ev.DeviceWarning(round=round_id, device="shoe", code=event.code, message=event.message))
        else:
            raise FeedError(f"unexpected shoe event {event!r}")

    def _expected_cut(self) -> int | None:
        size = self.shoe.counted()
        if self.cut_from_end is None or size is None:
            return None
        return size - self.cut_from_end

    def _check_cut(self, count: int, round_id: str | None) -> None:
        expected = self._expected_cut()
        if expected is not None and count < expected - HALF_DECK:
            self.log.emit(ev.DeviceWarning(
                round=round_id, device="shoe", code="cut-card-early",
                message=f"the cut card came out after {count} cards, {expected - count} cards before where the table "
                        f"places it ({self.cut_from_end} from the end, [shoe] cut_from_end): the shoe is reshuffled "
                        "after this round; check where the dealer places the cut card"))

    def _check_own_cut(self, count: int, round_id: str | None) -> None:
        """5.4: a shoe that reports no cut card is cut at the table's own count, half a deck past its place."""
        expected = self._expected_cut()
        if expected is None or self._cut_seen or self.shuffle_due or count < expected + HALF_DECK:
            return
        self.shuffle_due = True
        if not self._own_cut_warned:
            self._own_cut_warned = True
            self.log.emit(ev.DeviceWarning(
                round=round_id, device="shoe", code="cut-card-not-reported",
                message=f"the shoe reported no cut card by card {count}: the table reshuffles after this round, at "
                        "its own count ([shoe] cut_from_end)"))


class DealerEntryFeed(CardFeed):
    """Pieces the dealer enters by hand (Pai Gow Tiles: no tile shuffler or shoe exists).

    Simulated here by a seeded shuffle of the whole set each round; at a real
    table the dealer keys each tile in from the console (``keyed``).
    """

    source = "dealer"

    def __init__(self, pieces: tuple[Any, ...], log: EventLog, *, seed: int | None = None) -> None:
        self.pieces = pieces
        self.log = log
        self.rng = random.Random(seed)
        self._order: list[Any] = []

    def prepare_round(self, round_id: str) -> int:
        self._order = list(self.pieces)
        self.rng.shuffle(self._order)
        self.log.emit(ev.PiecesWashed(round=round_id, count=len(self._order)))
        return 0

    def next_card(self, round_id: str) -> Any:
        if not self._order:
            raise FeedError("every piece of the set is already dealt")
        return self._order.pop(0)

    def keyed(self, code: str, dealt: Sequence[Any]) -> Any:
        """The piece the dealer keyed in as ``code``, checked against the set and the pieces already ``dealt``.

        Raises ``PieceRefused`` (or the piece type's own parse error) naming what is wrong.
        """
        piece = type(self.pieces[0]).parse(code)
        copies = sum(1 for p in self.pieces if p == piece)
        if not copies:
            raise PieceRefused(f"{piece} is not in this game's set")
        used = sum(1 for p in dealt if p == piece)
        if used >= copies:
            held = "it is" if copies == 1 else f"all {copies} are"
            # named apart from its code, which a screen blanks while a piece of that code lies face down
            raise PieceRefused(f"the {type(piece).__name__.lower()} keyed, {piece}, is already dealt this round: "
                               f"the set holds {copies} and {held} out")
        return piece

    def left(self, dealt: Sequence[Any]) -> list[tuple[Any, int]]:
        """Each distinct piece of the set, in set order, with the copies not yet ``dealt`` this round."""
        counts: dict[Any, int] = {}
        for piece in self.pieces:
            counts[piece] = counts.get(piece, 0) + 1
        for piece in dealt:
            if piece in counts:
                counts[piece] -= 1
        return list(counts.items())


class ShufflerFeed(CardFeed):
    """A shuffler dealing a freshly shuffled, counted deck per round (docs/protocol.md 6.3), in stacks of
    ``stack_size``. What the machine reports on its own is journaled as it comes."""

    source = "shuffler"

    def __init__(self, shuffler: Shuffler, log: EventLog, *, stack_size: int, watch: ShuffleWatch | None = None) -> None:
        self.shuffler = shuffler
        self.log = log
        self.watch = watch
        self.stack_size = stack_size
        self.open_faults: dict[str, str] = {}
        self.supervisor_faults: dict[str, str] = {}
        self._stack: list[Card | None] = []
        self._stack_size = 0
        """Cards of the last stack dispensed (the place of an unreadable card in it)."""
        self._round_id: str | None = None
        self._deck_round: str | None = None
        """The round the deck in the shuffler was made for (``prepare_round``), until a restart loses it (8.4)."""
        self._cards_out = False
        """Whether cards of that deck left the shuffler for its round (a stack dispensed, or one that may be in the tray)."""
        self._new_deck_due = False
        """A restart lost the round's deck before any card of it left: a fresh one is made when the round is resumed."""
        self._restart_hold: str | None = None
        """Why a restart holds the round in play, for ``poll`` to report once."""
        self._lost: tuple[str, str] | None = None
        """The round whose deck a restart lost with cards of it out, and why: only a void ends it."""

    def close(self) -> None:
        if self.watch is not None:
            self.watch.shoe_ended(None)
        self._journal_notices(self._round_id)
        if self._stack:
            self.log.emit(ev.CardUnplaced(round=self._round_id, device="shuffler", how="stack",
                                          cards=[c.code if c else "--" for c in self._stack],
                                          message="cards of the last stack dispensed went to no player: they are in the tray"))
        self.shuffler.close()

    def poll(self, round_id: str | None) -> str | None:
        """What the shuffler reports now; first, once, why a restart holds the round in play (8.4)."""
        self._journal_notices(round_id)
        restart, self._restart_hold = self._restart_hold, None
        return restart or self.shuffler.reported_fault()

    def current_fault(self) -> str | None:
        """What the shuffler reports now, else the faults only the supervisor ends. A restart is not one once the
        shuffler answers again: between rounds it only means fresh decks (8.4); a round it cut into holds for the
        supervisor by its own reason."""
        own = ", ".join(f"shuffler fault ({code})" for code in sorted(self.supervisor_faults) if code != "device-restarted")
        return self.shuffler.reported_fault() or own or None

    def void_only(self, round_id: str) -> str | None:
        return self._lost[1] if self._lost is not None and self._lost[0] == round_id else None

    def doubt(self, round_id: str | None = None, *, settling: bool = False) -> str | None:
        return self.watch.doubt(round_id, settling=settling) if self.watch is not None else None

    def prepare_round(self, round_id: str) -> int:
        self._round_id = round_id
        self._journal_notices(round_id)
        if self.supervisor_faults:
            raise self._fault_of(self.supervisor_faults, supervisor=True)
        self._new_deck(round_id)
        return 0

    def _new_deck(self, round_id: str) -> None:
        """Make a freshly shuffled, counted deck the one dealt to ``round_id`` (6.3)."""
        held = self.watch.shoe_ended(round_id) if self.watch is not None else []
        for attempt in (1, 2):
            try:
                count = self.shuffler.next_deck()
                break
            except ShufflerRestarted as exc:  # between rounds a restart only means: start the decks again (8.4)
                self._journal_notices(round_id)
                if attempt == 2:
                    raise self._faulted(exc, round_id) from exc
            except ShufflerOffline as exc:  # its link is being remade (a round voided just after an unplug)
                if attempt == 2 or not self.shuffler.wait_cleared(RECONNECT_WAIT):
                    raise self._faulted(exc, round_id) from exc
                self._journal_notices(round_id)
            except ShufflerError as exc:
                raise self._faulted(exc, round_id) from exc
        self._journal_notices(round_id)
        self._stack = []
        self.open_faults.clear()
        self._deck_round, self._cards_out, self._new_deck_due, self._lost = round_id, False, False, None
        self.log.emit(ev.ShufflerShuffled(round=round_id, count=count))
        if self.watch is not None:
            held += self.watch.shoe_started(round_id, count, decks=self.shuffler.decks_in_turn())
        if held:
            raise ShuffleHeld("; ".join(held))

    def next_card(self, round_id: str) -> Card:
        self._round_id = round_id
        self._journal_notices(round_id)
        if (why := self.void_only(round_id)) is not None:  # resumed all the same (``controller.engine.holds``)
            self.supervisor_faults.setdefault("device-restarted", why)
        blocking = self.supervisor_faults or self.open_faults
        if blocking:
            self._restart_hold = None  # the round holds for it now, by this reason
            raise self._fault_of(blocking, supervisor=bool(self.supervisor_faults))
        if self._new_deck_due:  # resumed after a restart lost its deck before any card of it left (8.4)
            self._new_deck(round_id)
        if not self._stack:
            self._dispense(round_id)
        card = self._stack.pop(0)
        if card is None:  # the table names the device before it (``TableLoop``): "shuffler: card 2 of the stack ..."
            message = (f"card {self._stack_size - len(self._stack)} of the stack could not be read: the supervisor "
                       "identifies it and enters it, or voids the round")
            self.supervisor_faults["unreadable-card"] = message
            self.log.emit(ev.CardUnreadable(round=round_id, device="shuffler", left_in_stack=len(self._stack)))
            raise DeviceFaulted("unreadable-card", message, supervisor=True)
        return card

    def _dispense(self, round_id: str) -> None:
        try:
            stack = self.shuffler.dispense(self.stack_size)
        except StackUnknown as exc:
            self._cards_out = True  # a stack may be in the tray
            self.supervisor_faults[exc.code] = str(exc)
            self.log.emit(ev.StackUnknown(round=round_id, cards=[c.code if c else "--" for c in exc.cards],
                                         asked=self.stack_size, message=str(exc)))
            self.log.emit(ev.ShufflerFaulted(round=round_id, code=exc.code, message=str(exc)))
            raise DeviceFaulted(exc.code, f"shuffler fault ({exc.code}): {exc}", supervisor=True) from exc
        except ShufflerRestarted as exc:  # 8.4: found by the Dispense itself; the driver's notice says so too
            self._journal_notices(round_id)
            self._restarted(round_id)  # nothing more if the notice did it
            why = self.supervisor_faults.setdefault(exc.code, f"{exc}: the deck of this round is gone: void the round")
            self._restart_hold = None  # the round holds for it now, by this reason
            raise self._fault_of({exc.code: why}, supervisor=True) from exc
        except ShufflerError as exc:
            raise self._faulted(exc, round_id) from exc
        self._stack = list(stack)
        self._stack_size = len(self._stack)
        self._cards_out = True
        self.log.emit(ev.StackDispensed(round=round_id, cards=[c.code if c else "--" for c in self._stack]))
        if self.watch is not None:
            self.watch.stack(self._stack, round_id)

    def _faulted(self, exc: ShufflerError, round_id: str | None) -> DeviceFaulted:
        """The fault a refusal means: one the machine reports (it ends it, 10.1) or one only the supervisor ends."""
        self._journal_notices(round_id)
        lasting = exc.code == "communication-lost" or exc.reported or self._machine_faulted()
        self.log.emit(ev.ShufflerFaulted(round=round_id, code=exc.code, message=str(exc)))
        (self.open_faults if lasting else self.supervisor_faults)[exc.code] = str(exc)
        return DeviceFaulted(exc.code, f"shuffler fault ({exc.code}): {exc}", supervisor=not lasting)

    def _machine_faulted(self) -> bool:
        try:
            return self.shuffler.reported_fault() is not None or not self.shuffler.wait_cleared(0.3)
        except DeviceError:
            return True

    def _fault_of(self, faults: dict[str, str], *, supervisor: bool) -> DeviceFaulted:
        code, message = next(iter(faults.items()))
        return DeviceFaulted(code, f"shuffler fault ({code}): {message}", supervisor=supervisor)

    def wait_recovered(self, round_id: str, timeout: float, *, preparing: bool = False) -> bool:
        """Wait until the machine reports its fault cleared and answers (10.1); False when only the supervisor
        can end a fault. A restart between rounds holds nothing here already (``_restarted``): ``preparing`` changes
        nothing."""
        self._journal_notices(round_id)
        if self.supervisor_faults:
            return False
        cleared = self.shuffler.wait_cleared(timeout)
        self._journal_notices(round_id)
        if cleared:
            self.open_faults.clear()
        return cleared

    def device_down(self) -> str | None:
        return self.shuffler.reported_fault()

    def awaited(self) -> str | None:
        shuffler = self.shuffler
        return shuffler.why if isinstance(shuffler, AwaitedShuffler) and shuffler.connected is None else None

    def supervisor_resumed(self, round_id: str | None) -> None:
        self.supervisor_faults.clear()
        self.open_faults.clear()

    def _journal_notices(self, round_id: str | None) -> None:
        for notice in self.shuffler.notices():
            if isinstance(notice, DeviceFault):
                self.log.emit(ev.ShufflerFaulted(round=round_id, code=notice.code, message=notice.message))
                if notice.code == "device-restarted":
                    self._restarted(round_id)
            elif isinstance(notice, DeviceRecovered):
                self.log.emit(ev.ShufflerRecovered(round=round_id, code=notice.code, message=notice.message))
            else:
                self.log.emit(ev.DeviceWarning(round=round_id, device="shuffler", code=notice.code, message=notice.message))

    def _restarted(self, round_id: str | None) -> None:
        """8.4: a restart lost the shuffler's decks. Between rounds that holds nothing (the next round starts with a
        fresh deck, 6.3); a round in play on the deck it lost is held for the supervisor: resumed on a fresh deck
        while none of its cards had left, else only voided (a fresh deck could deal them again)."""
        if round_id is None or round_id != self._deck_round:
            return
        self._deck_round = None
        if self._cards_out:
            why = RESTARTED_AFTER_CARDS
            self._lost = (round_id, why)
        else:
            self._new_deck_due = True
            why = ("the shuffler restarted (power cut or reset) and lost the deck of this round before any card of it "
                   "was dealt: resume the round (a fresh deck is shuffled and counted first), or void it")
        self.supervisor_faults["device-restarted"] = why
        self._restart_hold = f"shuffler fault (device-restarted): {why}"
