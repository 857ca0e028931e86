"""The table loop: the one place a table is played, from opening a round to its settlement.

``tablectl run``, ``tablectl serve`` (the systemd service), the dealer
console and the simulated players all drive this loop; none of them touches
a round itself. Everything that changes the table is a command
(``controller.engine.commands``): wagers, "no more bets" and decisions from
the page or from the simulated players, faults from the devices, and the
supervisor's resume, void and card correction. The loop takes them one at a
time, and between commands it does the table's own steps: the next card from
the feed when one is due, and the after-round bookkeeping (meters, the
player-dealer position). So the round engine is only ever called from one
thread.

Two ways to drive it: ``run`` (or ``start``) serves a console or a service,
taking commands from ``submit`` until stopped; ``play_round`` plays the next
round through on the calling thread, as ``tablectl run`` does with simulated
players. Both go through the same steps.

With ``views`` the loop builds after every command or step what each screen
may show (``controller.engine.view``) and hands it to the listeners (the web
app). A command's outcome comes back on a ``concurrent.futures.Future``: a
refusal carries the engine's own reason.

A shoe is polled briefly (``IDLE_WAIT``): at a real table the dealer draws at
a person's pace, so a shoe with no card yet is waited for, not a fault, and
commands keep flowing meanwhile. Any other device error holds the round.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from controller.cards import Card
from controller.engine import holds, jackpot
from controller.engine.commands import (
    CloseBetting,
    Command,
    CommandRefused,
    CorrectCard,
    CorrectPlacedCard,
    Decide,
    DeviceFault,
    EnterPiece,
    OpenRound,
    PlaceWager,
    Record,
    Resume,
    Sit,
    TakePosition,
    VoidRound,
)
from controller.engine.feeds import DealerEntryFeed, DeviceFaulted, FeedError, NoCardYet, ShoeFeed
from controller.engine.jackpot import AwardWatcher
from controller.engine.players import SimulatedPlayers
from controller.engine.recovery import cards_dealt
from controller.engine.round import FINISHED, Round
from controller.engine.table import Table, banked
from controller.engine.view import AUDIENCES, Fault, table_view
from controller.engine.visibility import Audience, sight
from controller.errors import CardRefused, TableError, WagerRefused
from controller.events import (
    UNSET,
    CameraAgreed,
    CameraConfirmed,
    CameraDisagreed,
    CardBurned,
    CardDealt,
    ClockSteppedBack,
    DeviceFaultReported,
    Event,
    PieceRefusal,
    PositionPassed,
    Revealed,
    RoundVoided,
    SupervisorActed,
    SupervisorRefusal,
    stamped,
    to_record,
)
from controller.money import format_cents
from controller.records.errors import RecordsError
from controller.records.journal import Journal
from controller.records.recall import recall
from controller.rules.base import Decision

Listener = Callable[[dict[str, Any]], None]

RECORDING_ERRORS = (RecordsError,)
"""Failures to record what happened (a full disk, a file-size limit, records held or damaged): OSErrors, but never
taken for a device's fault."""


SUPERVISOR_COMMANDS = (Resume, VoidRound, CorrectCard, CorrectPlacedCard)
IN_PLAY = {"betting": "betting is open", "no_more_bets": "betting is closed", "dealing": "cards are being dealt",
           "decisions": "waiting for a player's decision", "reveal": "the dealer's hand is being revealed",
           "settling": "being settled", "hold": "on hold"}
"""What a round in play waits for, as a refusal to open the next round says it (not the engine's state names)."""
IDLE_WAIT = 0.2
"""Longest wait for a command, in seconds: how soon a stop, a heartbeat or a due step is noticed."""
OFFER_AGAIN = 1.0
"""Seconds before a stopped game's player-dealer position is offered to simulated players again."""
OFFERS = 100
"""``tablectl run``: how many times a stopped game's player-dealer position is offered round the table before the
run gives up."""
POLL_INTERVAL = 0.5
"""How often, between rounds and while betting is open, the device is asked for a fault it reported on its own."""


def shown(fault: str | None) -> str:
    """A device's state as every page shows it (``devices``): what its feed reports now (``CardFeed.current_fault``),
    never 'ok' while it reports a fault, never a fault it no longer reports."""
    return "ok" if fault is None else f"fault: {fault}"


