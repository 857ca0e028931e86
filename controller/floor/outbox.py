"""The table's outbox: its journal, published to the floor's stream in order, from the last acknowledged record.

The journal is the buffer. A thread beside the table loop reads records the
broker has not acknowledged yet (its own read-only connection: in WAL mode
reading never blocks the table's writes), publishes them in order with
``Nats-Msg-Id = <table>:<seq>:<digest>`` (``wire.msg_id``: a digest of the
record's own bytes, so only the very same record is a duplicate) and, once
the broker has acknowledged a batch, writes how far it got into a small
database of its own beside the journal (``TABLE.outbox.sqlite``): never into the journal itself, whose write lock
belongs to the table (a second writer made the table wait on SQLite's busy
handler and slowed its rounds threefold, measured by
``benchmarks/floor.py --outbox-cost``). A broker down for
hours costs nothing but lag: the outbox keeps trying (doubling its wait up to
``max_backoff``), and catches up at ``catch_up_rate`` records a second at most,
so a floor full of tables coming back does not flood the broker at once. A
restart starts again from the last acknowledged record; whatever the broker
had acknowledged and the outbox had not yet written down is published again,
and dropped as a duplicate by the stream (its duplicate window) and by the
floor's database (keyed by table and seq). The position belongs to one stream
(its name and creation time): a stream made anew (a new floor, a stream
restored from nothing) gets the whole journal again.

The journal's signed checkpoints (one per commit, ``controller.records.checkpoints``)
go out the same way, each once its records are acknowledged, on the table's
checkpoint subject (``wire.checkpoint_subject``), so the floor holds the
table's signed heads and can tell a journal or log later cut back, rewound
or rewritten (``docs/floor.md``, "Checkpoints off the table"). Their position
is the last checkpoint acknowledged and its digest: a journal put back from a
backup (its checkpoint ids then mean other checkpoints) makes the outbox
publish every checkpoint the journal keeps again, which the floor keeps once.

The round never waits for the outbox: nothing of the table loop calls it, and
beside a table it runs in a process of its own (:func:`main`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sqlite3
import sys
import threading
import time
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nats.errors import Error as NatsError
from nats.js.errors import Error as JetStreamError

from controller import events as ev
from controller.floor import broker, wire
from controller.floor.stream import StreamSettings, ensure_stream, leaf_stream_name
from controller.records.checkpoints import Checkpoint

POSITION_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    stream TEXT PRIMARY KEY, acked_seq INTEGER NOT NULL, stream_seq INTEGER, at TEXT NOT NULL, stream_created TEXT)
"""
CHECKPOINT_POSITION_SCHEMA = """
CREATE TABLE IF NOT EXISTS checkpoint_outbox (
    stream TEXT PRIMARY KEY, acked_id INTEGER NOT NULL, digest TEXT NOT NULL, at TEXT NOT NULL)
"""


def position_path(journal: str | Path) -> Path:
    """Where the outbox of the journal at ``journal`` keeps its position: ``TABLE.outbox.sqlite`` beside it."""
    journal = Path(journal)
    return journal.with_name(journal.stem + ".outbox.sqlite")


class Position:
    """How far the outbox got, per stream: (acked seq, the stream's creation time), in its own small SQLite file.

    ``synchronous=NORMAL``: a power cut may lose the last update, which only means records published again
    and dropped as duplicates.
    """

    def __init__(self, journal: str | Path) -> None:
        self.path = position_path(journal)
        self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30.0, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(POSITION_SCHEMA)
        self._db.execute(CHECKPOINT_POSITION_SCHEMA)

    def get(self, stream: str) -> tuple[int, str | None]:
        row = self._db.execute("SELECT acked_seq, stream_created FROM outbox WHERE stream = ?", (stream,)).fetchone()
        return (int(row[0]), row[1]) if row else (0, None)

    def set(self, stream: str, acked: int, stream_seq: int, created: str) -> None:
        self._db.execute(
            "INSERT INTO outbox VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?) ON CONFLICT (stream) "
            "DO UPDATE SET acked_seq = excluded.acked_seq, stream_seq = excluded.stream_seq, at = excluded.at, "
            "stream_created = excluded.stream_created",
            (stream, acked, stream_seq, created),
        )

    def checkpoint(self, stream: str) -> tuple[int, str]:
        """The last checkpoint ``stream`` acknowledged: (its id in the journal, its digest); (0, "") for none."""
        row = self._db.execute("SELECT acked_id, digest FROM checkpoint_outbox WHERE stream = ?", (stream,)).fetchone()
        return (int(row[0]), str(row[1])) if row else (0, "")

    def set_checkpoint(self, stream: str, acked_id: int, digest: str) -> None:
        self._db.execute(
            "INSERT INTO checkpoint_outbox VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) ON CONFLICT (stream) "
            "DO UPDATE SET acked_id = excluded.acked_id, digest = excluded.digest, at = excluded.at",
            (stream, acked_id, digest),
        )

    def forget(self, stream: str) -> None:
        self._db.execute("DELETE FROM outbox WHERE stream = ?", (stream,))
        self._db.execute("DELETE FROM checkpoint_outbox WHERE stream = ?", (stream,))

    def close(self) -> None:
        self._db.close()


