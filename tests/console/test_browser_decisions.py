"""The dealer page's pickers in a real browser: raise amounts, dice and piles, pai gow hand setting, tiles keyed in.

Each test clicks through a round on the real table (config, in-process
shuffler or dealer entry, round engine, table loop, web app) and checks what
the page shows; screenshots go to tests/artifacts/console/.
"""

from __future__ import annotations

import time
from typing import Any

from controller.events import DecisionRefusal, DecisionTaken
from controller.rules.pai_gow_poker.hands import foul_reason, settings
from controller.rules.pai_gow_tiles.ranking import hand_value
from controller.tiles import TILE_SET, Tile
from tests.console.tables import served
from tests.console.test_browser import enter, expect_state, expect_text, open_console, settlement_rows

FIVE_CARD_FLUSH_SEED = 28
"""The shuffler's seed that gives spot 2 a five-card flush: it may raise 1x or 2x the Ante."""


def pick(page: Any, index: int, value: int) -> None:
    page.click(f'#decision-actions button[data-value-index="{index}"][data-value="{value}"]')


def name(page: Any, card: str) -> None:
    """Tap ``card`` on the hand-setting screen's list of the game's cards (the hand itself lies face down): the
    first tap names it (front hand, high hand, a discard), the next takes it back."""
    page.click(f'#decision-actions button[data-choice="{card}"]')


def test_a_high_card_flush_raise_is_picked_from_the_allowed_multiples(page: Any, shots: Any) -> None:
    with served("high-card-flush", seed=FIVE_CARD_FLUSH_SEED) as console:
        open_console(page, console.url)
        page.click("#open-round")
        enter(page, 2, "ante", "10")
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "Spot 2 to act")
        # rules-notes: a five-card flush raises up to 2x the Ante: the page offers $10 and $20
        offered = page.locator('#decision-actions button[data-action="raise"][data-amount]:not([data-amount="other"])')
        assert offered.all_inner_texts() == ["RAISE $10.00", "RAISE $20.00"]
        assert page.locator('#decision-actions button[data-action="fold"]').is_visible()
        shots(page, "raise-offered")
        page.fill("#decision-amount", "30")
        page.click('#decision-actions button[data-amount="other"]')
        expect_text(page, "#message", r"a 5-card flush may raise \$10\.00 to \$20\.00 \(1x to 2x the Ante\), not \$30\.00")
        shots(page, "raise-refused")
        assert console.log.named(DecisionRefusal.EVENT)[-1]["amount"] == 3000
        page.click('#decision-actions button[data-amount="20.00"]')
        expect_state(page, "complete")
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="raise"]', r"\$20\.00")
        assert [(s, w) for s, w, _ in settlement_rows(page)] == [("2", "ante"), ("2", "raise")]
        shots(page, "settled")


def test_a_pai_gow_hand_is_set_by_tapping_cards_and_a_foul_setting_is_refused(page: Any, shots: Any) -> None:
    with served("double-hand-poker") as console:
        open_console(page, console.url)
        page.click("#open-round")
        enter(page, 1, "bank", "500")
        enter(page, 3, "bet", "20")
        page.click("#no-more-bets")
        # seed 003 "Game Description": the player-dealer names the first pile, then throws three dice
        expect_text(page, "#decision-label", "Spot 1 to act")
        assert page.locator('#decision-actions button[data-value-index="0"]').count() == 7
        pick(page, 0, 3)
        shots(page, "first-pile")
        page.click('#decision-actions button[data-action="first-pile"]')
        page.locator('#decision-actions button[data-value-index="2"]').first.wait_for()
        assert page.locator('#decision-actions button[data-action="dice"]').is_disabled()
        for index, value in enumerate((2, 3, 3)):
            pick(page, index, value)
        shots(page, "dice")
        page.click('#decision-actions button[data-action="dice"]')
        expect_text(page, "#decision-label", "Spot 3 to act")
        hand = console.loop.round.hand.hands[3]  # type: ignore[union-attr]
        expect_text(page, "#decision-actions .setter h3", r"Front hand \(0 of 2\); the other 7 make the back hand")
        assert page.locator("#decision-actions button[data-choice]").count() == 53  # the deck, never the hand
        foul = next(s for s in settings(hand) if foul_reason(s.front, s.back, "lowest"))
        for card in foul.front:
            name(page, card.code)
        expect_text(page, "#decision-actions .setter h3", r"Front hand \(2 of 2\)")
        page.click('#decision-actions button[data-action="set"]')
        expect_text(page, "#message", "seat 3: foul hand")
        shots(page, "foul-refused")
        for card in foul.front:
            name(page, card.code)
        legal = next(s for s in settings(hand) if not foul_reason(s.front, s.back, "lowest"))
        for card in legal.front:
            name(page, card.code)
        shots(page, "legal-setting")
        page.click('#decision-actions button[data-action="set"]')
        expect_text(page, "#decision-label", "Spot 1 to act")
        assert console.loop.round.hand.set_hands[3].same_as(legal)  # type: ignore[union-attr]
        page.click('#decision-actions button[data-action="house-way"]')
        expect_state(page, "complete")
        assert [(s, w) for s, w, _ in settlement_rows(page)] == [("3", "bet"), ("1", "bank")]
        shots(page, "settled")


