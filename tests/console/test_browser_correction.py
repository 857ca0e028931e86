"""A supervisor corrects a card already placed, from the pit view: token, reason, the card, confirmed twice."""

from __future__ import annotations

from typing import Any

from controller.events import CardCorrected
from tests.console.tables import SUPERVISOR, served
from tests.console.test_browser import enter, expect_state, expect_text, open_console, supervise


def test_a_placed_card_is_corrected_from_the_pit_view_and_the_dealer_page_shows_it(page: Any, shots: Any) -> None:
    with served("high-card-flush") as console:
        open_console(page, console.url)
        page.click("#open-round")
        enter(page, 3, "ante", "10")
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "Spot 3 to act")
        round = console.loop.round
        assert round is not None
        first = round.cards[0][1]
        spare = next(c for c in round.game.deck() if c not in {card for _, card, _ in round.cards})
        pit = page.context.browser.new_context().new_page()  # the pit's own screen, the supervisor logged in there
        open_console(pit, console.url + "/pit", SUPERVISOR)
        expect_text(pit, "#pit-supervisor-which", "1. spot 3: face down")  # High Card Flush deals face down
        pit.fill("#pit-supervisor-card", spare.code)
        supervise(pit, "pit-supervisor", "correct_placed", "camera and dealer agree on the card")
        expect_text(pit, "#message", "pick the placed card the correction replaces")
        pit.select_option("#pit-supervisor-which", "0")
        supervise(pit, "pit-supervisor", "correct_placed", "camera and dealer agree on the card")
        expect_text(pit, "#pit-supervisor .question", f"Replace the face-down card \\(spot 3\\) with {spare.code}")
        assert round.cards[0][1] is first  # nothing happens before the confirmation
        shots(pit, "confirm-correction")
        pit.fill("#pit-supervisor-pin-again", SUPERVISOR[1])
        pit.click("#pit-supervisor button.confirm")
        expect_text(pit, "#message", "spot 3: card 1 corrected")
        expect_text(page, '#layout section[data-spot="3"] .card >> nth=0', "supervisor")
        assert page.locator('#layout section[data-spot="3"] .card').first.get_attribute("data-card") is None  # still down
        assert round.cards[0][1] is spare
        shots(page, "corrected")
        assert console.log.named(CardCorrected.EVENT)[-1]["previous"] == first.code
        assert SUPERVISOR[1] not in console.log.stream.getvalue()
        page.click('#decision-actions button[data-action="fold"]')
        expect_state(page, "complete")
        pit.context.close()