@dataclass(frozen=True, slots=True)
class OutboxStatus:
    """How far the outbox got: what the operator's status line and the tests read."""

    acked_seq: int
    journal_seq: int
    connected: bool
    published: int
    duplicates: int
    last_error: str | None
    checkpoints_acked: int = 0
    """The id (in the journal) of the last checkpoint the broker acknowledged."""
    checkpoints_published: int = 0

    @property
    def lag(self) -> int:
        return self.journal_seq - self.acked_seq


def read_journal(path: Path) -> sqlite3.Connection:
    """A read-only connection to a table's journal: it never takes the journal's write lock."""
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None, timeout=30.0, check_same_thread=False)


def acked_seq(path: str | Path, stream: str) -> int:
    """The last record of the journal at ``path`` that ``stream`` acknowledged (0: none yet)."""
    position = Position(path)
    try:
        return position.get(stream)[0]
    finally:
        position.close()


class Outbox:
    """Publishes one table's journal to its site's stream; ``start`` it beside the table loop, ``stop`` it after."""

    def __init__(
        self,
        journal_path: str | Path,
        *,
        table_id: str,
        site: str,
        servers: Sequence[str],
        leaf: str | None = None,
        batch: int = 256,
        catch_up_rate: float = 2000.0,
        poll_interval: float = 0.1,
        max_backoff: float = 30.0,
        publish_timeout: float = 5.0,
    ) -> None:
        self.path = Path(journal_path)
        self.table_id = wire.token(table_id, "table id")
        self.site = wire.token(site, "site")
        self.leaf = leaf
        self.stream = leaf_stream_name(site, leaf) if leaf else wire.stream_name(site)
        self.servers = list(servers)
        self.batch = batch
        self.catch_up_rate = catch_up_rate
        self.poll_interval = poll_interval
        self.max_backoff = max_backoff
        self.publish_timeout = publish_timeout
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._acked = 0
        self._journal_seq = 0
        self._connected = False
        self._published = 0
        self._duplicates = 0
        self._error: str | None = None
        self._lock = threading.Lock()
        self._resend_from: int | None = None
        self._resent_upto = 0
        self._resends = 0
        self._checkpoint_acked = 0
        self._checkpoint_digest = ""
        self._checkpoints_published = 0

    # -- the table's side -------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"outbox-{self.table_id}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop publishing (what is published stays published; the rest waits in the journal)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def status(self) -> OutboxStatus:
        with self._lock:
            return OutboxStatus(
                self._acked, self._journal_seq, self._connected, self._published, self._duplicates, self._error,
                self._checkpoint_acked, self._checkpoints_published,
            )

    def wait_caught_up(self, timeout: float) -> bool:
        """Wait until every record in the journal now is acknowledged; False when ``timeout`` passes first."""
        deadline = time.monotonic() + timeout
        db = read_journal(self.path)
        try:
            target = int(db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0])
            checkpoint = int(db.execute("SELECT COALESCE(MAX(id), 0) FROM checkpoints").fetchone()[0])
        finally:
            db.close()
        while time.monotonic() < deadline:
            status = self.status()
            if status.acked_seq >= target and status.checkpoints_acked >= checkpoint:
                return True
            time.sleep(0.05)
        return False

    def unpublished(self) -> int:
        """How many of the journal's records the broker has not acknowledged yet."""
        db = read_journal(self.path)
        try:
            last = int(db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0])
        finally:
            db.close()
        return max(0, last - self.status().acked_seq)

    # -- the outbox's thread ----------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                db = read_journal(self.path)
                self.position = Position(self.path)
                try:
                    self._acked = self.position.get(self.stream)[0]
                    self._checkpoint_acked, self._checkpoint_digest = self.position.checkpoint(self.stream)
                    asyncio.run(self._publish_forever(db))
                finally:
                    db.close()
                    self.position.close()
            except sqlite3.Error as exc:
                # the journal itself is the table's to guard; the outbox says why it waits and tries again
                self._note(connected=False, error=f"the outbox cannot read the journal {self.path}: {exc}; retrying")
                self._stop.wait(5.0)

    def _note(self, **changes: Any) -> None:
        with self._lock:
            for name, value in changes.items():
                setattr(self, f"_{name}", value)

    async def _publish_forever(self, db: sqlite3.Connection) -> None:
        backoff = 0.5
        while not self._stop.is_set():
            try:
                client = await self._unless_stopped(broker.connect(
                    servers=self.servers,
                    name=f"tablectl-outbox-{self.table_id}",
                    connect_timeout=2,
                    reconnect_time_wait=1,
                    max_reconnect_attempts=-1,
                    allow_reconnect=True,
                    error_cb=self._quiet,
                    disconnected_cb=self._disconnected,
                    reconnected_cb=self._reconnected,
                ))
                if client is None:
                    return
            except (TimeoutError, NatsError, OSError) as exc:
                self._note(connected=False, error=f"cannot reach the floor's broker ({', '.join(self.servers)}): {wire.reason(exc)}")
                await self._sleep(backoff)
                backoff = min(backoff * 2, self.max_backoff)
                continue
            self._note(connected=True, error=None)
            backoff = 0.5
            try:
                await self._drain(client, db)
            finally:
                with contextlib.suppress(Exception):
                    await client.close()
                self._note(connected=False)

    async def _unless_stopped(self, connecting: Coroutine[Any, Any, Any]) -> Any:
        """What ``connecting`` returns, or ``None`` once the outbox is stopped first: with the broker away, nats-py's
        first connect tries again for ever (``max_reconnect_attempts=-1``), and a table's exit waited out
        ``stop``'s whole timeout for it."""
        task = asyncio.ensure_future(connecting)
        while not task.done():
            if self._stop.is_set():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
                return None
            await asyncio.wait({task}, timeout=0.05)
        return task.result()

    async def _quiet(self, exc: Exception) -> None:
        self._note(error=f"floor broker: {wire.reason(exc)}")

    async def _disconnected(self) -> None:
        self._note(connected=False)

    async def _reconnected(self) -> None:
        self._note(connected=True, error=None)

    async def _sleep(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self._stop.is_set() and time.monotonic() < deadline:
            await asyncio.sleep(min(0.05, seconds))

    async def _drain(self, client: Any, db: sqlite3.Connection) -> None:
        """Publish batches while connected; return to reconnect after a failure."""
        js = client.jetstream(timeout=self.publish_timeout)
        backoff = 0.5
        while not self._stop.is_set():
            try:
                if self.leaf:
                    # the leaf node's own stream, which the site's stream gathers: the table's outbox makes it
                    await ensure_stream(js, self.site, StreamSettings(replicas=1, max_age_days=30), name=self.stream)
                created = str((await js.stream_info(self.stream)).created)
                break
            except (TimeoutError, NatsError, JetStreamError, OSError) as exc:
                self._note(error=f"the floor's stream {self.stream} cannot be found: {wire.reason(exc)}; retrying")
                await self._sleep(backoff)
                backoff = min(backoff * 2, self.max_backoff)
                if not client.is_connected:
                    return
        else:
            return
        known = self.position.get(self.stream)[1]
        if known is not None and known != created:
            self._note(acked=0, checkpoint_acked=0, checkpoint_digest="")  # a stream made anew: it gets the whole journal
        control = await client.subscribe(wire.control_subject(self.site, self.table_id, "resend"), cb=self._on_resend)
        try:
            await self._publish_pending(js, db, client, created)
        finally:
            with contextlib.suppress(Exception):
                await control.unsubscribe()

    async def _on_resend(self, message: Any) -> None:
        """The floor asks for records again from ``from_seq`` (it found them missing): publish them again."""
        try:
            first = int(json.loads(message.data)["from_seq"])
        except (ValueError, KeyError, TypeError):
            await message.respond(json.dumps({"ok": False, "reason": 'expected {"from_seq": N}'}).encode())
            return
        with self._lock:
            self._resend_from = first if self._resend_from is None else min(first, self._resend_from)
            acked = self._acked
        await message.respond(json.dumps({"ok": True, "from_seq": first, "acked_seq": acked}).encode())

    async def _publish_pending(self, js: Any, db: sqlite3.Connection, client: Any, created: str) -> None:
        backoff = 0.5
        while not self._stop.is_set():
            with self._lock:
                if self._resend_from is not None:
                    # published again under new message ids: the stream may still hold the old ids in its window
                    self._resent_upto = max(self._resent_upto, self._acked)
                    self._acked = min(self._acked, self._resend_from - 1)
                    self._resend_from = None
                    self._resends += 1
            self._journal_seq = int(db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0])
            rows = db.execute(
                "SELECT seq, event, record, prev, hash FROM events WHERE seq > ? ORDER BY seq LIMIT ?", (self._acked, self.batch)
            ).fetchall()
            started = time.monotonic()
            checkpoints: list[tuple[int, bytes]] = []
            try:
                if rows:
                    last_stream_seq = await self._publish(js, rows, _declared_lost(db), _awarded(db, rows))
                    acked = int(rows[-1][0])
                    self.position.set(self.stream, acked, last_stream_seq, created)
                    self._note(acked=acked, error=None)
                checkpoints = self._checkpoints_due(db)
                await self._publish_checkpoints(js, checkpoints)
            except (TimeoutError, NatsError, JetStreamError, OSError) as exc:
                self._note(error=f"publishing to {self.stream} failed: {wire.reason(exc)}; retrying")
                await self._sleep(backoff)
                backoff = min(backoff * 2, self.max_backoff)
                if not client.is_connected:
                    return
                continue
            backoff = 0.5
            if not rows and not checkpoints:
                await self._sleep(self.poll_interval)
            elif self._journal_seq - self._acked > self.batch:
                # catching up: no faster than catch_up_rate messages a second
                await self._sleep((len(rows) + len(checkpoints)) / self.catch_up_rate - (time.monotonic() - started))

    def _checkpoints_due(self, db: sqlite3.Connection) -> list[tuple[int, bytes]]:
        """The next checkpoints to publish (id, message): those after the last acknowledged whose records are.

        The acknowledged one must still be the checkpoint it was (same id, same digest): a journal put back from
        a backup reuses ids for other checkpoints, and then every checkpoint it keeps goes out again.
        """
        if self._checkpoint_acked:
            row = db.execute("SELECT body FROM checkpoints WHERE id = ?", (self._checkpoint_acked,)).fetchone()
            if row is None or wire.checkpoint_digest(_checkpoint_message(self._checkpoint_acked, row[0])) != self._checkpoint_digest:
                self._note(checkpoint_acked=0, checkpoint_digest="")
        rows = db.execute("SELECT id, body FROM checkpoints WHERE id > ? AND seq <= ? ORDER BY id LIMIT ?",
                          (self._checkpoint_acked, self._acked, self.batch)).fetchall()
        return [(int(i), _checkpoint_message(int(i), str(body))) for i, body in rows]

    async def _publish_checkpoints(self, js: Any, checkpoints: list[tuple[int, bytes]]) -> None:
        """Publish signed checkpoints in order, each acknowledged before the next; then write down how far they got
        (a failure part way leaves the position behind: those published already go out again, and are dropped)."""
        subject = wire.checkpoint_subject(self.site, self.table_id)
        for checkpoint_id, message in checkpoints:
            ack = await js.publish(subject, message, headers={"Nats-Msg-Id": wire.checkpoint_msg_id(self.table_id, message)})
            if ack.stream != self.stream:
                raise OSError(f"the checkpoint went to stream {ack.stream}, not {self.stream}: check the broker's streams")
            with self._lock:
                self._checkpoint_acked, self._checkpoint_digest = checkpoint_id, wire.checkpoint_digest(message)
                if not ack.duplicate:
                    self._checkpoints_published += 1
        if checkpoints:
            self.position.set_checkpoint(self.stream, self._checkpoint_acked, self._checkpoint_digest)

    async def _publish(self, js: Any, rows: list[tuple[int, str, str, str, str]],
                       lost: dict[int, tuple[int, int]] | None = None, awarded: dict[int, int] | None = None) -> int:
        """Publish ``rows`` one after another, each acknowledged before the next, so the stream keeps their order;
        ``lost``: the seqs declared lost just before a record, by the record's seq (its ``Tablectl-Lost`` header);
        ``awarded``: the seq of the award the journal holds for a claim, by the claim's seq (``Tablectl-Awarded``)."""
        stream_seq = 0
        for seq, kind, record, prev, hash in rows:
            data = str(record).encode()
            headers = {"Nats-Msg-Id": wire.msg_id(self.table_id, int(seq), data)
                       + (f":resent-{self._resends}" if int(seq) <= self._resent_upto else ""),
                       wire.CHAIN_HEADER: wire.chain_header(prev, hash)}
            if lost and int(seq) in lost:
                headers[wire.LOST_HEADER] = wire.lost_header(*lost[int(seq)])
            if awarded and int(seq) in awarded:
                headers[wire.AWARDED_HEADER] = str(awarded[int(seq)])
            ack = await js.publish(wire.subject(self.site, self.table_id, str(kind)), data, headers=headers)
            if ack.stream != self.stream:
                # not the Expected-Stream header: it would travel with the record into the site's stream from a leaf
                raise OSError(f"the record went to stream {ack.stream}, not {self.stream}: check the broker's streams")
            stream_seq = int(ack.seq)
            with self._lock:
                if ack.duplicate:
                    self._duplicates += 1
                else:
                    self._published += 1
        return stream_seq


