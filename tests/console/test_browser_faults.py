"""A device fault between rounds, in a real browser: the dealer page holds within a second, the pit view says why."""

from __future__ import annotations

import time
from typing import Any

from drivers.sim.process import SimulatorProcess
from tests.console.tables import SUPERVISOR, served
from tests.console.test_browser import expect_state, expect_text, open_console, supervise


def test_a_shoe_jam_between_rounds_puts_the_page_on_hold_within_a_second(page: Any, shots: Any) -> None:
    with SimulatorProcess("shoe", "--seed", "4") as sim, served("top-card", shoe_port=sim.port) as console:
        open_console(page, console.url)
        expect_state(page, "idle")
        assert page.locator("#open-round").is_visible()
        sim.command("fault jam")
        started = time.monotonic()
        page.locator("#hold-screen").wait_for(state="visible", timeout=1000)
        assert time.monotonic() - started < 1.0
        expect_text(page, "#hold-reason", r"shoe: shoe fault \(jam\)")
        assert page.locator("#open-round").is_hidden()
        shots(page, "hold-between-rounds")
        pit = page.context.new_page()
        pit.goto(console.url + "/pit")  # the same browser: the dealer's login holds for the pit view too
        expect_text(pit, '#devices li[data-device="shoe"]', r"shoe: fault: shoe fault \(jam\)")
        shots(pit, "pit-device-fault")
        sim.command("clear")
        supervise(page, "hold-supervisor", "resume", "jam cleared at the shoe", again=SUPERVISOR[1])
        page.locator("#hold-screen").wait_for(state="hidden")
        expect_text(pit, '#devices li[data-device="shoe"]', "shoe: ok")
        page.click("#open-round")
        expect_state(page, "betting")
        pit.close()
