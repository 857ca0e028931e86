"""The linked progressive: one meter fed by every linked table, claims answered in the stream's order, each once."""

from __future__ import annotations

import asyncio
import json
import time
from fractions import Fraction
from typing import Any

import nats
import psycopg
import pytest

from controller.events import CardDealt, JackpotClaimed, WagerSettled
from controller.floor import wire
from controller.floor.config import parse_floor_config
from controller.floor.jackpot import JackpotClient, JackpotController, claim_key
from controller.floor.localservers import NatsCluster
from tests.floor.consuming import consume_while

SITE = "test"
ROYAL = ["AH", "KH", "QH", "JH", "TH", "9H", "8H"]  # a seven-card straight flush


def _config(cluster: NatsCluster, dsn: str) -> Any:
    return parse_floor_config({
        "floor": {"site": SITE},
        "broker": {"servers": cluster.urls},
        "database": {"dsn": dsn},
        "jackpots": {"hcf": {"tables": ["HCF-1", "HCF-2"], "reset": 1_000_000, "rate": "0.15"}},
    }, "test.toml")


class Table:
    """A linked table's records, numbered as its journal would number them."""

    def __init__(self, name: str) -> None:
        self.name, self.seq = name, 0

    def record(self, event: str, round_id: str | None, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        return {"event": event, "table": self.name, "round": round_id, "seq": self.seq,
                "timestamp": "2026-11-27T10:00:00Z", **fields}

    def progressive(self, round_id: str, spot: int, stake: int = 100, returned: int = 0, reason: str = "lose") -> dict[str, Any]:
        return self.record(WagerSettled.EVENT, round_id, spot=spot, wager="progressive", stake=stake, returned=returned,
                           reason=reason, banker="house", outcome="lose" if not returned else "win")

    def deal(self, round_id: str, spot: int, cards: list[str]) -> list[dict[str, Any]]:
        return [self.record(CardDealt.EVENT, round_id, card=card, target=f"spot {spot}", source="shuffler") for card in cards]

    def claim(self, round_id: str, spot: int, cards: list[str], length: int = 7, share: str = "1") -> dict[str, Any]:
        return self.record(JackpotClaimed.EVENT, round_id, jackpot="hcf", spot=spot, target=f"spot {spot}", cards=cards,
                           length=length, share=share)


async def _publish(cluster: NatsCluster, records: list[dict[str, Any]]) -> None:
    client = await nats.connect(servers=cluster.urls)
    js = client.jetstream()
    try:
        await js.stream_info(wire.stream_name(SITE))
    except nats.js.errors.NotFoundError:
        await js.add_stream(name=wire.stream_name(SITE), subjects=[wire.site_subjects(SITE)], num_replicas=3)
    for record in records:
        data = json.dumps(record).encode()
        await js.publish(wire.subject(SITE, record["table"], record["event"]), data,
                         headers={"Nats-Msg-Id": wire.msg_id(record["table"], record["seq"], data)})
    await client.close()


def _award(cluster: NatsCluster, claim: str, timeout: float = 20.0) -> dict[str, Any]:
    client = JackpotClient(cluster.urls, SITE, "hcf")
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        award = client.award(claim)
        if award is not None:
            return award
        time.sleep(0.1)
    raise AssertionError(f"no award for {claim} within {timeout} s")


def test_two_hits_at_once_are_paid_in_stream_order_the_second_from_the_reset_meter(cluster: NatsCluster, database: str) -> None:
    config = _config(cluster, database)
    one, two = Table("HCF-1"), Table("HCF-2")
    records = [one.progressive("r1", 1), two.progressive("s1", 2), one.progressive("r1", 3)]  # 3 contributions of 15 cents
    records += one.deal("r2", 4, ROYAL) + two.deal("s2", 1, ROYAL)
    records += [one.claim("r2", 4, ROYAL), two.claim("s2", 1, ROYAL)]
    controller = JackpotController(config, "hcf")

    async def body() -> None:
        await _publish(cluster, records)
        first = await asyncio.to_thread(_award, cluster, claim_key("HCF-1", "r2", 4))
        second = await asyncio.to_thread(_award, cluster, claim_key("HCF-2", "s2", 1))
        assert first["verified"] and Fraction(first["amount"]) == 1_000_000 + Fraction(45)
        assert second["verified"] and Fraction(second["amount"]) == 1_000_000  # the meter the first hit left
        assert first["stream_seq"] < second["stream_seq"]

    asyncio.run(consume_while(controller, body))
    with psycopg.connect(database) as conn:
        amount, contributed, paid, seeded, locked = conn.execute(
            "SELECT amount, contributed, paid, seeded, locked_by FROM jackpots WHERE name = 'hcf'").fetchone()
    assert Fraction(contributed) == 45 and Fraction(paid) == 2_000_045 and Fraction(amount) == 1_000_000
    assert Fraction(seeded) == 3_000_000  # the reset amount at the start and after each of the two hits
    assert locked == claim_key("HCF-2", "s2", 1)  # until that table settles the wager


def test_a_claim_is_answered_once_and_a_false_one_is_refused_with_its_reason(cluster: NatsCluster, database: str) -> None:
    config = _config(cluster, database)
    table = Table("HCF-1")
    fake = ["AH", "KH", "QH", "JH", "TH", "9H", "2C"]
    records = table.deal("r1", 1, ROYAL) + [table.claim("r1", 1, ROYAL)]
    records += table.deal("r2", 2, fake) + [table.claim("r2", 2, ROYAL)]  # claims cards it was not dealt
    controller = JackpotController(config, "hcf")

    async def body() -> None:
        await _publish(cluster, records)
        good = await asyncio.to_thread(_award, cluster, claim_key("HCF-1", "r1", 1))
        bad = await asyncio.to_thread(_award, cluster, claim_key("HCF-1", "r2", 2))
        assert good["verified"] and not bad["verified"]
        assert bad["reason"] == ("the cards claimed (AH KH QH JH TH 9H 8H) are not the cards the table dealt to spot 2 "
                                 "(AH KH QH JH TH 9H 2C)")
        again = table.record(JackpotClaimed.EVENT, "r1", jackpot="hcf", spot=1, target="spot 1", cards=ROYAL, length=7, share="1")
        await _publish(cluster, [again])  # the table claims again (its outbox re-sent it under a new seq)
        await asyncio.sleep(1)
        assert await asyncio.to_thread(_award, cluster, claim_key("HCF-1", "r1", 1)) == good

    asyncio.run(consume_while(controller, body))
    assert controller.claims_answered == 1


def test_a_restarted_controller_does_not_count_a_contribution_twice(cluster: NatsCluster, database: str) -> None:
    config = _config(cluster, database)
    table = Table("HCF-1")

    async def twice() -> None:
        first = JackpotController(config, "hcf")
        await consume_while(first, lambda: _publish(cluster, [table.progressive("r1", 1) for _ in range(10)]))
        await asyncio.sleep(0)
        second = JackpotController(config, "hcf")

        async def more() -> None:
            await _publish(cluster, [table.progressive("r2", 1) for _ in range(5)])
            for _ in range(100):
                if second.meter and second.meter.contributed == 15 * 15:
                    return
                await asyncio.sleep(0.1)

        await consume_while(second, more)
        assert second.meter is not None and second.meter.contributed == 15 * 15

    asyncio.run(twice())


@pytest.mark.parametrize("rate", ["1.5", "-0.1"])
def test_a_jackpot_rate_outside_zero_to_one_is_refused_naming_the_key(rate: str) -> None:
    from controller.floor.config import FloorConfigError

    with pytest.raises(FloorConfigError, match=r"floor.toml: jackpots.hcf.rate: must be a fraction in \[0, 1\)"):
        parse_floor_config({"floor": {"site": "s"}, "jackpots": {"hcf": {"tables": ["T"], "reset": 1, "rate": rate}}}, "floor.toml")
