"""The top bar says what the table is doing in a dealer's words ("Place your bets", "Players deciding", "Round held:
shoe: ..."), not the round state machine's names (IDLE, DECISIONS, NO MORE BETS) it showed; the name stays beside the
words (``data-state``) for tests and surveillance. The words are the engine's (``controller.engine.view.state_words``,
a game's own where it has them: ``Game.moment_words``), so every page shows the same."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from controller.engine.commands import DeviceFault
from controller.engine.round import STATES
from controller.engine.view import STATE_WORDS
from controller.rules.registry import GAMES
from tests.console.tables import DEALER, log_in, served, table_loop
from tests.console.test_browser import expect_text
from tests.console.test_browser_blackjack import stack

GAME_WORDS = {
    # a game's own words for what the round awaits, where every game's ("Players deciding") would say less
    "top-card": set(),
    "top-5-poker": {"Play, fold or Community Card"},
    "high-card-flush": {"Raise or fold"},
    "three-card-poker": {"Play or fold"},
    "two-cards-high": {"Players setting hands"},
    "double-hand-poker": {"Choosing the first pile", "Rolling the dice", "Setting hands"},
    "fortune-pai-gow": {"Choosing the first pile", "Rolling the dice", "Setting hands"},
    "pai-gow-tiles": {"Dealing the tiles", "Rolling the dice", "Setting hands", "Showing the tiles"},
    "no-bust-21": {"Insurance offered", "Players deciding", "Player-dealer's hand"},
    "pure-21-5": {"Insurance offered", "Players deciding", "Player-dealer's hand"},
    "holdem": {"Posting blinds", "Players betting", "Players drawing", "Showdown"},
    "omaha-hi-lo": {"Posting blinds", "Players betting", "Players drawing", "Showdown"},
    "lowball": {"Posting blinds", "Players betting", "Players drawing", "Showdown"},
}
SHARED = set(STATE_WORDS.values())


def test_every_state_of_the_round_has_a_dealers_words() -> None:
    assert set(STATE_WORDS) == set(STATES) - {"hold"}  # a hold says why it holds: "Round held: ..."
    for state, words in STATE_WORDS.items():
        assert words[0].isupper() and "_" not in words and not words.isupper(), (state, words)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_simulated_session_of_every_game_is_told_in_words_on_the_top_bar(game: str) -> None:
    """Three rounds of simulated players at each game: every view the pages get says the table's state in words (the
    game's own while the round awaits a decision: "Rolling the dice", "Setting hands", "Showdown")."""
    assert set(GAME_WORDS) == set(GAMES)
    loop, _ = table_loop(game, simulated=True)
    loop.pace = 0.001  # a view published after every step of the table's own, as a watched table's page gets them
    seen: list[tuple[str, str]] = []
    done = threading.Event()

    def listen(view: dict[str, Any]) -> None:
        seen.append((view["screens"]["state"], view["screens"]["state_text"]))
        if loop.rounds_finished >= 3:
            done.set()

    loop.subscribe(listen)
    loop.start()
    try:
        assert done.wait(600), f"{game}: three rounds were not played: {seen[-3:]}"
    finally:
        loop.stop()
    states = {state for state, _ in seen}
    assert {"betting", "complete"} <= states, states
    for state, words in seen:
        assert "_" not in words and words != state, (game, state, words)
        if state in ("idle", "betting", "no_more_bets", "settling", "complete", "void"):
            assert words == STATE_WORDS[state], (game, state, words)
        elif state == "hold":
            assert words.startswith(("Round held: ", "Table held: ")), (game, words)
        else:
            assert words in GAME_WORDS[game] | SHARED, (game, state, words)
    own = {words for _, words in seen} & GAME_WORDS[game]
    assert own or not GAME_WORDS[game], (game, sorted({w for _, w in seen}))


def bar(page: Any, words: str, state: str) -> None:
    """The top bar reads ``words`` (whole), with the state's name beside it in ``data-state``."""
    expect_text(page, "#state", "^" + words.replace("(", r"\(").replace(")", r"\)") + "$")
    assert page.locator("#state").get_attribute("data-state") == state


def test_a_new_dealer_reads_the_round_in_words_on_the_top_bar(table_page: Any) -> None:
    """Pure 21.5 at the table's 1024x600: the bar read IDLE, BETTING, DECISIONS, COMPLETE, HOLD. It now reads what a
    dealer says, insurance offered under the player-dealer's ace, and a hold says why, on one line that leaves the
    login and the pit link in view."""
    page = table_page
    with served("pure-21-5") as console:
        stack(console.loop.table.feed.shoe, "8H AH 8D 6S")  # spot 2 8-8 against the player-dealer's ace
        page.goto(console.url)
        log_in(page, DEALER)
        bar(page, "Ready to open betting", "idle")
        page.click("#open-round")
        bar(page, "Place your bets", "betting")
        for spot, wager, dollars in ((1, "bank", "500"), (2, "base", "10")):
            page.click(f'#layout button.wager[data-spot="{spot}"][data-wager="{wager}"]')
            page.fill("#amount", dollars)
            page.click("#place")
            expect_text(page, f'#layout button.wager[data-spot="{spot}"][data-wager="{wager}"]', rf"\${dollars}\.00")
        page.click("#no-more-bets")
        bar(page, "Insurance offered", "decisions")
        page.click('#decision-actions button[data-action="no-insurance"]')
        bar(page, "Players deciding", "decisions")
        page.click('#decision-actions button[data-action="stand"]')
        bar(page, "Pay and collect", "complete")
        console.loop.submit(DeviceFault("shoe", "shoe fault (jam): clear the card path and close the shoe's door")).result(30)
        bar(page, "Table held: shoe: shoe fault (jam): clear the card path and close the shoe's door", "hold")
        for shown in ("#state", "#whoami", "a.nav"):
            box = page.locator(shown).bounding_box()
            assert box is not None and box["x"] + box["width"] <= 1024 and box["y"] + box["height"] <= 600, (shown, box)
        assert page.locator("#state").bounding_box()["height"] < 40  # one line, not a wrapped paragraph
        pit = page.context.new_page()
        pit.goto(console.url + "/pit")  # the pit view's bar says it in the same words
        bar(pit, "Table held: shoe: shoe fault (jam): clear the card path and close the shoe's door", "hold")
        pit.close()
