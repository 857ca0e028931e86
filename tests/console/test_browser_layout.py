"""The dealer's screen at the table's 1024x600 touch screen with a full table: every spot playing every wager it may.

The dealer pays and collects from the settlement list, so every line of it and the totals must be on screen without
scrolling (a tester saw one line of six, the rest inside the panel's own scroll, and the reveal line squeezed to no
height); the wager names on the spots must read apart ("B… $500.00" was Base, Bonus, Buster and Bank alike).
Screenshots: tests/artifacts/console/layout-full/.
"""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

import pytest

from controller.engine.commands import CloseBetting, EnterPiece, OpenRound, PlaceWager, Sit
from controller.engine.feeds import DealerEntryFeed
from controller.engine.loop import TableLoop
from controller.engine.players import SimulatedPlayers
from controller.errors import WagerRefused
from tests.console.conftest import ARTIFACTS
from tests.console.tables import CONFIG, log_in, served
from tests.console.test_browser_hidden import FITS

GAMES = sorted(p.stem for p in CONFIG.glob("*.toml"))
SHOTS = ARTIFACTS / "layout-full"

SETTLED = """() => {
  const out = [];
  const seen = (node, what) => {
    const r = node.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) { out.push(what + ': no size'); return; }
    if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
      out.push(what + ': outside the screen ' + JSON.stringify([r.left, r.top, r.right, r.bottom])); return; }
    for (const [fx, fy] of [[0.1, 0.5], [0.9, 0.5], [0.5, 0.15], [0.5, 0.85]]) {
      const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
      if (!hit || !(node === hit || node.contains(hit))) { out.push(what + ': covered or scrolled away'); return; }
    }
  };
  const clipped = (node, what) => {
    if (node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1)
      out.push(what + ': clipped (' + node.scrollWidth + 'x' + node.scrollHeight + ' in ' + node.clientWidth + 'x' +
               node.clientHeight + ')');
  };
  const lines = document.querySelectorAll('#settlement-rows [data-wager]');
  lines.forEach((line, i) => {
    seen(line, 'settlement line ' + (i + 1));
    for (const cell of line.querySelectorAll('[data-cell]')) {
      if (cell.textContent.trim()) seen(cell, 'settlement line ' + (i + 1) + ' ' + cell.dataset.cell);
      clipped(cell, 'settlement line ' + (i + 1) + ' ' + cell.dataset.cell);
    }
  });
  for (const id of ['result', 'totals', 'fees', 'reveal'])
    { const node = document.getElementById(id); if (node.textContent.trim()) { seen(node, '#' + id); clipped(node, '#' + id); } }
  for (const node of document.querySelectorAll('.panel, #settlement, main, #dealer-area'))
    if (node.scrollHeight > node.clientHeight + 1) out.push((node.id || node.className) + ' scrolls inside');
  return { problems: out, lines: lines.length };
}"""
"""Every settlement line (each of its cells), the result, fees, totals and reveal on screen, none cut, nothing scrolling."""

LABELS = """() => {
  const out = [];
  for (const spot of document.querySelectorAll('#layout .spot')) {
    const shown = new Map();
    for (const wager of spot.querySelectorAll('button.wager[data-wager]')) {
      if (wager.getBoundingClientRect().height === 0) continue;
      const name = wager.querySelector('.name');
      const text = name.innerText.trim();
      if (name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1)
        out.push('spot ' + spot.dataset.spot + ' ' + wager.dataset.wager + ': its name is cut (' + text + ')');
      const amount = wager.querySelector('.amount');
      if (amount.scrollWidth > amount.clientWidth + 1) out.push('spot ' + spot.dataset.spot + ' ' + wager.dataset.wager + ': amount cut');
      if (shown.has(text.toLowerCase())) out.push('spot ' + spot.dataset.spot + ': ' + shown.get(text.toLowerCase()) + ' and ' +
                                                  wager.dataset.wager + ' both read ' + JSON.stringify(text));
      shown.set(text.toLowerCase(), wager.dataset.wager);
    }
  }
  for (const source of document.querySelectorAll('#table-cards .card .source')) {
    const card = source.closest('.card').getBoundingClientRect(), r = source.getBoundingClientRect();
    if (r.left < card.left - 1 || r.right > card.right + 1) out.push('card source cut: ' + source.textContent);
  }
  return out;
}"""
"""Wager names on the spots cut, or two wagers of one spot reading alike; a card's source label wider than its card."""


