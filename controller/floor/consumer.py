"""The floor's consumer: the site's stream, through a durable pull consumer, into PostgreSQL.

It fetches a batch, stores it in one transaction (``FloorStore.apply``), and
only then acknowledges each message of it (explicit acknowledgement: with
"acknowledge all", a batch fetched by a consumer that was then killed would be
acknowledged by the next batch its successor stores, and lost). Killed
between the commit and the acknowledgements, the broker delivers the batch
again and the database keeps each record once.
PostgreSQL down: the batch is not acknowledged, the consumer waits (doubling
up to ``max_backoff``) and tries the same messages again. A message that is
not a table record is kept in ``rejected`` with its subject and acknowledged,
so one bad message never stops the floor.

The tables' signed checkpoints come on the same stream; each is verified with
its table's enrolled key and kept, or refused with its reason
(``controller.floor.checkpoints``), in the same way: stored, then acknowledged.

A gap that stays open (a record the broker acknowledged to the table and then
lost: seen with nats-server 2.9 when a node killed and brought back was the
stream's leader as the whole cluster restarted) is repaired from the table's
own journal: the consumer asks the table's outbox to publish again from the
first missing record (``tablectl-control.<site>.<table>.resend``), every
``resend_every`` seconds while the gap stays open. A table that does not
answer (switched off) keeps its gap, named on the pit page, until it does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from nats.errors import Error as NatsError
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.errors import Error as JetStreamError

from controller.floor import broker, checkpoints, kinds, wire
from controller.floor.shifts import Shifts
from controller.floor.store import Applied, FloorStore, create_schema
from controller.floor.stream import StreamSettings, ensure_stream

log = logging.getLogger("tablectl.floor")

REJECTED = """
CREATE TABLE IF NOT EXISTS rejected (
    stream_seq BIGINT PRIMARY KEY, subject TEXT NOT NULL, reason TEXT NOT NULL, payload BYTEA NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())
