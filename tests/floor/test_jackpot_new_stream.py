"""The linked jackpot's controller on a site's stream made anew: it applies the new stream from its start.

Found by a regulator's auditor re-deriving a linked meter's contributions after the floor's stream was made anew (as
docs/floor.md allows: "a floor whose stream was made anew gets the table's whole journal again"): the controller kept
its position as a bare stream seq in PostgreSQL, with nothing saying which stream it counted in, and went on from
there in the new stream, passing over its first messages: contributions (and claims) of the tables never reached the
meter. It now keeps the stream's creation time beside its position, as a table's outbox does, and starts a new stream
from its first message; what it applied before is keyed (a contribution by table and seq, a claim by its key), so
nothing is counted or paid twice.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from fractions import Fraction
from pathlib import Path

import nats
import psycopg

from controller import events as ev
from controller.floor import wire
from controller.floor.jackpot import JackpotController
from controller.floor.localservers import NatsCluster
from tests.floor.test_jackpot_table import SITE, TABLE, jackpot_controller


def _publish(cluster: NatsCluster, seqs: range, *, anew: bool = False) -> None:
    """The linked table's settled Progressive wagers (a $1 stake each, lost) on the site's stream; ``anew``: the stream
    is deleted first and made again, as a floor rebuilt after losing it."""
    async def body() -> None:
        client = await nats.connect(servers=cluster.urls)
        try:
            js = client.jetstream(timeout=10)
            if anew:
                config = (await js.stream_info(wire.stream_name(SITE))).config
                await js.delete_stream(wire.stream_name(SITE))
                await js.add_stream(config)
            for seq in seqs:
                record = {"event": ev.WagerSettled.EVENT, "table": TABLE, "round": f"{TABLE}-R{seq}", "seq": seq,
                          "timestamp": dt.datetime.now(dt.UTC).isoformat().replace("+00:00", "Z"), "game": "high-card-flush",
                          "spot": 1, "wager": "progressive", "stake": 100, "outcome": "lose", "payout": "lose", "returned": 0,
                          "exact_returned": "0", "house_win": 100, "reason": "2-card straight flush", "banker": "house",
                          "rounded": False}
                data = wire.encode(record)
                await js.publish(wire.subject(SITE, TABLE, ev.WagerSettled.EVENT), data,
                                 headers={"Nats-Msg-Id": wire.msg_id(TABLE, seq, data)})
        finally:
            await client.close()

    asyncio.run(body())


def _ready(controller: JackpotController) -> None:
    """Wait until the controller has the stream (it makes it) and reads it."""
    end = time.monotonic() + 30
    while not controller.ready.is_set():
        assert time.monotonic() < end, "the jackpot controller did not start"
        time.sleep(0.1)


def _contributed(database: str) -> Fraction:
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT contributed FROM jackpots WHERE name = 'hcf'").fetchone()
    return Fraction(row[0]) if row else Fraction(0)


def _wait_for(database: str, expected: Fraction, timeout: float = 20.0) -> Fraction:
    end = time.monotonic() + timeout
    while True:
        got = _contributed(database)
        if got == expected or time.monotonic() > end:
            return got
        time.sleep(0.2)


def test_a_stream_made_anew_is_applied_from_its_start_and_nothing_counts_twice(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    with jackpot_controller(cluster, database) as controller:
        _ready(controller)
        _publish(cluster, range(1, 9))
        assert _wait_for(database, Fraction(8 * 15)) == 8 * 15
    # the floor's stream is lost and made anew; the tables publish on (their records 9 to 11 are its first messages),
    # and one of them publishes its journal again from the start (records 1 to 8, already counted)
    _publish(cluster, range(9, 12), anew=True)
    _publish(cluster, range(1, 9))
    with jackpot_controller(cluster, database) as controller:
        _ready(controller)
        assert _wait_for(database, Fraction(11 * 15)) == 11 * 15
        _publish(cluster, range(12, 13))
        assert _wait_for(database, Fraction(12 * 15)) == 12 * 15
