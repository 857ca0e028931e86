"""A progressive jackpot linked across tables: one meter on the floor, fed and claimed through the site's stream.

How it works (``docs/floor.md`` has the whole story):

- **Contributions.** Every settled Progressive wager at a linked table (its
  ``wager_settled`` record, not a voided round's return) adds ``rate`` of its
  stake to the meter, exactly (a ``Fraction`` of a cent).
- **Claims.** A table whose round holds a hit paid from the meter (a share of
  it, e.g. 100 % for a seven-card straight flush) journals a
  ``jackpot_claimed`` record, which its outbox publishes like every record, and
  holds the round until the award comes back. The controller reads the
  stream in order, so contributions and claims from every table are applied
  in the stream's sequence: two hits at once are paid one after the other,
  the second from the meter as the first left it (the reset amount plus what
  came in since).
- **Verification.** The controller checks the claim before paying: the table
  is linked to this jackpot, the claim was not paid before, the cards named
  are the ones the table's records dealt to that spot in that round, and they
  make the hand the share is paid for. A claim that fails is refused, with
  the reason, and the table's round stays on hold for a supervisor.
- **Awards.** The award (the exact amount, the meter before and after) is
  stored in PostgreSQL in the same transaction as the meter, then put in the
  site's jackpot key-value bucket under the claim's key, where the table
  finds it however long it was cut off. The claim key is the table, round and
  spot: a claim published twice is answered once, with the same award.
- **The lock.** From a claim until its table's settlement of that wager, the
  meter shows as locked by that claim on every screen.
- **History.** A claim whose award the table's journal already holds when its
  outbox publishes it (header ``Tablectl-Awarded``: a floor rebuilt from a new
  stream and an empty database meets the tables' whole journals again) is not
  decided anew: it is kept aside (``jackpot_journaled_claims``) until the
  table's own ``jackpot_awarded`` record arrives after it, and that award is
  taken as what was paid: the meter pays out exactly its amount (and is seeded
  again after a 100 % share), so contributions and payments still reconcile
  with the journals. A claim with no award yet is verified and paid once.

The controller's state (meter, the stream seq it has applied up to, awards)
lives in PostgreSQL, written in the same transaction as each batch it
applies. It reads the stream with an ordered consumer starting just after
that seq: in order, without gaps, without redeliveries out of order (a
durable consumer would redeliver an unacknowledged message after later ones,
and the meter's order is the whole point). A restart resumes from the seq in
PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import psycopg
from nats.errors import Error as NatsError, TimeoutError as NatsTimeout
from nats.js.api import ConsumerConfig, DeliverPolicy, KeyValueConfig, StorageType
from nats.js.errors import Error as JetStreamError, NotFoundError

from controller import events as ev
from controller.cards import Card
from controller.floor import broker, wire
from controller.floor.config import FloorConfig, Jackpot
from controller.floor.jackpot_client import JackpotClient, award_key, bucket_name, claim_key, meter_key
from controller.floor.stream import ensure_stream, stream_settings

log = logging.getLogger("tablectl.floor.jackpot")

JACKPOT_CLAIMED = ev.JackpotClaimed.EVENT
JACKPOT_AWARDED = ev.JackpotAwarded.EVENT
WAGER_SETTLED = ev.WagerSettled.EVENT
CARD_DEALT = ev.CardDealt.EVENT
ROUND_COMPLETE = ev.RoundCompleted.EVENT
ROUND_VOIDED = ev.RoundVoided.EVENT

SCHEMA = """
CREATE TABLE IF NOT EXISTS jackpots (
    name TEXT PRIMARY KEY, amount TEXT NOT NULL, contributed TEXT NOT NULL, paid TEXT NOT NULL, seeded TEXT NOT NULL,
    reset BIGINT NOT NULL, rate TEXT NOT NULL, applied_stream_seq BIGINT NOT NULL, locked_by TEXT,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp());
