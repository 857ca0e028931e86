"""A table's journal reaches the floor's PostgreSQL through JetStream whole, once, and in order."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import nats
import psycopg
import pytest

from controller.events import ShoeShuffled
from controller.floor import wire
from controller.floor.checkpoints import enrol
from controller.floor.consumer import FloorConsumer
from controller.floor.localservers import LocalPostgres, NatsCluster
from controller.floor.outbox import Outbox, Position, acked_seq
from controller.floor.reconcile import check_table
from controller.records.journal import Journal
from controller.records.keys import PublicKey
from tests.floor.consuming import consume_while, until
from tests.floor.tables import play
from tests.helpers import init_table

SITE = "test"




def _stored(dsn: str, table: str) -> int:
    with psycopg.connect(dsn) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM events WHERE table_id = %s", (table,)).fetchone()[0])


def test_every_record_of_a_table_reaches_postgres_once_and_its_meters_match_the_journal(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    journal = play(tmp_path / "tc.sqlite", rounds=12, seed=3)
    outbox = Outbox(journal, table_id="TC-01", site=SITE, servers=cluster.urls)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)

    async def body() -> None:
        outbox.start()
        await until(lambda: outbox.status().lag == 0 and outbox.status().acked_seq > 0)
        await until(lambda: _stored(database, "TC-01") == outbox.status().acked_seq)

    asyncio.run(consume_while(consumer, body))
    outbox.stop()
    with psycopg.connect(database) as conn:
        check = check_table(conn, journal)
    assert check.ok, check.problems
    assert check.journal_records == check.floor_records > 100
    assert acked_seq(journal, wire.stream_name(SITE)) == check.journal_records


def test_a_republished_journal_and_a_redelivered_stream_are_stored_once(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    journal = play(tmp_path / "tc.sqlite", rounds=5, seed=4)
    first = Outbox(journal, table_id="TC-01", site=SITE, servers=cluster.urls)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)

    async def body() -> None:
        first.start()
        await until(lambda: first.status().lag == 0 and first.status().acked_seq > 0)
        first.stop()
        total = first.status().acked_seq
        await until(lambda: _stored(database, "TC-01") == total)
        # the outbox forgets what the broker acknowledged: it publishes the whole journal again
        position = Position(journal)
        position.forget(wire.stream_name(SITE))
        position.close()
        again = Outbox(journal, table_id="TC-01", site=SITE, servers=cluster.urls)
        again.start()
        await until(lambda: again.status().acked_seq == total)
        again.stop()
        assert again.status().duplicates == total  # the stream's duplicate window dropped every one

    asyncio.run(consume_while(consumer, body))

    # a new consumer reads the whole stream again: the database keeps each record once
    async def replay() -> None:
        client = await nats.connect(servers=cluster.urls)
        await client.jetstream().delete_consumer(wire.stream_name(SITE), "floor-postgres")
        await client.close()
        again = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
        await consume_while(again, lambda: until(lambda: again.stats.duplicates >= first.status().acked_seq))
        assert again.stats.stored == 0

    asyncio.run(replay())
    with psycopg.connect(database) as conn:
        check = check_table(conn, journal)
    assert check.ok, check.problems


async def _publish_raw(cluster: NatsCluster, records: list[dict[str, object]]) -> None:
    client = await nats.connect(servers=cluster.urls)
    js = client.jetstream()
    for record in records:
        data = json.dumps(record).encode()
        await js.publish(
            wire.subject(SITE, str(record["table"]), str(record["event"])), data,
            headers={"Nats-Msg-Id": wire.msg_id(str(record["table"]), int(str(record["seq"])), data)},
            stream=wire.stream_name(SITE),
        )
    await client.close()


def _record(seq: int) -> dict[str, object]:
    return {"event": ShoeShuffled.EVENT, "table": "GAP-1", "round": None, "seq": seq, "timestamp": "2026-11-27T10:00:00Z"}


def test_a_gap_in_a_tables_records_is_named_and_closed_when_the_records_arrive(cluster: NatsCluster, database: str) -> None:
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)

    def gaps() -> list[tuple[int, int, bool]]:
        with psycopg.connect(database) as conn:
            rows = conn.execute("SELECT first_missing, last_missing, filled_at IS NOT NULL FROM gaps WHERE table_id = 'GAP-1'")
            return [(int(a), int(b), bool(c)) for a, b, c in rows]

    async def body() -> None:
        await _publish_raw(cluster, [_record(1), _record(2), _record(5)])
        await until(lambda: _stored(database, "GAP-1") == 3)
        assert gaps() == [(3, 4, False)]
        await _publish_raw(cluster, [_record(3), _record(4)])
        await until(lambda: _stored(database, "GAP-1") == 5)
        assert gaps() == [(3, 4, True)]

    asyncio.run(consume_while(consumer, body))
    assert consumer.stats.gaps_opened == 1 and consumer.stats.gaps_closed == 1


def test_a_message_that_is_not_a_table_record_is_kept_aside_and_does_not_stop_the_floor(
    cluster: NatsCluster, database: str
) -> None:
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)

    async def body() -> None:
        client = await nats.connect(servers=cluster.urls)
        await client.jetstream().publish(f"tablectl.{SITE}.X.junk", b"\xff not json", stream=wire.stream_name(SITE))
        await client.close()
        await _publish_raw(cluster, [_record(1)])
        await until(lambda: _stored(database, "GAP-1") == 1)

    asyncio.run(consume_while(consumer, body))
    with psycopg.connect(database) as conn:
        rejected = conn.execute("SELECT subject, reason FROM rejected").fetchall()
    reason = (f"message on tablectl.{SITE}.X.junk is not JSON: "
              "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte")
    assert rejected == [(f"tablectl.{SITE}.X.junk", reason)]


def test_the_floor_keeps_every_record_through_a_killed_broker_node_and_a_restarted_database(
    tmp_path: Path, cluster: NatsCluster, database: str, postgres: LocalPostgres
) -> None:
    journals = [play(tmp_path / f"t{i}.sqlite", rounds=8, seed=10 + i) for i in range(3)]
    import sqlite3

    for index, path in enumerate(journals):  # three tables: each journal under its own table id
        db = sqlite3.connect(path)
        rows = db.execute("SELECT seq, record FROM events").fetchall()
        db.execute("UPDATE meta SET value = ? WHERE key = 'table'", (f"T-{index}",))
        for seq, text in rows:
            record = json.loads(text)
            record["table"] = f"T-{index}"
            db.execute("UPDATE events SET record = ? WHERE seq = ?", (json.dumps(record), seq))
        db.commit()
        db.close()
    outboxes = [Outbox(path, table_id=f"T-{i}", site=SITE, servers=cluster.urls, batch=20, catch_up_rate=200)
                for i, path in enumerate(journals)]
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE, batch=25)

    async def body() -> None:
        for outbox in outboxes:
            outbox.start()
        await until(lambda: consumer.stats.stored > 50)
        cluster.nodes[0].kill()
        await asyncio.to_thread(postgres.restart)
        await until(lambda: all(o.status().lag == 0 and o.status().acked_seq > 0 for o in outboxes), 60)
        cluster.nodes[0].start()
        total = sum(o.status().acked_seq for o in outboxes)
        await until(lambda: sum(_stored(database, f"T-{i}") for i in range(3)) == total, 60)

    asyncio.run(consume_while(consumer, body))
    for outbox in outboxes:
        outbox.stop()
    with psycopg.connect(database) as conn:
        for path in journals:
            check = check_table(conn, path)
            assert check.ok, check.problems


def test_a_batch_taken_by_a_consumer_that_died_before_storing_it_is_stored_by_the_next(
    cluster: NatsCluster, database: str
) -> None:
    from nats.js.api import AckPolicy, ConsumerConfig

    from controller.floor.consumer import DURABLE

    first = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE, ack_wait=2)

    async def body() -> None:
        first.stop.set()  # the first consumer only made the stream and the durable consumer
        await _publish_raw(cluster, [_record(seq) for seq in range(1, 21)])
        client = await nats.connect(servers=cluster.urls)
        dying = await client.jetstream().pull_subscribe(
            wire.site_subjects(SITE), durable=DURABLE, stream=wire.stream_name(SITE),
            config=ConsumerConfig(durable_name=DURABLE, ack_policy=AckPolicy.EXPLICIT, ack_wait=2))
        taken = await dying.fetch(10, timeout=5)
        assert len(taken) == 10
        await client.close()  # it dies holding ten records it never stored

    asyncio.run(consume_while(first, body))
    second = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE, ack_wait=2)
    asyncio.run(consume_while(second, lambda: until(lambda: _stored(database, "GAP-1") == 20)))


def test_a_record_the_broker_lost_after_acknowledging_it_is_published_again_from_the_tables_journal(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    journal = play(tmp_path / "tc.sqlite", rounds=3, seed=5)
    outbox = Outbox(journal, table_id="TC-01", site=SITE, servers=cluster.urls)
    making = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
    asyncio.run(consume_while(making, lambda: asyncio.sleep(0)))  # makes the stream
    outbox.start()
    try:
        async def lose_one() -> None:
            await until(lambda: outbox.status().lag == 0 and outbox.status().acked_seq > 0)
            client = await nats.connect(servers=cluster.urls)
            await client.jetstream().delete_msg(wire.stream_name(SITE), 5)  # the broker loses table seq 5
            await client.close()

        asyncio.run(lose_one())
        healer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE, heal_after=1, resend_every=2)
        total = outbox.status().acked_seq
        asyncio.run(consume_while(healer, lambda: until(lambda: _stored(database, "TC-01") == total, 60)))
    finally:
        outbox.stop()
    assert healer.stats.resends_asked >= 1 and healer.stats.gaps_closed == 1
    with psycopg.connect(database) as conn:
        check = check_table(conn, journal)
    assert check.ok, check.problems


def test_a_table_behind_a_leaf_node_keeps_publishing_while_the_floor_is_down_and_the_floor_catches_up(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    from controller.floor.stream import StreamSettings, leaf_stream_name

    leaf = cluster.add_leaf("pit-a", "pit-a")
    settings = StreamSettings(sources=[(leaf_stream_name(SITE, "pit-a"), "pit-a")])
    making = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE, stream=settings)
    asyncio.run(consume_while(making, lambda: asyncio.sleep(0)))  # the site's stream, gathering the leaf's
    journal = play(tmp_path / "tc.sqlite", rounds=4, seed=6)
    for node in cluster.nodes:
        node.stop()  # the floor's network is down: only the pit's leaf node answers the table
    outbox = Outbox(journal, table_id="TC-01", site=SITE, servers=[leaf.url], leaf="pit-a")
    outbox.start()
    try:
        assert outbox.wait_caught_up(60), outbox.status()
        assert outbox.status().connected
        cluster.start()
        consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE, stream=settings)
        total = outbox.status().acked_seq
        asyncio.run(consume_while(consumer, lambda: until(lambda: _stored(database, "TC-01") == total, 90)))
    finally:
        outbox.stop()
    with psycopg.connect(database) as conn:
        check = check_table(conn, journal)
    assert check.ok, check.problems


def test_tablectl_run_with_a_floor_section_publishes_its_journal_as_it_plays(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    from controller.commands.cli import main

    making = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
    asyncio.run(consume_while(making, lambda: asyncio.sleep(0)))
    config = tmp_path / "table.toml"
    config.write_text(Path("config/top-card.toml").read_text() + f'\n[floor]\nsite = "{SITE}"\nservers = {json.dumps(cluster.urls)}\n')
    journal = tmp_path / "tc.sqlite"
    init_table(journal, tmp_path / "tc.jsonl", config)
    with psycopg.connect(database, autocommit=True) as conn:
        enrol(conn, "TC-01", PublicKey.load(journal.with_suffix(".pub")))
    assert main(["run", "--config", str(config), "--rounds", "6", "--seed", "8", "--journal", str(journal),
                 "--log", str(tmp_path / "tc.jsonl"), "--no-camera"]) == 0
    assert acked_seq(journal, wire.stream_name(SITE)) > 100  # published before run ended
    position = Position(journal)
    checkpoint_acked = position.checkpoint(wire.stream_name(SITE))[0]
    position.close()
    with Journal(journal, table_id="TC-01", readonly=True) as kept:
        signed = len(kept.checkpoints()) - len(kept.checkpoints(checkpoint_acked))
    assert signed > 20  # the table's signed checkpoints went out too
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
    total = acked_seq(journal, wire.stream_name(SITE))
    asyncio.run(consume_while(consumer, lambda: until(
        lambda: _stored(database, "TC-01") == total and consumer.stats.checkpoints_stored == signed)))
    assert consumer.stats.checkpoints_refused == 0
    with psycopg.connect(database) as conn:
        check = check_table(conn, journal)
    assert check.ok, check.problems


@pytest.mark.parametrize(("floor", "problem"), [
    ('site = "x y"\nservers = ["nats://127.0.0.1:4222"]', "floor.site: must be letters, digits"),
    ('site = "x"\nservers = []', "floor.servers"),
    ('site = "x"\nservers = ["127.0.0.1:4222"]', "floor.servers: a NATS server is written nats://HOST:PORT"),
    ('site = "x"\nservers = ["nats://h:1"]\nlef = "pit-a"', "floor.lef"),
])
def test_a_wrong_floor_section_is_refused_naming_the_key(tmp_path: Path, floor: str, problem: str) -> None:
    from controller.engine.config import load_config
    from controller.errors import ConfigError

    config = tmp_path / "table.toml"
    config.write_text(Path("config/top-card.toml").read_text() + f"\n[floor]\n{floor}\n")
    with pytest.raises(ConfigError, match=re.escape(problem)):
        load_config(config)
