"""A table session with its journal: what ``tablectl run`` and ``tablectl serve`` open and close.

Opening a session opens, in order, the table's signing key, the journal
(``[journal] path``, default ``var/journal/TABLE-ID.sqlite``; it must exist:
``tablectl journal init`` makes a new table's), which checks itself and its
anchor; then it compares the journal with the event log
(``controller.records.witnesses``), opens the event log (``[log] events``,
default ``var/log/TABLE-ID.events.jsonl``: a new chain, caught up with any
records the journal took before the last stop), the card feed and the table;
then it recovers every round the journal holds open. Both files stay locked
against a second process until the session closes. A failure at any step
leaves nothing half-open: whatever was opened is closed again.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from controller.engine.config import TableConfig
from controller.engine.config_schema import Floor
from controller.engine.devices import open_feed
from controller.engine.floor_link import OutboxProcess
from controller.engine.jackpot import AwardSource, AwardWatcher
from controller.engine.log import EventLog
from controller.engine.loop import TableLoop
from controller.engine.players import SimulatedPlayers
from controller.engine.recovery import Recovered, recover
from controller.engine.round import Round
from controller.engine.table import Table
from controller.events import ShuffleTested
from controller.records.anchor import anchor_path
from controller.records.audit import ChainedFile
from controller.records.errors import AnotherTablesJournal, JournalBehind
from controller.records.journal import Journal
from controller.records.keys import SigningKey, key_path
from controller.records.witnesses import check_anchor_signed, check_key, check_log_against_journal, name_lost_rounds
from drivers.sim.process import SimulatorProcess


def journal_path(config: TableConfig) -> Path:
    journal = config.sections.get("journal", {})
    return Path(journal.get("path", f"var/journal/{config.table_id}.sqlite"))


def log_path(config: TableConfig) -> Path:
    return Path(config.log.get("events", f"var/log/{config.table_id}.events.jsonl"))


@dataclass(frozen=True)
class RecordPaths:
    """Where a table's records live: the config's, or the command line's ``--journal``, ``--log`` and ``--key``."""

    journal: Path
    log: Path
    key: Path

    @property
    def anchor(self) -> Path:
        return anchor_path(self.journal)


def record_paths(config: TableConfig, *, journal: Path | None = None, log: Path | None = None,
                 key: Path | None = None) -> RecordPaths:
    """The key is ``--key``, else beside a ``--journal`` given, else ``[log] key``, else beside the configured journal."""
    configured = config.log.get("key")
    if key is None:
        key = key_path(journal) if journal is not None else Path(configured) if configured else key_path(journal_path(config))
    return RecordPaths(journal or journal_path(config), log or log_path(config), key)


def shoe_simulator(config: TableConfig, seed: int, stack: contextlib.ExitStack) -> str | None:
    """A reference shoe with no ``port`` configured is the simulator, on a pseudo-terminal of its own."""
    shoe = config.shoe
    if shoe.get("driver") != "reference" or shoe.get("port") or config.make_game().device != "shoe":
        return None
    args = ["--decks", str(shoe.get("decks", 8)), "--cut", str(shoe.get("cut_from_end", 52)), "--seed", str(seed),
            "--deck", str(shoe.get("kind", "standard")), "--jokers", str(shoe.get("jokers_per_deck", 0))]
    return str(stack.enter_context(SimulatorProcess("shoe", *args)).port)


@dataclass
class Session:
    """An open table: its journal, event log, table, and the rounds recovered on opening."""

    config: TableConfig
    journal: Journal | None
    log: EventLog
    table: Table
    recovered: list[Recovered]
    pending: list[Round] = field(default_factory=list)
    closing: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)
    """Closed with the session (its journal, log and devices, and what a command adds, as the camera)."""
    awards: AwardWatcher | None = None
    """Where a round held for a linked jackpot's claim gets its award (``[floor] jackpot``)."""

    loop: TableLoop | None = None
    """The table's loop, made by the first ``table_loop`` call."""

    def table_loop(self, **options: Any) -> TableLoop:
        """The one loop that plays this table (``tablectl run``, ``serve``, the console): made on the first call
        with ``options`` (``TableLoop``'s: players, pace, rounds, heartbeat, views), given the journal and the
        rounds recovered on opening."""
        if self.loop is None:
            self.loop = TableLoop(self.table, journal=self.journal, pending=self.pending, awards=self.awards, **options)
            self.pending = []
        return self.loop

    def play(self, players: SimulatedPlayers) -> Round:
        """Finish the next recovered round, or play a new one, through the table loop (``tablectl run``).

        A recovered round goes through the loop even when recovery already
        settled or voided it, so the table's own after-round steps (meters,
        passing the player-dealer position) happen for it too. A new round is
        numbered after every round the journal has seen, so its id is unique
        even when two sessions start within the same second.
        """
        loop = self.table_loop(players=players, views=False, recovery_wait=self.table.recovery_timeout)
        return loop.play_round()


def _publish_to_floor(config: TableConfig, journal: Path, floor: Floor, stack: contextlib.ExitStack) -> None:
    """The table's outbox: the journal to the floor's stream, in a process beside the table (``engine/floor_link.py``)."""
    outbox = OutboxProcess(journal, config.table_id, floor)
    outbox.start()
    stack.callback(outbox.stop)