def _declared_lost(db: sqlite3.Connection) -> dict[int, tuple[int, int]]:
    """The seqs the journal declared lost (a restore or an init that a person let carry on past a loss), each range by
    the seq of the record after it: (first, last)."""
    return {int(last) + 1: (int(first), int(last)) for first, last in db.execute("SELECT from_seq, to_seq FROM gaps")}


def _awarded(db: sqlite3.Connection, rows: Sequence[tuple[int, str, str, str, str]]) -> dict[int, int]:
    """The jackpot claims among ``rows`` whose award the journal already holds: the award's seq by the claim's.

    A claim published before the floor answered it has none (the usual case); one published again (to a stream made
    anew, a floor rebuilt) names the award the table journaled and paid, so the floor takes it and decides nothing anew.
    """
    claims: dict[tuple[str, int], int] = {}  # a round claims once per spot
    for seq, kind, record, _, _ in rows:
        if kind == ev.JackpotClaimed.EVENT:
            claim = json.loads(record)
            claims[(str(claim.get("round")), int(claim.get("spot", 0)))] = int(seq)
    if not claims:
        return {}
    awarded: dict[int, int] = {}
    for round_id in sorted({round_id for round_id, _ in claims}):
        for seq, record in db.execute("SELECT seq, record FROM events WHERE round = ? AND event = ? ORDER BY seq",
                                      (round_id, ev.JackpotAwarded.EVENT)):
            claim_seq = claims.get((round_id, int(json.loads(record).get("spot", 0))))
            if claim_seq is not None and int(seq) > claim_seq:
                awarded.setdefault(claim_seq, int(seq))
    return awarded


