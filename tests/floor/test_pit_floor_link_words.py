"""The pit page says in a pit manager's words why its figures stand still: the broker away, the floor service gone.

Found watching the pit page through a broker outage (every node of the cluster down, the tables' outboxes buffering):
the page read "figures not up to date: broker: [Errno 111] Connect call failed ('127.0.0.1', 30997)", the socket
error the floor service logs. With the floor service itself stopped it read "Failed to fetch", and a table clicked
then showed nothing at all (the error went to the browser's console). Each now says what it means for the floor.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.floor.consumer import BROKER_AWAY
from controller.floor.localservers import NatsCluster
from controller.floor.proof import FloorProcess, floor_config
from tests.floor.pit_browser import pit_page
from tests.floor.test_pit_page import SITE, _held_table, _publish

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None,
                                reason="Debian's chromium is not installed (apt-get install chromium)")

TECHNICAL = ("Errno", "Connect call failed", "Failed to fetch", "nats:", "Traceback", "psycopg")


@pytest.fixture
def floor(tmp_path: Path, cluster: NatsCluster, database: str) -> Iterator[FloorProcess]:
    process = FloorProcess(floor_config(tmp_path, cluster.urls, database, [], site=SITE), tmp_path / "floor.log")
    process.start()
    yield process
    process.stop()


def test_the_pit_page_names_a_broker_outage_and_a_stopped_floor_service_in_a_managers_words(
    floor: FloorProcess, cluster: NatsCluster
) -> None:
    from playwright.sync_api import expect

    _publish(cluster, _held_table())
    with pit_page(floor.url) as page:
        page.locator(".tile[data-table='HOLD-1']").wait_for(timeout=30_000)
        expect(page.locator("#link")).to_have_text("live", timeout=30_000)

        for node in cluster.nodes:
            node.stop()
        expect(page.locator("#link")).to_have_text("behind", timeout=60_000)
        said = page.locator("#message").inner_text()
        assert said == f"figures not up to date: {BROKER_AWAY}", said

        cluster.start()
        expect(page.locator("#link")).to_have_text("live", timeout=90_000)
        assert page.locator("#message").is_hidden()

        floor.stop()
        expect(page.locator("#link")).to_have_text("offline", timeout=30_000)
        said = page.locator("#message").inner_text()
        assert said.startswith("the floor service does not answer"), said
        page.locator(".tile[data-table='HOLD-1']").click()
        detail = page.locator("#detail-rounds .reason")
        detail.wait_for(timeout=30_000)
        shown = detail.inner_text()
        assert shown.startswith("HOLD-1's last rounds cannot be shown now: the floor service does not answer"), shown
        for word in TECHNICAL:
            assert word not in said and word not in shown, (word, said, shown)
