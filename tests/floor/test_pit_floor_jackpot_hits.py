"""The pit page shows the linked progressive's hits, what fed the meter, and its alerts' times on the casino's clock.

Found watching a linked High Card Flush progressive through a hit from the pit page: the meter dropped back to its
reset with nothing to say which table hit it, for how much, or whether the table had paid it (only `floor shifts`
and the database knew), and what fed and paid the meter, which the page's answer carried, was not shown. The alerts'
times were the database session's clock (UTC here), five hours off a New York floor's. The jackpot's box now lists
its newest hits (table, spot, the award, paid or still settling, or the reason it was refused) with what fed and paid
the meter, and every time on the page is on the floor's clock (``[floor] time_zone``).
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nats
import pytest

from controller import events as ev
from controller.floor import wire
from controller.floor.localservers import NatsCluster
from controller.floor.proof import JACKPOT, FloorProcess, floor_config
from tests.floor.pit_browser import pit_page
from tests.floor.test_jackpot import ROYAL, Table

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None,
                                reason="Debian's chromium is not installed (apt-get install chromium)")
SITE = "hits"


@pytest.fixture
def floor(tmp_path: Path, cluster: NatsCluster, database: str) -> Iterator[FloorProcess]:
    config = floor_config(tmp_path, cluster.urls, database, ["HCF-1", "HCF-2"], site=SITE)
    config.write_text(config.read_text().replace("[floor]\n", '[floor]\ntime_zone = "America/New_York"\n', 1))
    process = FloorProcess(config, tmp_path / "floor.log")
    process.start()
    yield process
    process.stop()


def _publish(cluster: NatsCluster, records: list[dict[str, Any]]) -> None:
    async def go() -> None:
        client = await nats.connect(servers=cluster.urls)
        try:
            js = client.jetstream()
            for record in records:
                data = json.dumps(record).encode()
                await js.publish(wire.subject(SITE, record["table"], record["event"]), data,
                                 headers={"Nats-Msg-Id": wire.msg_id(record["table"], record["seq"], data)})
        finally:
            await client.close()

    asyncio.run(go())


def _rounds() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The records up to HCF-1's claim (the meter locked by it), and those after (its settlement, a hold elsewhere)."""
    one, two = Table("HCF-1"), Table("HCF-2")

    def round_of(table: Table, round_id: str, *middle: dict[str, Any], paid: int) -> list[dict[str, Any]]:
        start = table.record(ev.RoundStarted.EVENT, round_id, game="high-card-flush", options={"paytable": "standard"})
        end = table.record(ev.RoundCompleted.EVENT, round_id, wagered=100, paid=paid, fees=0, house_win=100 - paid,
                           between_players=0)
        return [start, *middle, end]

    records = round_of(two, "s1", two.progressive("s1", 2), paid=0)
    dealt = one.deal("r1", 4, ROYAL)
    claim = {**one.claim("r1", 4, ROYAL), "jackpot": JACKPOT}
    hit = round_of(one, "r1", *dealt, claim, one.progressive("r1", 4, returned=1_000_115, reason="win"), paid=1_000_115)
    held = two.record(ev.RoundHeld.EVENT, "s2", reason="shoe: door open; close the shoe's door, then resume")
    held["timestamp"] = "2026-11-27T15:00:00Z"  # 10:00 in New York
    return [*records, *hit[:-2]], [*hit[-2:], held]


def test_the_jackpot_box_lists_its_hits_and_every_time_is_on_the_floors_clock(floor: FloorProcess, cluster: NatsCluster) -> None:
    claimed, settled = _rounds()
    _publish(cluster, claimed)
    with pit_page(floor.url) as page:
        locked = page.locator("#jackpots .locked")
        locked.wait_for(timeout=60_000)  # the claim answered, the table not yet settled: the meter is locked by it
        lock = locked.inner_text()
        page.locator("#jackpots li.hit", has_text="the table settling it").wait_for(timeout=30_000)
        publisher = threading.Thread(target=_publish, args=(cluster, settled))  # Playwright's loop holds this thread
        publisher.start()
        publisher.join(60)
        assert not publisher.is_alive()
        hit = page.locator("#jackpots li.hit", has_text="paid")
        hit.wait_for(timeout=60_000)
        line = hit.inner_text()
        box = page.locator("#jackpots").inner_text()
        alert = page.locator("#alerts li", has_text="door open").first
        alert.wait_for(timeout=30_000)
        alert_text = alert.inner_text()
    # the meter had the reset and HCF-2's 15 cents when HCF-1's royal hit it; the hit's own wager fed 15 cents after
    assert re.fullmatch(r"\d\d:\d\d:\d\d HCF-1 spot 4: \$10,000\.15 paid", line), line
    assert "fed $0.30, paid $10,000.15" in box, box
    assert alert_text.endswith(" 10:00:00"), alert_text
    assert lock.strip() == "locked: HCF-1 spot 4 (round r1) is being paid its hit", lock
