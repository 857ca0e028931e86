"""The dealer console in a real browser: full rounds entered by clicking, checked at each step.

Chromium (Debian's) is driven headless by Playwright against the real table:
config, in-process shoe or shuffler, round engine, table loop and web app.
Screenshots of every step are kept under tests/artifacts/console/.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from controller.engine.commands import DeviceFault, PlaceWager
from controller.events import LoginRefused, SupervisorActed, SupervisorRefusal, WagerRefusal
from controller.money import format_cents
from drivers.sim.process import SimulatorProcess
from tests.console.tables import DEALER, SUPERVISOR, log_in, served


def open_console(page: Any, url: str, who: tuple[str, str] = DEALER) -> None:
    """Load a console page and log in on it, as the dealer (or ``who``) does at the start of a shift."""
    page.goto(url)
    log_in(page, who)


def supervise(page: Any, panel: str, action: str, reason: str, *, pin: str = SUPERVISOR[1], again: str | None = None,
              name: str = SUPERVISOR[0]) -> None:
    """A supervisor's action on ``panel`` (``hold-supervisor``, ``pit-supervisor``): name, PIN, reason, the action;
    then, asked the question, the PIN once more and "Yes, do it"."""
    page.fill(f"#{panel}-name", name)
    page.fill(f"#{panel}-pin", pin)
    page.fill(f"#{panel}-reason", reason)
    page.click(f'#{panel} [data-supervisor="{action}"]')
    if again is not None:
        page.locator(f"#{panel} .question").wait_for()
        page.fill(f"#{panel}-pin-again", again)
        page.click(f"#{panel} button.confirm")


def wager(page: Any, spot: int, name: str) -> Any:
    return page.locator(f'#layout button.wager[data-spot="{spot}"][data-wager="{name}"]')


def enter(page: Any, spot: int, name: str, amount: str) -> None:
    """Tap the wager, see it selected, type the amount and Place."""
    wager(page, spot, name).click()
    page.locator(f'#layout button.wager[data-spot="{spot}"][data-wager="{name}"][aria-pressed="true"]').wait_for()
    page.fill("#amount", amount)
    page.click("#place")


def expect_text(page: Any, selector: str, pattern: str) -> None:
    page.locator(selector).filter(has_text=re.compile(pattern)).first.wait_for()


def expect_state(page: Any, *states: str) -> None:
    """Wait until the top bar shows the table in one of ``states`` (the round's state names, ``betting``,
    ``complete``): the bar says it in the dealer's words, and keeps the name in ``data-state``."""
    page.locator(", ".join(f'#state[data-state="{state}"]' for state in states)).first.wait_for()


def settlement_rows(page: Any) -> list[tuple[str, str, str]]:
    """(spot, wager, instruction) of every settlement line, in the order to pay and collect (each line is numbered:
    the page lays them out a row per spot, a column per wager)."""
    lines = page.locator("#settlement-rows [data-wager]")
    found = [(int(lines.nth(i).get_attribute("data-line")), lines.nth(i).get_attribute("data-spot"),
              lines.nth(i).get_attribute("data-wager"), lines.nth(i).locator(".instruction").inner_text())
             for i in range(lines.count())]
    assert sorted(n for n, *_ in found) == list(range(1, len(found) + 1))
    return [(spot, wager, instruction) for _, spot, wager, instruction in sorted(found)]


def test_a_tap_held_down_while_a_view_arrives_still_selects_the_wager(page: Any) -> None:
    """The finger is down on spot 3's Away when a view arrives (another wager placed): the page draws it once the finger
    lifts, so the tap lands on the button it pressed. Drawn at once, the press and the release met two buttons and the
    tap was lost."""
    with served("top-card") as console:
        open_console(page, console.url)
        page.click("#open-round")
        expect_state(page, "betting")
        box = wager(page, 3, "away").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        console.loop.submit(PlaceWager(1, "home", 2500)).result(5)
        time.sleep(0.5)  # the view is pushed meanwhile
        page.mouse.up()
        page.locator('#layout button.wager[data-spot="3"][data-wager="away"][aria-pressed="true"]').wait_for(timeout=5000)
        expect_text(page, '#layout button.wager[data-spot="1"][data-wager="home"]', r"\$25\.00")  # drawn once lifted
        expect_text(page, "#entry-label", "Spot 3")


