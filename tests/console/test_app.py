"""The console's web app: no action without the page's session, supervisor actions confirmed twice, tokens kept out of logs."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from controller.engine.config import load_config
from controller.console.server import ConsoleServer, ConsoleSettings, console_settings
from controller.console.session import TableLoop
from controller.errors import ConfigError
from tests.console.tables import CONFIG, SUPERVISOR_TOKEN, served, table_loop
from tests.helpers import MemoryLog


Client = httpx.Client


@pytest.fixture
def app() -> Iterator[tuple[Client, TableLoop, MemoryLog]]:
    with served("top-card") as console, httpx.Client(base_url=console.url) as client:
        yield client, console.loop, console.log


def session_of(client: Client, path: str = "/") -> dict[str, str]:
    page = client.get(path)
    assert page.status_code == 200
    token = re.search(r'name="console-session" content="([^"]+)"', page.text)
    assert token is not None
    return {"X-Console-Session": token.group(1)}


def test_no_command_is_taken_without_the_pages_session(app: tuple[Client, TableLoop, MemoryLog]) -> None:
    client, loop, _ = app
    for headers in ({}, {"X-Console-Session": "guessed"}):
        answer = client.post("/api/command", json={"command": "open_round"}, headers=headers)
        assert answer.status_code == 401
        assert client.get("/api/state", headers=headers).status_code == 401
    assert loop.round is None


def test_a_command_with_the_session_opens_betting_and_a_refusal_comes_back_with_its_reason(
    app: tuple[Client, TableLoop, MemoryLog],
) -> None:
    client, _, _ = app
    headers = session_of(client)
    assert client.post("/api/command", json={"command": "open_round"}, headers=headers).json()["ok"]
    placed = client.post("/api/command", json={"command": "place_wager", "spot": 1, "wager": "home", "amount": "12.50"}, headers=headers)
    assert placed.json() == {"ok": True, "message": "spot 1 home: $12.50"}
    refused = client.post("/api/command", json={"command": "place_wager", "spot": 1, "wager": "draw", "amount": "5"}, headers=headers)
    assert refused.status_code == 409
    assert refused.json()["reason"] == "Top Card takes no 'draw' wager (it takes home, away, tie)"
    bad = client.post("/api/command", json={"command": "place_wager", "spot": 1, "wager": "home", "amount": "5.5.5"}, headers=headers)
    assert bad.status_code == 400 and "not an amount of money" in bad.json()["reason"]
    assert client.get("/api/state", headers=headers).json()["round"]["layout"][0]["wagers"][0]["amount"] == 1250


def test_the_websocket_wants_the_session_first_then_sends_the_whole_view(app: tuple[Client, TableLoop, MemoryLog]) -> None:
    client, _, _ = app
    url = str(client.base_url).replace("http://", "ws://") + "/ws"
    with connect(url) as ws:
        ws.send(json.dumps({"session": "guessed"}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    headers = session_of(client, "/pit")
    with connect(url) as ws:
        ws.send(json.dumps({"session": headers["X-Console-Session"]}))
        view = json.loads(ws.recv(5))
        assert (view["table"], view["game"]["id"], view["round"]) == ("TC-01", "top-card", None)
        client.post("/api/command", json={"command": "open_round"}, headers=headers)
        assert json.loads(ws.recv(5))["round"]["state"] == "betting"


def test_a_supervisor_action_needs_the_token_twice_and_is_logged_without_it(app: tuple[Client, TableLoop, MemoryLog]) -> None:
    client, loop, log = app
    headers = session_of(client)
    client.post("/api/command", json={"command": "open_round"}, headers=headers)
    wrong = client.post("/api/supervisor", json={"action": "void", "token": "nope", "reason": "misdeal"}, headers=headers)
    assert wrong.status_code == 403
    assert log.named("supervisor_refused")[-1]["reason"] == "wrong or missing supervisor token"
    no_reason = client.post("/api/supervisor", json={"action": "void", "token": SUPERVISOR_TOKEN}, headers=headers)
    assert no_reason.status_code == 400
    first = client.post("/api/supervisor", json={"action": "void", "token": SUPERVISOR_TOKEN, "reason": "misdeal"}, headers=headers)
    assert first.json()["question"].startswith("Void round TC-01-TEST-000001?")
    assert loop.snapshot()["round"]["state"] == "betting"  # nothing happens before the confirmation
    confirm = {"confirm": first.json()["confirm"], "token": SUPERVISOR_TOKEN}
    assert client.post("/api/supervisor/confirm", json={**confirm, "token": "nope"}, headers=headers).status_code == 403
    assert client.post("/api/supervisor/confirm", json=confirm, headers=headers).json()["ok"]
    assert client.post("/api/supervisor/confirm", json=confirm, headers=headers).status_code == 409  # used once
    assert loop.snapshot()["round"]["state"] == "void"
    assert log.named("supervisor_action")[-1]["action"] == "void"
    assert SUPERVISOR_TOKEN not in log.stream.getvalue()
    # a confirmation for a round that has since ended is refused, never applied to the next round
    stale = client.post("/api/supervisor", json={"action": "void", "token": SUPERVISOR_TOKEN, "reason": "late"}, headers=headers)
    client.post("/api/command", json={"command": "open_round"}, headers=headers)
    late = client.post("/api/supervisor/confirm", json={"confirm": stale.json()["confirm"], "token": SUPERVISOR_TOKEN}, headers=headers)
    assert late.status_code == 409 and "the round changed" in late.json()["reason"]
    assert loop.snapshot()["round"]["state"] == "betting"


def test_without_a_configured_supervisor_token_no_supervisor_action_is_possible() -> None:
    with served("top-card", supervisor_token=None) as console, httpx.Client(base_url=console.url) as client:
        headers = session_of(client)
        answer = client.post("/api/supervisor", json={"action": "resume", "token": "", "reason": "x"}, headers=headers)
        assert answer.status_code == 403


def test_the_console_listens_on_another_address_only_when_asked() -> None:
    loop, _ = table_loop("top-card")
    with pytest.raises(ConfigError, match="pass --allow-remote"):
        ConsoleServer(loop, ConsoleSettings(host="0.0.0.0", port=0))
    ConsoleServer(loop, ConsoleSettings(host="::1", port=0))
    ConsoleServer(loop, ConsoleSettings(host="0.0.0.0", port=0), allow_remote=True)


def test_console_settings_are_checked_and_the_token_is_not_shown() -> None:
    config = load_config(CONFIG / "top-card.toml")
    settings = console_settings(replace(config, sections={"console": {"supervisor_token": SUPERVISOR_TOKEN, "port": 9000}}))
    assert (settings.host, settings.port) == ("127.0.0.1", 9000)
    assert SUPERVISOR_TOKEN not in repr(settings)
    with pytest.raises(ConfigError, match="console.supervisor_token: must be text of at least 12 characters"):
        console_settings(replace(config, sections={"console": {"supervisor_token": "short"}}))
    with pytest.raises(ConfigError, match="console.bind: unknown key"):
        console_settings(replace(config, sections={"console": {"bind": "0.0.0.0"}}))
