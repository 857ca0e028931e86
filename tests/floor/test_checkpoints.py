"""The table's signed checkpoints off the table: published by its outbox, kept by the floor, used to verify the records.

A table's journal and event log, put back to an older copy with their anchor
(or rewritten with a new key), verify as intact on the table alone; the
floor's copy of the checkpoints the table signed catches both.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import shutil
import sqlite3
from pathlib import Path

import nats
import psycopg
import pytest

from controller.commands.cli import main
from controller.floor import wire
from controller.floor.checkpoints import enrol
from controller.floor.consumer import FloorConsumer
from controller.floor.localservers import NatsCluster
from controller.floor.outbox import Outbox, Position
from controller.records.keys import PublicKey, SigningKey, sign_checkpoint
from tests.floor.consuming import consume_while, until
from tests.floor.tables import play

SITE = "test"
TABLE = "TC-01"




def _make_stream(cluster: NatsCluster, database: str) -> None:
    making = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
    asyncio.run(consume_while(making, lambda: asyncio.sleep(0)))


def _enrol(database: str, journal: Path) -> None:
    with psycopg.connect(database, autocommit=True) as conn:
        enrol(conn, TABLE, PublicKey.load(journal.with_suffix(".pub")))


def _journal_checkpoints(journal: Path) -> int:
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT COUNT(*) FROM checkpoints").fetchone()[0])
    finally:
        db.close()


def _kept(database: str) -> int:
    with psycopg.connect(database) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM checkpoints WHERE table_id = %s", (TABLE,)).fetchone()[0])


def _floor_config(tmp_path: Path, cluster: NatsCluster, database: str) -> Path:
    path = tmp_path / "floor.toml"
    path.write_text(f'[floor]\nsite = "{SITE}"\n[broker]\nservers = {json.dumps(cluster.urls)}\n[database]\ndsn = "{database}"\n')
    return path


def _cli(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue() + err.getvalue()


def _publish_all(journal: Path, cluster: NatsCluster, database: str) -> None:
    """The table's outbox publishes everything its journal holds, and the floor stores it."""
    outbox = Outbox(journal, table_id=TABLE, site=SITE, servers=cluster.urls)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
    outbox.start()
    try:
        assert outbox.wait_caught_up(60), outbox.status()
        expected = _journal_checkpoints(journal)
        asyncio.run(consume_while(consumer, lambda: until(lambda: _kept(database) == expected)))
    finally:
        outbox.stop()


