"""A new dealer's and supervisor's walk through the console at the table's 1024x600 touch screen: what they saw
that did not say or do what it should, each checked here in Chromium as they met it."""

from __future__ import annotations

from typing import Any

from controller.engine.commands import DeviceFault
from tests.console.tables import SUPERVISOR, served
from tests.console.test_browser import enter, expect_state, expect_text, open_console, supervise, wager
from tests.console.test_browser_decisions import FIVE_CARD_FLUSH_SEED


def test_no_more_bets_refused_for_a_side_wager_names_its_spot(page: Any) -> None:
    """Eight spots of three wagers: "a side wager needs a base game wager at the same spot" left the dealer to find
    which spot; the refusal names it and the wager."""
    with served("no-bust-21") as console:
        open_console(page, console.url)
        page.click("#open-round")
        expect_state(page, "betting")
        enter(page, 1, "bank", "500")
        enter(page, 2, "base", "10")
        enter(page, 4, "bonus", "5")
        expect_text(page, '#layout button.wager[data-spot="4"][data-wager="bonus"]', r"\$5\.00")
        page.click("#no-more-bets")
        expect_text(page, "#message", "spot 4 bonus: a side wager needs a base game wager at the same spot")
        wager(page, 4, "bonus").click()
        page.click("#take-back")
        page.click("#no-more-bets")
        expect_state(page, "decisions", "complete")  # dealt: the refusal was the only thing in the way


def test_the_reveal_shows_the_player_dealers_bank_in_dollars(page: Any) -> None:
    """The line under the status read "bank: 50000" for a $500.00 bank: cents on the dealer's screen."""
    with served("no-bust-21") as console:
        open_console(page, console.url)
        page.click("#open-round")
        expect_state(page, "betting")
        enter(page, 1, "bank", "500")
        enter(page, 2, "base", "10")
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="base"]', r"\$10\.00")
        page.click("#no-more-bets")
        for _ in range(10):  # stand on whatever is asked until the round is settled
            page.locator('#state[data-state="complete"], #decision-actions button[data-action="stand"]').first.wait_for()
            if page.locator("#state").get_attribute("data-state") == "complete":
                break
            page.click('#decision-actions button[data-action="stand"]')
            page.wait_for_timeout(300)
        expect_text(page, "#reveal", r"bank: \$500\.00")
        assert "50000" not in page.inner_text("#reveal")


def test_a_chip_adds_dollars_to_the_amount_typed(page: Any) -> None:
    """$1.06 and a +5 chip read "6.0600000000000005" (then refused: not an amount of money), and "$10" and +5
    read "5": the chips added floats, and dropped an amount written with its dollar sign."""
    with served("top-card") as console:
        open_console(page, console.url)
        page.click("#open-round")
        expect_state(page, "betting")
        wager(page, 1, "home").click()
        page.fill("#amount", "1.06")
        page.click('[data-chip="5"]')
        assert page.input_value("#amount") == "6.06"
        page.click('[data-chip="100"]')
        assert page.input_value("#amount") == "106.06"
        page.fill("#amount", "$10")
        page.click('[data-chip="5"]')
        assert page.input_value("#amount") == "15"
        page.click("#place")
        expect_text(page, '#layout button.wager[data-spot="1"][data-wager="home"]', r"\$15\.00")
        wager(page, 2, "home").click()
        page.fill("#amount", "ten")
        page.click('[data-chip="5"]')
        assert page.input_value("#amount") == "ten"  # left as typed, and said why
        expect_text(page, "#message", "not an amount of money: 'ten'")


def test_place_with_no_amount_keeps_the_wager_and_says_so(page: Any) -> None:
    """A placed wager tapped, its amount cleared and Place tapped: the wager went (sent as $0.00) with no word on
    screen. Take back removes a wager; an empty amount is asked for."""
    with served("top-card") as console:
        open_console(page, console.url)
        page.click("#open-round")
        expect_state(page, "betting")
        enter(page, 1, "home", "25")
        expect_text(page, '#layout button.wager[data-spot="1"][data-wager="home"]', r"\$25\.00")
        wager(page, 1, "home").click()
        page.click("#amount-clear")
        page.click("#place")
        expect_text(page, "#message", "enter an amount for home on spot 1")
        assert console.loop.round is not None and console.loop.round.wagers == {(1, "home"): 2500}
        expect_text(page, '#layout button.wager[data-spot="1"][data-wager="home"]', r"\$25\.00")