class TableLoop:
    """Runs ``table``: ``submit`` is the only way in, ``run`` (or ``start`` for a thread of its own) the loop.

    ``players`` (simulated) place the wagers and take the decisions when given;
    without them the dealer enters both from the page. ``pace`` is the pause in
    seconds between the loop's own steps (a card, a simulated decision, the next
    round), so a person can watch a simulated table. ``heartbeat`` is called
    from the loop's own thread several times a second (``tablectl serve``
    checks the table's health and feeds the systemd watchdog there); if it
    raises, the loop stops and ``failure`` says why.
    """

    def __init__(
        self,
        table: Table,
        *,
        players: SimulatedPlayers | None = None,
        pace: float = 0.0,
        rounds: int = 0,
        journal: Journal | None = None,
        pending: list[Round] | None = None,
        accepts_position: Callable[[int], bool] | None = None,
        heartbeat: Callable[[], None] | None = None,
        views: bool = True,
        recovery_wait: float | None = None,
        awards: AwardWatcher | None = None,
        award_wait: float = jackpot.AWARD_WAIT,
    ) -> None:
        """``views``: build what the screens show after every change (off for ``tablectl run`` without a console).
        ``recovery_wait``: after a device fault holds the round, how long to wait for the device to report the
        fault cleared and go on by itself; ``None`` (a console) leaves the round to the supervisor.
        ``awards``: the floor's answers to jackpot claims; a round held for its claims is handed each award as it
        comes and settles by itself (``play_round`` waits ``award_wait`` seconds for them, then leaves it held)."""
        self.table = table
        self.log = table.log
        self.players = players
        self.pace = pace
        self.rounds_limit = rounds
        self.heartbeat = heartbeat
        self.failure: Exception | None = None
        self.journal = journal
        self.pending = list(pending or [])
        self.accepts_position = accepts_position or (players.accepts_position if players else (lambda seat: False))
        """Whether a seat takes the player-dealer position when it passes. With a dealer at the page nobody is
        assumed to: the game stops and the dealer taps the seat that takes it (``TakePosition``)."""
        self.keyed = table.feed if isinstance(table.feed, DealerEntryFeed) and players is None else None
        """The feed whose pieces the dealer keys in from the page (no device deals them)."""
        self.round: Round | None = None
        self._unprepared: Round | None = None
        """The round in play, when its device could not be made ready for it (it is held)."""
        self.finalized = True
        self.rounds_finished = 0
        """Rounds this loop saw to their end (``rounds`` limits it when simulated players play)."""
        self.faults: list[Fault] = []
        self.table_fault: str | None = None
        self._awaiting = False
        """The table's hold is for a device not connected since the table started (``CardFeed.awaited``): it ends by
        itself once the device is connected."""
        self.devices: dict[str, str] = {self.table.feed.source: "ok"}
        self.recent: deque[dict[str, Any]] = deque(maxlen=20)
        self.events: deque[dict[str, Any]] = deque(maxlen=40)
        self.reveals: dict[str, dict[str, Any]] = {}
        self.camera: dict[str, dict[str, Any]] = {}
        self.void_reasons: dict[str, str] = {}
        self.recovered: dict[str, int] = {}
        """The rounds this loop took on held from the journal (the table restarted), each with its cards out then:
        its feed never had their decks (``holds.void_only``)."""
        self.message: str | None = None
        self.version = 0
        self._queue: queue.Queue[tuple[Command, Future[str]]] = queue.Queue()
        self._listeners: list[Listener] = []
        self._next_step = 0.0
        self._next_poll = 0.0
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._closing = False
        self._snapshots: dict[str, dict[str, Any]] = {}
        """The latest view for each page (``dealer``, ``pit``)."""
        self._lock = threading.Lock()
        self.running = False
        """True while ``run`` takes commands (a request that needs the loop to journal is refused otherwise)."""
        self.views = views
        self.recovery_wait = recovery_wait
        self.awards = awards
        self.award_wait = award_wait
        self.card_wait = table.feed.timeout if isinstance(table.feed, ShoeFeed) else 0.0
        """How long ``play_round`` waits for the shoe's next card before the round holds (the feed's own timeout)."""
        if isinstance(table.feed, ShoeFeed):
            table.feed.timeout = min(table.feed.timeout, IDLE_WAIT)
        if views:
            self.log.subscribe(self._on_event)
            self._snapshots = {audience.value: table_view(self, audience) for audience in AUDIENCES}

    # -- outside world --------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """``listener(view)`` is called from the loop thread after every change."""
        self._listeners.append(listener)

    def snapshot(self, audience: str = "dealer") -> dict[str, Any]:
        """The latest view for ``audience`` (``dealer`` or ``pit``), safe to read from any thread."""
        with self._lock:
            return self._snapshots[audience]

    def screen_text(self, text: str, audience: Audience = Audience.DEALER) -> str:
        """``text`` (an answer, a refusal) as a page may show it: the round's face-down cards left out."""
        round = self.round
        return self.log.screens.text(text, round.id if round is not None else None, audience)

    def submit(self, command: Command) -> Future[str]:
        future: Future[str] = Future()
        self._queue.put((command, future))
        return future

    def run(self, stop: threading.Event) -> None:
        """Run the loop on the calling thread until ``stop`` is set (``tablectl serve`` runs it on the main thread).

        Simulated players then finish the round in play; a round the dealer is running stays as it
        is (journaled, it resumes on restart).

        An error that ends the loop is kept in ``failure`` and raised.
        """
        if self.journal is not None and self.views:
            self._recall()
        if self.pending and self.round is None:
            self.message = self._take_pending()
        self._publish()
        self.running = True
        try:
            while not stop.is_set():
                self._turn()
            self._closing = True
            while self.players is not None and self._in_play():
                self._turn()  # simulated players finish the round in play; a dealer's round waits in the journal
            self._finalize()
        except Exception as exc:
            self.failure = exc
            raise
        finally:
            self.running = False

    def play_round(self, round: Round | None = None, say: Callable[[str], None] | None = None) -> Round:
        """Play the next round through on the calling thread (``tablectl run``): ``round``, one recovered from the
        journal, from where it stands, else the next pending one, else a new one. Returns it complete or void, or
        on hold when nobody here can resume it (a card refused, the camera or a shuffle test in doubt, a device
        that stays faulty). ``say`` is told why a round waits for the floor's jackpot awards before it waits."""
        self._finalize()
        if round is not None:
            self.pending.insert(0, round)
        self.message = self._take_pending() if self.pending else self._new_round()
        round = self.round
        assert round is not None
        waited = 0.0
        while round.state not in (*FINISHED, "hold"):
            if round.card_target() is not None:
                started = time.monotonic()
                if self.keyed is not None or self._deal(round):
                    waited = 0.0
                elif (waited := waited + time.monotonic() - started) > self.card_wait:
                    self._fault(self.table.feed.source, f"no card came from the {self.table.feed.source} in {self.card_wait:g} s")
            elif round.state == "betting" and self.players is not None:
                self._simulated_betting(round)
            elif round.pending_decision() is not None and self.players is not None:
                self._simulated_decision(round)
            else:
                raise RuntimeError(f"round {round.id} is stuck in {round.state}: no card due and no decision pending")
        self._await_awards(round, say)
        self._finalize()
        self._publish()
        return round

    def wait_for_player_dealer(self, say: Callable[..., None]) -> bool:
        """``tablectl run``: a player-dealer game stopped: say why, and offer the position round the table again
        until a player takes it (False, and the run ends, if nobody does after ``OFFERS`` times round)."""
        say(f"the game stopped: {self.table.stopped}; waiting for a player to take the player-dealer position")
        for _ in range(OFFERS):
            facts = self.table.offer_position(self.accepts_position, self.round.id if self.round is not None else None)
            if facts is not None:
                say(f"seat {facts['player_dealer']} takes the player-dealer position")
                self._publish()
                return True
        say(f"nobody took the player-dealer position in {OFFERS} offers round the table: the run ends")
        return False

    def start(self) -> None:
        """Run the loop on a thread of its own (``tablectl run --console``, the tests)."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run_quietly, args=(self._stop,), name="table-loop", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join(timeout)
        self._thread = None

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # -- the loop -------------------------------------------------------

    def _run_quietly(self, stop: threading.Event) -> None:
        with contextlib.suppress(Exception):  # kept in ``failure`` for the thread that started the loop
            self.run(stop)

    def _turn(self) -> None:
        """One command (or a short wait for one), then the steps due; publish the view if anything changed.

        The command is answered only after the view is published, so whoever submitted it finds
        its effect in ``snapshot()`` (and the page gets the new view before the answer).
        """
        if self.heartbeat is not None:
            self.heartbeat()
        try:
            command, future = self._queue.get(timeout=self._wait())
        except queue.Empty:
            command = None
        answer = self._execute(command) if command is not None else None
        awarded = self._poll_awards()
        changed = command is not None or self._poll_device() or self._awaited_device_connected() or awarded
        while self._step():
            changed = True
            if self.pace:
                break
        if changed and self.round is not None and self.round.state in FINISHED:
            self._finalize()  # at once, not a paced step later: the page never offers to open a round the game refuses
        if changed:
            self._publish()
        if answer is not None:
            result, error = answer
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

    def _poll_device(self) -> bool:
        """Between rounds (and while betting is open) ask the feed for a fault its device reported on its own,
        so the page shows it at once, not at the next card. During the deal the feed reports faults itself."""
        round = self.round
        held = self.table_fault is not None or (round is not None and round.state == "hold")
        idle = round is None or round.state in (*FINISHED, "betting")
        if not (idle or held) or time.monotonic() < self._next_poll:
            return False
        self._next_poll = time.monotonic() + POLL_INTERVAL
        feed = self.table.feed
        try:
            reason = feed.poll(round.id if round is not None and round.state in ("betting", "hold") else None)
            now = feed.current_fault()
        except RECORDING_ERRORS:
            raise  # the journal or the log failed, not the device: the caller stops the table
        except (RuntimeError, OSError) as exc:
            reason = now = str(exc) or type(exc).__name__
        if held:  # the hold screen shows the device as it is now; a supervisor decides when to resume
            status = shown(now)
            changed = self.devices.get(feed.source) != status
            self.devices[feed.source] = status
            if reason is None or reason == now:
                return changed
        elif reason is None:
            return False
        self._fault(feed.source, reason)
        if held or now is None:  # a reason more for the hold, or one that is no fault of the device (a restart lost
            self.devices[feed.source] = shown(now)  # the round's deck, 8.4): the device still shown as it reports
        return True

    def _awaited_device_connected(self) -> bool:
        """The table held since it started for a device not connected yet goes on by itself once the device is
        connected and reports nothing else that keeps a round from opening: no round was in play and nobody had
        anything to resume (the feed journals the device connected). Any other fault then holds as ever."""
        if not self._awaiting or self.table_fault is None:
            return False
        feed = self.table.feed
        if self._device_fault(feed.awaited) is not None or self._blocking_fault() is not None:
            return False
        self._clear_faults()
        self.message = f"the {feed.source} is connected: the table may open a round"
        return True

    def _poll_awards(self) -> bool:
        """While the round holds for its jackpot claims, hand it each award the floor has given (never waits)."""
        round = self.round
        if self.awards is None or round is None or round.state != "hold" or not jackpot.pending(round):
            return False
        self.awards.want(round)
        lines = self.awards.take(round)
        if lines:
            self.message = lines[-1]
        return bool(lines)

    def _await_awards(self, round: Round, say: Callable[[str], None] | None = None) -> None:
        """``tablectl run``: a round held for its jackpot claims waits up to ``award_wait`` s for the floor's awards
        (``say`` is told the hold's reason first: the wait is not silent)."""
        if say is not None and round.state == "hold" and self.awards is not None and jackpot.pending(round):
            say(f"round {round.id}: {round.hold_reason}")
        deadline = time.monotonic() + self.award_wait
        while round.state == "hold" and self.awards is not None and jackpot.pending(round) and time.monotonic() < deadline:
            if not self._poll_awards():
                time.sleep(0.2)

    def _wait(self) -> float:
        if not self._step_possible():
            return IDLE_WAIT
        return min(IDLE_WAIT, max(0.0, self._next_step - time.monotonic()))

    def _execute(self, command: Command) -> tuple[str, Exception | None]:
        """Carry out ``command``: its result, or the refusal to answer it with."""
        try:
            result = self._handle(command)
        except (TableError, ValueError) as exc:
            self.message = str(getattr(exc, "reason", None) or exc)
            return "", exc
        if not isinstance(command, Record):  # a login journaled elsewhere leaves the dealer's last refusal shown
            self.message = None
        return result, None

    def _handle(self, command: Command) -> str:
        if isinstance(command, OpenRound):
            return self._open_round()
        if isinstance(command, DeviceFault):
            return self._fault(command.device, command.reason)
        if isinstance(command, TakePosition):
            if not self.table.stopped:
                raise CommandRefused("the game is not waiting for a player-dealer")
            facts = self.table.take_position(command.spot, self.round.id if self.round is not None else None)
            return f"seat {facts['player_dealer']} takes the player-dealer position"
        if isinstance(command, Record):
            round = self.round
            self.log.emit(stamped(command.event, round=round.id if round is not None and round.state not in FINISHED else None))
            return command.event.EVENT
        if isinstance(command, SUPERVISOR_COMMANDS):
            return self._supervise(command)
        round = self._current("no round is in play: open betting first")
        if isinstance(command, PlaceWager):
            round.place_wager(command.spot, command.wager, command.amount)
            return f"spot {command.spot} {command.wager}: {format_cents(command.amount)}"
        if isinstance(command, Sit):
            if round.game.wagers:
                raise CommandRefused(f"{round.game.title} deals in the spots with a wager: place one instead")
            if command.spot in round.seated:
                raise CommandRefused(f"spot {command.spot} is already dealt in")
            round.sit(command.spot)
            return f"spot {command.spot} is dealt in"
        if isinstance(command, CloseBetting):
            try:
                round.close_betting()
            except WagerRefused as exc:  # a wager placed a while ago, on one of many spots: say which
                raise CommandRefused(f"spot {exc.spot} {exc.wager.replace('_', ' ')}: {exc.reason}") from None
            return "no more bets"
        if isinstance(command, Decide):
            pending = round.pending_decision()
            if pending is None:
                doing = IN_PLAY.get(round.state, f"the round is {round.state.replace('_', ' ')}")
                raise CommandRefused(f"no decision is due: {doing}")
            cards = tuple(self._piece(code, pending.setting.cards if pending.setting else ()) for code in command.cards)
            round.decide(Decision(command.spot, command.action, command.amount, cards, command.hand, command.values))
            return f"spot {command.spot}: {command.action}"
        if isinstance(command, EnterPiece):
            return self._enter_piece(round, command.code)
        raise CommandRefused(f"unknown command {command!r}")

    def _piece(self, code: str, hand: tuple[Any, ...]) -> Any:
        """The card or tile ``code`` names: one of ``hand`` when it is there, else parsed as the game's pieces are."""
        for piece in hand:
            if piece.code == code:
                return piece
        return type(self.table.game.deck()[0]).parse(code)

    def _enter_piece(self, round: Round, code: str) -> str:
        if self.keyed is None:
            raise CommandRefused(f"the {self.table.feed.source} deals this table's cards: nothing is keyed in")
        target = round.card_target()
        if target is None:
            raise CommandRefused(f"no piece is due while the round is {round.state}")
        try:
            piece = self.keyed.keyed(code, [p for _, p, _ in round.cards])
        except ValueError as exc:
            self.log.emit(PieceRefusal(round=round.id, code=code, target=target, reason=str(exc)))
            raise
        round.card(piece, self.keyed.source)
        return f"{'tile' if '-' in piece.code else 'card'} placed at {target}"  # never echoed: it lies face down

    def _current(self, reason: str) -> Round:
        if self.round is None or self.round.state in FINISHED:
            raise CommandRefused(reason)
        return self.round

    # -- rounds ---------------------------------------------------------

    def _open_round(self) -> str:
        if self.round is not None and self.round.state not in FINISHED:
            doing = IN_PLAY.get(self.round.state, self.round.state)
            raise CommandRefused(f"round {self.round.id} is in play ({doing}): settle it, or a supervisor voids it, "
                                 "before the next round opens")
        if self.table_fault:
            raise CommandRefused(f"the table is on hold: {self.table_fault}")
        self._finalize()  # the last round's bookkeeping may pass the player-dealer position, or stop the game
        if self.table.stopped:
            raise CommandRefused(f"the game has stopped: {self.table.stopped}")
        return self._take_pending() if self.pending else self._new_round()

    def _new_round(self) -> str:
        """Open the next round. With ``recovery_wait`` (``tablectl run``) it opens first and holds while its device
        cannot be made ready (``Table.ready``); at a console a device that is not ready is a table fault and no
        round opens until the supervisor clears it."""
        if self.journal is not None:
            self.table.rounds_played = self.journal.rounds_started()
        if self.recovery_wait is not None:
            round = self.table.open_round()
            self._begin(round)
            self._prepare(round)
            return f"round {round.id}: betting is open" if round.state == "betting" else f"round {round.id} is on hold"
        try:
            round = self.table.new_round()
        except RECORDING_ERRORS:
            raise  # the journal or the log failed, not the device: the caller stops the table
        except (RuntimeError, OSError) as exc:
            self._fault(self.table.feed.source, f"cannot prepare the round: {exc}")
            raise CommandRefused(f"the {self.table.feed.source} is not ready: {exc}") from None
        self._begin(round)
        round.start()
        return f"round {round.id}: betting is open"

    def _begin(self, round: Round) -> None:
        self.round = round
        self.finalized = False
        self._unprepared = None

    def _prepare(self, round: Round) -> bool:
        """Get the device ready for ``round``; while it cannot be, the round holds (``Table.ready``) and is made
        ready again once the supervisor resumes it."""
        ready = self.table.ready(round, self.recovery_wait or 0.0)
        self._unprepared = None if ready else round
        return ready

    def _take_pending(self) -> str:
        """Carry on with a round recovered from the journal (or resumed from a hold), where it stood: its device
        made ready again (burns due if the shoe was reshuffled)."""
        round = self.pending.pop(0)
        self._begin(round)
        if round.state == "hold":  # its device is made ready for it once resumed, if a resume may go on
            self.recovered[round.id] = cards_dealt(round)
            self._unprepared = round
        if round.state not in (*FINISHED, "hold") and not self._prepare(round):
            return f"round {round.id} recovered and on hold: {round.hold_reason}"
        if round.state == "betting" and self.players is not None:
            for spot, wager in list(round.wagers):
                round.place_wager(spot, wager, 0)  # the simulated players bet again from scratch
        return f"round {round.id} recovered: {round.state}"

    def _finalize(self) -> None:
        """After a round ends: the table's bookkeeping, once."""
        round = self.round
        if round is None or self.finalized or round.state not in FINISHED:
            return
        self.finalized = True
        self.rounds_finished += 1
        self.table.feed.end_round(round.id)
        self.table.rounds_played += 1
        self.table.meters.add_round(round.settlements, sum(f.amount for f in round.fees), voided=round.state == "void")
        if round.game is not self.table.game:  # recovered under the options it was dealt with: carry its roles on
            self.table.game.restore_roles(round.game.table_roles())
        facts = self.table.game.pass_position(self.accepts_position) if banked(round) else {}
        if facts:
            self.log.emit(PositionPassed(round=round.id, game=self.table.game.id, details=facts))
        if "stopped" in facts:
            self.table.stopped = str(facts["stopped"])
        if self.views:
            self._recall()

    def _recall(self) -> None:
        """The last rounds for the pit view: the journal's when there is one, else this process's."""
        if self.journal is not None:
            self.recent.clear()
            for row in reversed(self.journal.rounds(10)):
                summary = recall(self.journal.round_records(row.id))
                totals = summary["totals"] or {"wagered": 0, "paid": 0, "house_win": 0}
                self.recent.append({"id": row.id, "state": row.state, "describe": self._shown_cards(row.id), **totals})
            return
        round = self.round
        if round is not None:
            describe = self.table.game.describe(round.hand) if round.hand is not None and round.state == "complete" else ""
            self.recent.appendleft({"id": round.id, "state": round.state, "describe": describe, **round.totals()})

    def _shown_cards(self, round_id: str) -> str:
        """The cards of a round a screen may show (none of a round this process did not play: see the journal)."""
        round = self.log.screens.round(round_id)
        if round is None:
            return ""
        shown = sight(round, Audience.PIT).shown
        return " ".join(c.code for (_, c, _), ok in zip(round.cards, shown, strict=True) if ok)

    # -- the loop's own steps -------------------------------------------

    def _step_possible(self) -> bool:
        round = self.round
        if self.table_fault or (round is not None and round.state == "hold"):
            return False
        if round is None or round.state in FINISHED:
            return (not self.finalized) or self._auto_open() or (self.table.stopped is not None and self.players is not None)
        if round.card_target() is not None:
            return self.keyed is None
        if self.players is None:
            return False
        return round.state == "betting" or round.pending_decision() is not None

    def _in_play(self) -> bool:
        return self.round is not None and self.round.state not in (*FINISHED, "hold") and not self.table_fault

    def _offer_position(self) -> bool:
        """Simulated players at a stopped game: the position is offered again, clockwise, every second."""
        if not self.table.stopped or self.players is None or self._closing:
            return False
        if self.table.offer_position(self.players.accepts_position, self.round.id if self.round is not None else None) is None:
            self._next_step = time.monotonic() + max(self.pace, OFFER_AGAIN)
        return True

    def _auto_open(self) -> bool:
        limit_reached = bool(self.rounds_limit) and self.rounds_finished >= self.rounds_limit
        return self.players is not None and not self.table.stopped and not limit_reached and not self._closing

    def _step(self) -> bool:
        """Do one step of the table's own if one is due now; False when there is nothing to do."""
        if not self._step_possible() or time.monotonic() < self._next_step:
            return False
        self._next_step = time.monotonic() + self.pace
        round = self.round
        if round is None or round.state in FINISHED:
            self._finalize()
            if self._offer_position():
                return not self.table.stopped  # nobody took it: wait (the page shows why), and offer it again
            if self._auto_open():
                try:
                    self._open_round()
                except CommandRefused as exc:
                    self.message = str(exc)
            return True
        if round.card_target() is not None:
            return self._deal(round)
        if round.state == "betting" and self.players is not None:
            self._simulated_betting(round)
        elif self.players is not None:
            self._simulated_decision(round)
        return True

    def _simulated_betting(self, round: Round) -> None:
        """The simulated players' wagers, as commands like the page's; once they are down, "no more bets"."""
        if not round.wagers and self.players is not None:
            for command in self.players.wagers(round):
                self._execute(command)  # a refused wager is left off, as the page's would be
            if round.wagers:
                return
        try:
            round.close_betting()
        except WagerRefused as exc:
            self.message = str(exc)
            round.void_round(f"the table cannot start: {exc.reason}")

    def _simulated_decision(self, round: Round) -> None:
        """The pending decision as a simulated player takes it, carried out as the page's ``Decide`` is."""
        assert self.players is not None
        command = self.players.decision(round)
        _, refused = self._execute(command)
        if refused is not None:  # the strategy asked for something the rules refuse: a bug, not a table event
            raise RuntimeError(f"round {round.id}: the simulated player's {command.action} was refused: {refused}")

    def _deal(self, round: Round) -> bool:
        """Take the next card from the feed; False while the shoe has none yet (the dealer has not drawn it)."""
        feed = self.table.feed
        try:
            feed.deal(round)
        except NoCardYet:
            return False
        except DeviceFaulted as exc:
            self._fault(feed.source, str(exc))
            if not exc.supervisor:
                self._await_recovery(round)
            return True
        except FeedError as exc:
            self._fault(feed.source, str(exc))
        except CardRefused:
            pass  # the round logged the fault and is on hold
        except RECORDING_ERRORS:
            raise  # the journal or the log failed, not the device: the caller stops the table
        except (RuntimeError, OSError) as exc:
            self._fault(feed.source, str(exc) or type(exc).__name__)
        return True

    def _await_recovery(self, round: Round) -> None:
        """With ``recovery_wait``: wait for the device to report its fault cleared, then go on with the round (a fault
        only the supervisor can end, ``DeviceFaulted.supervisor``, is not waited for: the round stays held)."""
        if self.recovery_wait is None or round.state != "hold":
            return
        if self.table.feed.wait_recovered(round.id, self.recovery_wait):
            round.release(by="device recovered")
            self._clear_faults()

    # -- faults and the supervisor --------------------------------------

    def _fault(self, device: str, reason: str) -> str:
        round = self.round
        round_id = round.id if round is not None and round.state not in FINISHED else None
        self.faults.append(Fault(device, reason, round_id, time.time()))
        self.devices[device] = f"fault: {reason}"
        self.log.emit(DeviceFaultReported(round=round_id, device=device, reason=reason))
        if round_id is not None and round is not None:
            held = round.state == "hold" and round.hold_reasons[-1:] == [f"{device}: {reason}"]
            if not held:  # a fault the round already holds for, reported again (a reconnection), is no new reason
                round.put_on_hold(f"{device}: {reason}")
        else:
            self.table_fault = f"{device}: {reason}"
            self._awaiting = self._awaiting or self._device_fault(self.table.feed.awaited) is not None
        return f"{device} fault: {reason}"

    def _supervise(self, command: Resume | VoidRound | CorrectCard | CorrectPlacedCard) -> str:
        round = self.round
        active = round is not None and round.state not in FINISHED
        action = {Resume: "resume", VoidRound: "void", CorrectCard: "correct_card",
                  CorrectPlacedCard: "correct_placed_card"}[type(command)]
        if isinstance(command, Resume) and not active and self.table_fault:
            return self._resume_table(command)
        if not active or round is None:
            raise CommandRefused("no round is in play")
        if isinstance(command, VoidRound):
            self.log.emit(SupervisorActed(round=round.id, action=action, reason=command.reason, by=command.by))
            holds.void(round, by="supervisor", reason=command.reason, feed=self.table.feed)
            self._clear_faults()
            if (still := self._blocking_fault()) is not None:  # the device still down holds the table, beside the void
                self._fault(self.table.feed.source, still)
            return f"round {round.id} voided"
        if isinstance(command, CorrectPlacedCard):
            return self._correct_placed(round, command)
        if round.state != "hold":
            raise CommandRefused(f"round {round.id} is not on hold (it is {round.state})")
        try:  # a round that may only be voided: a resume would only hold again at once
            holds.refuse_void_only(round, self.log, by=command.by, action=action, feed=self.table.feed,
                                   records=self._records(round.id), recovered=self.recovered.get(round.id))
        except holds.VoidOnly as exc:
            raise CommandRefused(str(exc)) from None
        if isinstance(command, Resume) and self._needs_device(round):
            self._refuse_while_down(command, round)
        card = None
        if isinstance(command, CorrectCard):
            card = Card.parse(command.card.strip().upper())
            if not holds.card_due_on_release(round):  # refused before the hold, its reason or the faults change
                self.log.emit(SupervisorRefusal(round=round.id, name=command.by, step="table", action=action,
                                                reason="no card is due"))
                raise CommandRefused("no card is due in this round: resume or void it instead")
        self.log.emit(SupervisorActed(round=round.id, action=action, reason=command.reason, by=command.by,
                                      card=card.code if card else UNSET))
        self._clear_faults()
        try:
            answer = holds.resume(round, by="supervisor", feed=self.table.feed, card=card)
        except holds.HoldRefused:
            raise CommandRefused("no card is due in this round: resume or void it instead") from None
        if round is self._unprepared and not self._prepare(round):
            return f"round {round.id} resumed, and held again: {round.hold_reason}"
        return answer

    def _records(self, round_id: str) -> list[Event]:
        """The journal's records of ``round_id`` (none without a journal)."""
        return self.journal.round_records(round_id) if self.journal is not None else []

    def _correct_placed(self, round: Round, command: CorrectPlacedCard) -> str:
        """Replace a card already placed; the round stays where it is (a held round is resumed separately)."""
        card = self._piece(command.card.strip().upper(), ())
        if not 0 <= command.index < len(round.cards):
            raise CommandRefused(f"round {round.id} has no card {command.index + 1}")
        target, previous, _ = round.cards[command.index]
        if self.keyed is not None:  # the set's own count: no third copy of a tile
            self.keyed.keyed(card.code, [p for i, (_, p, _) in enumerate(round.cards) if i != command.index])
        self.log.emit(SupervisorActed(round=round.id, action="correct_placed_card", reason=command.reason, by=command.by,
                                      index=command.index, card=card.code, previous=previous.code))
        round.correct_card(command.index, card, command.reason)
        return f"{target}: card {command.index + 1} corrected (both cards are in the journal)"

    def _resume_table(self, command: Resume) -> str:
        """Clear the table's hold (no round in play), unless a device that keeps the next round from opening is
        still down: then the resume is refused, journaled, naming the device and what to do; the hold stays, and
        its screen shows the device as it is now."""
        feed = self.table.feed
        self._refuse_while_down(command, None)
        self.log.emit(SupervisorActed(action="resume", reason=command.reason, by=command.by))
        feed.supervisor_resumed(None)  # what only the supervisor ends (a shoe of the wrong size reloaded) is over
        self._clear_faults()
        return "table resumed: the next round may open"

    def _needs_device(self, round: Round) -> bool:
        """Whether the held ``round``'s next step asks its device: the shuffle it was opened without, the deal after
        betting, or a card (or burn) due; not a decision awaited with no card due, which the device cannot block."""
        return round is self._unprepared or round.held_from == "betting" or holds.card_due_on_release(round)

    def _refuse_while_down(self, command: Resume, round: Round | None) -> None:
        """Refuse the resume of the table's hold (``round`` ``None``) or of a held round while a device that blocks
        what comes next is still down (``CardFeed.device_down``), journaled, naming the device and what to do: a
        resume would only hold again at the next step. The device is asked as it is this moment (plugged in a
        second ago, or down again); the hold stays, its screen showing the device as it reports."""
        feed = self.table.feed
        self._next_poll = 0.0
        self._poll_device()
        down = self._device_fault(feed.device_down)
        if down is None:
            return
        what = "the table" if round is None else "the round"
        why = (f"the {feed.source} is still down ({down}): plug it in or clear the fault at the {feed.source}, "
               f"wait until the hold screen shows '{feed.source} now: ready', then resume {what}")
        self.log.emit(SupervisorRefusal(round=round.id if round is not None else None, name=command.by, step="table",
                                        action="resume", reason=why))
        raise CommandRefused(f"not resumed: {why}")

    def _blocking_fault(self) -> str | None:
        """What keeps the next round from opening now (``CardFeed.blocking_fault``); a device that cannot be asked
        is that fault."""
        return self._device_fault(self.table.feed.blocking_fault)

    @staticmethod
    def _device_fault(ask: Callable[[], str | None]) -> str | None:
        """``ask`` the feed about its device's faults; a device that cannot be asked is that fault."""
        try:
            return ask()
        except RECORDING_ERRORS:
            raise  # the journal or the log failed, not the device: the caller stops the table
        except (RuntimeError, OSError) as exc:
            return str(exc) or type(exc).__name__

    def _clear_faults(self) -> None:
        """The hold is over; each device is shown as it reports now (never 'ok' while it reports a fault)."""
        self.table_fault = None
        self._awaiting = False
        now = self._device_fault(self.table.feed.current_fault)
        for device in self.devices:
            self.devices[device] = shown(now if device == self.table.feed.source else None)

    # -- what the pages see ---------------------------------------------

    def _on_event(self, event: Event) -> None:
        self.events.appendleft(to_record(event))
        if isinstance(event, ClockSteppedBack):
            self.message = event.message  # the dealer's and the pit's pages say it, as stderr and STATUS do
        round_id = event.round
        if round_id is None:
            return
        match event:
            case Revealed(details=details):
                self.reveals[round_id] = details
            case RoundVoided(reason=reason):
                self.void_reasons[round_id] = reason
            case CardDealt() | CardBurned():
                self._camera_of(round_id)["dealt"] += 1
            case CameraAgreed():
                self._camera_of(round_id)["agrees"] = True
            case CameraConfirmed():
                camera = self._camera_of(round_id)
                camera["confirmed"] = camera["dealt"]  # every card out so far, burns among them
            case CameraDisagreed(kind=kind, zone=zone, dealt=dealt, seen=seen):
                self._camera_of(round_id)["problems"].append({"zone": zone, "dealt": dealt, "seen": seen, "kind": kind})

    def _camera_of(self, round_id: str) -> dict[str, Any]:
        """What the camera said of a round so far: whether it agreed, how many cards it confirmed, its problems."""
        return self.camera.setdefault(round_id, {"agrees": False, "confirmed": 0, "problems": [], "dealt": 0})

    def _publish(self) -> None:
        self.version += 1
        if not self.views:
            return
        views = {audience.value: table_view(self, audience) for audience in AUDIENCES}
        with self._lock:
            self._snapshots = views
        for listener in self._listeners:
            listener(views[Audience.DEALER])