def test_checkpoints_written_while_the_floor_is_down_reach_it_when_it_returns_once_each_through_restarts(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    journal = play(tmp_path / "tc.sqlite", rounds=3, seed=21)
    _make_stream(cluster, database)
    _enrol(database, journal)
    for node in cluster.nodes:
        node.stop()  # the floor is away
    first = Outbox(journal, table_id=TABLE, site=SITE, servers=cluster.urls, max_backoff=1.0)
    first.start()
    play(journal, rounds=3, seed=22)  # the table plays on, checkpoint after checkpoint
    assert not first.status().connected and first.status().checkpoints_acked == 0
    cluster.start()
    assert first.wait_caught_up(90), first.status()
    first.stop()
    published = first.status().checkpoints_published
    total = _journal_checkpoints(journal)
    assert published == total > 20

    play(journal, rounds=2, seed=23)  # the table restarts: its outbox goes on from the last checkpoint acknowledged
    second = Outbox(journal, table_id=TABLE, site=SITE, servers=cluster.urls)
    second.start()
    assert second.wait_caught_up(60), second.status()
    second.stop()
    assert second.status().checkpoints_published == _journal_checkpoints(journal) - total

    position = Position(journal)  # the outbox forgets its position: every checkpoint is published again
    position.forget(wire.stream_name(SITE))
    position.close()
    again = Outbox(journal, table_id=TABLE, site=SITE, servers=cluster.urls)
    again.start()
    assert again.wait_caught_up(60), again.status()
    again.stop()
    assert again.status().checkpoints_published == 0  # the stream's window dropped each as a duplicate

    total = _journal_checkpoints(journal)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
    asyncio.run(consume_while(consumer, lambda: until(lambda: _kept(database) == total)))
    assert consumer.stats.checkpoints_refused == 0 and consumer.stats.refusals == []

    async def replay() -> None:  # the whole stream read again: the floor keeps each checkpoint once
        client = await nats.connect(servers=cluster.urls)
        await client.jetstream().delete_consumer(wire.stream_name(SITE), "floor-postgres")
        await client.close()
        reread = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
        await consume_while(reread, lambda: until(lambda: reread.stats.checkpoint_duplicates == total))
        assert reread.stats.checkpoints_stored == reread.stats.stored == 0

    asyncio.run(replay())
    assert _kept(database) == total
    floor = _floor_config(tmp_path, cluster, database)
    code, said = _cli("floor", "checkpoints", "--config", str(floor), TABLE, "--out", str(tmp_path / "held.json"))
    assert code == 0, said
    code, said = _cli("audit", "verify", "--config", "config/top-card.toml", "--journal", str(journal),
                      "--log", str(journal.with_suffix(".jsonl")), "--floor-checkpoints", str(tmp_path / "held.json"))
    assert code == 0, said
    assert "intact" in said and f"compared with {total} checkpoint(s) the floor holds of {TABLE}" in said


def _snapshot(folder: Path, into: Path) -> None:
    into.mkdir()
    for file in folder.iterdir():
        if file.is_file() and file.suffix not in (".key", ".pub"):
            shutil.copy2(file, into / file.name)


def _put_back(snapshot: Path, folder: Path) -> None:
    for file in folder.iterdir():
        if file.is_file() and file.suffix not in (".key", ".pub"):
            file.unlink()
    for file in snapshot.iterdir():
        shutil.copy2(file, folder / file.name)


def _rewrite_with_a_new_key(folder: Path, journal: Path) -> None:
    """Someone with the disk but not the key: a new key, a new journal and log, the same games played again."""
    for file in list(folder.iterdir()):
        if file.is_file():
            file.unlink()
    play(journal, rounds=6, seed=31)


@pytest.mark.parametrize(("attack", "found"), [
    ("rewound", ["CUT OFF", "were cut off (the journal was cut back, or put back to an older copy)",
                 "line(s) cut off the end"]),
    ("rewritten", ["KEY", "is not the key the floor enrolled", "no line is signed by the table's key"]),
])
def test_records_put_back_or_rewritten_on_the_table_pass_alone_and_are_caught_by_the_floors_checkpoints(
    tmp_path: Path, cluster: NatsCluster, database: str, attack: str, found: list[str]
) -> None:
    table = tmp_path / "table"
    table.mkdir()
    journal = play(table / "tc.sqlite", rounds=3, seed=31)
    _snapshot(table, tmp_path / "copy")
    play(journal, rounds=3, seed=32)
    _make_stream(cluster, database)
    _enrol(database, journal)
    _publish_all(journal, cluster, database)
    floor = _floor_config(tmp_path, cluster, database)
    held = tmp_path / "held.json"
    assert _cli("floor", "checkpoints", "--config", str(floor), TABLE, "--out", str(held))[0] == 0
    verify = ["audit", "verify", "--config", "config/top-card.toml", "--journal", str(journal),
              "--log", str(journal.with_suffix(".jsonl"))]

    if attack == "rewound":
        _put_back(tmp_path / "copy", table)  # journal, anchor and log as they were three rounds ago
    else:
        _rewrite_with_a_new_key(table, journal)
    code, alone = _cli(*verify)
    assert code == 0 and "intact" in alone, alone  # the table's records alone cannot tell

    code, said = _cli(*verify, "--floor-checkpoints", str(held))
    assert code == 1, said
    assert "TAMPERED" in said
    for words in found:
        assert words in said, said
    if attack != "rewound":
        return

    play(journal, rounds=1, seed=33)  # the table plays on from the old copy: the floor sees it sign seqs again
    outbox = Outbox(journal, table_id=TABLE, site=SITE, servers=cluster.urls)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)
    outbox.start()
    try:
        asyncio.run(consume_while(consumer, lambda: until(lambda: bool(consumer.stats.conflicts))))
    finally:
        outbox.stop()
    assert re.fullmatch(rf"table {TABLE} signed journal seq \d+ twice with different records \(at .+ and at .+\): its journal was "
                        "put back to an older copy or rewritten, and it went on from there", consumer.stats.conflicts[0])
    code, said = _cli("floor", "checkpoints", "--config", str(floor), TABLE, "--out", str(held))
    assert code == 1 and "signed the same journal seq twice with different records" in said