def test_a_top_card_round_entered_by_clicking_settles_spot_by_spot_from_the_dealers_right(page: Any, shots: Any) -> None:
    with served("top-card") as console:
        open_console(page, console.url)
        expect_state(page, "idle")
        shots(page, "idle")
        page.click("#open-round")
        expect_state(page, "betting")
        assert wager(page, 1, "home").is_enabled()
        enter(page, 1, "home", "25")
        expect_text(page, '#layout button.wager[data-spot="1"][data-wager="home"]', r"\$25\.00")
        # placed, it is no longer selected: an amount typed now goes nowhere until a wager is tapped
        page.wait_for_selector("#place:disabled")
        expect_text(page, "#entry-label", "Tap a wager on a spot")
        wager(page, 3, "away").click()
        page.click('#entry [data-chip="5"]')
        page.click('#entry [data-chip="5"]')
        page.click("#place")
        enter(page, 3, "tie", "2")
        shots(page, "betting")
        # a correction while betting is open replaces the wager (Top Card seed: wagers before no more bets)
        enter(page, 1, "home", "30")
        expect_text(page, '#layout button.wager[data-spot="1"][data-wager="home"]', r"\$30\.00")
        assert console.loop.snapshot()["round"]["layout"][0]["wagers"][0]["amount"] == 3000
        page.click("#no-more-bets")
        expect_state(page, "complete")
        round = console.loop.round
        assert round is not None
        dealt = {target: card.code for target, card, _ in round.cards}
        for target in ("home", "away"):
            card = page.locator(f'#table-cards .card[data-target="{target}"]')
            assert card.get_attribute("data-card") == dealt[target]
            assert "shoe" in card.inner_text().lower()
        expect_text(page, "#reveal", "result")
        shots(page, "settled")
        rows = settlement_rows(page)
        # § 651b.1(f): from the dealer's right, counter-clockwise: spot 3 before spot 1
        assert [(int(s), w) for s, w, _ in rows] == [(r.spot, r.wager) for r in round.settlements]
        assert [s for s, _, _ in rows] == ["3", "3", "1"]
        for (_, _, instruction), record in zip(rows, round.settlements, strict=True):
            net = record.returned - record.stake
            if net > 0:
                assert instruction == f"pay {format_cents(net)}"
            elif record.returned == 0:
                assert instruction == f"collect {format_cents(record.stake)}"
        page.click("#open-round")
        expect_state(page, "betting")


def test_a_wager_the_engine_refuses_shows_its_reason_on_the_page(page: Any, shots: Any) -> None:
    with served("top-card") as console:
        open_console(page, console.url)
        page.click("#open-round")
        enter(page, 2, "home", "2")
        expect_text(page, "#message", r"outside the table limits \$5\.00 to \$1,000\.00")
        shots(page, "refused")
        assert console.log.named(WagerRefusal.EVENT)[-1]["reason"] == "$2.00 is outside the table limits $5.00 to $1,000.00"
        # keyboard only: focus the wager, Enter selects it, type the amount, Enter places it
        wager(page, 2, "home").focus()
        page.keyboard.press("Enter")
        expect_text(page, "#entry-label", "Spot 2 · home")
        page.keyboard.type("5")
        page.keyboard.press("Enter")
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="home"]', r"\$5\.00")
        # The table's state can reach the page before the command's own "ok", which clears the message.
        page.locator("#message").wait_for(state="hidden", timeout=5000)


