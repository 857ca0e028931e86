"""The floor's pit page: supervisors only, every bad request a 4xx, and in Chromium every table at a glance."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import psycopg
import pytest

from controller.events import RoundHeld, RoundStarted, StateChanged
from controller.floor import wire
from controller.floor.localports import reserve_port
from controller.floor.localservers import NatsCluster, ServerError
from controller.floor.outbox import Outbox
from controller.floor.proof import SUPERVISOR, FloorProcess, floor_config
from controller.records.staff import StaffFile
from tests.floor.tables import play
from tests.floor.test_localservers import taken

SITE = "pit"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


@pytest.fixture
def floor(tmp_path: Path, cluster: NatsCluster, database: str) -> Iterator[dict[str, Any]]:
    config = floor_config(tmp_path, cluster.urls, database, [], site=SITE)  # port 0: the service binds a free one and names it
    config.write_text(config.read_text().replace("[floor]\n", '[floor]\nhosts = ["floor.casino.example"]\n', 1)
                      + '\n[pits.A]\ntables = ["TC-01"]\n\n[pits.B]\ntables = ["HOLD-1"]\n')
    StaffFile(tmp_path / "staff.json").add("dealer-dan", "dealer", pin="1357", cost=2**4)
    process = FloorProcess(config, tmp_path / "floor.log")
    process.start()
    yield {"url": process.url, "process": process, "dsn": database, "cluster": cluster, "tmp": tmp_path}
    process.stop()


def _publish(cluster: NatsCluster, records: list[dict[str, Any]]) -> None:
    async def go() -> None:
        import nats

        client = await nats.connect(servers=cluster.urls)
        js = client.jetstream()
        for r in records:
            data = json.dumps(r).encode()
            await js.publish(wire.subject(SITE, r["table"], r["event"]), data,
                             headers={"Nats-Msg-Id": wire.msg_id(r["table"], r["seq"], data)})
        await client.close()

    asyncio.run(go())


def _held_table() -> list[dict[str, Any]]:
    base = {"table": "HOLD-1", "round": "HOLD-1-R1", "timestamp": "2026-11-27T10:00:00Z", "game": "top-card"}
    return [
        {**base, "seq": 1, "event": RoundStarted.EVENT, "options": {"paytable": "standard"}},
        {**base, "seq": 2, "event": StateChanged.EVENT, "state": "hold"},
        {**base, "seq": 3, "event": RoundHeld.EVENT, "reason": "shoe: door open; close the shoe's door, then resume"},
    ]


def _login(client: httpx.Client, url: str, name: str, pin: str) -> httpx.Response:
    return client.post(f"{url}/api/login", json={"name": name, "pin": pin}, headers={"Origin": url})


def test_the_pit_page_answers_only_logged_in_supervisors_and_refuses_every_bad_request_with_a_4xx(floor: dict[str, Any]) -> None:
    url = floor["url"]
    with httpx.Client(timeout=10) as client:
        assert client.get(f"{url}/api/tables").status_code == 401
        assert client.get(f"{url}/api/tables", headers={"Host": "rebind.attacker.example"}).status_code == 421
        assert client.post(f"{url}/api/login", json={"name": "pit-boss", "pin": SUPERVISOR[1]}).status_code == 403  # no Origin
        foreign = client.post(f"{url}/api/login", json={"name": "pit-boss", "pin": SUPERVISOR[1]},
                              headers={"Origin": "http://attacker.example"})
        assert foreign.status_code == 403
        assert _login(client, url, "pit-boss", "0000").status_code == 401
        assert _login(client, url, "dealer-dan", "1357").status_code == 403  # a dealer is not a supervisor
        deep = client.post(f"{url}/api/login", content=b"[" * 10_000, headers={"Origin": url, "Content-Type": "application/json"})
        assert deep.status_code == 400
        huge = client.post(f"{url}/api/login", content=b"{" + b" " * 100_000 + b"}",
                           headers={"Origin": url, "Content-Type": "application/json"})
        assert huge.status_code == 413
        for _ in range(3):
            _login(client, url, "pit-boss", "1111")
        assert _login(client, url, "pit-boss", SUPERVISOR[1]).status_code == 429  # locked after wrong PINs
        # the name is locked, not the desk: someone else at the same screen is still answered
        assert _login(client, url, "dealer-dan", "1357").status_code == 403
    with httpx.Client(timeout=10) as client:
        assert client.get(f"{url}/api/tables").status_code == 401
    with psycopg.connect(floor["dsn"]) as conn:
        logins = conn.execute("SELECT name, granted, reason FROM floor_logins ORDER BY at").fetchall()
    assert [granted for _, granted, _ in logins] == [False] * len(logins) and len(logins) >= 6
    assert ("dealer-dan", False, "the floor's pit page is for supervisors") in logins


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed (apt-get install chromium)")
def test_a_supervisor_logs_in_and_sees_every_table_its_last_rounds_with_cards_and_the_hold_alert(
    floor: dict[str, Any], tmp_path: Path
) -> None:
    from playwright.sync_api import sync_playwright

    journal = play(tmp_path / "tc.sqlite", rounds=3, seed=11)
    outbox = Outbox(journal, table_id="TC-01", site=SITE, servers=floor["cluster"].urls)
    outbox.start()
    try:
        assert outbox.wait_caught_up(60)
    finally:
        outbox.stop()
    _publish(floor["cluster"], _held_table())
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(floor["url"])
        page.fill("#login-name", SUPERVISOR[0])
        page.fill("#login-pin", SUPERVISOR[1])
        page.click("#login button[type=submit]")
        page.locator(".tile[data-table='TC-01']").wait_for(timeout=30_000)
        page.locator(".tile[data-table='HOLD-1'] .reason", has_text="door open").wait_for(timeout=30_000)
        page.locator("#alerts li", has_text="door open").first.wait_for()
        assert "$" in page.locator(".tile[data-table='TC-01']").inner_text()
        page.select_option("#pit", "B")
        page.locator(".tile[data-table='TC-01']").wait_for(state="detached", timeout=10_000)
        page.select_option("#pit", "")
        page.locator(".tile[data-table='TC-01']").click()
        page.locator("#detail-rounds table").first.wait_for()
        rounds = page.locator("#detail-rounds").inner_text()
        page.screenshot(path=str(ARTIFACTS / "floor-pit-page.png"), full_page=True)
        page.click("#logout")
        page.locator("#login").wait_for()
        browser.close()
    assert "→home" in rounds and "→away" in rounds  # the cards, where they went


def test_the_floor_service_binds_a_port_itself_so_another_program_taking_its_last_one_cannot_stop_it(floor: dict[str, Any]) -> None:
    """A port picked free before the service starts (bind 0, close, start) can be taken in between ("address already
    in use" under load, as the proof's restarts and these tests' fixtures met). Here another program takes the port
    the service had, on purpose, before it starts again: it binds a port itself and names it."""
    process: FloorProcess = floor["process"]
    first = process.url
    process.stop()
    lost = urlsplit(first).port
    assert lost is not None
    with taken(lost):
        process.start()
        assert urlsplit(process.url).port not in (lost, 0)
        with httpx.Client(timeout=10) as client:
            assert client.get(f"{process.url}/api/tables").status_code == 401  # its Host check takes the port it bound
            assert client.get(f"{process.url}/api/tables", headers={"Host": f"127.0.0.1:{lost}"}).status_code == 421


def test_a_floor_service_given_a_port_another_program_has_says_which_and_leaves_no_process(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    with reserve_port() as held, taken(held.getsockname()[1]) as other:
        port = other.getsockname()[1]
        process = FloorProcess(floor_config(tmp_path, cluster.urls, database, [], site=SITE, port=port), tmp_path / "floor.log")
        with pytest.raises(ServerError, match=rf"the pit page cannot listen on 127\.0\.0\.1:{port} \(another program has it\?\)"):
            process.start()
    assert process.process is not None and process.process.returncode == 3  # exited by itself, and reaped
    assert "Traceback" not in (tmp_path / "floor.log").read_text()