async def _publish_checkpoint(cluster: NatsCluster, table: str, body: dict[str, object], checkpoint_id: int) -> None:
    client = await nats.connect(servers=cluster.urls)
    message = json.dumps({"id": checkpoint_id, **body}, sort_keys=True, separators=(",", ":")).encode()
    await client.jetstream().publish(wire.checkpoint_subject(SITE, table), message,
                                     headers={"Nats-Msg-Id": wire.checkpoint_msg_id(table, message)})
    await client.close()


def _refusals(database: str) -> list[tuple[str, str, bool]]:
    with psycopg.connect(database) as conn:
        rows = conn.execute("SELECT table_id, reason, awaiting_key FROM checkpoint_refusals ORDER BY at").fetchall()
    return [(str(t), str(r), bool(a)) for t, r, a in rows]


def test_a_forged_checkpoint_is_refused_by_the_floor_naming_why_and_one_awaiting_a_key_is_kept_once_it_is_enrolled(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    journal = play(tmp_path / "tc.sqlite", rounds=1, seed=41)
    genuine = SigningKey.load(journal.with_suffix(".key"))
    forger = SigningKey.generate(tmp_path / "forger.key")
    _make_stream(cluster, database)
    _enrol(database, journal)
    body = {"table": TABLE, "journal": {"seq": 999, "hash": "0" * 64}, "log": None, "at": "2026-11-27T16:00:00Z"}
    wrong_key = sign_checkpoint(body, forger)
    changed = {**sign_checkpoint(body, genuine), "journal": {"seq": 1000, "hash": "0" * 64}}
    other_table = sign_checkpoint({**body, "table": "TC-02"}, genuine)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site=SITE)

    async def body_of_test() -> None:
        await _publish_checkpoint(cluster, TABLE, wrong_key, 1)
        await _publish_checkpoint(cluster, TABLE, changed, 2)
        await _publish_checkpoint(cluster, TABLE, other_table, 3)
        await _publish_checkpoint(cluster, "TC-02", other_table, 3)  # no key enrolled for TC-02 yet
        await until(lambda: consumer.stats.checkpoints_refused == 4)

    asyncio.run(consume_while(consumer, body_of_test))
    assert _kept(database) == 0
    reasons = _refusals(database)
    assert reasons[0] == (TABLE, f"the checkpoint of {TABLE} (journal seq 999) is signed with key {forger.fingerprint}, not the "
                                 f"key enrolled for {TABLE} ({genuine.fingerprint}): refused (a key made on the table PC is "
                                 "not the table's until a person enrols it)", False)
    assert reasons[1] == (TABLE, f"the checkpoint of {TABLE} (journal seq 1000) does not verify with {TABLE}'s enrolled key "
                                 f"{genuine.fingerprint}: forged or changed on its way", False)
    assert reasons[2] == (TABLE, f"the checkpoint names table 'TC-02' but came on table {TABLE}'s subject", False)
    assert reasons[3][0] == "TC-02" and reasons[3][2] and "no key is enrolled for table TC-02" in reasons[3][1]
    assert consumer.stats.refusals == [r for _, r, _ in reasons]

    pub = tmp_path / "TC-02.pub"
    pub.write_bytes(genuine.public.pem())  # (the test's TC-02 shares TC-01's key)
    floor = _floor_config(tmp_path, cluster, database)
    code, said = _cli("floor", "enrol", "--config", str(floor), "TC-02", "--public-key", str(pub))
    assert code == 0, said
    assert "1 waiting checkpoint(s) accepted" in said
    code, said = _cli("floor", "enrol", "--config", str(floor), "TC-02", "--public-key", str(tmp_path / "forger.pub"))
    assert code == 1
    assert f"table TC-02 already has key {genuine.fingerprint} enrolled" in said
    with psycopg.connect(database) as conn:
        assert conn.execute("SELECT COUNT(*) FROM checkpoints WHERE table_id = 'TC-02'").fetchone()[0] == 1
