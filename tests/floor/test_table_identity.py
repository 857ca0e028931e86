"""What the floor says about a table it cannot trust as one table: two journals under one id, a clock hours ahead."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import sqlite3
from pathlib import Path
from typing import Any

import nats
import psycopg

from controller.events import RoundCompleted, RoundStarted, ShoeShuffled
from controller.floor import views, wire
from controller.floor.consumer import FloorConsumer
from controller.floor.localservers import NatsCluster
from controller.floor.outbox import Outbox, Position
from controller.floor.reconcile import check_table
from controller.floor.shifts import Shifts
from tests.floor.consuming import consume_while, until
from tests.floor.tables import play

SITE = "test"


def _stored(dsn: str, table: str) -> int:
    with psycopg.connect(dsn) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM events WHERE table_id = %s", (table,)).fetchone()[0])


def _alerts(dsn: str, table: str, kind: str) -> list[str]:
    with psycopg.connect(dsn) as conn:
        rows = conn.execute("SELECT message FROM alerts WHERE table_id = %s AND kind = %s", (table, kind)).fetchall()
    return [str(message) for (message,) in rows]


def _last_seq(journal: Path) -> int:
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT MAX(seq) FROM events").fetchone()[0])
    finally:
        db.close()


def test_a_second_journal_publishing_as_the_same_table_raises_one_alert_and_none_of_its_money_is_counted(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    # two PCs, each with its own fresh journal, both configured as TC-01 (a replaced PC, a copied config)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = play(tmp_path / "a" / "TC-01.sqlite", rounds=5, seed=3)
    second = play(tmp_path / "b" / "TC-01.sqlite", rounds=2, seed=4)
    assert _last_seq(second) < _last_seq(first)  # every record of the second has a seq the first journal used
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
    outboxes = [Outbox(path, table_id="TC-01", site=SITE, servers=cluster.urls) for path in (first, second)]

    async def body() -> None:
        outboxes[0].start()
        await until(lambda: outboxes[0].status().lag == 0 and outboxes[0].status().acked_seq > 0)
        await until(lambda: _stored(database, "TC-01") == _last_seq(first))
        outboxes[1].start()
        await until(lambda: outboxes[1].status().lag == 0 and outboxes[1].status().acked_seq > 0)
        assert outboxes[1].status().duplicates == 0  # the stream took the second journal's records: they differ
        await until(lambda: consumer.stats.record_conflicts == _last_seq(second), 30)
        # the second journal published again from the start: the very same records, dropped by the stream as before
        outboxes[1].stop()
        position = Position(second)
        position.forget(wire.stream_name(SITE))
        position.close()
        again = Outbox(second, table_id="TC-01", site=SITE, servers=cluster.urls)
        again.start()
        await until(lambda: again.status().acked_seq == _last_seq(second))
        again.stop()
        assert again.status().duplicates == _last_seq(second)

    try:
        asyncio.run(consume_while(consumer, body))
    finally:
        for outbox in outboxes:
            outbox.stop()
    assert consumer.stats.record_conflicts == _last_seq(second)
    alerts = _alerts(database, "TC-01", "journal_conflict")
    assert len(alerts) == 1, alerts  # one for the table, not one per record
    assert "TC-01" in alerts[0] and "two journals publish as this table" in alerts[0], alerts[0]
    assert f"{_last_seq(second)} records" in alerts[0] and "not counted" in alerts[0], alerts[0]
    with psycopg.connect(database) as conn:
        counted = check_table(conn, first)
        other = check_table(conn, second)
        shown = views.alerts(conn)
        tiles = {t["table"]: t for t in views.tables(conn, Shifts.default())}
    assert counted.ok, counted.problems  # the floor's records and meters are the first journal's, to the cent
    assert not other.ok
    assert any("records differ" in problem for problem in other.problems), other.problems
    assert any("two journals publish as TC-01" in problem for problem in other.problems), other.problems
    assert [a["message"] for a in shown if a["kind"] == "journal_conflict"] == alerts  # on the pit page
    assert tiles["TC-01"]["recent_alerts"] >= 1


def test_a_second_journal_longer_than_the_first_has_none_of_its_records_counted_past_the_first_ones_end(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    # The second journal's records past the first journal's last seq take no seq the floor holds: they were stored
    # and counted as the table's (a round of the second PC's on the pit page) until each record carried its link in
    # its journal's chain (wire.CHAIN_HEADER). Now none of them follows on from the first journal's records.
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = play(tmp_path / "a" / "TC-01.sqlite", rounds=2, seed=3)
    second = play(tmp_path / "b" / "TC-01.sqlite", rounds=5, seed=4)
    assert _last_seq(second) > _last_seq(first)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
    outboxes = [Outbox(path, table_id="TC-01", site=SITE, servers=cluster.urls) for path in (first, second)]

    async def body() -> None:
        outboxes[0].start()
        await until(lambda: _stored(database, "TC-01") == _last_seq(first))
        outboxes[1].start()
        await until(lambda: outboxes[1].status().lag == 0 and outboxes[1].status().acked_seq > 0)
        await until(lambda: consumer.stats.record_conflicts == _last_seq(second), 30)

    try:
        asyncio.run(consume_while(consumer, body))
    finally:
        for outbox in outboxes:
            outbox.stop()
    assert _stored(database, "TC-01") == _last_seq(first)
    alerts = _alerts(database, "TC-01", "journal_conflict")
    assert len(alerts) == 1 and f"{_last_seq(second)} records" in alerts[0], alerts
    assert "does not follow on" in alerts[0] and "not counted" in alerts[0], alerts[0]
    with psycopg.connect(database) as conn:
        counted = check_table(conn, first)
    assert counted.ok, counted.problems  # the floor's rounds and meters are the first journal's alone, to the cent


def _records(table: str, at: dt.datetime, first_seq: int = 1) -> list[dict[str, Any]]:
    stamp = at.isoformat().replace("+00:00", "Z")
    base = {"table": table, "timestamp": stamp, "game": "top-card"}
    round_id = f"{table}-R{first_seq}"
    return [
        {**base, "seq": first_seq, "event": ShoeShuffled.EVENT, "round": None, "shuffle": 1, "burn": 1},
        {**base, "seq": first_seq + 1, "event": RoundStarted.EVENT, "round": round_id, "options": {"paytable": "standard"}},
        {**base, "seq": first_seq + 2, "event": RoundCompleted.EVENT, "round": round_id, "wagered": 0, "paid": 0, "fees": 0,
         "house_win": 0, "between_players": 0},
    ]


async def _publish(cluster: NatsCluster, records: list[dict[str, Any]]) -> None:
    client = await nats.connect(servers=cluster.urls)
    js = client.jetstream()
    for record in records:
        data = json.dumps(record, separators=(",", ":")).encode()
        await js.publish(wire.subject(SITE, record["table"], record["event"]), data,
                         headers={"Nats-Msg-Id": wire.msg_id(record["table"], record["seq"], data)},
                         stream=wire.stream_name(SITE))
    await client.close()


def test_a_table_whose_clock_is_hours_ahead_raises_one_alert_and_its_rounds_still_count_where_its_clock_says(
    cluster: NatsCluster, database: str
) -> None:
    now = dt.datetime.now(dt.UTC)
    ahead = now + dt.timedelta(hours=9)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)

    async def body() -> None:
        await _publish(cluster, _records("SKEW-1", ahead))
        await _publish(cluster, _records("SKEW-1", ahead + dt.timedelta(seconds=30), first_seq=4))
        await _publish(cluster, _records("LATE-1", now - dt.timedelta(hours=3)))  # after an outage: old times, no alert
        await _publish(cluster, _records("NEAR-1", now + dt.timedelta(minutes=1)))  # a minute off: no alert
        await until(lambda: _stored(database, "SKEW-1") == 6 and _stored(database, "LATE-1") == 3
                    and _stored(database, "NEAR-1") == 3)

    asyncio.run(consume_while(consumer, body))
    alerts = _alerts(database, "SKEW-1", "clock_ahead")
    assert len(alerts) == 1, alerts  # one for the table, not one per record
    assert "SKEW-1" in alerts[0] and "9 h" in alerts[0] and "ahead" in alerts[0], alerts[0]
    assert "shift its clock names" in alerts[0], alerts[0]
    assert _alerts(database, "LATE-1", "clock_ahead") == [] and _alerts(database, "NEAR-1", "clock_ahead") == []
    day, shift = Shifts.default().of(ahead)
    with psycopg.connect(database) as conn:
        counted = conn.execute("SELECT gaming_day, shift, value FROM counters WHERE table_id = 'SKEW-1' AND name = 'rounds'").fetchall()
        shown = views.alerts(conn)
    assert counted == [(day, shift, 2)]  # stored and counted as before: under the shift its clock names
    assert [a["table"] for a in shown if a["kind"] == "clock_ahead"] == ["SKEW-1"]
