"""A supervisor corrects a card already placed, from the pit view: token, reason, the card, confirmed twice."""

from __future__ import annotations

from typing import Any

from tests.console.tables import SUPERVISOR_TOKEN, served
from tests.console.test_browser import enter, expect_text


def test_a_placed_card_is_corrected_from_the_pit_view_and_the_dealer_page_shows_it(page: Any, shots: Any) -> None:
    with served("high-card-flush") as console:
        page.goto(console.url)
        page.click("#open-round")
        enter(page, 3, "ante", "10")
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "Spot 3 to act")
        round = console.loop.round
        assert round is not None
        first = round.cards[0][1]
        spare = next(c for c in round.game.deck() if c not in {card for _, card, _ in round.cards})
        pit = page.context.new_page()
        pit.goto(console.url + "/pit")
        expect_text(pit, "#pit-supervisor-which", f"1. spot 3: {first.code}")
        pit.fill("#pit-supervisor-token", SUPERVISOR_TOKEN)
        pit.fill("#pit-supervisor-reason", "camera and dealer agree on the card")
        pit.fill("#pit-supervisor-card", spare.code)
        pit.click('#pit-supervisor [data-supervisor="correct_placed"]')
        expect_text(pit, "#message", "pick the placed card the correction replaces")
        pit.select_option("#pit-supervisor-which", "0")
        pit.click('#pit-supervisor [data-supervisor="correct_placed"]')
        expect_text(pit, "#pit-supervisor .question", f"Replace {first.code} \\(spot 3\\) with {spare.code}")
        assert round.cards[0][1] is first  # nothing happens before the confirmation
        shots(pit, "confirm-correction")
        pit.click("#pit-supervisor button.confirm")
        expect_text(pit, "#message", f"spot 3: {first.code} corrected to {spare.code}")
        corrected = page.locator('#layout section[data-spot="3"] .card').first
        expect_text(page, '#layout section[data-spot="3"] .card >> nth=0', "supervisor")
        assert corrected.get_attribute("data-card") == spare.code
        shots(page, "corrected")
        assert console.log.named("card_corrected")[-1]["previous"] == first.code
        assert SUPERVISOR_TOKEN not in console.log.stream.getvalue()
        page.click('#decision-actions button[data-action="fold"]')
        expect_text(page, "#state", "complete")
        pit.close()
