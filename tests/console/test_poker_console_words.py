"""The card tables' words at the console, in Chromium at the table PC's 1024x600: what read as the engine's codes
rather than a dealer's words, checked here as it was met.

Three Card Poker's settlement header read "P/D seat 1 6C6D4D pair of sixes, four kicker" and the reveal under the
dealer's cards "player dealer: 1 · up card: 6C"; High Card Flush's spots "3-card flush KS QS 2S"; Two Cards High's
header "dealer 6S 5S 7D AS 2D: 1 point"; the hold screen's list of placed cards "seat2: face down": card codes (run
together, in Three Card Poker's) beside cards drawn as "6♣", and the engine's name of a place. The cards now read as
they are drawn, and a seat as the spot it is."""

from __future__ import annotations

import re
from typing import Any

from controller.engine.commands import DeviceFault
from tests.console.tables import log_in, served
from tests.console.test_browser import enter, expect_state, expect_text

CODE = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK)\b")
"""A card's code as the engine and the journal write it."""
SUIT = re.compile("[♠♥♦♣]")



def test_three_card_poker_names_the_player_dealers_cards_and_spot_as_the_dealer_sees_them(table_page: Any) -> None:
    page = table_page
    with served("three-card-poker") as console:
        page.goto(console.url)
        log_in(page)
        page.click("#open-round")
        enter(page, 1, "bank", "1000")
        enter(page, 2, "ante", "25")
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="ante"]', r"\$25\.00")
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "^Spot 2 to act$")
        page.click('#decision-actions button[data-action="play"]')
        expect_state(page, "complete")
        result = page.inner_text("#result")
        assert result.startswith("P/D seat 1 ") and not CODE.search(result), result
        assert len(SUIT.findall(result.split(" pair")[0])) == 3, result  # three cards, each apart
        reveal = page.inner_text("#reveal")
        assert "player-dealer: spot 1" in reveal and re.search("up card: (10|[2-9JQKA])[♠♥♦♣]", reveal), reveal
        assert "qualifies: " in reveal and not CODE.search(reveal), reveal


def test_high_card_flush_spots_read_their_flush_in_cards(table_page: Any) -> None:
    page = table_page
    with served("high-card-flush") as console:
        page.goto(console.url)
        log_in(page)
        page.click("#open-round")
        for spot in (1, 2, 3):
            enter(page, spot, "ante", "10")
        expect_text(page, '#layout button.wager[data-spot="3"][data-wager="ante"]', r"\$10\.00")
        page.click("#no-more-bets")
        for spot in (1, 2, 3):
            expect_text(page, "#decision-label", f"^Spot {spot} to act$")
            page.click('#decision-actions button[data-action="raise"][data-amount="10.00"]')
        expect_state(page, "complete")
        labels = page.locator("#layout .hand-label, #table-cards .hand-label").all_inner_texts()
        assert [t for t in labels if "flush" in t], labels
        for text in [*labels, page.inner_text("#result")]:
            assert not CODE.search(text), text
            assert "flush" not in text or SUIT.search(text), text


def test_the_hold_screens_placed_cards_name_spots_and_show_the_up_card_as_drawn(table_page: Any) -> None:
    """Three Card Poker held mid-decisions (the shuffler's door opened): the supervisor's list of placed cards read
    "1. seat2: face down" and "4. seat1: KC"; it reads "1. spot 2: face down" and "4. spot 1: KC" (the card by the
    code the supervisor types in "Card really dealt", as on the blackjack tables)."""
    page = table_page
    with served("three-card-poker") as console:
        page.goto(console.url)
        log_in(page)
        page.click("#open-round")
        enter(page, 1, "bank", "500")
        enter(page, 2, "ante", "25")
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="ante"]', r"\$25\.00")
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "^Spot 2 to act$")
        console.loop.submit(DeviceFault("shuffler", "door open")).result(10)
        page.locator("#hold-screen").wait_for(state="visible")
        options = page.locator("#hold-supervisor select option").all_inner_texts()
        assert options[1:] == [*(f"{n}. spot 2: face down" for n in (1, 2, 3)),
                               f"4. spot 1: {options[4].split(': ')[1]}", "5. spot 1: face down", "6. spot 1: face down"]
        assert CODE.fullmatch(options[4].split(": ")[1]), options