def test_a_command_clicked_while_another_is_in_flight_waits_for_its_answer_and_its_refusal_stays(page: Any) -> None:
    """The console sends commands one at a time, in the order clicked. The first wager's answer is held
    back: the second wager is not sent until it comes, and the second's refusal is not cleared by the
    first's late "ok" (two commands in flight once reached the table out of order, and a refusal
    vanished)."""
    with served("top-card") as console:
        open_console(page, console.url)
        page.click("#open-round")
        expect_state(page, "betting")
        sent: list[dict[str, Any]] = []
        held: list[Any] = []

        def hold_the_first(route: Any, request: Any) -> None:
            sent.append(json.loads(request.post_data))
            if len(sent) == 1:
                held.append(route)
            else:
                route.continue_()

        page.route("**/api/command", hold_the_first)
        enter(page, 2, "home", "10")
        enter(page, 3, "home", "2")
        page.wait_for_timeout(500)
        assert len(sent) == 1 and len(held) == 1
        held[0].continue_()
        expect_text(page, "#message", r"outside the table limits \$5\.00 to \$1,000\.00")
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="home"]', r"\$10\.00")
        assert [(c.get("spot"), c.get("amount")) for c in sent] == [(2, "10"), (3, "2")], sent
        page.wait_for_timeout(300)
        assert page.locator("#message").is_visible()
        assert console.loop.round.wagers == {(2, "home"): 1000}


def test_a_three_card_poker_round_with_the_player_dealer_bank_play_and_fold(page: Any, shots: Any) -> None:
    with served("three-card-poker") as console:
        open_console(page, console.url)
        page.click("#open-round")
        expect_state(page, "betting")
        # seed 003: the player-dealer's seat takes only the bank; the others Ante and Pair Plus
        expect_text(page, '#layout section[data-spot="1"] .badge', "player-dealer")
        assert page.locator('#layout section[data-spot="1"] button.wager').count() == 1
        enter(page, 1, "bank", "500")
        enter(page, 2, "ante", "10")
        enter(page, 2, "pair_plus", "5")
        enter(page, 3, "ante", "25")
        enter(page, 4, "pair_plus", "5")
        page.click("#no-more-bets")
        # Bonus/Pair Plus 1: only with an Ante; the engine says so at "no more bets"
        expect_text(page, "#message", "a Pair Plus wager needs an Ante wager on the same spot")
        shots(page, "pair-plus-refused")
        wager(page, 4, "pair_plus").click()
        page.click("#take-back")
        expect_text(page, '#layout button.wager[data-spot="4"][data-wager="pair_plus"]', "—")
        page.click("#no-more-bets")
        expect_state(page, "decisions")
        # Round of Play 3: offered from the player-dealer's left, clockwise: spot 2 first
        expect_text(page, "#decision-label", "Spot 2 to act")
        assert sorted(page.locator("#decision-actions button").all_inner_texts()) == ["FOLD", "PLAY"]
        assert page.locator('#layout section[data-spot="2"] .card').count() == 3
        assert page.locator('#layout section[data-spot="1"] .card').count() == 3
        assert page.locator('#layout section[data-spot="2"] .card').first.get_attribute("data-source") == "shuffler"
        # Dealing procedures 3: the players' stacks lie face down; only the player-dealer's bottom card is turned up
        spot_2 = page.locator('#layout section[data-spot="2"] .card').evaluate_all("cards => cards.map(c => c.dataset.card)")
        spot_1 = page.locator('#layout section[data-spot="1"] .card').evaluate_all("cards => cards.map(c => c.dataset.card)")
        assert spot_2 == [None, None, None] and spot_1[0] is not None and spot_1[1:] == [None, None]
        shots(page, "decision-spot-2")
        page.click('#decision-actions button[data-action="play"]')
        expect_text(page, "#decision-label", "Spot 3 to act")
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="play"]', r"\$10\.00")
        page.click('#decision-actions button[data-action="fold"]')
        expect_state(page, "complete")
        shots(page, "settled")
        round = console.loop.round
        assert round is not None
        rows = settlement_rows(page)
        assert [(int(s), w) for s, w, _ in rows] == [(r.spot, r.wager) for r in round.settlements]
        assert rows[-1][:2] == ("1", "bank")
        folded = [instruction for s, w, instruction in rows if (s, w) == ("3", "ante")]
        assert folded == ["P/D takes $25.00"]  # Round of Play 3: a fold loses the Ante (to the player-dealer, "P/D")
        expect_text(page, "#fees", "Fee spot 1")
        expect_text(page, "#reveal", "qualifies")


