"""A floor rebuilt from a new stream and an empty database takes the awards the tables already journaled as paid.

Found when the floor's disaster recovery was rehearsed (docs/floor.md said so as a known limit): a floor that starts
with a new stream *and* an empty database gets every linked table's whole journal again, and its jackpot controller,
holding no award for the claims in it, verified and paid each again from its own new meter, in the new stream's
order: its ``jackpot_awards`` differed from the ``jackpot_awarded`` the tables had journaled and paid (a witness saw
6 of 18 differ), and its meter, fed by the same contributions, had paid out other amounts than the tables did. A
claim whose award its journal already holds is history: the table's outbox now says so on the claim
(``Tablectl-Awarded``), and the controller takes the journaled award, when it arrives after the claim, as what was
paid; a claim with no award yet is verified and paid once, as before.

Every part is the real one: two High Card Flush tables played by ``tablectl run`` (every deck in factory order, so
the first seated spot is dealt a seven-card straight flush every round), their real outboxes, a three-node
JetStream cluster, the jackpot controller and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

import nats
import psycopg

from controller import events as ev
from controller.commands.cli import main
from controller.floor import wire
from controller.floor.config import parse_floor_config
from controller.floor.jackpot import JackpotController, bucket_name
from controller.floor.localservers import LocalPostgres, NatsCluster
from controller.floor.outbox import Outbox

SITE = "jp"
TABLES = ("HCF-01", "HCF-02")
RESET = 1_000_000
RATE = Fraction(15, 100)


def wait_until(condition: Callable[[], bool], what: str, timeout: float) -> None:
    """Wait until ``condition()`` holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {timeout:g} s waiting for {what}"
        time.sleep(0.1)


@contextmanager
def controller_of(cluster: NatsCluster, database: str) -> Iterator[JackpotController]:
    """The floor's jackpot controller for the two linked tables, running on its own event loop until the block ends."""
    config = parse_floor_config({
        "floor": {"site": SITE}, "broker": {"servers": cluster.urls}, "database": {"dsn": database},
        "jackpots": {"hcf": {"tables": list(TABLES), "reset": RESET, "rate": "0.15"}},
    }, "floor.toml")
    controller = JackpotController(config, "hcf")
    runner = asyncio.Runner()
    loop = runner.get_loop()
    thread = threading.Thread(target=runner.run, args=(controller.run(),), daemon=True)
    thread.start()
    try:
        wait_until(controller.ready.is_set, "the jackpot controller to start", 60)
        yield controller
    finally:
        loop.call_soon_threadsafe(controller.stop.set)
        thread.join(30)
        assert not thread.is_alive(), "the jackpot controller did not stop within 30 s"
        runner.close()


def linked_table(tmp_path: Path, cluster: NatsCluster, table: str) -> tuple[Path, Path, Path]:
    """A linked High Card Flush table's config, journal and log, its journal made (``journal init``)."""
    config = tmp_path / f"{table}.toml"
    shipped = Path("config/high-card-flush.toml").read_text().replace('id = "HCF-01"', f'id = "{table}"')
    shipped = shipped.replace('driver = "simulated"', 'driver = "simulated"\nshuffle = "factory"')
    config.write_text(shipped + f'\n[shuffle]\nenabled = false\n\n[floor]\nsite = "{SITE}"\n'
                      f'servers = {json.dumps(cluster.urls)}\njackpot = "hcf"\n')
    journal, log = tmp_path / f"{table}.sqlite", tmp_path / f"{table}.jsonl"
    if not journal.exists():
        assert main(["journal", "init", "--config", str(config), "--journal", str(journal), "--log", str(log)]) == 0
    return config, journal, log


def run(table: tuple[Path, Path, Path], rounds: int, seed: int) -> None:
    config, journal, log = table
    assert main(["run", "--config", str(config), "--rounds", str(rounds), "--seed", str(seed), "--journal", str(journal),
                 "--log", str(log), "--no-camera"]) == 0


def journaled(journal: Path) -> tuple[dict[str, Fraction | None], Fraction, int]:
    """What the journal holds: each claim's award (by claim key: the exact amount, None when refused or not yet
    answered), what its settled Progressive wagers fed the meter (rate times stake), and how many claims it made."""
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        records = [json.loads(text) for (text,) in db.execute("SELECT record FROM events ORDER BY seq")]
    finally:
        db.close()
    awards: dict[str, Fraction | None] = {}
    fed = Fraction(0)
    claims = 0
    for record in records:
        key = f"{record['table']}.{record.get('round')}.{record.get('spot')}"
        if record["event"] == ev.JackpotClaimed.EVENT:
            claims += 1
            awards.setdefault(key, None)
        elif record["event"] == ev.JackpotAwarded.EVENT:
            awards[key] = Fraction(str(record["amount"])) if record["verified"] else None
        elif (record["event"] == ev.WagerSettled.EVENT and record.get("wager") == "progressive"
              and not str(record.get("reason", "")).startswith("void")):
            fed += RATE * int(record["stake"])
    return awards, fed, claims


