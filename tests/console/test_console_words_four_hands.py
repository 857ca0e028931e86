"""A seat split to four hands at the table's 1024x600 screen (docs/console.md said it: "a seat split to four hands
makes its spot tall enough that the next spot's double and surrender need the panel scrolled"). Every control the
dealer needs for the four hands and for the spot after them is now in view, nothing scrolled."""

from __future__ import annotations

from typing import Any

from tests.console.tables import in_view, log_in, served
from tests.console.test_browser import expect_state, expect_text
from tests.console.test_browser_blackjack import decide, hand_shown, stack, take_bets

ACTIONS = "#decision-label, #decision-actions button, #decision-actions input"


def all_in_view(page: Any) -> None:
    """The decision awaited, every action and amount of it, spot 2's four hands with their totals, the spots' wagers,
    and nothing scrolled inside the page or its panel."""
    in_view(page, ACTIONS)
    in_view(page, '#layout section.spot[data-spot="2"] .hand .card, #layout section.spot[data-spot="2"] .hand-label')
    in_view(page, "#layout button.wager.staked")
    assert page.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight"), "the page scrolls"
    panel = page.locator("#dealer-area .panel")
    assert panel.evaluate("(p) => p.scrollHeight <= p.clientHeight + 1"), "the panel scrolls"


def test_a_seat_split_to_four_hands_leaves_every_control_in_view_at_1024x600(table_page: Any, shots: Any) -> None:
    """Pure 21.5 (max_splits = 3): spot 2, with its Bonus and Buster Bets, splits 8s three times, four hands, and hits
    the first; spot 3's 5-7 then may hit, stand, double, double for less and surrender, all in view beside them."""
    page = table_page
    with served("pure-21-5") as console:
        # spot 2 8H 8D, spot 3 5C 7C, the player-dealer 6S up, 9S down; then 8C and 8S to split again, 4C and 2D to
        # the first hand (14), 5D, 6D and 7D to the other three as each is played
        stack(console.loop.table.feed.shoe, "8H 5C 6S 8D 7C 9S 8C 8S 4C 2D 5D 6D 7D")
        page.goto(console.url)
        log_in(page)
        take_bets(page, (1, "bank", "1000"), (2, "base", "10"), (2, "bonus", "5"), (2, "buster", "5"), (3, "base", "10"))
        page.click("#no-more-bets")
        decide(page, "Spot 2 to act", "split")
        decide(page, "Spot 2 hand 1 to act", "split")
        decide(page, "Spot 2 hand 1 to act", "split")
        page.locator('#layout section.spot[data-spot="2"] .hand[data-target="2.3"]').wait_for()
        assert page.locator('#layout section.spot[data-spot="2"] .hand').count() == 4
        decide(page, "Spot 2 hand 1 to act", "hit")
        for hand in range(1, 5):
            expect_text(page, "#decision-label", f"^Spot 2 hand {hand} to act$")
            page.locator('#decision-actions button[data-action="stand"]').wait_for()
            all_in_view(page)
            if hand == 4:
                shots(page, "spot-2-hand-4")
            page.click('#decision-actions button[data-action="stand"]')
        expect_text(page, "#decision-label", "^Spot 3 to act$")
        page.locator('#decision-actions button[data-action="surrender"]').wait_for()
        assert [hand_shown(page, 2, f"2.{i}") for i in range(4)] == [
            ("8H 4C 2D", "hard 14"), ("8S 5D", "hard 13"), ("8C 6D", "hard 14"), ("8D 7D", "hard 15")]
        names = page.locator("#decision-actions button")
        actions = {names.nth(i).get_attribute("data-action") for i in range(names.count())}
        assert {"hit", "stand", "double", "surrender"} <= actions, actions
        all_in_view(page)
        shots(page, "spot-3-beside-four-hands")
        page.click('#decision-actions button[data-action="stand"]')
        expect_state(page, "complete")


def test_four_hands_each_hit_to_three_cards_beside_insurance_leave_the_next_spots_controls_in_view(
        table_page: Any, shots: Any) -> None:
    """The same seat at its tallest: insured under the player-dealer's ace, its four hands each hit to three cards
    (a third card wraps under the first two in its half of the spot); spot 3's surrender is still on the screen."""
    page = table_page
    with served("pure-21-5") as console:
        # spot 2 8H 8D, spot 3 5C 7C, the player-dealer AH up, 9S down; 8C and 8S split again; then two cards to
        # each of the four hands in turn: 2C 2D (12), 2S 2H (12), 3C 3D (14), 3S 3H (14)
        stack(console.loop.table.feed.shoe, "8H 5C AH 8D 7C 9S 8C 8S 2C 2D 2S 2H 3C 3D 3S 3H")
        page.goto(console.url)
        log_in(page)
        take_bets(page, (1, "bank", "1000"), (2, "base", "10"), (2, "bonus", "5"), (2, "buster", "5"), (3, "base", "10"))
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "^Spot 2 to act$")
        page.click('#decision-actions button[data-action="insurance"][data-amount="5.00"]')
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="insurance"]', r"\$5\.00")
        decide(page, "Spot 3 to act", "no-insurance")
        decide(page, "Spot 2 to act", "split")
        decide(page, "Spot 2 hand 1 to act", "split")
        decide(page, "Spot 2 hand 1 to act", "split")
        for hand in range(4):
            decide(page, f"Spot 2 hand {hand + 1} to act", "hit")
            page.locator(f'#layout section.spot[data-spot="2"] .hand[data-target="2.{hand}"] .card').nth(2).wait_for()
            decide(page, f"Spot 2 hand {hand + 1} to act", "stand")
        expect_text(page, "#decision-label", "^Spot 3 to act$")
        page.locator('#decision-actions button[data-action="surrender"]').wait_for()
        assert [hand_shown(page, 2, f"2.{i}") for i in range(4)] == [
            ("8H 2C 2D", "hard 12"), ("8S 2S 2H", "hard 12"), ("8C 3C 3D", "hard 14"), ("8D 3S 3H", "hard 14")]
        all_in_view(page)
        shots(page, "spot-3-beside-four-hands-of-three-cards")
