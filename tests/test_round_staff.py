"""``tablectl round ID`` names the staff logged in at the console while the round was dealt.

Every login and logout is journaled (docs/console.md), but no reading command showed them: a surveillance officer
asking which dealer ran a round (a wager placed, a hold resumed ``by dealer``) found no name. The table here is
``tablectl serve`` on the reference shoe simulator over a pseudo-terminal; the dealer logs in, deals a round and
logs out.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import httpx
import pytest

from controller.commands.cli import main
from drivers.sim.process import SimulatorProcess
from tests.console.tables import DEALER, logged_in
from tests.console.test_serve import Service, table_config, tablectl


def test_the_round_names_the_dealer_logged_in_while_it_was_dealt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SimulatorProcess("shoe", "--seed", "3", "--cut", "52") as sim:
        config = table_config(tmp_path)
        text = config.read_text().replace('driver = "simulated"', f'driver = "reference"\nport = "{sim.port}"')
        config.write_text(text.replace("crosscheck = true", "crosscheck = false"))
        added = tablectl("staff", "add", DEALER[0], "--role", "dealer", "--pin-stdin", "--config", str(config),
                         cwd=tmp_path, stdin=DEALER[1] + "\n")
        assert added.returncode == 0, added.stderr
        with Service(config, tmp_path) as service:
            url = re.search(r"console (http://127\.0\.0\.1:\d+)/", service.message())
            assert url is not None
            with httpx.Client(base_url=url.group(1), timeout=10) as client:
                headers = logged_in(client, DEALER)
                assert client.post("/api/command", json={"command": "open_round"}, headers=headers).json()["ok"]
                assert client.post("/api/command", json={"command": "place_wager", "spot": 1, "wager": "home",
                                                         "amount": "12.50"}, headers=headers).json()["ok"]
                assert client.post("/api/command", json={"command": "no_more_bets"}, headers=headers).json()["ok"]
                deadline = time.monotonic() + 60
                while (state := client.get("/api/state").json())["round"]["state"] != "complete":
                    assert time.monotonic() < deadline, state["round"]
                    time.sleep(0.2)
                round_id = state["round"]["id"]
                assert client.post("/api/logout", json={}, headers=headers).status_code == 200
    capsys.readouterr()
    assert main(["round", round_id, "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"  staff    dana \(dealer, dealer page\) logged in before it started, at .* from 127\.0\.0\.1", out), out
    assert "logged out" not in out, "the logout came after the round"
    assert main(["round", round_id, "--config", str(config), "--json"]) == 0
    (staff,) = json.loads(capsys.readouterr().out)["staff"]
    assert (staff["name"], staff["role"], staff["page"]) == ("dana", "dealer", "dealer")
