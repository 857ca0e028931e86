"""``tablectl serve`` and ``tablectl run --console`` as a dealer meets them: log in, a shuffler fault held and
cleared from the page, a player-dealer game that stops and waits for a new player-dealer, a clean stop.

Three Card Poker on the reference shuffler simulator (its own process, on a
pseudo-terminal) behind the real command, driven in Chromium.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from drivers.sim.process import SimulatorProcess
from tests.console.tables import CONFIG, SUPERVISOR, log_in
from tests.console.test_browser import enter, expect_text, supervise
from tests.console.test_serve import tablectl

ROOT = Path(__file__).resolve().parents[2]


class FrontEnd:
    """A ``tablectl`` command serving the console; its stderr read on a thread (the URL, a session's login)."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "controller.commands.cli", *args], cwd=cwd, text=True,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.err: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.err.append(line)

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.err):
                if (found := re.search(pattern, line)) is not None:
                    return found
            assert self.process.poll() is None, "".join(self.err)
            time.sleep(0.05)
        raise AssertionError(f"no {pattern!r} on stderr: {''.join(self.err)}")

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(30)
        self.reader.join(10)
        assert self.process.stderr is not None
        self.process.stderr.close()
        return code


def config_on(tmp_path: Path, sim: SimulatorProcess) -> Path:
    text = (CONFIG / "three-card-poker.toml").read_text(encoding="utf-8")
    text = text.replace('driver = "simulated"', f'driver = "reference"\nport = "{sim.port}"')
    text = text.replace('events = "var/log/tablectl-events.jsonl"',
                        f'events = "{tmp_path / "events.jsonl"}"\n\n[journal]\npath = "{tmp_path / "journal.sqlite"}"')
    path = tmp_path / "table.toml"
    path.write_text(text + f'\n[console]\nport = 0\nstaff = "{tmp_path / "staff.json"}"\n', encoding="utf-8")
    return path


def one_round(page: Any, *, fold: bool = True) -> None:
    page.click("#open-round")
    expect_text(page, "#state", "betting")
    player_dealer = page.locator("#layout section.banker").get_attribute("data-spot")
    enter(page, int(player_dealer), "bank", "300")
    player = 4 if player_dealer != "4" else 5
    enter(page, player, "ante", "10")
    page.click("#no-more-bets")
    expect_text(page, "#decision-label", f"Spot {player} to act")
    page.click(f'#decision-actions button[data-action="{"fold" if fold else "play"}"]')
    expect_text(page, "#state", "complete")


@pytest.mark.parametrize("front_end", ["serve", "run --console"])
def test_a_fault_and_a_stopped_player_dealer_game_are_cleared_from_the_page(
    page: Any, shots: Any, tmp_path: Path, front_end: str,
) -> None:
    with SimulatorProcess("shuffler", "--seed", "5") as sim:
        config = config_on(tmp_path, sim)
        if front_end == "serve":
            added = tablectl("staff", "add", SUPERVISOR[0], "--role", "supervisor", "--pin-stdin", "--config", str(config),
                             cwd=tmp_path, stdin=SUPERVISOR[1] + "\n")
            assert added.returncode == 0, added.stderr
            command = FrontEnd(["serve", "--config", str(config)], tmp_path)
            who = SUPERVISOR
        else:
            command = FrontEnd(["run", "--console", "--dealer", "--config", str(config)], tmp_path)
            login = command.wait_for(r"console login for this session only: name (\w+), PIN (\d+)")
            who = (login[1], login[2])
        try:
            url = command.wait_for(r"console: (http://127\.0\.0\.1:\d+)/")[1]
            page.goto(url)
            log_in(page, who)
            page.click("#open-round")
            enter(page, 1, "bank", "300")
            sim.command("fault door-open")
            page.locator("#hold-screen").wait_for(state="visible")
            expect_text(page, "#hold-now", r"shuffler now: fault: shuffler fault \(door-open\)")
            shots(page, "held")
            sim.command("clear")
            expect_text(page, "#hold-now", "shuffler now: ready")
            supervise(page, "hold-supervisor", "void", "door closed, round voided", name=who[0], pin=who[1], again=who[1])
            page.locator("#void-screen").wait_for(state="visible")
            page.click("#void-next")
            page.locator("#hold-screen").wait_for(state="hidden")
            expect_text(page, "#state", "betting")
            page.click("#no-more-bets")  # nobody wagered: refused, the round stays open
            expect_text(page, "#message", "bank")
            enter(page, 1, "bank", "300")
            enter(page, 4, "ante", "10")
            page.click("#no-more-bets")
            expect_text(page, "#decision-label", "Spot 4 to act")
            page.click('#decision-actions button[data-action="fold"]')
            expect_text(page, "#state", "complete")
            for _ in range(2):  # after two banks the position passes, and nobody at the page takes it
                try:
                    page.locator("#stop-screen").wait_for(state="visible", timeout=3000)
                    break
                except PlaywrightTimeout:
                    one_round(page)
            page.locator("#stop-screen").wait_for(state="visible")
            expect_text(page, "#stop-reason", "no player intervened to take the player-dealer position")
            shots(page, "stopped")
            page.click('#stop-seats button[data-take-position="3"]')
            page.locator("#stop-screen").wait_for(state="hidden")
            one_round(page, fold=False)
            expect_text(page, '#layout section[data-spot="3"] .badge', "player-dealer")
        finally:
            code = command.stop()
        err = "".join(command.err)
        assert code == 0 and "Traceback" not in err, err