def test_a_device_fault_puts_the_page_on_the_hold_screen_within_a_second(page: Any, shots: Any) -> None:
    with served("top-card") as console:
        open_console(page, console.url)
        page.click("#open-round")
        enter(page, 4, "home", "20")
        expect_text(page, '#layout button.wager[data-spot="4"][data-wager="home"]', r"\$20\.00")
        started = time.monotonic()
        console.loop.submit(DeviceFault("shoe", "door open"))
        page.locator("#hold-screen").wait_for(state="visible", timeout=1000)
        elapsed = time.monotonic() - started
        expect_text(page, "#hold-reason", "shoe: door open")
        expect_text(page, "#hold-help", "Call a supervisor")
        shots(page, "hold")
        assert elapsed < 1.0
        # the supervisor resumes: name, PIN (masked) and reason, then the PIN again to confirm
        supervise(page, "hold-supervisor", "resume", "door closed, shoe checked")
        expect_text(page, "#hold-supervisor .question", "Resume round")
        assert page.locator("#hold-supervisor-pin").get_attribute("type") == "password"
        assert console.loop.round is not None and console.loop.round.state == "hold"
        shots(page, "confirm-resume")
        page.fill("#hold-supervisor-pin-again", SUPERVISOR[1])
        page.click("#hold-supervisor button.confirm")
        expect_state(page, "betting")
        assert page.locator("#hold-screen").is_hidden()
        action = console.log.named(SupervisorActed.EVENT)[-1]
        assert (action["action"], action["reason"], action["by"]) == ("resume", "door closed, shoe checked", SUPERVISOR[0])
        assert SUPERVISOR[1] not in console.log.stream.getvalue()


def test_a_jammed_shoe_on_its_serial_line_puts_the_page_on_hold_within_a_second(page: Any, shots: Any) -> None:
    with SimulatorProcess("shoe", "--seed", "4") as sim, served("top-card", shoe_port=sim.port) as console:
        open_console(page, console.url)
        page.click("#open-round")
        enter(page, 1, "home", "50")
        expect_text(page, '#layout button.wager[data-spot="1"][data-wager="home"]', r"\$50\.00")
        sim.command("fault jam")
        started = time.monotonic()
        # The console's own poll of the shoe may find the jam first and cover the button with the hold
        # screen; a DOM click still sends the command (refused on hold) without waiting for the button.
        page.evaluate("document.querySelector('#no-more-bets').click()")
        page.locator("#hold-screen").wait_for(state="visible", timeout=1000)
        assert time.monotonic() - started < 1.0
        expect_text(page, "#hold-reason", "shoe: shoe fault")
        shots(page, "jam-hold")
        assert console.loop.snapshot()["devices"]["shoe"].startswith("fault: shoe fault")


def test_a_supervisor_voids_a_held_round_and_the_page_lists_every_wager_to_return(page: Any, shots: Any) -> None:
    with served("top-card") as console:
        open_console(page, console.url)
        page.click("#open-round")
        enter(page, 2, "away", "40")
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="away"]', r"\$40\.00")
        console.loop.submit(DeviceFault("shoe", "card jam"))
        page.locator("#hold-screen").wait_for(state="visible")
        supervise(page, "hold-supervisor", "void", "misdeal", pin="000000")
        expect_text(page, "#message", "refused: wrong name or PIN")
        supervise(page, "hold-supervisor", "void", "misdeal")
        expect_text(page, "#hold-supervisor .question", "Every wager on it is returned in full")
        page.fill("#hold-supervisor-pin-again", SUPERVISOR[1])
        page.click("#hold-supervisor button.confirm")
        page.locator("#void-screen").wait_for(state="visible")
        expect_text(page, "#void-reason", "misdeal")
        expect_text(page, "#void-returns", r"Spot 2 away: return \$40\.00")
        shots(page, "void")
        page.click("#void-next")
        expect_state(page, "betting")


