"""``tablectl serve`` and ``tablectl run --console`` as a dealer meets them: log in, every device fault held and
cleared from the page, a player-dealer game that stops and waits for a new player-dealer, a clean stop.

The real command runs the table on a reference device simulator (its own
process, on a pseudo-terminal), driven in Chromium: Three Card Poker on the
shuffler, Top Card on the shoe. Each fault the reference protocol names, and
a pulled cable, is raised while betting is open and once more while the
device is dealing; the page shows the hold with the device's state as it is
now, and a supervisor resumes or voids the round with their PIN.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from drivers.sim.process import SimulatorProcess
from tests.console.tables import CONFIG, SUPERVISOR, log_in
from tests.console.test_browser import enter, expect_state, expect_text, supervise
from tests.console.test_browser_holds import FAULTS, VOIDED
from tests.console.test_serve import tablectl
from tests.helpers import init_table

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


def config_on(tmp_path: Path, sim: SimulatorProcess, game: str = "three-card-poker", pace: float = 1.0) -> Path:
    """The shipped config of ``game`` with its device on ``sim``'s port, its records under ``tmp_path`` (made by journal init)."""
    text = (CONFIG / f"{game}.toml").read_text(encoding="utf-8")
    text = re.sub(r'(?m)^driver = "(simulated|reference)"', f'driver = "reference"\nport = "{sim.port}"', text)
    text = text.replace("crosscheck = true", "crosscheck = false")  # devices are the subject here, not the camera
    text = re.sub(r'(?m)^events = "var/log/[^"]*"',
                  f'events = "{tmp_path / "events.jsonl"}"\n\n[journal]\npath = "{tmp_path / "journal.sqlite"}"', text)
    path = tmp_path / "table.toml"
    path.write_text(text + f'\n[console]\nport = 0\npace = {pace}\nstaff = "{tmp_path / "staff.json"}"\n', encoding="utf-8")
    init_table(tmp_path / "journal.sqlite", config=path)
    return path


@contextlib.contextmanager
def started(front_end: str, config: Path, tmp_path: Path) -> Iterator[tuple[FrontEnd, str, tuple[str, str]]]:
    """``front_end`` serving ``config``: the command, its console's URL, and who may log in as a supervisor.
    ``serve`` is given a supervisor account first; ``run --console`` makes one for its session and prints it.
    On leaving, the command is stopped and must end cleanly, never with a traceback."""
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
        yield command, command.wait_for(r"console: (http://127\.0\.0\.1:\d+)/")[1], who
    finally:
        code = command.stop()
    err = "".join(command.err)
    assert code == 0 and "Traceback" not in err, err


def one_round(page: Any, *, fold: bool = True) -> None:
    page.click("#open-round")
    expect_state(page, "betting")
    player_dealer = page.locator("#layout section.banker").get_attribute("data-spot")
    enter(page, int(player_dealer), "bank", "300")
    player = 4 if player_dealer != "4" else 5
    enter(page, player, "ante", "10")
    page.click("#no-more-bets")
    expect_text(page, "#decision-label", f"Spot {player} to act")
    page.click(f'#decision-actions button[data-action="{"fold" if fold else "play"}"]')
    expect_state(page, "complete")


@pytest.mark.parametrize("front_end", ["serve", "run --console"])
def test_a_stopped_player_dealer_game_shows_why_and_a_new_player_dealer_is_taken_from_the_page(
    page: Any, shots: Any, tmp_path: Path, front_end: str,
) -> None:
    with SimulatorProcess("shuffler", "--seed", "5") as sim, started(front_end, config_on(tmp_path, sim), tmp_path) as (
            _, url, who):
        page.goto(url)
        log_in(page, who)
        page.click("#open-round")
        expect_state(page, "betting")
        page.click("#no-more-bets")  # nobody wagered: refused, the round stays open
        expect_text(page, "#message", "bank")
        enter(page, 1, "bank", "300")
        enter(page, 4, "ante", "10")
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "Spot 4 to act")
        page.click('#decision-actions button[data-action="fold"]')
        expect_state(page, "complete")
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


@dataclasses.dataclass(frozen=True)
class Device:
    """A reference device simulator and a game dealt from it, and how a dealer stakes a round of that game."""

    kind: str
    game: str
    deals_by: str
    """The device command whose arrival the mid-deal fault is raised on."""
    stakes: tuple[tuple[int, str, str], ...]
    """(spot, wager, dollars) placed each round; spot 0 is the player-dealer's, wherever the position is."""
    decision: str | None = None
    """The one decision of the round (spot 4's), if the game asks for one."""


DEVICES = {
    "shoe": Device("shoe", "top-card", "deal", ((2, "home", "25"),)),
    "shuffler": Device("shuffler", "three-card-poker", "dispense", ((0, "bank", "300"), (4, "ante", "10")), "play"),
}


