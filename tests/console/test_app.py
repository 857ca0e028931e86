"""The console's web app: nobody acts without logging in, supervisor actions need a supervisor's PIN twice, all journaled."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from controller.console.server import ConsoleServer
from controller.console.settings import ConsoleSettings, console_settings
from controller.engine.config import load_config
from controller.engine.loop import TableLoop
from controller.errors import ConfigError
from controller.events import BettingClosed, LoggedOut, LoginGranted, SupervisorActed, SupervisorGranted, SupervisorRefusal
from tests.console.tables import CONFIG, DEALER, SUPERVISOR, accounts, logged_in, served, table_loop
from tests.helpers import MemoryLog

Client = httpx.Client


@pytest.fixture
def app() -> Iterator[tuple[Client, TableLoop, MemoryLog]]:
    with served("top-card") as console, httpx.Client(base_url=console.url) as client:
        yield client, console.loop, console.log


def test_a_page_load_opens_no_session_and_nothing_is_taken_without_a_login(app: tuple[Client, TableLoop, MemoryLog]) -> None:
    client, loop, _ = app
    client.headers["Origin"] = str(client.base_url).rstrip("/")
    page = client.get("/")
    assert page.status_code == 200 and "csrf" not in page.text.lower() and "session" not in page.headers.get("set-cookie", "")
    assert client.get("/api/session").json() == {"logged_in": False}
    answer = client.post("/api/command", json={"command": "open_round"}, headers={"X-CSRF-Token": "guessed"})
    assert answer.status_code == 401
    assert client.get("/api/state").status_code == 401
    assert loop.round is None


def test_a_logged_in_dealer_opens_betting_and_a_refusal_comes_back_with_its_reason(app: tuple[Client, TableLoop, MemoryLog]) -> None:
    client, _, log = app
    headers = logged_in(client)
    assert log.named(LoginGranted.EVENT)[-1] | {"seq": 0, "timestamp": ""} == log.named(LoginGranted.EVENT)[-1] | {
        "seq": 0, "timestamp": "", "name": "dana", "role": "dealer", "page": "dealer", "client": "127.0.0.1"}
    who = client.get("/api/session").json()
    assert (who["name"], who["role"], who["csrf"]) == ("dana", "dealer", headers["X-CSRF-Token"])
    assert client.post("/api/command", json={"command": "open_round"}, headers=headers).json()["ok"]
    placed = client.post("/api/command", json={"command": "place_wager", "spot": 1, "wager": "home", "amount": "12.50"}, headers=headers)
    assert placed.json()["message"] == "spot 1 home: $12.50"
    refused = client.post("/api/command", json={"command": "place_wager", "spot": 1, "wager": "draw", "amount": "5"}, headers=headers)
    assert refused.status_code == 409
    assert refused.json()["reason"] == "Top Card takes no 'draw' wager (it takes home, away, tie)"
    bad = client.post("/api/command", json={"command": "place_wager", "spot": 1, "wager": "home", "amount": "5.5.5"}, headers=headers)
    assert bad.status_code == 400 and "not an amount of money" in bad.json()["reason"]
    assert client.get("/api/state").json()["round"]["layout"][0]["wagers"][0]["amount"] == 1250
    # the session cookie alone is not enough: every command also carries the page's CSRF token
    assert client.post("/api/command", json={"command": BettingClosed.EVENT}).status_code == 403
    client.post("/api/logout", json={}, headers=headers)
    assert client.post("/api/command", json={"command": BettingClosed.EVENT}, headers=headers).status_code == 401
    assert log.named(LoggedOut.EVENT)[-1]["name"] == "dana"


def test_the_websocket_needs_a_logged_in_session_then_sends_the_pages_view(app: tuple[Client, TableLoop, MemoryLog]) -> None:
    client, _, _ = app
    url = str(client.base_url).replace("http://", "ws://")
    origin = str(client.base_url).rstrip("/")
    with connect(url + "/ws", origin=origin) as ws:  # type: ignore[arg-type]
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    headers = logged_in(client, SUPERVISOR)
    cookie = f"tablectl_session={client.cookies['tablectl_session']}"
    with connect(url + "/ws/pit", origin=origin, additional_headers={"Cookie": cookie}) as ws:  # type: ignore[arg-type]
        view = json.loads(ws.recv(5))
        assert (view["table"], view["game"]["id"], view["round"]) == ("TC-01", "top-card", None)
        client.post("/api/command", json={"command": "open_round"}, headers=headers)
        assert json.loads(ws.recv(5))["round"]["state"] == "betting"
    with pytest.raises(InvalidStatus):  # another site's page cannot open the table's WebSocket, even with the cookie
        connect(url + "/ws", origin="http://evil.example", additional_headers={"Cookie": cookie})  # type: ignore[arg-type]


def test_a_supervisor_action_needs_a_supervisors_pin_twice_and_every_try_is_journaled(app: tuple[Client, TableLoop, MemoryLog]) -> None:
    client, loop, log = app
    headers = logged_in(client)
    client.post("/api/command", json={"command": "open_round"}, headers=headers)
    wrong = client.post("/api/supervisor", json={"action": "void", "name": "pat", "pin": "000000", "reason": "misdeal"}, headers=headers)
    assert wrong.status_code == 403 and wrong.json()["reason"] == "refused: wrong name or PIN"
    dealer = client.post("/api/supervisor", json={"action": "void", "name": DEALER[0], "pin": DEALER[1], "reason": "x"}, headers=headers)
    assert dealer.status_code == 403 and "not a supervisor" in dealer.json()["reason"]
    refused = log.named(SupervisorRefusal.EVENT)
    assert [(r["name"], r["reason"]) for r in refused] == [("pat", "wrong name or PIN"), ("dana", "dana is not a supervisor")]
    ask = {"action": "void", "name": SUPERVISOR[0], "pin": SUPERVISOR[1]}
    assert client.post("/api/supervisor", json=ask, headers=headers).status_code == 400  # a reason is required
    first = client.post("/api/supervisor", json={**ask, "reason": "misdeal"}, headers=headers)
    assert first.json()["question"].startswith("Void round TC-01-TEST-000001?")
    assert loop.snapshot()["round"]["state"] == "betting"  # nothing happens before the confirmation
    confirm = {"confirm": first.json()["confirm"], "pin": SUPERVISOR[1]}
    assert client.post("/api/supervisor/confirm", json={**confirm, "pin": "999999"}, headers=headers).status_code == 403
    assert client.post("/api/supervisor/confirm", json=confirm, headers=headers).json()["ok"]
    assert client.post("/api/supervisor/confirm", json=confirm, headers=headers).status_code == 409  # used once
    assert loop.snapshot()["round"]["state"] == "void"
    action = log.named(SupervisorActed.EVENT)[-1]
    assert (action["action"], action["by"]) == ("void", "pat")
    assert [r["step"] for r in log.named(SupervisorGranted.EVENT)] == ["ask", "confirm"]
    assert SUPERVISOR[1] not in log.stream.getvalue() and DEALER[1] not in log.stream.getvalue()
    # a confirmation for a round that has since ended is refused, never applied to the next round
    stale = client.post("/api/supervisor", json={**ask, "reason": "late"}, headers=headers)
    client.post("/api/command", json={"command": "open_round"}, headers=headers)
    late = client.post("/api/supervisor/confirm", json={"confirm": stale.json()["confirm"], "pin": SUPERVISOR[1]}, headers=headers)
    assert late.status_code == 409 and "the round changed" in late.json()["reason"]
    assert loop.snapshot()["round"]["state"] == "betting"


def test_the_console_listens_on_another_address_only_when_asked() -> None:
    loop, _ = table_loop("top-card")
    with pytest.raises(ConfigError, match="pass --allow-remote"):
        ConsoleServer(loop, ConsoleSettings(host="0.0.0.0", port=0), accounts())
    ConsoleServer(loop, ConsoleSettings(host="::1", port=0), accounts())
    ConsoleServer(loop, ConsoleSettings(host="0.0.0.0", port=0), accounts(), allow_remote=True)


def test_console_settings_are_checked_and_an_old_shared_token_is_refused_with_what_to_do() -> None:
    config = load_config(CONFIG / "top-card.toml")
    settings = console_settings(replace(config, sections={"console": {"port": 9000, "hosts": ["table7.pit.lan"]}}))
    assert (settings.host, settings.port, settings.hosts, str(settings.staff)) == ("127.0.0.1", 9000, ("table7.pit.lan",), "var/staff.json")
    with pytest.raises(ConfigError, match="console.supervisor_token: supervisors now log in with their own PIN"):
        console_settings(replace(config, sections={"console": {"supervisor_token": "a-shared-secret"}}))
    with pytest.raises(ConfigError, match="console.bind: unknown key"):
        console_settings(replace(config, sections={"console": {"bind": "0.0.0.0"}}))
    with pytest.raises(ConfigError, match="console.hosts: must be a list"):
        console_settings(replace(config, sections={"console": {"hosts": "table7"}}))
