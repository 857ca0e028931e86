"""The console probed as another process on the table PC would (only ever 127.0.0.1).

Every probe gets a 4xx answer naming what is wrong (never a 5xx), every
refusal is journaled (logins and PINs one by one, other refused requests
counted into ``requests_refused``), and no probe changes the table: the only
round ever opened is the one the logged-in dealer opens at the end.
"""

from __future__ import annotations

import json
import random
import socket
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from controller.engine.loop import TableLoop
from controller.events import BettingClosed, LoginRefused, RequestsRefused, RoundStarted, SupervisorRefusal
from tests.console.tables import DEALER, SUPERVISOR, logged_in, served
from tests.helpers import MemoryLog

STATE_CHANGING = ["/api/command", "/api/supervisor", "/api/supervisor/confirm", "/api/logout"]
COMMAND = {"command": "open_round"}


class Probe:
    """Sends requests, keeps every status, and counts the refusals the console should journal."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.origin = url.rstrip("/")
        self.host, self.port = urlsplit(url).hostname, urlsplit(url).port
        assert self.host == "127.0.0.1"
        self.client = httpx.Client(base_url=url, timeout=30)
        self.statuses: list[tuple[str, int]] = []
        self.refused = 0
        """Requests refused before any route ran, or for want of a session, CSRF token or readable body."""

    def send(self, what: str, method: str, path: str, *, refused: bool = True, **kwargs: Any) -> httpx.Response:
        answer = self.client.request(method, path, **kwargs)
        self.statuses.append((what, answer.status_code))
        self.refused += refused and answer.status_code >= 400
        return answer

    def raw(self, what: str, request: bytes) -> int:
        """A request written byte by byte on a socket (what no HTTP client library would send); its status."""
        with socket.create_connection((self.host, self.port), timeout=30) as sock:
            sock.sendall(request)
            head = sock.recv(4096).decode("latin-1")
        status = int(head.split(" ", 2)[1])
        self.statuses.append((what, status))
        self.refused += status >= 400
        return status


@pytest.fixture
def console() -> Iterator[tuple[Probe, TableLoop, MemoryLog]]:
    with served("top-card") as served_console:
        probe = Probe(served_console.url)
        with probe.client:
            yield probe, served_console.loop, served_console.log


def journaled_refusals(log: MemoryLog, loop: TableLoop, expected: int) -> int:
    """The refused requests the console journaled (it does so once a second), once they reach ``expected``."""
    deadline = time.monotonic() + 10
    while True:
        total = sum(r["total"] for r in log.named(RequestsRefused.EVENT))
        if total >= expected or time.monotonic() > deadline:
            return total
        time.sleep(0.2)


def test_the_probe_suite_gets_only_4xx_answers_every_refusal_is_logged_and_the_table_never_moves(
    console: tuple[Probe, TableLoop, MemoryLog],
) -> None:
    probe, loop, log = console
    origin = {"Origin": probe.origin}

    # no login: nothing that reads or changes the table is answered
    for path in STATE_CHANGING:
        assert probe.send("no login", "POST", path, json=COMMAND, headers=origin).status_code == 401
    assert probe.send("no login", "GET", "/api/state").status_code == 401
    with connect(probe.url.replace("http", "ws") + "/ws", origin=probe.origin) as ws:  # type: ignore[arg-type]
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    probe.refused += 1

    # a foreign Host (DNS rebinding): refused before anything, even the page itself
    for path, method in (("/", "GET"), ("/api/session", "GET"), ("/api/login", "POST"), ("/api/command", "POST")):
        answer = probe.send("foreign Host", method, path, json={"name": "pat", "pin": "482913"},
                            headers={"Host": "rebind.attacker.example", "Origin": "http://rebind.attacker.example"})
        assert answer.status_code == 421 and "is not this console" in answer.json()["reason"]
    assert probe.send("Host without the port", "GET", "/", headers={"Host": "127.0.0.1"}).status_code == 421

    # the dealer logs in for real, then every probe below comes with the dealer's cookie
    headers = logged_in(probe.client, DEALER)
    del probe.client.headers["Origin"]

    # a foreign or missing Origin: no command, no login, no WebSocket
    for bad in ({"Origin": "http://evil.example"}, {"Origin": f"http://127.0.0.1:{probe.port + 1}"}, {}, {"Origin": "null"}):
        assert probe.send("foreign Origin", "POST", "/api/command", json=COMMAND, headers={**headers, **bad}).status_code == 403
        assert probe.send("foreign Origin", "POST", "/api/login", json={"name": "dana", "pin": "2468"}, headers=bad).status_code == 403
    cookie = {"Cookie": f"tablectl_session={probe.client.cookies['tablectl_session']}"}
    with pytest.raises(InvalidStatus):
        connect(probe.url.replace("http", "ws") + "/ws", origin="http://evil.example", additional_headers=cookie)  # type: ignore[arg-type]
    probe.refused += 1

    # CSRF: the cookie alone (what a cross-site form would carry) or a wrong token does nothing
    for token in ({}, {"X-CSRF-Token": "guessed"}):
        assert probe.send("no CSRF token", "POST", "/api/command", json=COMMAND, headers={**origin, **token}).status_code == 403
    assert probe.send("form post", "POST", "/api/command", content=b"command=open_round",
                      headers={**origin, **headers, "Content-Type": "application/x-www-form-urlencoded"}).status_code == 415

    # bodies: too large (said, or only sent), nested too deep, not JSON
    big = b"POST /api/command HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nOrigin: %s\r\nContent-Type: application/json\r\n" % (
        probe.port, probe.origin.encode())
    assert probe.raw("100 MB body", big + b"Content-Length: 104857600\r\n\r\n" + b"{" * 1000) == 413
    assert probe.raw("chunked 64 KiB body", big + b"Transfer-Encoding: chunked\r\n\r\n"
                     + b"".join(b"%x\r\n%s\r\n" % (4096, b"[" * 4096) for _ in range(16)) + b"0\r\n\r\n") == 413
    deep = "[" * 100_000 + "]" * 100_000
    assert probe.send("100,000 deep", "POST", "/api/command", content=deep, headers={**origin, **headers,
                      "Content-Type": "application/json"}).status_code == 413
    for body in ("[" * 5000 + "]" * 5000, '{"command": {"a": {"b": {"c": {"d": 1}}}}}', "{not json", "\xff\xfe",
                 '{"command": "place_wager", "spot": NaN}', "[]", "7", '"open_round"'):
        answer = probe.send("bad body", "POST", "/api/command", content=body.encode("latin-1"),
                            headers={**origin, **headers, "Content-Type": "application/json"})
        assert answer.status_code == 400, (body[:40], answer.text)

    # fuzzed commands from a logged-in page: every one answered 4xx or done, none 5xx
    rng = random.Random(47)
    values: list[Any] = [None, True, -1, 0, 10**30, 1.5, "", "x" * 70, BettingClosed.EVENT, [], {}, ["AS"] * 3, "NaN", "1e999"]
    keys = ["command", "spot", "wager", "amount", "action", "cards", "values", "hand", "code", "index", "card", "reason"]
    for _ in range(300):
        body = {k: rng.choice(values) for k in rng.sample(keys, rng.randint(0, 6))}
        if rng.random() < 0.5:
            body["command"] = rng.choice(["place_wager", "decide", "sit", "enter_piece", "bogus"])
        answer = probe.send("fuzz", "POST", "/api/command", json=body, headers={**origin, **headers}, refused=False)
        assert answer.status_code < 500 and answer.json()["ok"] is False, (body, answer.text)
    assert loop.round is None  # no fuzzed command opened a round

    # wrong PINs: refused, then locked out; each try journaled; the dealer's session is untouched
    before = len(log.named(LoginRefused.EVENT))
    codes = [probe.send("wrong PIN", "POST", "/api/login", json={"name": "pat", "pin": f"{n:06d}"}, headers=origin,
                        refused=False).status_code for n in range(12)]
    assert codes[:3] == [401] * 3 and set(codes[3:]) == {429}
    assert len(log.named(LoginRefused.EVENT)) - before == 12
    for attempt in range(5):
        answer = probe.send("wrong supervisor PIN", "POST", "/api/supervisor", refused=False, headers={**origin, **headers},
                            json={"action": "void", "name": SUPERVISOR[0], "pin": f"11{attempt}111", "reason": "probe"})
        assert answer.status_code in (403, 429)
    assert len(log.named(SupervisorRefusal.EVENT)) == 5

    # 1,000 page loads (any web page can cause them) log nobody out
    for _ in range(1000):
        assert probe.client.get("/").status_code == 200
    assert probe.client.get("/api/session").json()["name"] == "dana"

    assert all(400 <= status < 500 for _, status in probe.statuses), [s for s in probe.statuses if not 400 <= s[1] < 500]
    assert journaled_refusals(log, loop, probe.refused) == probe.refused
    assert not log.named(RoundStarted.EVENT)  # nothing any probe sent changed the table
    assert probe.send("the dealer", "POST", "/api/command", json=COMMAND, headers={**origin, **headers}, refused=False).json()["ok"]
    assert [r["round"] for r in log.named(RoundStarted.EVENT)] == ["TC-01-TEST-000001"]
    print(f"\nprobe suite: {len(probe.statuses)} requests, all 4xx; {probe.refused} refused requests journaled; "
          f"{len(log.named(LoginRefused.EVENT))} wrong logins and {len(log.named(SupervisorRefusal.EVENT))} wrong supervisor PINs "
          f"journaled one by one; 1,000 page loads, the dealer still logged in")
    assert json.dumps(log.records()).count(SUPERVISOR[1]) == 0