ALTER TABLE jackpots ADD COLUMN IF NOT EXISTS stream_created TEXT;
CREATE TABLE IF NOT EXISTS jackpot_contributions (
    name TEXT NOT NULL, table_id TEXT NOT NULL, seq BIGINT NOT NULL, round_id TEXT, stake BIGINT NOT NULL,
    amount TEXT NOT NULL, stream_seq BIGINT NOT NULL, PRIMARY KEY (name, table_id, seq));
CREATE TABLE IF NOT EXISTS jackpot_awards (
    name TEXT NOT NULL, claim TEXT NOT NULL, table_id TEXT NOT NULL, round_id TEXT NOT NULL, spot INTEGER NOT NULL,
    share TEXT NOT NULL, verified BOOLEAN NOT NULL, amount TEXT, meter_before TEXT, meter_after TEXT, reason TEXT,
    stream_seq BIGINT NOT NULL, awarded_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    settled_seq BIGINT, settled_returned BIGINT, PRIMARY KEY (name, claim));
ALTER TABLE jackpot_awards ADD COLUMN IF NOT EXISTS journaled_seq BIGINT;
CREATE TABLE IF NOT EXISTS jackpot_journaled_claims (
    name TEXT NOT NULL, claim TEXT NOT NULL, share TEXT NOT NULL, award_seq BIGINT NOT NULL, stream_seq BIGINT NOT NULL,
    PRIMARY KEY (name, claim));
CREATE TABLE IF NOT EXISTS jackpot_dealt (
    name TEXT NOT NULL, table_id TEXT NOT NULL, seq BIGINT NOT NULL, round_id TEXT NOT NULL, target TEXT NOT NULL,
    card TEXT NOT NULL, PRIMARY KEY (name, table_id, seq));
"""


@dataclass
class Meter:
    """The jackpot's meter as the controller keeps it (exact cents as fractions)."""

    amount: Fraction
    contributed: Fraction
    paid: Fraction
    seeded: Fraction
    """What the house put in: the reset amount at the start and again after each 100 % hit."""
    applied_stream_seq: int
    locked_by: str | None

    def as_json(self, name: str) -> dict[str, Any]:
        return {"jackpot": name, "amount": str(self.amount), "cents": int(self.amount), "contributed": str(self.contributed),
                "paid": str(self.paid), "seeded": str(self.seeded), "locked_by": self.locked_by,
                "stream_seq": self.applied_stream_seq}


def straight_flush_length(codes: Sequence[str]) -> int:
    """The longest straight flush in ``codes`` (what High Card Flush's progressive pays on)."""
    from controller.rules.evaluators.high_card_flush import (
        straight_flush_length as length,
    )

    return length([Card.parse(code) for code in codes])


