"""Keyboard-only dealing: after each command the focus stays at the table.

Every command redraws the controls it touched, and the button the dealer had just pressed went with them: the focus
fell to the page's body and the next Tab started again from the login bar (about ten Tabs back to the table).
"""

from __future__ import annotations

from typing import Any

from tests.console.tables import served
from tests.console.test_browser import enter, expect_state, expect_text, open_console

FOCUS_AT_THE_TABLE = ("() => { const a = document.activeElement; return a && a !== document.body && "
                      "a.closest('#main') !== null && a.offsetParent !== null && !a.disabled; }")


def test_the_focus_stays_at_the_table_after_each_command_given_by_keyboard(page: Any) -> None:
    with served("three-card-poker") as console:
        open_console(page, console.url)
        page.focus("#open-round")
        page.keyboard.press("Enter")
        expect_state(page, "betting")
        page.wait_for_function(FOCUS_AT_THE_TABLE, timeout=5000)  # Open betting hid itself: the table's first control
        enter(page, 1, "bank", "500")  # the player-dealer's seat banks the round
        enter(page, 2, "ante", "10")
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="ante"]', r"\$10\.00")
        page.focus("#no-more-bets")
        page.keyboard.press("Enter")
        page.locator('#decision-actions button[data-action="play"]').wait_for()
        page.wait_for_function(FOCUS_AT_THE_TABLE, timeout=5000)
        page.focus('#decision-actions button[data-action="play"]')
        page.keyboard.press("Enter")
        expect_state(page, "complete")
        page.wait_for_function(FOCUS_AT_THE_TABLE, timeout=5000)
        assert page.evaluate("document.activeElement.id") == "open-round"  # the next round is one Enter away