def open_records(
    config: TableConfig,
    paths: RecordPaths,
    stack: contextlib.ExitStack,
    *,
    journaled: bool = True,
    log_named: bool = False,
    console: TextIO | None = None,
    warn: Callable[[str], None] | None = None,
) -> tuple[Journal | None, EventLog]:
    """The table's records opened for writing, closed by ``stack``: the journal (checked whole, locked), its key,
    the event log compared with it and caught up, and the ``EventLog`` that journals first and then logs.

    Without a journal there is an event log only when ``log_named`` (a throwaway simulation never writes into the
    table's own trail); it is signed if the table's key exists, and ``warn`` is told when it does not.
    """
    max_mb = config.sections.get("journal", {}).get("max_size_mb")
    store = None
    signer: SigningKey | None = None
    if journaled:
        try:
            store = Journal(paths.journal, table_id=config.table_id, max_bytes=max_mb and max_mb << 20)
        except JournalBehind as exc:
            raise name_lost_rounds(exc, paths.log) from None
        stack.callback(store.close)
        check_game(store, config)
        store.key = signer = SigningKey.load(paths.key)
        stack.callback(store.checkpoint)  # after the log's chain_closed: the journal holds the log's last line
        check_key(store, signer)
        check_anchor_signed(store, signer.public)
        check_log_against_journal(store, paths.log)
    else:
        signer = SigningKey.load(paths.key) if log_named and paths.key.exists() else None
        if log_named and signer is None and warn is not None:
            warn(f"no signing key at {paths.key}: the event log {paths.log} of this run without a journal is not signed")
    trail = None
    if store is not None or log_named:
        trail = ChainedFile(paths.log, table_id=config.table_id, key=signer, max_bytes=config.log.get("max_bytes"),
                            backups=config.log.get("backups", 5), journal_seq=store.last_seq if store else None)
        stack.callback(trail.close)
    log = EventLog(config.table_id, json_stream=trail, console_stream=console, journal=store)  # type: ignore[arg-type]
    if store is not None and trail is not None:
        store.log_head = trail.position
        for record in store.stored(after_seq=trail.last_seq):
            log.write_stored(record)
        trail.sync()
        store.checkpoint()
    if store is not None and (last := store.last_stamp()) is not None:
        log.last_time = (dt.datetime.fromisoformat(last[0]), last[1])  # a clock set back since is noticed at once
    return store, log


def check_game(journal: Journal, config: TableConfig) -> None:
    """The journal's rounds are of the game the config names: a config of another game with the same ``[table] id``
    (two tables given one id, a config copied and its game changed) would deal its rounds into this table's journal
    and meters. Refused by name (``AnotherTablesJournal``, exit 2) before anything is written."""
    last = journal.rounds(1)
    if not last or last[0].game == config.game_id:
        return
    played = last[0].game
    raise AnotherTablesJournal(
        f"journal {journal.path} holds table {config.table_id}'s rounds of {played}, the last {last[0].id}, but "
        f"{config.path} says table.game = {config.game_id!r}: two tables given one [table] id? Give this table an id "
        f"of its own ([table] id in {config.path}) and make its journal with `tablectl journal init`; a table that "
        f"changes game starts a new journal under a new id, the old one kept for its records")


@contextlib.contextmanager
def open_session(
    config: TableConfig,
    rng: random.Random,
    *,
    events: Path | None = None,
    journal: Path | None = None,
    key: Path | None = None,
    journaled: bool = True,
    console: TextIO | None = None,
    simulate_devices: bool = False,
    warn: Callable[[str], None] | None = None,
    awards: AwardSource | None = None,
    await_devices: bool = False,
) -> Iterator[Session]:
    """Open the journal (unless ``journaled`` is false), the log, the feed and the table; recover open rounds.

    With ``simulate_devices``, a reference shoe configured without a port is started as a simulator
    on a pseudo-terminal of its own (``tablectl run``); a real table (``tablectl serve``) never does that.
    ``awards``: the floor's answers to the table's jackpot claims (``controller.commands.jackpot_awards``).
    ``await_devices`` (``tablectl serve``): a shoe or shuffler not there yet is waited for, the table held until
    it is (``controller.engine.awaited``), rather than refused.
    Without a journal there is an event log only when ``events`` names one (``open_records``).
    """
    paths = record_paths(config, journal=journal, log=events, key=key)
    with contextlib.ExitStack() as stack:
        store, log = open_records(config, paths, stack, journaled=journaled, log_named=events is not None,
                                  console=console, warn=warn)
        floor = config.settings.floor if config.settings is not None else None
        if floor is not None and store is not None:
            _publish_to_floor(config, store.path, floor, stack)
        seed = rng.randrange(2**32)
        if store is not None and store.last_seq:
            # a restarted table's simulated devices shuffle afresh, as a sound device does after a power cycle:
            # dealing the orders of before again is the shuffle monitor's "repeat" fault (docs/shuffle.md)
            seed = random.Random(f"{seed}:{store.last_seq}").randrange(2**32)
        port = shoe_simulator(config, seed, stack) if simulate_devices else None
        feed = open_feed(config, log, seed=seed, shoe_port=port, await_device=await_devices)
        stack.callback(feed.close)
        watch = getattr(feed, "watch", None)
        if watch is not None and store is not None:
            watch.restore([r for r in store.records_of(ShuffleTested) if isinstance(r, ShuffleTested)])
        table = Table(config, feed, log)
        recovered = recover(store, log, table.game, table.limits) if store is not None else []
        # re-enacted unwitnessed (a look would be a record the journal does not hold); witnessed from here on
        pending = [table.witnessed(r.round) for r in recovered if r.round is not None]
        if table.game.position_offer():  # stopped before the restart for want of a player-dealer: still waiting
            table.stopped = "nobody has taken the player-dealer position since the game stopped"
            table.last_round = store.rounds(1)[0].id if store is not None and store.rounds(1) else None
        watcher = None
        if awards is not None:
            watcher = AwardWatcher(awards)
            stack.callback(watcher.close)
        yield Session(config, store, log, table, recovered, pending, closing=stack, awards=watcher)
