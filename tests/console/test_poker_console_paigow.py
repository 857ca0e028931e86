"""A pai gow dealer at the console, in Chromium at the table PC's 1024x600: what the screen hid from the dealer,
checked here as it was met.

Double-Hand Poker, a player sets his own hand (seed 003 Double-Hand Poker, Game Description): the dealer taps the two
front cards the player names on the list of the game's 53 cards. Once both were named they stood above the list as
full-size cards, and "Set hand" went past the bottom of the screen, out of reach (the page does not scroll)."""

from __future__ import annotations

from typing import Any

from controller.rules.pai_gow_poker.hands import foul_reason, settings
from tests.console.tables import in_view, log_in, served
from tests.console.test_browser import enter, expect_state, expect_text


def roll_dice(page: Any) -> None:
    """The player-dealer's first pile (3) and the dice (2, 3, 3) entered as the dealer keys them: piles go out."""
    page.click('#decision-actions button[data-value-index="0"][data-value="3"]')
    page.click('#decision-actions button[data-action="first-pile"]')
    page.locator('#decision-actions button[data-value-index="2"]').first.wait_for()
    for index, value in enumerate((2, 3, 3)):
        page.click(f'#decision-actions button[data-value-index="{index}"][data-value="{value}"]')
    page.click('#decision-actions button[data-action="dice"]')


def test_set_hand_stays_on_the_screen_once_the_front_hand_is_named(table_page: Any) -> None:
    page = table_page
    with served("double-hand-poker") as console:
        page.goto(console.url)
        log_in(page)
        page.click("#open-round")
        enter(page, 1, "bank", "500")
        for spot in range(2, 8):
            enter(page, spot, "bet", "20")
        expect_text(page, '#layout button.wager[data-spot="7"][data-wager="bet"]', r"\$20\.00")
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "^Spot 1 to act$")
        roll_dice(page)
        expect_text(page, "#decision-label", "^Spot 2 to act$")
        assert console.loop.round is not None
        hand = console.loop.round.hand.hands[2]
        legal = next(s for s in settings(hand) if not foul_reason(s.front, s.back, "lowest"))
        for card in legal.front:
            page.click(f'#decision-actions button[data-choice="{card.code}"]')
        expect_text(page, "#decision-actions .setter h3", r"^Front hand \(2 of 2\)")
        in_view(page, "#decision-actions button")
        page.click('#decision-actions button[data-action="set"]')
        expect_text(page, "#decision-label", "^Spot 3 to act$")
        assert console.loop.round.hand.set_hands[2].same_as(legal)


def test_every_hand_as_set_is_read_whole_on_the_settled_table(table_page: Any) -> None:
    """Fortune Pai Gow, a full table settled at 1024x600: a spot's hand as set read "front K J · back ace high, A 9
    6 …" and "front pair of eights · back pa…": the back hand, what the dealer compares, was cut off (the whole label
    only on hover, which a touch screen has not)."""
    page = table_page
    with served("fortune-pai-gow") as console:
        page.goto(console.url)
        log_in(page)
        page.click("#open-round")
        enter(page, 1, "bank", "500")
        for spot in range(2, 8):
            enter(page, spot, "bet", "20")
            enter(page, spot, "fortune", "5")
        expect_text(page, '#layout button.wager[data-spot="7"][data-wager="fortune"]', r"\$5\.00")
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "^Spot 1 to act$")
        roll_dice(page)
        for _ in range(7):  # every seat, the player-dealer last, the House Way: each tap once the seat's turn shows
            asked = page.inner_text("#decision-label")
            page.locator('#decision-actions button[data-action="house-way"]').click()
            page.wait_for_function(
                "(asked) => document.querySelector('#state').dataset.state === 'complete' || "
                "document.querySelector('#decision-label').innerText !== asked", arg=asked)
            if page.locator("#state").get_attribute("data-state") == "complete":
                break
        expect_state(page, "complete")
        labels = page.locator("#layout .spot .hand-label")
        assert labels.count() == 7
        for i in range(labels.count()):
            text = labels.nth(i).inner_text()
            assert " · back " in text, text
            assert labels.nth(i).evaluate("(n) => n.scrollHeight <= n.clientHeight + 1"), f"cut: {text}"
        in_view(page, "#layout .spot .hand-label, #layout .spot .spot-result, #settlement-rows [data-wager]")