def test_a_slow_answer_leaves_the_next_amount_being_typed(page: Any) -> None:
    """On a slow network the dealer placed spot 1, tapped spot 2 and typed 30 before the answer came: the answer
    cleared the field, and a Place then sent nothing (or took spot 2's wager back)."""
    with served("top-card") as console:
        open_console(page, console.url)
        page.click("#open-round")
        expect_state(page, "betting")
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions",
                 {"offline": False, "latency": 1500, "downloadThroughput": -1, "uploadThroughput": -1})
        wager(page, 1, "home").click()
        page.fill("#amount", "20")
        with page.expect_response("**/api/command"):  # spot 1's answer, come while spot 2's amount is typed
            page.click("#place")
            wager(page, 2, "home").click()
            page.locator("#amount").press_sequentially("30")
        page.wait_for_timeout(300)
        assert page.input_value("#amount") == "30"
        cdp.send("Network.emulateNetworkConditions",
                 {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        page.click("#place")
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="home"]', r"\$30\.00")


def test_a_pin_mistyped_at_the_confirmation_is_what_the_screen_says(page: Any) -> None:
    """A held round: the supervisor's first try refused (no reason given), then their PIN taken and the question asked
    while the refusal still stood above it; then the PIN mistyped at the confirmation: the refusal journaled, the view
    that followed showed the table's older answer again in place of "wrong name or PIN"."""
    with served("top-card") as console:
        open_console(page, console.url)
        page.click("#open-round")
        expect_state(page, "betting")
        enter(page, 1, "home", "25")
        enter(page, 2, "tie", "500")  # refused by the table, not the page: the views carry it as its last answer
        expect_text(page, "#message", "outside the table limits")
        console.loop.submit(DeviceFault("shoe", "door open")).result(5)
        expect_state(page, "hold")
        page.fill("#hold-supervisor-card", "QH")  # no card is due yet: the table refuses it, its last answer
        supervise(page, "hold-supervisor", "correct_card", "card shown", again=SUPERVISOR[1])
        page.locator("#message").filter(has_text="no card is due").wait_for()
        refused = page.inner_text("#message")
        supervise(page, "hold-supervisor", "resume", "")
        expect_text(page, "#message", "reason")
        supervise(page, "hold-supervisor", "resume", "door closed")
        page.locator("#hold-supervisor .question").wait_for()
        assert not page.locator("#message").is_visible()  # the refusal before the PIN was taken is gone
        page.fill("#hold-supervisor-pin-again", "000000")
        page.click("#hold-supervisor button.confirm")
        expect_text(page, "#message", "wrong name or PIN")
        page.wait_for_timeout(1500)  # the refusal journaled, and views pushed meanwhile
        assert "wrong name or PIN" in page.inner_text("#message"), refused


def test_a_raise_of_other_amount_with_nothing_typed_is_not_taken(page: Any) -> None:
    """"Raise other amount" tapped before the amount was typed raised the smallest amount ($10, 1x) for a five-card
    flush the player may raise 2x, and went on to the next spot without a word."""
    with served("high-card-flush", seed=FIVE_CARD_FLUSH_SEED) as console:
        open_console(page, console.url)
        page.click("#open-round")
        enter(page, 2, "ante", "10")
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "Spot 2 to act")
        page.click('#decision-actions button[data-amount="other"]')
        expect_text(page, "#message", "enter the raise amount first")
        assert console.loop.round is not None and console.loop.round.decisions == []
        page.fill("#decision-amount", "20")
        page.click('#decision-actions button[data-amount="other"]')
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="raise"]', r"\$20\.00")


def test_after_a_resume_the_keyboard_goes_on_at_the_table(page: Any) -> None:
    """A supervisor resumed with the keyboard (the PIN again and Enter): the hold screen closed and the focus fell to the
    top of the page, so keyboard-only dealing started again from the login bar."""
    with served("top-card") as console:
        open_console(page, console.url)
        page.click("#open-round")
        enter(page, 4, "home", "20")
        expect_text(page, '#layout button.wager[data-spot="4"][data-wager="home"]', r"\$20\.00")
        console.loop.submit(DeviceFault("shoe", "door open"))
        page.locator("#hold-screen").wait_for(state="visible")
        supervise(page, "hold-supervisor", "resume", "door closed")
        page.locator("#hold-supervisor .question").wait_for()
        page.fill("#hold-supervisor-pin-again", SUPERVISOR[1])
        page.press("#hold-supervisor-pin-again", "Enter")
        expect_state(page, "betting")
        page.wait_for_function("() => document.activeElement && document.activeElement.closest('#main') !== null"
                               " && document.activeElement.tagName === 'BUTTON'", timeout=5000)
