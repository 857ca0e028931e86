"""A player-dealer game stopped for want of a player-dealer, at the console in Chromium at 1024x600.

Seed 003: the position passes after two banks, and at a dealer's page nobody is assumed to take it, so the game
stops the moment the second bank settles. The stop screen covered the round just settled (the table dimmed under
it, the settlement's header and the spots' results beneath the screen) while its lines were still to pay and
collect. The stop screen now offers that settlement: "Show the settlement to pay" uncovers it, undimmed, and
"Paid: who takes the player-dealer position?" brings the stop screen back."""

from __future__ import annotations

from typing import Any

from tests.console.tables import log_in, served
from tests.console.test_browser import enter, expect_state, expect_text

UNCOVERED = """(selector) => [...document.querySelectorAll(selector)].filter((node) => {
  const r = node.getBoundingClientRect();
  const hit = document.elementFromPoint(Math.min(r.left + 4, innerWidth - 1), Math.min(r.top + r.height / 2, innerHeight - 1));
  return !(r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1 && hit && (node === hit || node.contains(hit)));
}).map((node) => node.textContent.trim())"""



def test_the_second_banks_settlement_is_paid_before_the_stop_screen_asks_for_a_player_dealer(table_page: Any) -> None:
    page = table_page
    with served("three-card-poker") as console:
        page.goto(console.url)
        log_in(page)
        for _bank in (1, 2):
            page.click("#open-round")
            enter(page, 1, "bank", "500")
            for spot in range(2, 9):
                enter(page, spot, "ante", "10")
            expect_text(page, '#layout button.wager[data-spot="8"][data-wager="ante"]', r"\$10\.00")
            page.click("#no-more-bets")
            for spot in range(2, 9):
                expect_text(page, "#decision-label", f"^Spot {spot} to act$")
                page.click('#decision-actions button[data-action="play"]')
            expect_state(page, "complete")
        page.locator("#stop-screen").wait_for(state="visible")
        assert page.locator("#stop-seats button[data-take-position]").first.inner_text().lower() == "spot 2 takes it"
        page.click("#stop-pay")
        page.locator("#stop-screen").wait_for(state="hidden")
        assert console.loop.round is not None
        lines = page.locator("#settlement-rows [data-wager]")
        assert lines.count() == len(console.loop.round.settlements)
        assert page.evaluate(UNCOVERED, "#settlement-rows [data-wager], #layout .spot-result, #result") == []
        assert not page.locator("#main").evaluate("(m) => m.classList.contains('dimmed')")
        assert page.locator("#open-round").is_hidden()  # nobody has the position yet
        page.click("#next-player-dealer")
        page.locator("#stop-screen").wait_for(state="visible")
        page.click('#stop-seats button[data-take-position="5"]')
        page.locator("#stop-screen").wait_for(state="hidden")
        page.click("#open-round")
        expect_text(page, '#layout section[data-spot="5"] .badge', "player-dealer")
