"""The pit page names who is dealing at each table, and a pit's view holds only its own tables' alerts.

Found walking the floor as the pit manager: the tables journal every console login and logout (``login_granted``,
``logout``), but the pit page showed no one at any table; who dealt a round could only be told at the table
(``tablectl round``). And with pit A chosen, the alerts still listed pit B's tables' missing records (the open gaps
were added to every pit's list). Now each tile reads who is logged in at the dealer page and since when, in the
casino's time zone, and a pit's alerts are its own.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.events import LoggedOut, LoginGranted, RoundStarted
from controller.floor.localservers import NatsCluster
from controller.floor.proof import FloorProcess, floor_config
from tests.floor.pit_browser import pit_page
from tests.floor.test_pit_page import SITE, _publish

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None,
                                reason="Debian's chromium is not installed (apt-get install chromium)")


@pytest.fixture
def floor(tmp_path: Path, cluster: NatsCluster, database: str) -> Iterator[FloorProcess]:
    config = floor_config(tmp_path, cluster.urls, database, [], site=SITE)
    config.write_text(config.read_text().replace("[floor]\n", '[floor]\ntime_zone = "America/New_York"\n', 1)
                      + '\n[pits.A]\ntables = ["TC-07"]\n\n[pits.B]\ntables = ["GAP-1"]\n')
    process = FloorProcess(config, tmp_path / "floor.log")
    process.start()
    yield process
    process.stop()


def _records(cluster: NatsCluster) -> None:
    def at(table: str, seq: int, event: str, stamp: str, **fields: Any) -> dict[str, Any]:
        return {"table": table, "seq": seq, "event": event, "timestamp": f"2026-11-27T{stamp}Z", **fields}

    dealer = {"page": "dealer", "client": "10.20.1.7"}
    _publish(cluster, [
        at("TC-07", 1, LoginGranted.EVENT, "14:02:00", name="dealer-dan", role="dealer", **dealer),
        at("TC-07", 2, LoginGranted.EVENT, "14:30:00", name="sup-sue", role="supervisor", page="pit", client="10.20.1.9"),
        at("TC-07", 3, LoggedOut.EVENT, "15:58:00", name="dealer-dan", client="10.20.1.7"),
        at("TC-07", 4, LoginGranted.EVENT, "16:01:00", name="dealer-eve", role="dealer", **dealer),
        # a table in pit B whose record 2 never arrived
        at("GAP-1", 1, RoundStarted.EVENT, "16:00:00", round="GAP-1-R1", game="top-card", options={}),
        at("GAP-1", 3, LoginGranted.EVENT, "16:05:00", name="dealer-gus", role="dealer", **dealer),
    ])


def test_each_tile_names_who_deals_since_when_and_a_pits_alerts_are_its_own(floor: FloorProcess, cluster: NatsCluster) -> None:
    from playwright.sync_api import expect

    _records(cluster)
    with pit_page(floor.url) as page:
        tile = page.locator(".tile[data-table='TC-07'] .dealing span").nth(1)
        # dan logged out at 10:58 New York time; eve logged in at 11:01; sue is at the table's pit page, not dealing
        expect(tile).to_have_text("dealer-eve since 11:01", timeout=30_000)
        page.locator("#alerts li", has_text="GAP-1").first.wait_for(timeout=30_000)
        # GAP-1's login is past its missing record: not taken until the record comes
        assert page.locator(".tile[data-table='GAP-1'] .dealing span").nth(1).inner_text() == "nobody logged in"
        page.select_option("#pit", "A")
        page.locator(".tile[data-table='GAP-1']").wait_for(state="detached", timeout=10_000)
        # the refresh that drew pit A's tiles drew its alerts in the same step
        assert "GAP-1" not in page.locator("#alerts").inner_text()
        page.select_option("#pit", "B")
        page.locator("#alerts li", has_text="records 2 to 2 of table GAP-1 have not reached the floor").wait_for(
            timeout=10_000)