def most_wagers(loop: TableLoop, spot: int) -> dict[str, int]:
    """The most wagers the game takes together on ``spot``, each at its table maximum (the widest amounts)."""
    round = loop.round
    assert round is not None
    allowed = list(round.game.seat_wagers(spot))
    for size in range(len(allowed), 0, -1):
        for names in itertools.combinations(allowed, size):
            wagers = {name: (round.limits.get(name) or (100, 10000))[1] for name in names}
            try:
                round.game.check_spot(spot, wagers)
            except WagerRefused:
                continue
            return wagers
    return {}


def full_table(loop: TableLoop) -> None:
    """Open a round with every spot playing every wager it may, at the maximum."""
    loop.submit(OpenRound()).result(10)
    round = loop.round
    assert round is not None and round.state == "betting"
    for spot in range(1, round.spots + 1):
        if not round.game.wagers:
            loop.submit(Sit(spot)).result(10)
        for name, amount in most_wagers(loop, spot).items():
            loop.submit(PlaceWager(spot, name, amount)).result(10)


def play_out(loop: TableLoop) -> None:
    """No more bets, then every decision as the game's strategy takes it (tiles keyed in), until settled."""
    round = loop.round
    assert round is not None
    loop.submit(CloseBetting()).result(10)
    players = SimulatedPlayers(random.Random(1))
    keyed = loop.table.feed if isinstance(loop.table.feed, DealerEntryFeed) else None
    tiles = list(keyed._order) if keyed is not None else []
    deadline = time.monotonic() + 120
    while round.state not in ("complete", "void"):
        assert time.monotonic() < deadline, f"round stuck in {round.state}"
        assert round.state != "hold", round.hold_reason
        if keyed is not None and round.card_target() is not None:
            loop.submit(EnterPiece(tiles.pop(0).code)).result(10)
            continue
        if round.pending_decision() is None or round.card_target() is not None:
            time.sleep(0.02)
            continue
        loop.submit(players.decision(round)).result(10)


def at_1024x600(page: Any, url: str) -> None:
    page.set_viewport_size({"width": 1024, "height": 600})
    page.goto(url)
    log_in(page)


@pytest.mark.parametrize("game", GAMES)
def test_a_full_tables_settlement_and_reveal_fit_a_1024x600_screen(page: Any, game: str) -> None:
    """Every spot playing every wager it may: each settlement line, each of its cells, the result, fees, totals and
    the reveal all on screen at 1024x600, none cut and nothing scrolling (No Bust 21 showed one line of six)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with served(game) as console:
        at_1024x600(page, console.url)
        full_table(console.loop)
        page.wait_for_function("() => document.querySelectorAll('#layout .wager.staked, #layout .badge').length > 0")
        page.wait_for_timeout(150)
        page.screenshot(path=str(SHOTS / f"{game}-1-betting.png"))
        assert page.evaluate(LABELS) == []
        play_out(console.loop)
        round = console.loop.round
        assert round is not None and round.state == "complete", round.state if round else None
        page.wait_for_function("n => document.querySelectorAll('#settlement-rows [data-wager]').length === n",
                               arg=len(round.settlements))
        page.wait_for_timeout(150)
        page.screenshot(path=str(SHOTS / f"{game}-2-settled.png"))
        found = page.evaluate(SETTLED)
        assert found["lines"] == len(round.settlements) > 0
        assert found["problems"] == [], f"{game}, {found['lines']} settlement lines at 1024x600"
        assert page.evaluate(FITS) == []
        assert page.evaluate(LABELS) == []


def test_no_bust_21s_full_table_settles_in_many_lines(page: Any) -> None:
    """The largest No Bust 21 round these tests make has a line for every wager of eight spots (the tester's had six,
    a full table about 22); the test above checks them all on screen: this one that it saw that many."""
    with served("no-bust-21") as console:
        at_1024x600(page, console.url)
        full_table(console.loop)
        play_out(console.loop)
        round = console.loop.round
        assert round is not None
        assert len(round.settlements) >= 20, [(s.spot, s.wager) for s in round.settlements]


def test_each_page_names_an_icon_it_serves(page: Any) -> None:
    """Every page load asked for /favicon.ico and got a 404 (an error in the browser's console): each page names its
    icon, which the console serves, so the browser asks for no other."""
    with served("top-card") as console:
        for path in ("", "/pit"):
            page.goto(console.url + path)
            status = page.evaluate("""() => { const link = document.querySelector('link[rel~="icon"]');
              return link ? fetch(link.href).then((r) => r.status) : 'no icon named'; }""")
            assert status == 200, path or "/"
