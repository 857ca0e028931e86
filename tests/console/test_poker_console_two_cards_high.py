"""A Two Cards High dealer at the console, in Chromium at the table PC's 1024x600.

Seed 004 rule 4a: the player names three cards that count a multiple of ten. The dealer taps the three the player
names; three that count 17 were refused with "?? ?? ?? count 17, not a multiple of 10 (rule 4a)": the hand lies face
down, so the screen scrubbed the cards the reason named, and the dealer read question marks. The reason now says
what is wrong without naming the cards."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from controller.rules.evaluators.two_cards_high import points
from tests.console.tables import log_in, served
from tests.console.test_browser import enter, expect_text


def test_a_qualifier_that_does_not_count_ten_is_refused_in_words_the_dealer_can_read(table_page: Any) -> None:
    page = table_page
    with served("two-cards-high") as console:
        page.goto(console.url)
        log_in(page)
        page.click("#open-round")
        for spot in range(1, 8):
            enter(page, spot, "main", "10")
        expect_text(page, '#layout button.wager[data-spot="7"][data-wager="main"]', r"\$10\.00")
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "^Spot [0-9] to act$")
        assert console.loop.round is not None
        spot = int(page.inner_text("#decision-label").split()[1])
        hand = console.loop.round.hand.cards[spot]
        wrong = next(c for c in combinations(hand, 3) if sum(points(card) for card in c) % 10)
        for card in wrong:
            page.click(f'#decision-actions button[data-choice="{card.code}"]')
        page.click('#decision-actions button[data-action="set"]')
        total = sum(points(card) for card in wrong)
        expect_text(page, "#message", f"the three cards named count {total}, not a multiple of 10")
        assert "??" not in page.inner_text("#message")
        page.click(f'#decision-actions button[data-choice="{wrong[0].code}"]')  # two named
        page.click('#decision-actions button[data-action="set"]')
        expect_text(page, "#message", "^the qualifier is three different cards, not 2$")