def _checkpoint_message(checkpoint_id: int, body: str) -> bytes:
    """A stored checkpoint as it is sent: the table's canonical JSON with its id (``Checkpoint.message``)."""
    return Checkpoint(checkpoint_id, json.loads(body)).message()


# -- the outbox as a process of its own -----------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m controller.floor.outbox``: publish one table's journal until its standard input ends.

    This is how a table runs its outbox (``controller.engine.floor_link``): in a process of its own, since a
    thread would share the table's interpreter lock (measured with ``benchmarks/floor.py --outbox-cost``).
    The table holds the outbox's standard input open; when it closes it (the table stops, or dies), the
    outbox gives the records already journaled up to ``--linger`` seconds to go out, so a short run's last
    records reach the floor, and ends; the rest waits in the journal for the next start. SIGTERM ends it at once.
    """
    parser = argparse.ArgumentParser(prog="python -m controller.floor.outbox", description=main.__doc__)
    parser.add_argument("--journal", required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--site", required=True)
    parser.add_argument("--server", action="append", required=True)
    parser.add_argument("--leaf")
    parser.add_argument("--catch-up-rate", type=float, default=2000.0)
    parser.add_argument("--linger", type=float, default=5.0)
    args = parser.parse_args(argv)
    stop, ending = threading.Event(), threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    threading.Thread(target=_until_input_ends, args=(ending,), name="stdin", daemon=True).start()
    outbox = Outbox(args.journal, table_id=args.table, site=args.site, servers=args.server, leaf=args.leaf,
                    catch_up_rate=args.catch_up_rate)
    outbox.start()
    said: str | None = None
    while not stop.wait(0.2):
        if ending.is_set():
            if not outbox.wait_caught_up(args.linger):
                why = outbox.status().last_error or "the broker did not acknowledge them in time"
                print(f"tablectl outbox {args.table}: {outbox.unpublished()} journal record(s) not yet on the floor "  # noqa: T201
                      f"({why}): they wait in the journal "
                      "and go to the floor when the table next runs with its broker reachable", file=sys.stderr, flush=True)
            break
        error = outbox.status().last_error
        if error != said:
            said = error
            if error:
                print(f"tablectl outbox {args.table}: {error}", file=sys.stderr, flush=True)  # noqa: T201 - its only output
    outbox.stop()
    return 0


def _until_input_ends(ending: threading.Event) -> None:
    with contextlib.suppress(OSError, ValueError):
        while sys.stdin.buffer.read(4096):
            pass
    ending.set()


if __name__ == "__main__":
    sys.exit(main())
