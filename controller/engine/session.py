"""A table session with its journal: what ``tablectl run`` and ``tablectl serve`` open and close.

Opening a session opens, in order, the journal (``[journal] path``, default
``var/journal/TABLE-ID.sqlite``), the hash-chained event log (caught up with
any records the journal took before the last stop), the card feed and the
table; then it recovers every round the journal holds open. A failure at any
step leaves nothing half-open: whatever was opened is closed again.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from controller.engine.config import TableConfig
from controller.engine.config_schema import Floor
from controller.engine.devices import open_feed
from controller.engine.floor_link import OutboxProcess
from controller.engine.log import EventLog
from controller.engine.players import SimulatedPlayers
from controller.engine.recovery import Recovered, recover
from controller.engine.round import Round
from controller.engine.table import Table
from controller.records.audit import ChainedFile
from controller.records.journal import Journal
from drivers.sim.process import SimulatorProcess


def journal_path(config: TableConfig) -> Path:
    journal = config.sections.get("journal", {})
    return Path(journal.get("path", f"var/journal/{config.table_id}.sqlite"))


def log_path(config: TableConfig) -> Path:
    return Path(config.log.get("events", "var/log/tablectl-events.jsonl"))


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

    def play(self, players: SimulatedPlayers) -> Round:
        """Finish the next recovered round, or play a new one.

        A recovered round goes through the table's loop even when recovery
        already settled or voided it, so the table's own after-round steps
        (meters, passing the player-dealer position) happen for it too.

        A new round is numbered after every round the journal has seen, so its id is unique even
        when two sessions start within the same second.
        """
        if self.pending:
            return self.table.play_round(players, self.pending.pop(0))
        if self.journal is not None:
            self.table.rounds_played = self.journal.rounds_started()
        return self.table.play_round(players)


def _publish_to_floor(config: TableConfig, journal: Path, floor: Floor, stack: contextlib.ExitStack) -> None:
    """The table's outbox: the journal to the floor's stream, in a process beside the table (``engine/floor_link.py``)."""
    outbox = OutboxProcess(journal, config.table_id, floor)
    outbox.start()
    stack.callback(outbox.stop)


@contextlib.contextmanager
def open_session(
    config: TableConfig,
    rng: random.Random,
    *,
    events: Path | None = None,
    journal: Path | None = None,
    journaled: bool = True,
    console: TextIO | None = None,
    simulate_devices: bool = False,
) -> Iterator[Session]:
    """Open the journal (unless ``journaled`` is false), the log, the feed and the table; recover open rounds.

    With ``simulate_devices``, a reference shoe configured without a port is started as a simulator
    on a pseudo-terminal of its own (``tablectl run``); a real table (``tablectl serve``) never does that.
    """
    max_mb = config.sections.get("journal", {}).get("max_size_mb")
    with contextlib.ExitStack() as stack:
        store = None
        if journaled:
            store = Journal(journal or journal_path(config), table_id=config.table_id, max_bytes=max_mb and max_mb << 20)
            stack.callback(store.close)
        trail = ChainedFile(events or log_path(config), max_bytes=config.log.get("max_bytes"), backups=config.log.get("backups", 5))
        stack.callback(trail.close)
        log = EventLog(config.table_id, json_stream=trail, console_stream=console, journal=store)  # type: ignore[arg-type]
        floor = config.settings.floor if config.settings is not None else None
        if floor is not None and store is not None:
            _publish_to_floor(config, store.path, floor, stack)
        logged = trail.last_seq()
        if logged and store is not None:
            for record in store.records(after_seq=logged):
                log.write_outputs(record)
        seed = rng.randrange(2**32)
        if store is not None and store.last_seq:
            # a restarted table's simulated devices shuffle afresh, as a sound device does after a power cycle:
            # dealing the orders of before again is the shuffle monitor's "repeat" fault (docs/shuffle.md)
            seed = random.Random(f"{seed}:{store.last_seq}").randrange(2**32)
        port = shoe_simulator(config, seed, stack) if simulate_devices else None
        feed = open_feed(config, log, seed=seed, shoe_port=port)
        stack.callback(feed.close)
        watch = getattr(feed, "watch", None)
        if watch is not None and store is not None:
            watch.restore(store.records_of("shuffle_tested"))
        table = Table(config, feed, log)
        recovered = recover(store, log, table.game, table.limits) if store is not None else []
        pending = [r.round for r in recovered if r.round is not None]
        if table.game.position_offer():  # stopped before the restart for want of a player-dealer: still waiting
            table.stopped = "nobody has taken the player-dealer position since the game stopped"
            table.last_round = store.rounds(1)[0].id if store is not None and store.rounds(1) else None
        yield Session(config, store, log, table, recovered, pending, closing=stack)
