"""Holds are always clearable from the page: every device fault, and a player-dealer game that stops.

Each device fault the reference protocol names is raised on a reference shoe
simulator (its own process, on a pseudo-terminal) while betting is open: the
dealer page shows the hold screen with the fault, the device's state as it is
now (polled while the table waits), and a supervisor resumes or voids the
round from the page with their PIN, typed twice. A player-dealer game whose
position nobody takes shows why and waits; the dealer taps the seat that takes
it and the game goes on. A round voided while its device is still unplugged
keeps its returns on screen beside the device's hold until the next round
opens. ``test_front_ends.py`` does the same through ``tablectl serve`` and
``tablectl run --console``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from controller.console.server import ConsoleServer
from controller.console.settings import ConsoleSettings
from controller.events import (
    DeviceFaultReported,
    PositionTaken,
    RoundStarted,
    RoundVoided,
    ShoeFaulted,
    ShoeShuffled,
    ShufflerShuffled,
    StackDispensed,
    SupervisorActed,
    SupervisorRefusal,
    WagerSettled,
)
from controller.records.journal import Journal
from drivers.protocol.messages import Code
from drivers.sim.process import SimulatorProcess
from tests.console.tables import SUPERVISOR, accounts, served
from tests.console.test_browser import enter, expect_state, expect_text, open_console, supervise
from tests.console.test_browser_hidden import SIZES as HIDDEN_SIZES
from tests.console.test_held_after_restart import held_with_a_stack_out, records, served as served_on_journal, table_file

FAULTS = [c.slug for c in (Code.JAM, Code.DOOR_OPEN, Code.COUNT_MISMATCH, Code.EMPTY, Code.DUPLICATE_CARD,
                           Code.UNRECOGNISED_CARD, Code.INTEGRITY)]
"""The device faults of the reference protocol (``docs/protocol.md``); ``unplug`` is the lost link."""
VOIDED = ("count-mismatch", "duplicate-card", "integrity")
"""Faults after which the supervisor voids the round (the deck is in doubt); after the others the round resumes."""


@pytest.mark.parametrize("fault", [*FAULTS, "unplug"])
def test_a_device_fault_holds_the_round_and_a_supervisor_clears_it_from_the_page(page: Any, shots: Any, fault: str) -> None:
    with SimulatorProcess("shoe", "--seed", "4") as sim, served("top-card", shoe_port=sim.port) as console:
        open_console(page, console.url)
        page.click("#open-round")
        enter(page, 2, "home", "25")
        expect_text(page, '#layout button.wager[data-spot="2"][data-wager="home"]', r"\$25\.00")
        sim.command("unplug 3" if fault == "unplug" else f"fault {fault}")
        page.locator("#hold-screen").wait_for(state="visible")
        expect_text(page, "#hold-reason", "Held: shoe")
        expect_text(page, '#hold-supervisor [data-supervisor="resume"]', "^Resume round$")  # a round in play
        if fault != "unplug":
            expect_text(page, "#hold-now", rf"shoe now: fault: shoe fault \({fault}\)")
            shots(page, "held")
            sim.command("clear")
        expect_text(page, "#hold-now", "shoe now: ready")  # cleared at the machine: the screen says so at once
        shots(page, "cleared-at-the-device")
        action = "void" if fault in VOIDED else "resume"
        supervise(page, "hold-supervisor", action, f"{fault} dealt with at the shoe", again=SUPERVISOR[1])
        if action == "void":
            page.locator("#void-screen").wait_for(state="visible")
            expect_text(page, "#void-returns", r"Spot 2 home: return \$25\.00")
            page.click("#void-next")
        page.locator("#hold-screen").wait_for(state="hidden")
        expect_state(page, "betting")
        done = console.log.named(SupervisorActed.EVENT)[-1]
        assert (done["action"], done["by"]) == (action, SUPERVISOR[0])
        assert console.log.named(DeviceFaultReported.EVENT)[0]["device"] == "shoe"


def test_a_stopped_player_dealer_game_shows_why_and_waits_until_a_player_takes_the_position(page: Any, shots: Any) -> None:
    # seed 003, Three Card Poker general rules: the position passes clockwise after two banks; nobody: the game stops
    with served("three-card-poker") as console:
        open_console(page, console.url)
        for _bank in (1, 2):
            page.click("#open-round")
            enter(page, 1, "bank", "300")
            enter(page, 4, "ante", "10")
            page.click("#no-more-bets")
            expect_text(page, "#decision-label", "Spot 4 to act")
            page.click('#decision-actions button[data-action="fold"]')
            expect_state(page, "complete")
        page.locator("#stop-screen").wait_for(state="visible")
        expect_text(page, "#stop-reason", "no player intervened to take the player-dealer position from seat 1")
        assert page.locator("#open-round").is_hidden()
        seats = page.locator("#stop-seats button").evaluate_all("buttons => buttons.map(b => b.dataset.takePosition)")
        assert seats == ["2", "3", "4", "5", "6", "7", "8"]  # clockwise from seat 1, never seat 1 again
        shots(page, "stopped")
        assert console.loop.alive and console.loop.failure is None
        page.click('#stop-seats button[data-take-position="4"]')
        page.locator("#stop-screen").wait_for(state="hidden")
        page.click("#open-round")
        expect_text(page, '#layout section[data-spot="4"] .badge', "player-dealer")
        taken = console.log.named(PositionTaken.EVENT)[-1]
        assert (taken["player_dealer"], taken["round"]) == (4, "TCP-01-TEST-000002")
        shots(page, "new-player-dealer")


DOWN = {
    # device: (game, stakes as (spot, wager, dollars), the control command that unplugs it, and when)
    "shoe": ("top-card", ((2, "home", "25"), (5, "away", "40")), "unplug 600", "while betting is open"),
    "shuffler": ("three-card-poker", ((1, "bank", "300"), (4, "ante", "10")), "on dispense unplug 600",
                 "as it dispenses a stack (the stack is lost)"),
}
UNPLUGGED = r"(stopped answering|communication-lost)"
"""How the page says a device is unplugged (the reference drivers' words)."""


SIZES = ((1280, 900), *HIDDEN_SIZES)
"""The viewports the console tests use: the browser fixture's, and the table screens' (``test_browser_hidden``)."""
READ = ("#message", "#state", "#hold-title", "#hold-reason", "#hold-now", "#hold-help", "#void-title", "#void-reason",
        "#void-help", "#void-returns", "#stop-title", "#stop-reason")
"""What a supervisor reads on the dealer page while a screen covers the table (each one shown is checked)."""


def covered(page: Any, selectors: tuple[str, ...] = READ) -> list[str]:
    """What of ``selectors`` (those shown) is covered by something else, or off the screen: points across each box,
    its corners and middle, must each be the element's own."""
    return list(page.evaluate("""(selectors) => {
        const out = [];
        for (const selector of selectors) {
            const node = document.querySelector(selector);
            if (node === null || node.closest('[hidden]') || !node.textContent.trim()) continue;
            const box = node.getBoundingClientRect();
            if (box.width === 0 || box.height === 0) continue;
            if (box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight) {
                out.push(selector + ' is off the screen'); continue;
            }
            const xs = [box.left + 3, box.left + box.width / 4, box.left + box.width / 2, box.right - box.width / 4, box.right - 3];
            const ys = [box.top + 3, box.top + box.height / 2, box.bottom - 3];
            for (const x of xs) for (const y of ys) {
                const top = document.elementFromPoint(x, y);
                if (top === null || !(node === top || node.contains(top))) {
                    out.push(selector + ' is covered at (' + Math.round(x) + ', ' + Math.round(y) + ') by ' +
                             (top ? top.tagName.toLowerCase() + (top.id ? '#' + top.id : '') : 'nothing'));
                    break;
                }
            }
        }
        return out;
    }""", list(selectors)))


def nothing_covered(page: Any, shots: Any, step: str) -> None:
    """At each viewport the console tests use, nothing a supervisor reads is covered or off the screen."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(80)
        shots(page, f"{step}-{width}x{height}")
        assert not covered(page), f"{step} at {width}x{height}: {covered(page)}"
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


@pytest.mark.parametrize("device", sorted(DOWN))
def test_a_round_voided_while_its_device_is_unplugged_shows_the_returns_and_the_devices_hold_until_each_is_done(
    page: Any, shots: Any, device: str,
) -> None:
    game, stakes, unplug, _ = DOWN[device]
    with SimulatorProcess(device, "--seed", "4") as sim, served(game, **{f"{device}_port": sim.port}) as console:
        open_console(page, console.url)
        page.click("#open-round")
        for spot, wager, dollars in stakes:
            enter(page, spot, wager, dollars)
            expect_text(page, f'#layout button.wager[data-spot="{spot}"][data-wager="{wager}"]', rf"\${dollars}\.00")
        sim.command(unplug)
        if device == "shuffler":
            page.click("#no-more-bets")
        page.locator("#hold-screen").wait_for(state="visible")
        expect_text(page, "#hold-now", rf"{device} now: fault: .*{UNPLUGGED}")  # the supervisor sees it is down
        supervise(page, "hold-supervisor", "void", f"the {device} is unplugged", again=SUPERVISOR[1])

        # the round is over and its wagers go back, while the device is still down: both screens, side by side
        page.locator("#void-screen").wait_for(state="visible")
        expect_text(page, "#hold-reason", rf"Held: {device}: .*{UNPLUGGED}")
        assert page.locator("#void-screen").is_visible() and page.locator("#hold-screen").is_visible()
        expect_text(page, "#void-reason", f"the {device} is unplugged")
        for spot, wager, dollars in stakes:
            expect_text(page, "#void-returns", rf"Spot {spot} {wager}: return \${dollars}\.00")
        expect_text(page, "#message", "voided")  # the confirmation, on its own line: it covers no screen's title
        nothing_covered(page, shots, "void-beside-the-hold")
        expect_state(page, "hold")
        assert page.locator("#void-next").is_disabled()  # no next round while the device is down
        expect_text(page, "#void-help", "once the table's hold is cleared")

        sim.command("plug")
        expect_text(page, "#hold-now", f"{device} now: ready")
        assert page.locator("#void-screen").is_visible()
        supervise(page, "hold-supervisor", "resume", f"the {device} is plugged in again", again=SUPERVISOR[1])
        page.locator("#hold-screen").wait_for(state="hidden")
        assert page.locator("#void-screen").is_visible()  # the returns stay until the dealer opens the next round
        shots(page, "void-after-the-hold")
        page.click("#void-next")
        expect_state(page, "betting")
        page.locator("#void-screen").wait_for(state="hidden")

        # the journal: the void whole (every wager returned), then the table held for the device, then the resume
        records = console.log.records()
        events = [r["event"] for r in records]
        voided = events.index(RoundVoided.EVENT)
        returned = {(r["spot"], r["wager"]): r["returned"] for r in records[:voided] if r["event"] == WagerSettled.EVENT}
        assert returned == {(spot, wager): int(dollars) * 100 for spot, wager, dollars in stakes}
        held = events.index(DeviceFaultReported.EVENT, voided)
        assert (records[held]["device"], records[held]["round"]) == (device, None)
        assert re.search(UNPLUGGED, records[held]["reason"])
        actions = [(r["action"], r.get("round")) for r in records if r["event"] == SupervisorActed.EVENT]
        assert actions[-2:] == [("void", records[voided]["round"]), ("resume", None)]
        assert held < events.index(RoundStarted.EVENT, voided)


@pytest.mark.parametrize("device", sorted(DOWN))
def test_a_table_hold_is_not_resumed_while_its_device_is_unplugged_and_the_page_never_shows_it_ready(
    page: Any, shots: Any, device: str,
) -> None:
    game = DOWN[device][0]
    with SimulatorProcess(device, "--seed", "4") as sim, served(game, **{f"{device}_port": sim.port}) as console:
        open_console(page, console.url)
        sim.command("unplug 600")  # between rounds: the table holds, no round in play
        page.locator("#hold-screen").wait_for(state="visible")
        expect_text(page, "#hold-title", "TABLE ON HOLD")
        expect_text(page, "#hold-now", rf"{device} now: fault: .*{UNPLUGGED}")
        panel = page.locator("#hold-supervisor")
        assert panel.locator('[data-supervisor="resume"]').inner_text() == "Resume table"  # what it does here
        for round_only in ('[data-supervisor="void"]', '[data-supervisor="correct_card"]', '[data-supervisor="correct_placed"]'):
            assert panel.locator(round_only).is_hidden(), f"{round_only} is offered with no round in play"

        # the supervisor resumes while the device is still down: refused, naming the device and what to do
        page.fill("#hold-supervisor-name", SUPERVISOR[0])
        page.fill("#hold-supervisor-pin", SUPERVISOR[1])
        page.fill("#hold-supervisor-reason", f"the {device} looks fine")
        panel.locator('[data-supervisor="resume"]').click()
        expect_text(page, "#hold-supervisor .question", r"^Resume the table\?")
        page.fill("#hold-supervisor-pin-again", SUPERVISOR[1])
        page.click("#hold-supervisor button.confirm")
        expect_text(page, "#message", rf"not resumed: the {device} is still down .*plug it in.*then resume the table")
        nothing_covered(page, shots, "resume-refused")
        page.wait_for_timeout(1500)  # polls go on meanwhile: the hold stays, the device shown as it is, never ready
        assert page.locator("#hold-screen").is_visible() and page.locator("#open-round").is_hidden()
        expect_text(page, "#hold-now", rf"{device} now: fault: .*{UNPLUGGED}")
        expect_state(page, "hold")
        refused = console.log.named(SupervisorRefusal.EVENT)[-1]
        assert (refused["name"], refused["step"], refused["action"]) == (SUPERVISOR[0], "table", "resume")
        assert f"the {device} is still down" in refused["reason"]
        assert not console.log.named(SupervisorActed.EVENT)

        sim.command("plug")
        expect_text(page, "#hold-now", f"{device} now: ready")
        supervise(page, "hold-supervisor", "resume", f"the {device} is plugged in again", again=SUPERVISOR[1])
        page.locator("#hold-screen").wait_for(state="hidden")
        expect_text(page, "#message", "table resumed")
        page.click("#open-round")
        expect_state(page, "betting")
        assert [r["action"] for r in console.log.named(SupervisorActed.EVENT)] == ["resume"]


def test_a_shoe_restarted_between_rounds_is_shown_ready_once_back_and_the_table_resumes_with_a_new_shoe(
    page: Any, shots: Any,
) -> None:
    """docs/protocol.md 8.4: between rounds a restart only means a new shoe. The table holds while the shoe is off (its
    link lost); once it answers again the hold screen says 'shoe now: ready' (not a fault it no longer reports), the
    supervisor resumes the table, and the next round opens on a new shoe."""
    with SimulatorProcess("shoe", "--seed", "4") as sim, served("top-card", shoe_port=sim.port) as console:
        open_console(page, console.url)
        sim.command("restart 2")  # off for 2 s: polled every 0.5 s, the lost link holds the table
        page.locator("#hold-screen").wait_for(state="visible")
        expect_text(page, "#hold-title", "TABLE ON HOLD")
        expect_text(page, "#hold-now", "^shoe now: ready$")
        assert "device-restarted" not in page.inner_text("#hold-reason")  # the restart asks nothing of the supervisor
        shots(page, "restarted-and-back")
        supervise(page, "hold-supervisor", "resume", "the shoe restarted and is back", again=SUPERVISOR[1])
        page.locator("#hold-screen").wait_for(state="hidden")
        shuffles = len(console.log.named(ShoeShuffled.EVENT))
        page.click("#open-round")
        expect_state(page, "betting")
        assert len(console.log.named(ShoeShuffled.EVENT)) == shuffles + 1
        assert any(r["code"] == "device-restarted" for r in console.log.named(ShoeFaulted.EVENT))  # journaled all the same


def hold_a_round_for_its_unplugged_shoe(page: Any, sim: SimulatorProcess, console: Any) -> None:
    """Open a Top Card round, wager $25 on home at spot 2, unplug the shoe while betting is open: the round holds."""
    open_console(page, console.url)
    page.click("#open-round")
    enter(page, 2, "home", "25")
    expect_text(page, '#layout button.wager[data-spot="2"][data-wager="home"]', r"\$25\.00")
    sim.command("unplug 600")
    page.locator("#hold-screen").wait_for(state="visible")


def test_a_held_round_is_not_resumed_while_its_shoe_is_unplugged_and_the_page_says_why(page: Any, shots: Any) -> None:
    """As the table's hold: the round's resume is refused on the page while the shoe its next card needs is still
    down (naming it and what to do), journaled; the round stays held. Plugged in, the resume goes through."""
    with SimulatorProcess("shoe", "--seed", "4") as sim, served("top-card", shoe_port=sim.port) as console:
        hold_a_round_for_its_unplugged_shoe(page, sim, console)
        expect_text(page, "#hold-title", "ROUND ON HOLD")
        expect_text(page, "#hold-now", rf"shoe now: fault: .*{UNPLUGGED}")
        supervise(page, "hold-supervisor", "resume", "the shoe looks fine", again=SUPERVISOR[1])
        expect_text(page, "#message", r"not resumed: the shoe is still down .*plug it in.*then resume the round")
        nothing_covered(page, shots, "round-resume-refused")
        assert page.locator("#hold-screen").is_visible()
        expect_state(page, "hold")
        refused = console.log.named(SupervisorRefusal.EVENT)[-1]
        assert (refused["step"], refused["action"], refused["round"]) == ("table", "resume", console.loop.round.id)
        assert not console.log.named(SupervisorActed.EVENT)

        sim.command("plug")
        expect_text(page, "#hold-now", "shoe now: ready")
        supervise(page, "hold-supervisor", "resume", "the shoe is plugged in again", again=SUPERVISOR[1])
        page.locator("#hold-screen").wait_for(state="hidden")
        expect_state(page, "betting")
        page.click("#no-more-bets")
        expect_state(page, "complete")
        assert [r["action"] for r in console.log.named(SupervisorActed.EVENT)] == ["resume"]


FITS = ("#hold-supervisor-name", "#hold-supervisor-pin", '#hold-supervisor [data-supervisor="resume"]')
"""What a supervisor must see together on the hold screen: the name and PIN fields and the resume button."""


def hold_panel_fits(page: Any, selectors: tuple[str, ...] = FITS) -> list[str]:
    """What of ``selectors`` is off the screen, and which of the hold screen's boxes scrolls inside."""
    return list(page.evaluate("""(selectors) => {
        const out = [];
        for (const selector of selectors) {
            const box = document.querySelector(selector).getBoundingClientRect();
            if (box.width === 0 || box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth)
                out.push(selector + ' is off the screen (' + Math.round(box.top) + '..' + Math.round(box.bottom) + ' of ' + innerHeight + ')');
        }
        for (const selector of ['#screens', '#hold-screen', '#hold-supervisor']) {
            const node = document.querySelector(selector);
            if (node.scrollHeight > node.clientHeight + 1 || node.scrollWidth > node.clientWidth + 1)
                out.push(selector + ' scrolls inside (' + node.scrollHeight + ' in ' + node.clientHeight + ')');
        }
        return out;
    }""", list(selectors)))


def test_the_hold_panel_fits_a_1024x600_screen_with_the_supervisors_fields_and_the_resume_button_in_view(
    page: Any, shots: Any,
) -> None:
    """At the table's smallest screen, 1024x600 (and at 1280x800, 1280x900), a held round's screen shows the
    supervisor's name and PIN fields and the resume button at once, nothing scrolling inside the panel: with the
    console's answer line above it (a resume refused while the shoe is unplugged) and every round action offered."""
    with SimulatorProcess("shoe", "--seed", "4") as sim, served("top-card", shoe_port=sim.port) as console:
        hold_a_round_for_its_unplugged_shoe(page, sim, console)
        expect_text(page, "#hold-now", "shoe now: fault")
        supervise(page, "hold-supervisor", "resume", "the shoe looks fine", again=SUPERVISOR[1])
        expect_text(page, "#message", "not resumed")
        assert page.locator('#hold-supervisor [data-supervisor="void"]').is_visible()
        for width, height in ((1024, 600), *SIZES):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(80)
            shots(page, f"hold-panel-{width}x{height}")
            assert not hold_panel_fits(page), f"{width}x{height}: {hold_panel_fits(page)}"
        # asked to confirm, at 1024x600: the question, the PIN again and "Yes, do it" in view as well
        page.set_viewport_size({"width": 1024, "height": 600})
        supervise(page, "hold-supervisor", "resume", "the shoe looks fine")
        page.locator("#hold-supervisor .question").wait_for()
        shots(page, "hold-panel-confirm-1024x600")
        confirm = ("#hold-supervisor .question", "#hold-supervisor-pin-again", "#hold-supervisor button.confirm")
        assert not hold_panel_fits(page, (*FITS, *confirm)), hold_panel_fits(page, (*FITS, *confirm))
        assert console.loop.alive


def open_with_bank_and_ante(page: Any, url: str) -> None:
    """Three Card Poker's console opened, a round opened, a $300 bank on spot 1 and a $10 ante on spot 4 shown."""
    open_console(page, url)
    page.click("#open-round")
    for spot, wager, dollars in ((1, "bank", "300"), (4, "ante", "10")):
        enter(page, spot, wager, dollars)
        expect_text(page, f'#layout button.wager[data-spot="{spot}"][data-wager="{wager}"]', rf"\${dollars}\.00")


def test_a_shuffler_restarted_while_betting_is_open_holds_the_round_saying_so_and_the_resume_deals_a_fresh_deck(
    page: Any, shots: Any,
) -> None:
    """docs/protocol.md 8.4: the shuffler restarts while betting is open (its decks lost, no card of the round's dealt).
    Once it answers the hold screen says so and what to do, 'shuffler now: ready' (not a fault it no longer reports);
    the supervisor resumes, and 'no more bets' deals the round from a fresh deck. (The old code held it again at the
    first stack, 'not-ready: shuffle or load cards first', after every resume.)"""
    with SimulatorProcess("shuffler", "--seed", "4") as sim, served("three-card-poker", shuffler_port=sim.port) as console:
        open_with_bank_and_ante(page, console.url)
        shuffled = len(console.log.named(ShufflerShuffled.EVENT))
        sim.command("restart 2")
        page.locator("#hold-screen").wait_for(state="visible")
        expect_text(page, "#hold-title", "ROUND ON HOLD")
        expect_text(page, "#hold-reason", "restarted .*lost the deck of this round before any card of it was dealt: "
                                          "resume the round")
        expect_text(page, "#hold-now", "^shuffler now: ready$")
        nothing_covered(page, shots, "shuffler-restarted-while-betting")
        supervise(page, "hold-supervisor", "resume", "the shuffler restarted before any card", again=SUPERVISOR[1])
        page.locator("#hold-screen").wait_for(state="hidden")
        expect_state(page, "betting")
        page.click("#no-more-bets")
        expect_state(page, "decisions")
        round_id = console.loop.round.id
        assert len(console.log.named(ShufflerShuffled.EVENT)) == shuffled + 1  # a fresh deck for the round
        assert [e["round"] for e in console.log.named(StackDispensed.EVENT)] == [round_id, round_id]


def test_a_round_whose_shuffler_restarted_with_cards_of_it_dealt_is_offered_the_void_only(page: Any, shots: Any) -> None:
    """docs/protocol.md 8.4 with cards of the round dealt: the round may only be voided (``holds.void_only``, the
    engine's word in ``screens.resume``), so the hold panel offers no resume and no card entry, only the void; the
    void ends the round. (The old page offered 'Resume round', refused once tapped.)"""
    with SimulatorProcess("shuffler", "--seed", "4") as sim, served("three-card-poker", shuffler_port=sim.port) as console:
        open_with_bank_and_ante(page, console.url)
        sim.command("on dispense 2 restart 2")  # the first stack is dealt; the shuffler restarts as it is asked the next
        page.click("#no-more-bets")
        page.locator("#hold-screen").wait_for(state="visible")
        expect_text(page, "#hold-reason", "the deck of this round is gone, cards of it already dealt.*void the round")
        panel = page.locator("#hold-supervisor")
        assert panel.locator('[data-supervisor="void"]').is_visible()
        for hidden in ('[data-supervisor="resume"]', '[data-supervisor="correct_card"]'):
            assert not panel.locator(hidden).is_visible(), hidden
        shots(page, "shuffler-restarted-void-only")
        supervise(page, "hold-supervisor", "void", "the shuffler restarted mid-deal", again=SUPERVISOR[1])
        page.locator("#void-screen").wait_for(state="visible")
        assert [r["action"] for r in console.log.named(SupervisorActed.EVENT)] == ["void"]
        assert not console.log.named(SupervisorRefusal.EVENT)


def test_a_round_held_for_another_reason_recovered_after_the_table_restarted_is_offered_the_void_only(
    page: Any, shots: Any, tmp_path: Path,
) -> None:
    """A round held for a card the shuffler could not read, its first stack dealt (resumable on the live table, the
    card entered), is recovered held when the table (``tablectl serve``) starts again on its journal: the page shows
    what it was held for, the help says it may only be voided and why (``holds.void_only``: dealt before the table
    restarted, a fresh deck could deal them again), and the hold panel offers the void only, no resume and no card
    entry; the void ends the round, nothing refused. (The old help offered the resume and the card entry.)"""
    with SimulatorProcess("shuffler", "--seed", "4") as sim:
        _, config, files = table_file(tmp_path, sim.port)
        round_id = held_with_a_stack_out(sim, config, files, "unreadable-card")
        with served_on_journal(config, files, 2) as (session, loop):
            server = ConsoleServer(loop, ConsoleSettings(port=0, pace=0.0), accounts())
            try:
                open_console(page, server.start())
                page.locator("#hold-screen").wait_for(state="visible")
                expect_text(page, "#round-id", f"^{round_id}$")
                expect_text(page, "#hold-reason", "^Held: shuffler: .*a card could not be read")
                expect_text(page, "#hold-help", "cannot be resumed, only voided, as cards of this round were dealt from "
                                                "the shuffler before the table restarted")
                panel = page.locator("#hold-supervisor")
                assert panel.locator('[data-supervisor="void"]').is_visible()
                for hidden in ('[data-supervisor="resume"]', '[data-supervisor="correct_card"]', "#hold-supervisor-card"):
                    assert not panel.locator(hidden).is_visible(), hidden
                shots(page, "recovered-void-only")
                supervise(page, "hold-supervisor", "void", "held unread when the table restarted", again=SUPERVISOR[1])
                page.locator("#void-screen").wait_for(state="visible")
                expect_text(page, "#void-returns", r"Spot 4 ante: return \$10\.00")
                shots(page, "recovered-voided")
            finally:
                server.stop()
        assert [r.action for r in records(files, round_id, SupervisorActed)] == ["void"]
        assert not records(files, round_id, SupervisorRefusal)
        with Journal(files["journal"], table_id="TCP-01", readonly=True) as journal:
            assert journal.round(round_id).state == "void"  # type: ignore[union-attr]
