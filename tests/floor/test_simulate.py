"""The proof's simulated tables (controller/floor/simulate.py) hold a claimed round as a table does, play stopped or not.

A linked table that has claimed the jackpot holds the round until the floor's
award comes back and then settles it. The proof stops play and then checks the
floor's payments against the tables' journals: a simulated table that dropped
its held round when play stopped would leave a claim the floor pays and no
journal does (the proof's "1 unsettled ... NOT RECONCILED"). Here over a real
cluster, outbox and jackpot controller, with the floor away until play stopped.
"""

from __future__ import annotations

import asyncio
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import nats
import psycopg

from controller import events as ev
from controller.floor.config import parse_floor_config
from controller.floor.jackpot import JackpotController, _bucket
from controller.floor.localservers import NatsCluster
from controller.floor.proof import _held_claims
from controller.floor.simulate import SimulatedTable, TableGroup, _rounds_of
from controller.floor.stream import ensure_stream, stream_settings
from controller.records.journal import Journal
from tests.floor.consuming import consume_while, until
from tests.floor.tables import play

SITE = "sim"


def _settled(dsn: str) -> bool:
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT COUNT(*) FILTER (WHERE settled_seq IS NULL), COUNT(*) FROM jackpot_awards").fetchone()
    return row is not None and row == (0, 1)


def test_a_table_holding_a_claim_when_play_stops_settles_it_once_the_floor_answers(
    tmp_path: Path, cluster: NatsCluster, database: str,
) -> None:
    template = play(tmp_path / "template.sqlite", rounds=1, seed=3, config="config/high-card-flush.toml")
    journal = tmp_path / "HCF-1.sqlite"
    table = SimulatedTable("HCF-1", "high-card-flush", journal, _rounds_of(template), 0.5, random.Random(1),
                           jackpot="hcf", jackpot_every=1)  # its first round claims
    config: Any = parse_floor_config({
        "floor": {"site": SITE}, "broker": {"servers": cluster.urls}, "database": {"dsn": database},
        "jackpots": {"hcf": {"tables": ["HCF-1"], "reset": 1_000_000, "rate": "0.15"}},
    }, "test.toml")

    async def main() -> None:
        client = await nats.connect(servers=cluster.urls)
        js = client.jetstream()
        await ensure_stream(js, SITE, stream_settings(config))
        await _bucket(js, SITE, config.broker.replicas)
        await client.close()
        stop_play, stop = asyncio.Event(), asyncio.Event()
        tables = asyncio.create_task(TableGroup([table], servers=cluster.urls, site=SITE).run(stop_play, stop))
        try:
            await until(lambda: bool(table.claims), 30)
            stop_play.set()  # play stops while the round holds for the award: the floor is not running yet
            await asyncio.sleep(1.0)
            assert _held_claims(journal) == [f"HCF-1 {table.claims[0].split('.')[1]} spot 1"]
            controller = JackpotController(config, "hcf")
            await consume_while(controller, lambda: until(lambda: not _held_claims(journal) and _settled(database), 30))
        finally:
            stop.set()
            await asyncio.wait_for(tables, 60)

    asyncio.run(main())

    kept = Journal(journal, table_id="HCF-1")
    records = kept.records()
    kept.close()
    awarded = [r for r in records if isinstance(r, ev.JackpotAwarded)]
    settled = [r for r in records if isinstance(r, ev.WagerSettled) and r.wager == "progressive"]
    assert len(awarded) == 1 and awarded[0].verified and len(settled) == 1
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT amount, settled_returned FROM jackpot_awards").fetchone()
        paid = conn.execute("SELECT paid FROM jackpots WHERE name = 'hcf'").fetchone()
    assert row is not None and paid is not None
    assert Fraction(str(awarded[0].amount)) == Fraction(row[0]) == Fraction(paid[0]) == 1_000_000
    assert settled[0].returned == row[1] == 1_000_100