"""

DURABLE = "floor-postgres"


@dataclass
class ConsumerStats:
    stored: int = 0
    duplicates: int = 0
    rejected: int = 0
    gaps_opened: int = 0
    gaps_closed: int = 0
    batches: int = 0
    resends_asked: int = 0
    checkpoints_stored: int = 0
    checkpoints_refused: int = 0
    checkpoint_duplicates: int = 0
    record_conflicts: int = 0
    """Records that differ from the one stored under their table and seq (two journals as one table): kept aside."""
    conflicts: list[str] = field(default_factory=list)
    """A table that signed the same journal seq twice with different records (rewound): the newest 50, in words."""
    refusals: list[str] = field(default_factory=list)
    """The newest reasons a checkpoint was refused (50 at most)."""
    errors: list[str] = field(default_factory=list)
    last_error: str | None = None
    """The last error as the log says it (None once the floor takes in records again)."""
    behind: str | None = None
    """Why the floor's figures stand still, in a pit manager's words (the pit page shows it), while ``last_error``."""


BROKER_AWAY = ("the floor cannot reach its message servers (the broker): the tables keep their records and send them "
               "once it is back")
DATABASE_AWAY = ("the floor's database cannot be reached: the tables' records wait on the message servers and are "
                 "stored once it is back")


class FloorConsumer:
    """Moves a site's records from the broker into PostgreSQL until ``stop`` is set."""

    def __init__(
        self,
        *,
        servers: Sequence[str],
        dsn: str,
        site: str,
        shifts: Shifts | None = None,
        pits: dict[str, str] | None = None,
        stream: StreamSettings | None = None,
        batch: int = 500,
        max_backoff: float = 10.0,
        ack_wait: float = 30.0,
        heal_after: float = 10.0,
        resend_every: float = 30.0,
        on_applied: Callable[[Applied], None] | None = None,
    ) -> None:
        self.servers = list(servers)
        self.dsn = dsn
        self.site = site
        self.shifts = shifts or Shifts.default()
        self.pits = dict(pits or {})
        self.stream = stream or StreamSettings()
        self.batch = batch
        self.max_backoff = max_backoff
        self.ack_wait = ack_wait
        self.heal_after = heal_after
        self.resend_every = resend_every
        self._asked: dict[str, float] = {}
        self.on_applied = on_applied
        self.stats = ConsumerStats()
        self.stop = asyncio.Event()
        self.ready = asyncio.Event()
        """Set once the stream exists and the durable consumer is subscribed."""
        self._conn: psycopg.Connection[Any] | None = None

    def _database(self) -> FloorStore:
        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(self.dsn, autocommit=True, connect_timeout=5)
            create_schema(self._conn)
            checkpoints.create_schema(self._conn)
            with self._conn.transaction():
                self._conn.execute(REJECTED)
        return FloorStore(self._conn, site=self.site, shifts=self.shifts, pits=self.pits)

    def _close_database(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None

    async def run(self) -> None:
        """Consume until ``stop``; reconnect to the broker and the database as often as needed."""
        backoff = 0.5
        while not self.stop.is_set():
            try:
                client = await broker.connect(
                    servers=self.servers, name="tablectl-floor", connect_timeout=2, reconnect_time_wait=1,
                    max_reconnect_attempts=-1, error_cb=self._broker_error,
                )
            except (TimeoutError, NatsError, OSError) as exc:
                self._error(f"cannot reach the broker ({', '.join(self.servers)}): {wire.reason(exc)}", BROKER_AWAY)
                await self._pause(backoff)
                backoff = min(2 * backoff, self.max_backoff)
                continue
            try:
                await self._consume(client)
                backoff = 0.5
            except psycopg.Error as exc:
                await asyncio.to_thread(self._close_database)
                self._error(f"the floor database: {wire.reason(exc)}; retrying", DATABASE_AWAY)
                await self._pause(backoff)
                backoff = min(2 * backoff, self.max_backoff)
            except (TimeoutError, NatsError, JetStreamError, OSError) as exc:
                self._error(f"the broker: {wire.reason(exc)}", BROKER_AWAY)
                await self._pause(backoff)
                backoff = min(2 * backoff, self.max_backoff)
            finally:
                with contextlib.suppress(Exception):
                    await client.close()
        await asyncio.to_thread(self._close_database)

    async def _broker_error(self, exc: Exception) -> None:
        self.stats.last_error = f"broker: {wire.reason(exc)}"
        self.stats.behind = BROKER_AWAY

    def _healthy(self, client: Any) -> None:
        """The broker answered and the database took the batch: the last error is over (it stays in ``errors``)."""
        if client.is_connected:
            self.stats.last_error = self.stats.behind = None

    def _error(self, message: str, behind: str) -> None:
        self.stats.last_error, self.stats.behind = message, behind
        if not self.stats.errors or self.stats.errors[-1] != message:
            self.stats.errors.append(message)
            del self.stats.errors[:-50]
        log.warning(message)

    async def _pause(self, seconds: float) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.stop.wait(), seconds)

    async def _consume(self, client: Any) -> None:
        js = client.jetstream(timeout=10)
        await ensure_stream(js, self.site, self.stream)
        subscription = await js.pull_subscribe(
            wire.site_subjects(self.site),
            durable=DURABLE,
            stream=wire.stream_name(self.site),
            config=ConsumerConfig(
                durable_name=DURABLE, ack_policy=AckPolicy.EXPLICIT, deliver_policy=DeliverPolicy.ALL,
                ack_wait=self.ack_wait, max_ack_pending=20000,
            ),
        )
        await asyncio.to_thread(self._database)
        self.ready.set()
        backoff = 0.5
        healed = time.monotonic()
        while not self.stop.is_set():
            if time.monotonic() - healed > min(5.0, self.heal_after):
                healed = time.monotonic()
                await self._heal(client)
            if not client.is_connected:  # the client reconnects by itself; meanwhile the page must not say "live"
                self.stats.last_error = self.stats.last_error or "the broker: not connected; reconnecting"
                self.stats.behind = self.stats.behind or BROKER_AWAY
                await self._pause(0.2)
                continue
            try:
                messages = await subscription.fetch(self.batch, timeout=1)
            except TimeoutError:  # nothing to fetch: nats' own timeout, or asyncio's when the pull's second below ran out
                self._healthy(client)
                continue
            while not self.stop.is_set():
                try:
                    applied = await asyncio.to_thread(self._store, messages)
                    break
                except psycopg.Error as exc:
                    await asyncio.to_thread(self._close_database)
                    self._error(f"the floor database: {wire.reason(exc)}; retrying", DATABASE_AWAY)
                    await self._pause(backoff)
                    backoff = min(2 * backoff, self.max_backoff)
            else:
                return
            backoff = 0.5
            for message in messages:
                await message.ack()
            self.stats.batches += 1
            self._healthy(client)
            if self.on_applied is not None:
                self.on_applied(applied)

    def _open_gaps(self) -> list[tuple[str, int, int]]:
        assert self._conn is not None
        rows = self._conn.execute(
            "SELECT table_id, MIN(missing_from), MAX(last_missing) FROM gaps WHERE filled_at IS NULL "
            "AND detected_at < clock_timestamp() - make_interval(secs => %s) GROUP BY table_id", (self.heal_after,)
        ).fetchall()
        return [(str(table), int(first), int(last)) for table, first, last in rows]

    async def _heal(self, client: Any) -> None:
        """Ask each table with a gap open longer than ``heal_after`` to publish its missing records again."""
        try:
            gaps = await asyncio.to_thread(self._open_gaps)
        except psycopg.Error:
            return
        now = time.monotonic()
        for table, first, last in gaps:
            if now - self._asked.get(table, -1e9) < self.resend_every:
                continue
            self._asked[table] = now
            self.stats.resends_asked += 1
            try:
                await client.request(wire.control_subject(self.site, table, "resend"),
                                     json.dumps({"from_seq": first}).encode(), timeout=2)
                log.warning("table %s: records %s to %s missing on the floor: asked the table to publish them again",
                            table, first, last)
            except (TimeoutError, NatsError) as exc:
                self._error(f"table {table}: records {first} to {last} are missing and the table does not answer "
                            f"({wire.reason(exc)}); they stay missing until it does",
                            f"records {first} to {last} of table {table} have not reached the floor and the table does "
                            "not answer: they stay missing until it does")

    def _store(self, messages: Sequence[Any]) -> Applied:
        store = self._database()
        batch: list[tuple[wire.TableRecord, int | None]] = []
        signed: list[tuple[str, bytes, int | None]] = []
        rejected = []
        for message in messages:
            stream_seq = int(message.metadata.sequence.stream) if message.metadata else None
            table = wire.checkpoint_table(message.subject)
            if table is not None:
                signed.append((table, bytes(message.data), stream_seq))
                continue
            try:
                batch.append((wire.decode(message.data, message.subject, message.headers), stream_seq))
            except wire.WireError as exc:
                rejected.append((stream_seq, message.subject, str(exc), message.data))
        started = time.monotonic()
        applied = store.apply(batch)
        if rejected:
            assert self._conn is not None
            with self._conn.transaction():
                for row in rejected:
                    self._conn.execute("INSERT INTO rejected VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING", row)
        stats = self.stats
        if signed:
            assert self._conn is not None
            kept = checkpoints.apply(self._conn, signed)
            stats.checkpoints_stored += kept.new
            stats.checkpoints_refused += len(kept.refused)
            stats.checkpoint_duplicates += kept.duplicates
            for reason, times in Counter(kept.refused).items():  # a table with no key yet: one line a batch, not one a checkpoint
                log.warning("checkpoint refused: %s", reason if times == 1 else f"{reason} ({times} checkpoints)")
            stats.refusals = [*stats.refusals, *kept.refused][-50:]
            for conflict in kept.conflicts:
                log.error("records contradict the floor's checkpoints: %s", conflict)
            stats.conflicts = [*stats.conflicts, *kept.conflicts][-50:]
        for kind, text in applied.raised:
            (log.error if kind == kinds.JOURNAL_CONFLICT else log.warning)("%s", text)
        stats.record_conflicts += applied.conflicts
        stats.stored += applied.new
        stats.duplicates += applied.duplicates
        stats.rejected += len(rejected)
        stats.gaps_opened += applied.gaps_opened
        stats.gaps_closed += applied.gaps_closed
        if applied.gaps_opened:
            log.warning("a table's records arrived with a gap (see the gaps table); %s batch took %.3f s",
                        applied.gaps_opened, time.monotonic() - started)
        return applied