def stake(page: Any, device: Device) -> None:
    """Open betting if it is not open, and place the round's stakes. A player-dealer game stopped after two banks
    from one seat is handed on to seat 3, as the dealer would when its player takes the position."""
    page.wait_for_function("() => !document.querySelector('#open-round').hidden || "
                           "!document.querySelector('#stop-screen').hidden || "
                           "document.querySelector('#state').dataset.state === 'betting'")
    if page.locator("#stop-screen").is_visible():
        page.click('#stop-seats button[data-take-position="3"]')
        page.locator("#stop-screen").wait_for(state="hidden")
    if page.locator("#state").get_attribute("data-state") != "betting":
        page.click("#open-round")
        expect_state(page, "betting")
    for spot, name, dollars in device.stakes:
        if spot == 0:
            spot = int(page.locator("#layout section.banker").get_attribute("data-spot"))
        enter(page, spot, name, dollars)
        expect_text(page, f'#layout button.wager[data-spot="{spot}"][data-wager="{name}"]', rf"\${dollars}\.00")


def clear_hold(page: Any, sim: SimulatorProcess, device: Device, fault: str, who: tuple[str, str], shots: Any, *,
               dealing: bool = False) -> str:
    """The hold on the page for ``fault``; cleared at the device, then resumed or voided by the supervisor.

    A shuffler unplugged while it dispenses a stack may have put the stack in the tray unrecorded: the
    page says so (``stack-unknown``), and the supervisor voids the round while the shuffler is still
    unplugged (``on dispense unplug 600``): the void's returns show beside the table's hold for the shuffler,
    which the supervisor resumes once it is plugged in again and the page says it is ready."""
    page.locator("#hold-screen").wait_for(state="visible")
    expect_text(page, "#hold-reason", f"Held: {device.kind}")
    lost_stack = dealing and fault == "unplug" and device.kind == "shuffler"
    if fault != "unplug":
        expect_text(page, "#hold-now", rf"{device.kind} now: fault: {device.kind} fault \({fault}\)")
        shots(page, f"{fault}-held")
        sim.command("clear")
    if lost_stack:
        expect_text(page, "#hold-reason", r"shuffler fault \(stack-unknown\)")
        expect_text(page, "#hold-now", "shuffler now: fault: the shuffler stopped answering")  # still unplugged
        shots(page, "stack-unknown-held")
    else:
        expect_text(page, "#hold-now", f"{device.kind} now: ready")  # cleared at the machine: the page says so
    action = "void" if fault in VOIDED or lost_stack else "resume"
    supervise(page, "hold-supervisor", action, f"{fault} dealt with at the {device.kind}", name=who[0], pin=who[1],
              again=who[1])
    if action == "void":
        try:
            page.locator("#void-screen").wait_for(state="visible")
        except PlaywrightTimeout:
            shots(page, f"{fault}-no-void-screen")  # what the dealer saw instead
            raise
        expect_text(page, "#void-returns", "return")
    if lost_stack:  # the table holds for the shuffler still unplugged, beside the void's returns
        expect_text(page, "#hold-reason", "Held: shuffler: the shuffler stopped answering")
        assert page.locator("#void-screen").is_visible()
        shots(page, "void-beside-the-hold")
        sim.command("plug")
        expect_text(page, "#hold-now", "shuffler now: ready")
        supervise(page, "hold-supervisor", "resume", "shuffler plugged in again", name=who[0], pin=who[1], again=who[1])
    try:
        page.locator("#hold-screen").wait_for(state="hidden")
    except PlaywrightTimeout:
        shots(page, f"{fault}-still-held")  # what the dealer saw instead
        raise
    if action == "void":
        page.click("#void-next")
    return action


@pytest.mark.parametrize("kind", sorted(DEVICES))
@pytest.mark.parametrize("front_end", ["serve", "run --console"])
def test_every_device_fault_is_held_and_cleared_from_the_page(
    page: Any, shots: Any, tmp_path: Path, front_end: str, kind: str,
) -> None:
    device = DEVICES[kind]
    with SimulatorProcess(device.kind, "--seed", "5") as sim, started(
            front_end, config_on(tmp_path, sim, device.game, pace=0.1), tmp_path) as (_, url, who):
        page.goto(url)
        log_in(page, who)
        done = []
        for fault in [*FAULTS, "unplug"]:  # while betting is open: the round is held where it stands
            stake(page, device)
            sim.command("unplug 1" if fault == "unplug" else f"fault {fault}")
            done.append(clear_hold(page, sim, device, fault, who, shots))
            expect_state(page, "betting")
        for fault in ("unplug", "jam", "door-open"):  # while the device deals: the round goes on once resumed (or voided)
            stake(page, device)
            # a shuffler unplugged mid-dispense stays unplugged until the supervisor has voided (``clear_hold``)
            unplug = "unplug 600" if device.kind == "shuffler" else "unplug 1"
            sim.command(f"on {device.deals_by} {unplug if fault == 'unplug' else 'fault ' + fault}")
            page.click("#no-more-bets")
            if clear_hold(page, sim, device, fault, who, shots, dealing=True) == "void":
                continue
            if device.decision is not None:
                expect_text(page, "#decision-label", "Spot 4 to act")
                page.click(f'#decision-actions button[data-action="{device.decision}"]')
            expect_state(page, "complete")
            shots(page, f"{fault}-dealt-on")
        assert done.count("void") == len(VOIDED)