def test_pai_gow_tiles_are_keyed_in_from_the_picker_and_a_wrong_tile_is_refused(page: Any, shots: Any) -> None:
    with served("pai-gow-tiles") as console:
        open_console(page, console.url)
        page.click("#open-round")
        enter(page, 1, "bank", "1000")
        enter(page, 4, "main", "20")
        page.click("#no-more-bets")
        expect_text(page, "#piece-entry-label", "Key the tile dealt to stack 1")
        assert page.locator("#piece-grid button.piece").count() == 21  # the 21 faces of the 32-tile set
        page.fill("#piece-code", "7-7")
        page.keyboard.press("Enter")
        expect_text(page, "#message", "unknown tile '7-7'")
        page.click('#piece-grid button[data-piece="2-4"]')
        expect_text(page, "#piece-entry-label", "Key the tile dealt to stack 1")
        page.click('#piece-grid button[data-piece="2-4"]')
        # the page never names a tile lying face down, not even in a refusal of the dealer's own keying
        expect_text(page, "#message", r"the tile keyed, \?\?, is already dealt this round: the set holds 1 and it is out")
        shots(page, "tile-refused")
        rest = list(TILE_SET)
        rest.remove(Tile.parse("2-4"))
        for n, tile in enumerate(rest, 2):
            page.click(f'#piece-grid button[data-piece="{tile.code}"]')
            if n < 32:
                expect_text(page, "#piece-entry-label", f"stack {(n // 4) + 1}$")
        page.locator("#piece-entry").wait_for(state="hidden")
        assert page.locator('#table-cards .card[data-target="stack8"]').count() == 4
        assert "dealer" in page.locator("#table-cards .card").first.inner_text().lower()
        for index, value in enumerate((1, 1, 1)):
            pick(page, index, value)
        page.click('#decision-actions button[data-action="dice"]')
        expect_text(page, "#decision-label", "Spot 4 to act")
        tiles = list(console.loop.round.hand.hands[4])  # type: ignore[union-attr]
        pairs = [(a, b) for i, a in enumerate(tiles) for b in tiles[i + 1:]]
        worst = min(pairs, key=hand_value)
        others = list(tiles)
        for tile in worst:
            others.remove(tile)
        assert hand_value(worst) < hand_value(others), "seed 7 deals spot 4 tiles that can be set foul"
        for tile in worst:
            name(page, tile.code)  # the weakest pair named as the high hand: foul
        expect_text(page, "#decision-actions .setter h3", r"High hand \(2 of 2\)")
        page.click('#decision-actions button[data-action="set"]')
        expect_text(page, "#message", "foul: the high hand must rank at least as high as the low hand")
        shots(page, "tiles-foul")
        page.click('#decision-actions button[data-action="house-way"]')
        expect_text(page, "#decision-label", "Spot 1 to act")
        page.click('#decision-actions button[data-action="house-way"]')
        expect_state(page, "complete")
        assert [(s, w) for s, w, _ in settlement_rows(page)] == [("4", "main"), ("1", "bank")]
        shots(page, "settled")


def tap(page: Any, console: Any, selector: str) -> dict[str, Any] | None:
    """Click, wait for the table to take it and for the page to show whose turn it is now; the new pending decision."""
    before = console.loop.snapshot()["version"]
    page.click(selector)
    deadline = time.monotonic() + 5
    while console.loop.snapshot()["version"] == before:
        assert time.monotonic() < deadline, f"the table did not take {selector}"
        time.sleep(0.01)
    pending = console.loop.snapshot()["round"]["pending"]
    if pending is not None:
        expect_text(page, "#decision-label", f"^Spot {pending['spot']} to act$")
        page.locator(f'#decision-actions [data-action="{pending["actions"][0]}"]').first.wait_for()
    return pending


def test_a_lowball_hand_is_dealt_in_raised_by_button_and_drawn_by_tapping_the_discards(page: Any, shots: Any) -> None:
    with served("lowball") as console:
        open_console(page, console.url)
        page.click("#open-round")
        for spot in (2, 4, 6):
            page.click(f'#layout button[data-sit="{spot}"]')
            expect_text(page, f'#layout section[data-spot="{spot}"] .badge', "dealt in")
        shots(page, "dealt-in")
        pending = tap(page, console, "#no-more-bets")
        while pending is not None and pending["actions"] == ["post"]:
            pending = tap(page, console, '#decision-actions button[data-action="post"]')
        # Low-ball "2 to 6" spread limit: the smallest and the largest raise are offered
        raises = page.locator('#decision-actions button[data-action="raise"][data-amount]:not([data-amount="other"])')
        assert raises.count() == 2
        largest = raises.nth(1).get_attribute("data-amount")
        shots(page, "raise-offered")
        pending = tap(page, console, f'#decision-actions button[data-action="raise"][data-amount="{largest}"]')
        assert console.log.named(DecisionTaken.EVENT)[-1]["amount"] == round(float(largest) * 100)  # type: ignore[arg-type]
        while pending is not None and "draw" not in pending["actions"]:
            action = "call" if "call" in pending["actions"] else "check"
            pending = tap(page, console, f'#decision-actions button[data-action="{action}"]')
        assert pending is not None
        discards = [c.code for c in console.loop.round.hand.holes[pending["spot"]]][:2]  # type: ignore[union-attr]
        for code in discards:
            name(page, code)
        expect_text(page, "#decision-actions .setter h3", r"Discard \(2 of 5\)")
        shots(page, "draw")
        pending = tap(page, console, '#decision-actions button[data-action="draw"]')
        assert [c.code for c in console.loop.round.hand.discards] == discards  # type: ignore[union-attr]
        while pending is not None:
            action = next(a for a in ("draw", "check", "call") if a in pending["actions"])
            pending = tap(page, console, f'#decision-actions button[data-action="{action}"]')
        expect_state(page, "complete")
        assert {s for s, _, _ in settlement_rows(page)} == {"2", "4", "6"}
        shots(page, "settled")