def floor_awards(database: str) -> dict[str, Fraction | None]:
    with psycopg.connect(database) as conn:
        rows = conn.execute("SELECT claim, verified, amount FROM jackpot_awards WHERE name = 'hcf'").fetchall()
    return {str(claim): Fraction(str(amount)) if verified else None for claim, verified, amount in rows}


def meter(database: str) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(amount, contributed, paid, seeded)."""
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT amount, contributed, paid, seeded FROM jackpots WHERE name = 'hcf'").fetchone()
    assert row is not None
    amount, contributed, paid, seeded = (Fraction(str(value)) for value in row)
    return amount, contributed, paid, seeded


def lose_the_floor(cluster: NatsCluster) -> None:
    """The site's stream and its jackpot bucket are lost and the stream made anew, empty, as a rebuilt floor has it."""
    async def body() -> None:
        client = await nats.connect(servers=cluster.urls)
        try:
            js = client.jetstream(timeout=10)
            config = (await js.stream_info(wire.stream_name(SITE))).config
            await js.delete_stream(wire.stream_name(SITE))
            await js.delete_key_value(bucket_name(SITE))
            await js.add_stream(config)
        finally:
            await client.close()

    asyncio.run(body())


def publish_again(cluster: NatsCluster, journals: list[Path]) -> None:
    """The tables' real outboxes give the new stream their whole journals (in the order given, each caught up before
    the next starts: the new stream's order is not the order the first floor met the records in)."""
    for journal in journals:
        outbox = Outbox(journal, table_id=journal.stem, site=SITE, servers=cluster.urls)
        outbox.start()
        try:
            assert outbox.wait_caught_up(120), outbox.status()
        finally:
            outbox.stop()


def stream_applied(cluster: NatsCluster, database: str) -> bool:
    async def last() -> int:
        client = await nats.connect(servers=cluster.urls)
        try:
            return int((await client.jetstream(timeout=10).stream_info(wire.stream_name(SITE))).state.last_seq)
        finally:
            await client.close()

    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT applied_stream_seq FROM jackpots WHERE name = 'hcf'").fetchone()
    return row is not None and int(row[0]) >= asyncio.run(last())


def test_a_floor_rebuilt_from_a_new_stream_and_an_empty_database_takes_the_journaled_awards_as_paid(
    tmp_path: Path, cluster: NatsCluster, database: str, postgres: LocalPostgres
) -> None:
    one, two = (linked_table(tmp_path, cluster, table) for table in TABLES)
    with controller_of(cluster, database):
        run(one, 3, 5)   # each round: a seven-card straight flush at the first seated spot, 100 % of the meter
        run(two, 3, 6)
        run(one, 2, 7)
    paid_before: dict[str, Fraction | None] = {}
    fed = Fraction(0)
    for journal in (one[1], two[1]):
        awards, table_fed, claims = journaled(journal)
        assert claims and None not in awards.values(), "no claim, or one left unanswered: pick other seeds"
        paid_before |= awards
        fed += table_fed
    first_meter = meter(database)
    assert floor_awards(database) == paid_before  # the first floor: what it awarded is what the tables journaled

    # the floor is rebuilt: a new stream, an empty database; the tables publish their whole journals again, table two's
    # first, so the new stream meets the records in another order than the first floor did
    lose_the_floor(cluster)
    rebuilt = postgres.new_database("floor_claims_rebuilt")
    with controller_of(cluster, rebuilt):
        publish_again(cluster, [two[1], one[1]])
        wait_until(lambda: stream_applied(cluster, rebuilt), "the controller to apply the new stream", 120)
        assert floor_awards(rebuilt) == paid_before, "the rebuilt floor decided again claims the tables had been paid for"
        amount, contributed, paid, seeded = meter(rebuilt)
        assert (contributed, paid) == (fed, sum(a for a in paid_before.values() if a is not None))
        assert amount == seeded + contributed - paid == first_meter[0]
        assert seeded == first_meter[3]

        # a claim with no award yet is still verified by the rebuilt floor, from its meter, and paid once
        run(one, 1, 8)
        wait_until(lambda: stream_applied(cluster, rebuilt), "the controller to apply the new claim", 60)
    awards, _, _ = journaled(one[1])
    new = {claim: award for claim, award in awards.items() if claim not in paid_before}
    assert new and None not in new.values(), new
    assert floor_awards(rebuilt) == paid_before | new
    with psycopg.connect(rebuilt) as conn:
        decided = conn.execute("SELECT claim, share, meter_before, amount, journaled_seq FROM jackpot_awards WHERE name = "
                               "'hcf' AND claim = ANY(%s) ORDER BY stream_seq", (sorted(new),)).fetchall()
    # decided by the rebuilt floor (taken from no journal), each its share of the meter it met, the first the meter
    # exactly as the rebuild left it
    assert [row[4] for row in decided] == [None] * len(new)
    assert all(Fraction(str(a)) == Fraction(str(share)) * Fraction(str(b)) for _, share, b, a, _ in decided)
    assert Fraction(str(decided[0][2])) == amount
    amount, contributed, paid, seeded = meter(rebuilt)
    assert amount == seeded + contributed - paid
    assert paid == sum(a for a in (paid_before | new).values() if a is not None)