def test_reloading_the_page_mid_round_restores_the_round_as_it_is(page: Any, shots: Any) -> None:
    with served("three-card-poker") as console:
        open_console(page, console.url)
        page.click("#open-round")
        enter(page, 1, "bank", "300")
        enter(page, 5, "ante", "15")
        enter(page, 6, "ante", "5")
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "Spot 5 to act")
        page.click('#decision-actions button[data-action="play"]')
        expect_text(page, "#decision-label", "Spot 6 to act")
        before = page.locator("#layout .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
        page.reload()
        expect_text(page, "#decision-label", "Spot 6 to act")
        shots(page, "after-reload")
        after = page.locator("#layout .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
        assert after == before and len(after) == 9
        expect_text(page, '#layout button.wager[data-spot="5"][data-wager="play"]', r"\$15\.00")
        page.click('#decision-actions button[data-action="play"]')
        expect_state(page, "complete")


def test_the_pit_view_shows_meters_last_rounds_and_device_faults(page: Any, shots: Any) -> None:
    with served("top-card", simulated=True) as console:
        open_console(page, console.url + "/pit", SUPERVISOR)
        expect_text(page, "#recent", "Settled")  # a past round in a supervisor's word: it showed the state's name
        page.locator("#recent tr").nth(3).wait_for()
        expect_text(page, "#meters", r"^rounds")
        assert page.locator("#meters td").first.inner_text() == "3"
        console.loop.submit(DeviceFault("shoe", "communication lost"))
        expect_text(page, "#devices", "shoe: fault: communication lost")
        expect_text(page, "#faults", "communication lost")
        # the event list in a person's words, money in dollars: it showed each event's fields as JSON, amounts in cents
        expect_text(page, "#events li", r"(house win|wagered|amount|stake) -?\$\d+\.\d\d")
        assert not [t for t in page.locator("#events li").all_inner_texts() if '{"' in t or "exact" in t]
        shots(page, "pit")


def test_a_dealer_who_mistypes_their_pin_is_locked_out_never_the_supervisor_at_the_same_screen(page: Any, shots: Any) -> None:
    """Everyone at the table's own screen comes from 127.0.0.1: wrong PINs lock the name tried, and the address only
    after many more, so the supervisor called to the table logs in and clears the hold at that screen."""
    with served("top-card") as console:
        page.goto(console.url)
        for _ in range(3):
            page.fill("#login-name", DEALER[0])
            page.fill("#login-pin", "1357")
            page.click("#login-submit")
            expect_text(page, "#login-why", "wrong name or PIN")
            page.evaluate("document.getElementById('login-why').textContent = ''")  # each answer seen anew
        page.fill("#login-name", DEALER[0])
        page.fill("#login-pin", DEALER[1])  # the right PIN, too late: the name is locked
        page.click("#login-submit")
        expect_text(page, "#login-why", rf"too many wrong tries for {DEALER[0]}: try again in \d+ s")
        shots(page, "dealer-locked")
        log_in(page, SUPERVISOR)  # the same screen, another name
        page.click("#open-round")
        enter(page, 2, "home", "25")
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="home"]', r"\$25\.00")  # placed before the hold
        console.loop.submit(DeviceFault("shoe", "door open"))
        page.locator("#hold-screen").wait_for(state="visible")
        for _ in range(3):  # the dealer tries to clear the hold: not a supervisor, and locked
            supervise(page, "hold-supervisor", "resume", "trying", name=DEALER[0], pin=DEALER[1])
            expect_text(page, "#message", "too many wrong (tries|PINs)|not a supervisor")
        supervise(page, "hold-supervisor", "resume", "door closed", again=SUPERVISOR[1])
        page.locator("#hold-screen").wait_for(state="hidden")
        expect_state(page, "betting")
        shots(page, "supervisor-resumed")
        refused = [(r["name"], r["reason"]) for r in console.log.named(LoginRefused.EVENT)]
        assert refused[:3] == [(DEALER[0], "wrong name or PIN")] * 3
        assert refused[3][0] == DEALER[0] and refused[3][1].startswith("too many wrong PINs: locked for") and len(refused) == 4
        assert [r["name"] for r in console.log.named(SupervisorRefusal.EVENT)] == [DEALER[0]] * 3
        assert console.log.named(SupervisorActed.EVENT)[-1]["by"] == SUPERVISOR[0]