class JackpotController:
    """Keeps one linked jackpot's meter from the site's stream and answers claims."""

    def __init__(self, config: FloorConfig, name: str) -> None:
        self.name = name
        self.jackpot: Jackpot = config.jackpots[name]
        self.site = config.floor.site
        self.servers = list(config.broker.servers)
        self.dsn = config.database.dsn
        self.replicas = config.broker.replicas
        self.linked = set(self.jackpot.tables)
        self.stream = stream_settings(config)
        self.stop = asyncio.Event()
        self.ready = asyncio.Event()
        self.meter: Meter | None = None
        self.claims_answered = 0
        self._conn: psycopg.Connection[Any] | None = None
        self._kv: Any = None

    # -- state in PostgreSQL ----------------------------------------------

    def _db(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(self.dsn, autocommit=True, connect_timeout=5)
            with self._conn.transaction():
                self._conn.execute(SCHEMA)
                self._conn.execute(
                    "INSERT INTO jackpots (name, amount, contributed, paid, seeded, reset, rate, applied_stream_seq) "
                    "VALUES (%s, %s, '0', '0', %s, %s, %s, 0) ON CONFLICT (name) DO NOTHING",
                    (self.name, str(self.jackpot.reset), str(self.jackpot.reset), self.jackpot.reset, self.jackpot.rate),
                )
        return self._conn

    def _load(self) -> Meter:
        row = self._db().execute(
            "SELECT amount, contributed, paid, seeded, applied_stream_seq, locked_by FROM jackpots WHERE name = %s", (self.name,)
        ).fetchone()
        assert row is not None
        return Meter(Fraction(row[0]), Fraction(row[1]), Fraction(row[2]), Fraction(row[3]), int(row[4]), row[5])

    def _follow_stream(self, created: str) -> None:
        """The position applied up to belongs to one stream (its creation time, as a table's outbox keeps it): a stream
        made anew is applied from its first message. What was applied before is keyed (a contribution by its table and
        seq, a claim by its key), so the tables' records published again in it count once and claims are answered
        with the award they had."""
        conn = self._db()
        with conn.transaction():
            row = conn.execute("SELECT stream_created, applied_stream_seq FROM jackpots WHERE name = %s FOR UPDATE",
                               (self.name,)).fetchone()
            assert row is not None
            known, applied = row
            if known is not None and known != created and int(applied):
                log.warning("jackpot %s: the site's stream %s was made anew (created %s, not %s): applying it from its "
                            "first message", self.name, wire.stream_name(self.site), created, known)
                conn.execute("UPDATE jackpots SET applied_stream_seq = 0, stream_created = %s WHERE name = %s",
                             (created, self.name))
            elif known != created:
                conn.execute("UPDATE jackpots SET stream_created = %s WHERE name = %s", (created, self.name))

    def _close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None

    # -- the loop ---------------------------------------------------------

    async def run(self) -> None:
        backoff = 0.5
        while not self.stop.is_set():
            try:
                client = await broker.connect(servers=self.servers, name=f"tablectl-jackpot-{self.name}", connect_timeout=2,
                                            reconnect_time_wait=1, max_reconnect_attempts=-1, error_cb=self._quiet)
            except (TimeoutError, NatsError, OSError) as exc:
                log.warning("jackpot %s: cannot reach the broker: %s", self.name, exc)
                await self._pause(backoff)
                backoff = min(2 * backoff, 10.0)
                continue
            try:
                await self._consume(client)
                backoff = 0.5
            except (TimeoutError, NatsError, JetStreamError, OSError, psycopg.Error) as exc:
                log.warning("jackpot %s: %s; retrying", self.name, wire.reason(exc))
                await asyncio.to_thread(self._close)
                await self._pause(backoff)
                backoff = min(2 * backoff, 10.0)
            finally:
                with contextlib.suppress(Exception):
                    await client.close()
        await asyncio.to_thread(self._close)

    async def _quiet(self, exc: Exception) -> None:
        log.debug("jackpot %s: broker: %s", self.name, exc)

    async def _pause(self, seconds: float) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.stop.wait(), seconds)

    async def _consume(self, client: Any) -> None:
        js = client.jetstream(timeout=10)
        await ensure_stream(js, self.site, self.stream)
        self._kv = await _bucket(js, self.site, self.replicas)
        created = str((await js.stream_info(wire.stream_name(self.site))).created)
        await asyncio.to_thread(self._follow_stream, created)
        self.meter = await asyncio.to_thread(self._load)
        await self._republish()
        subscription = await js.subscribe(
            wire.site_subjects(self.site), stream=wire.stream_name(self.site), ordered_consumer=True,
            idle_heartbeat=5.0, flow_control=True,
            config=ConsumerConfig(deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
                                  opt_start_seq=self.meter.applied_stream_seq + 1),
        )
        self.ready.set()
        try:
            while not self.stop.is_set():
                messages = await _batch(subscription, 500)
                if not messages:
                    continue
                answered = await asyncio.to_thread(self._apply, messages)
                for key, value in answered:
                    await self._kv.put(key, value)
        finally:
            with contextlib.suppress(Exception):
                await subscription.unsubscribe()

    async def _republish(self) -> None:
        """Put the meter and every award in the bucket again (after a restart some may not have reached it)."""
        assert self.meter is not None
        await self._kv.put(meter_key(self.name), json.dumps(self.meter.as_json(self.name)).encode())
        rows = await asyncio.to_thread(lambda: self._db().execute(
            "SELECT claim, table_id, round_id, spot, share, verified, amount, meter_before, meter_after, reason, stream_seq "
            "FROM jackpot_awards WHERE name = %s AND settled_seq IS NULL", (self.name,)).fetchall())
        for row in rows:
            await self._kv.put(award_key(self.name, row[0]), _award_json(self.name, *row))

    # -- applying the stream ----------------------------------------------

    def _apply(self, messages: Sequence[Any]) -> list[tuple[str, bytes]]:
        """Apply a batch in stream order in one transaction; the bucket entries to put after the commit."""
        conn = self._db()
        meter = self._load()
        out: list[tuple[str, bytes]] = []
        with conn.transaction():
            for message in messages:
                stream_seq = int(message.metadata.sequence.stream)
                if stream_seq <= meter.applied_stream_seq:
                    continue  # applied before a restart, acknowledged after it
                try:
                    item = wire.decode(message.data, message.subject)
                except wire.WireError:
                    meter.applied_stream_seq = stream_seq
                    continue
                if item.table in self.linked:
                    answer = self._one(conn, meter, item, stream_seq, wire.awarded_seq(message.headers))
                    if answer is not None:
                        out.append(answer)
                meter.applied_stream_seq = stream_seq
            conn.execute(
                "UPDATE jackpots SET amount = %s, contributed = %s, paid = %s, seeded = %s, applied_stream_seq = %s, "
                "locked_by = %s, updated_at = clock_timestamp() WHERE name = %s",
                (str(meter.amount), str(meter.contributed), str(meter.paid), str(meter.seeded), meter.applied_stream_seq,
                 meter.locked_by, self.name),
            )
        self.meter = meter
        out.append((meter_key(self.name), json.dumps(meter.as_json(self.name)).encode()))
        return out

    def _one(self, conn: psycopg.Connection[Any], meter: Meter, item: wire.TableRecord, stream_seq: int,
             awarded: int | None = None) -> tuple[str, bytes] | None:
        """Apply one linked table's record; ``awarded``: the seq of the award its journal already held for a claim."""
        record = item.record
        if item.kind == CARD_DEALT and item.round_id:
            conn.execute(
                "INSERT INTO jackpot_dealt VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (self.name, item.table, item.seq, item.round_id, str(record.get("target")), str(record.get("card"))),
            )
        elif item.kind in (ROUND_COMPLETE, ROUND_VOIDED) and item.round_id:
            conn.execute("DELETE FROM jackpot_dealt WHERE name = %s AND table_id = %s AND round_id = %s",
                         (self.name, item.table, item.round_id))
        elif item.kind == WAGER_SETTLED and record.get("wager") == self.jackpot.wager:
            self._settled(conn, meter, item, stream_seq)
        elif item.kind == JACKPOT_CLAIMED and record.get("jackpot") == self.name:
            return self._claim(conn, meter, item, stream_seq, awarded)
        elif item.kind == JACKPOT_AWARDED and record.get("jackpot") in (self.name, None):
            return self._journaled(conn, meter, item, stream_seq)
        return None

    def _settled(self, conn: psycopg.Connection[Any], meter: Meter, item: wire.TableRecord, stream_seq: int) -> None:
        record = item.record
        claim = claim_key(item.table, item.round_id or "", int(record.get("spot", 0)))
        if meter.locked_by == claim:
            meter.locked_by = None
        conn.execute(
            "UPDATE jackpot_awards SET settled_seq = %s, settled_returned = %s WHERE name = %s AND claim = %s",
            (item.seq, record.get("returned"), self.name, claim),
        )
        if str(record.get("reason", "")).startswith("void"):
            return  # a voided round's wager went back to the player: nothing reached the meter
        share = self.jackpot.fraction * int(record["stake"])
        inserted = conn.execute(
            "INSERT INTO jackpot_contributions VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING seq",
            (self.name, item.table, item.seq, item.round_id, int(record["stake"]), str(share), stream_seq),
        ).fetchone()
        if inserted is not None:
            meter.amount += share
            meter.contributed += share

    def _claim(self, conn: psycopg.Connection[Any], meter: Meter, item: wire.TableRecord, stream_seq: int,
               awarded: int | None = None) -> tuple[str, bytes] | None:
        record = item.record
        spot = int(record.get("spot", 0))
        claim = claim_key(item.table, item.round_id or "", spot)
        existing = conn.execute(
            "SELECT claim, table_id, round_id, spot, share, verified, amount, meter_before, meter_after, reason, stream_seq "
            "FROM jackpot_awards WHERE name = %s AND claim = %s", (self.name, claim)).fetchone()
        if existing is not None:
            return award_key(self.name, claim), _award_json(self.name, *existing)  # claimed twice: the same answer
        share = Fraction(str(record.get("share", "0")))
        if awarded is not None:
            # the table's journal holds this claim's award (record ``awarded``, on its way after the claim): the table was
            # paid it by the floor that answered; this floor takes that award when it comes and decides nothing anew
            conn.execute("INSERT INTO jackpot_journaled_claims VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                         (self.name, claim, str(share), awarded, stream_seq))
            log.info("jackpot %s: claim %s was answered before (the table journaled its award, seq %d): taking that award",
                     self.name, claim, awarded)
            return None
        refusal = self._verify(conn, item, spot, share)
        before = meter.amount
        if refusal is None:
            won = share * meter.amount
            meter.paid += won
            if share == 1:
                meter.amount = Fraction(self.jackpot.reset)
                meter.seeded += self.jackpot.reset
            else:
                meter.amount -= won
            meter.locked_by = claim
            self.claims_answered += 1
            amount: str | None = str(won)
        else:
            amount = None
            log.warning("jackpot %s: claim %s refused: %s", self.name, claim, refusal)
        row = (claim, item.table, item.round_id or "", spot, str(share), refusal is None, amount, str(before),
               str(meter.amount), refusal, stream_seq)
        conn.execute(
            "INSERT INTO jackpot_awards (claim, table_id, round_id, spot, share, verified, amount, meter_before, meter_after, "
            "reason, stream_seq, name) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", (*row, self.name),
        )
        return award_key(self.name, claim), _award_json(self.name, *row)

    def _journaled(self, conn: psycopg.Connection[Any], meter: Meter, item: wire.TableRecord,
                   stream_seq: int) -> tuple[str, bytes] | None:
        """A table's ``jackpot_awarded``: for a claim this floor answered, nothing (it is its own answer); for one it
        has no award for (a floor rebuilt from a new stream and an empty database), what the table was paid, taken
        as this meter's payment: exactly the amount journaled, the meter seeded again after a 100 % share."""
        record = item.record
        spot = int(record.get("spot", 0))
        claim = claim_key(item.table, item.round_id or "", spot)
        verified = bool(record.get("verified")) and record.get("amount") is not None
        amount = Fraction(str(record["amount"])) if verified else None
        existing = conn.execute("SELECT verified, amount FROM jackpot_awards WHERE name = %s AND claim = %s",
                                (self.name, claim)).fetchone()
        if existing is not None:
            ours = Fraction(str(existing[1])) if existing[0] and existing[1] is not None else None
            if ours != amount:
                log.error("jackpot %s: table %s journaled %s for claim %s; this floor awarded %s", self.name, item.table,
                          "a refusal" if amount is None else f"{amount} cents", claim,
                          "a refusal" if ours is None else f"{ours} cents")
            return None
        pending = conn.execute("DELETE FROM jackpot_journaled_claims WHERE name = %s AND claim = %s RETURNING share, "
                               "stream_seq", (self.name, claim)).fetchone()
        if pending is not None:
            share, claim_stream_seq = Fraction(str(pending[0])), int(pending[1])
        else:  # the claim itself never reached this floor (its stream no longer holds it): its share as the award says
            before_then = Fraction(str(record.get("meter_before") or 0))
            share = amount / before_then if amount is not None and before_then else Fraction(0)
            claim_stream_seq = stream_seq
        before = meter.amount
        if amount is not None:
            meter.paid += amount
            meter.amount -= amount
            if share == 1:
                meter.amount += self.jackpot.reset
                meter.seeded += self.jackpot.reset
            meter.locked_by = claim
        reason = None if verified else str(record.get("reason") or "refused")
        log.info("jackpot %s: claim %s taken as the table journaled it (seq %d): %s", self.name, claim, item.seq,
                 f"{amount} cents paid" if amount is not None else f"refused: {reason}")
        row = (claim, item.table, item.round_id or "", spot, str(share), verified, None if amount is None else str(amount),
               str(before), str(meter.amount), reason, claim_stream_seq)
        conn.execute(
            "INSERT INTO jackpot_awards (claim, table_id, round_id, spot, share, verified, amount, meter_before, meter_after, "
            "reason, stream_seq, name, journaled_seq) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (*row, self.name, item.seq),
        )
        return award_key(self.name, claim), _award_json(self.name, *row)

    def _verify(self, conn: psycopg.Connection[Any], item: wire.TableRecord, spot: int, share: Fraction) -> str | None:
        """Why the claim cannot be paid, or None."""
        record = item.record
        if not 0 < share <= 1:
            return f"a share of {share} of the meter is not a jackpot share"
        cards = [str(code) for code in record.get("cards", [])]
        target = str(record.get("target", f"spot {spot}"))
        dealt = [str(row[0]) for row in conn.execute(
            "SELECT card FROM jackpot_dealt WHERE name = %s AND table_id = %s AND round_id = %s AND target = %s ORDER BY seq",
            (self.name, item.table, item.round_id or "", target))]
        if sorted(dealt) != sorted(cards):
            return (f"the cards claimed ({' '.join(cards)}) are not the cards the table dealt to spot {spot} "
                    f"({' '.join(dealt) or 'none'})")
        length = int(record.get("length", 0))
        try:
            actual = straight_flush_length(cards)
        except ValueError as exc:
            return f"the cards claimed cannot be read: {exc}"
        if actual != length:
            return f"the cards make a {actual}-card straight flush, not the {length}-card one claimed"
        return None


async def _batch(subscription: Any, most: int) -> list[Any]:
    """Up to ``most`` messages: waits a second for the first, then takes what has already arrived."""
    messages: list[Any] = []
    try:
        messages.append(await subscription.next_msg(timeout=1))
        while len(messages) < most and subscription.pending_msgs:
            messages.append(await subscription.next_msg(timeout=0.1))
    except NatsTimeout:
        pass
    return messages


def _award_json(name: str, claim: str, table: str, round_id: str, spot: int, share: str, verified: bool, amount: str | None,
                before: str, after: str, reason: str | None, stream_seq: int) -> bytes:
    return json.dumps({
        "jackpot": name, "claim": claim, "table": table, "round": round_id, "spot": spot, "share": share,
        "verified": verified, "amount": amount, "meter_before": before, "meter_after": after, "reason": reason,
        "stream_seq": stream_seq,
    }).encode()


async def _bucket(js: Any, site: str, replicas: int) -> Any:
    name = bucket_name(site)
    try:
        return await js.key_value(name)
    except (NotFoundError, JetStreamError):
        return await js.create_key_value(KeyValueConfig(bucket=name, history=1, storage=StorageType.FILE, replicas=replicas))


__all__ = ["JackpotClient", "JackpotController", "award_key", "bucket_name", "claim_key", "meter_key"]
