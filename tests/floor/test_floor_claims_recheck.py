"""Records the floor set aside before it learned of a journal restored with a loss are looked at again on a manager's word.

Found by the floor's engineer after commit 1f25f9e (the floor follows a table's journal across a loss a person
accepted, told by the ``Tablectl-Lost`` header): a table whose journal had been restored with a loss before then had
every record it wrote since kept aside as "two journals publish as this table" (or, where the floor had never
received the lost records, stored behind a gap the floor waited on for good), and nothing ever looked at them again:
updating the table changed nothing for records already sent, and the manager had no way to see what was set aside,
or why, short of reading ``event_conflicts``. Now ``tablectl floor aside`` says, per table, what the floor does not
count and why, and ``tablectl floor recheck TABLE`` releases the table's set-aside records and asks the table to
publish them again: the table, now telling the floor of its loss, has them counted; a table that does not answer
keeps them set aside as they were.

Real parts throughout: tables played by ``tablectl run``, ``journal backup`` and ``journal restore --accept-loss``,
a three-node JetStream cluster, the floor's consumer and PostgreSQL, the table's current outbox; the records the
table sent before 1f25f9e are published as its outbox then sent them (its chain, no ``Tablectl-Lost``).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import nats
import psycopg
import pytest

from controller.commands.cli import main
from controller.floor import kinds, wire
from controller.floor.consumer import FloorConsumer
from controller.floor.localservers import NatsCluster
from controller.floor.outbox import Outbox, Position
from controller.floor.reconcile import check_table
from controller.records.journal import Journal
from tests.floor.consuming import consume_while, until
from tests.floor.tables import play
from tests.floor.test_declared_loss import _aside, _backup, _contiguous, _publish, _restore_with_loss

TABLE = "TC-01"
SITE = "audit"


def _published_as_before_the_header(journal: Path, cluster: NatsCluster) -> None:
    """What a table's outbox from before 1f25f9e sent of its journal past its position: each record with its message id
    and its chain, no word of the loss; then it wrote down how far it got, as every outbox does."""
    async def body() -> None:
        client = await nats.connect(servers=cluster.urls)
        position = Position(journal)
        try:
            js = client.jetstream(timeout=10)
            created = str((await js.stream_info(wire.stream_name(SITE))).created)
            acked = position.get(wire.stream_name(SITE))[0]
            db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
            rows = db.execute("SELECT seq, event, record, prev, hash FROM events WHERE seq > ? ORDER BY seq", (acked,)).fetchall()
            db.close()
            for seq, kind, record, prev, hash in rows:
                data = str(record).encode()
                ack = await js.publish(wire.subject(SITE, TABLE, kind), data, headers={
                    "Nats-Msg-Id": wire.msg_id(TABLE, int(seq), data), wire.CHAIN_HEADER: wire.chain_header(prev, hash)})
                position.set(wire.stream_name(SITE), int(seq), int(ack.seq), created)
        finally:
            position.close()
            await client.close()

    asyncio.run(body())


def _open_gap(database: str) -> bool:
    with psycopg.connect(database) as conn:
        return conn.execute("SELECT 1 FROM gaps WHERE table_id = %s AND filled_at IS NULL", (TABLE,)).fetchone() is not None


def _alert_kinds(database: str) -> set[str]:
    with psycopg.connect(database) as conn:
        return {str(kind) for (kind,) in conn.execute("SELECT kind FROM alerts WHERE table_id = %s AND seq < 0", (TABLE,))}


def _floor(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["floor", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("floor_saw_the_lost_records", [True, False], ids=["floor-holds-them", "floor-never-saw-them"])
def test_records_set_aside_before_the_floor_read_a_declared_loss_are_counted_after_a_managers_recheck(
    tmp_path: Path, cluster: NatsCluster, database: str, capsys: pytest.CaptureFixture[str], floor_saw_the_lost_records: bool
) -> None:
    journal = tmp_path / f"{TABLE}.sqlite"
    play(journal, rounds=3, seed=1)
    _publish(journal, cluster, database)
    backup, log_then = _backup(journal, tmp_path / "backups")
    play(journal, rounds=2, seed=2)
    if floor_saw_the_lost_records:
        _publish(journal, cluster, database)
    first, last = _restore_with_loss(journal, backup, log_then)
    play(journal, rounds=2, seed=3)
    with Journal(journal, table_id=TABLE, readonly=True) as after:
        head = after.last_seq

    # the table, still on a tablectl from before 1f25f9e, sends what it played since its restore
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE, heal_after=3600)  # the recheck, not the heal

    async def sent_before_the_header() -> None:
        await asyncio.to_thread(_published_as_before_the_header, journal, cluster)
        await until(lambda: _aside(database) > 0 if floor_saw_the_lost_records else _open_gap(database))
        await until(lambda: _aside(database) >= head - last if floor_saw_the_lost_records else True)

    asyncio.run(consume_while(consumer, sent_before_the_header))
    assert _contiguous(database) < head
    config = tmp_path / "floor.toml"
    config.write_text(f'[floor]\nsite = "{SITE}"\n[broker]\nservers = {json.dumps(cluster.urls)}\n'
                      f'[database]\ndsn = "{database}"\n')

    # the manager sees what is not counted, and why, in words
    code, out, _ = _floor(["aside", "--config", str(config)], capsys)
    assert code == 0 and f"table {TABLE}:" in out, out
    if floor_saw_the_lost_records:
        assert f"seq {last + 1} to {head} ({head - last} records, received " in out, out
        assert "they do not follow on from the records the floor counts" in out and "--accept-loss" in out, out
        assert kinds.JOURNAL_CONFLICT in _alert_kinds(database)
    else:
        assert f"they wait for records {first} to {last}, which never reached the floor" in out, out
    assert f"`tablectl floor recheck {TABLE}`" in out, out

    if floor_saw_the_lost_records:
        # asked while the table is not running: nothing is released, the records and the alert stay as they were
        code, _, err = _floor(["recheck", "--config", str(config), TABLE], capsys)
        assert code == 3 and f"table {TABLE} does not answer" in err and "stay set aside" in err, err
        assert _aside(database) == head - last and kinds.JOURNAL_CONFLICT in _alert_kinds(database)

    # the table is updated and runs its current outbox; the manager has the floor look again
    outbox = Outbox(journal, table_id=TABLE, site=SITE, servers=cluster.urls)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE, heal_after=3600)
    said: list[tuple[int, str]] = []

    async def recheck() -> None:
        outbox.start()
        await until(lambda: outbox.status().connected and outbox.status().acked_seq >= head)
        code, out, _ = await asyncio.to_thread(_floor, ["recheck", "--config", str(config), TABLE, "--wait", "60"], capsys)
        said.append((code, out))
        # nothing set aside is what --wait waits for; the records published again after it may still be arriving
        await until(lambda: _contiguous(database) >= head)

    try:
        asyncio.run(consume_while(consumer, recheck))
    finally:
        outbox.stop()
    [(code, out)] = said
    assert code == 0, out
    assert f"the table publishes its records again from seq {last + 1 if floor_saw_the_lost_records else first}" in out, out
    assert "nothing is set aside" in out, out
    assert _aside(database) == 0 and _contiguous(database) == head
    assert _alert_kinds(database) == {kinds.RECORDS_DECLARED_LOST}
    with psycopg.connect(database) as conn:
        check = check_table(conn, journal)
        released = conn.execute("SELECT COUNT(*) FROM event_conflicts_released WHERE table_id = %s", (TABLE,)).fetchone()
    assert check.ok, check.problems
    assert released == ((head - last) if floor_saw_the_lost_records else 0,)  # kept, for the audit
    code, out, _ = _floor(["aside", "--config", str(config), "--table", TABLE], capsys)
    assert (code, out.strip()) == (0, f"the floor counts every record it holds of table {TABLE}: nothing is set aside")


def test_a_recheck_while_two_journals_still_publish_as_one_table_keeps_the_second_ones_records_aside_and_says_why(
    tmp_path: Path, cluster: NatsCluster, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = play(tmp_path / "a" / f"{TABLE}.sqlite", rounds=4, seed=3)
    second = play(tmp_path / "b" / f"{TABLE}.sqlite", rounds=2, seed=4)
    with Journal(second, table_id=TABLE, readonly=True) as own:
        theirs = own.last_seq
    with Journal(first, table_id=TABLE, readonly=True) as own:
        ours = own.last_seq
    assert theirs < ours  # every record of the second journal takes a seq the first one used
    config = tmp_path / "floor.toml"
    config.write_text(f'[floor]\nsite = "{SITE}"\n[broker]\nservers = {json.dumps(cluster.urls)}\n'
                      f'[database]\ndsn = "{database}"\n')
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
    outboxes = [Outbox(path, table_id=TABLE, site=SITE, servers=cluster.urls) for path in (first, second)]
    said: list[tuple[int, str, str]] = []

    async def body() -> None:
        outboxes[0].start()
        await until(lambda: _contiguous(database) == ours)
        outboxes[0].stop()  # the first PC is gone; the second, under the same id, publishes
        outboxes[1].start()
        await until(lambda: _aside(database) == theirs)
        # the manager rechecks before the cause is fixed
        said.append(await asyncio.to_thread(_floor, ["recheck", "--config", str(config), TABLE, "--wait", "60"], capsys))

    try:
        asyncio.run(consume_while(consumer, body))
    finally:
        for outbox in outboxes:
            outbox.stop()
    [(code, out, _)] = said
    assert code == 1, out  # something is still set aside
    assert f"{theirs} set-aside record(s) released; the table publishes its records again from seq 1" in out, out
    assert f"seq 1 to {theirs} ({theirs} records, received " in out, out
    why = (f"the floor counts other records under these seqs for {TABLE} (those it stored first): these are another "
           f"journal's, publishing as {TABLE}")
    assert why in out, out
    assert _aside(database) == theirs and _contiguous(database) == ours
    assert kinds.JOURNAL_CONFLICT in _alert_kinds(database)  # raised again with them
    with psycopg.connect(database) as conn:
        assert check_table(conn, first).ok
