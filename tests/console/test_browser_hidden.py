"""No face-down card reaches a screen before its reveal: every game, both pages, everything they receive, in Chromium.

For each game a dealer (logged in on the dealer page) and a supervisor
(logged in on the pit page) follow one full round on a fresh table: the
dealer's page sends every wager, "no more bets" and decision (each decided as
a simulated player would), and both pages also fetch ``/api/state`` at every
step. Every HTTP answer and every WebSocket frame either page receives is
captured, and each is checked against ``tests/console/hidden_cards.py``, the
rules read again apart from the engine: no card may be named before the
sequence number from which its game shows it (a face-down card before its
reveal, a burn or a folded hand ever, a stack's cards before they are
placed). The counts of what was captured and checked are printed
(``pytest -s``) and written to tests/artifacts/console/hidden-cards.json.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from controller.engine.feeds import DealerEntryFeed
from controller.engine.loop import TableLoop
from controller.engine.players import SimulatedPlayers
from controller.events import BettingClosed
from controller.money import format_cents
from tests.console.conftest import ARTIFACTS
from tests.console.hidden_cards import CODE, NEVER, public_from
from tests.console.tables import CONFIG, DEALER, SUPERVISOR, log_in, served

GAMES = sorted(p.stem for p in CONFIG.glob("*.toml"))
SEEDS = {"three-card-poker": 11, "high-card-flush": 5, "top-5-poker": 3}
"""Seeds whose round shows both sides of the game's rules (a fold and a hand played, a qualifier)."""
COUNTS: dict[str, dict[str, Any]] = {}
SIZES = ((1280, 800), (1024, 600))
"""The table screens the dealer page must fit without scrolling."""
FITS = """() => {
  const out = [];
  const visible = (node) => {
    const r = node.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return true;  // not shown at this step
    // a card of a pile lies under the next one but for its left edge: look there
    const inset = node.classList.contains('card') ? 3 : Math.min(r.width / 2, 20);
    const x = Math.min(Math.max(r.left + inset, 0), innerWidth - 1);
    const y = Math.min(Math.max(r.top + Math.min(r.height / 2, 12), 0), innerHeight - 1);
    const hit = document.elementFromPoint(x, y);
    return r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1 && r.left >= -1 && r.top >= -1 && hit && (node === hit || node.contains(hit));
  };
  const wanted = ['#layout .spot .spot-number', '#layout .spot .hand-label', '#layout .spot .spot-result', '#limits',
                  '#open-round', '#no-more-bets', '#place', '#decision-actions button', '#piece-grid button', '#table-cards .card'];
  for (const selector of wanted)
    for (const node of document.querySelectorAll(selector))
      if (!node.closest('[hidden]') && !visible(node)) out.push(selector + ' ' + (node.textContent || '').trim().slice(0, 30));
  if (document.documentElement.scrollHeight > innerHeight + 1 || document.documentElement.scrollWidth > innerWidth + 1)
    out.push('the page scrolls');
  return out;
}"""


def look(game: str, page: Any, step: str) -> None:
    """Screenshot the dealer page at each table screen size, and check everything a dealer needs is on screen."""
    folder = ARTIFACTS / "layout"
    folder.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(80)
        page.screenshot(path=str(folder / f"{game}-{step}-{width}x{height}.png"))
        hidden = page.evaluate(FITS)
        assert not hidden, f"{game} {step} at {width}x{height}: not on screen without scrolling: {hidden}"
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


class Capture:
    """Everything a page receives from the console: HTTP answers to its requests and WebSocket frames."""

    def __init__(self, name: str, page: Any) -> None:
        self.name = name
        self.received: list[Any] = []
        """Responses and frames, in the order they arrived."""
        page.on("response", lambda response: self.received.append(response))
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: self.received.append(
            payload if isinstance(payload, str) else payload.decode())))

    def payloads(self) -> Iterator[tuple[str, str]]:
        """(where, text) of every answer with a body and every frame, in the order they arrived."""
        for item in self.received:
            if isinstance(item, str):
                yield f"{self.name} WebSocket", item
                continue
            if item.request.resource_type in ("document", "stylesheet", "script"):
                continue  # the page's own files: the same for every round, no table data in them
            try:
                body = item.text()
            except Exception:  # noqa: BLE001  # a redirect or an aborted request has no body
                continue
            yield f"{self.name} HTTP {item.request.method} {item.url}", body


def codes_in(value: Any) -> set[str]:
    """Card and tile codes named anywhere in ``value``, leaving out the catalogues every hand-setting screen
    and the tile keypad list whole (every card of the game, the same each time, asserted below)."""
    if isinstance(value, dict):
        return set().union(*(codes_in(v) for k, v in value.items() if k not in ("choices", "entry")), set())
    if isinstance(value, list):
        return set().union(*(codes_in(v) for v in value), set())
    if isinstance(value, str):
        return set(CODE.findall(value))
    return set()


def play_round(game: str, loop: TableLoop, dealer: Any, pit: Any) -> None:
    """One round, every step sent from the dealer's page as a dealer would (``command()``, the page's own)."""
    rng = random.Random(game)
    players = SimulatedPlayers(rng, sit_probability=1.0)

    def send(body: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = dealer.evaluate("body => command(body)", body)
        for page, where in ((dealer, ""), (pit, "?page=pit")):
            page.evaluate(f"() => fetch('/api/state{where}').then(r => r.text())")
        return answer

    assert send({"command": "open_round"})["ok"]
    round = loop.round
    assert round is not None
    for spot in range(1, round.spots + 1):
        if not round.game.wagers:
            send({"command": "sit", "spot": spot})
        for name, amount in players.spot_wagers(round, spot).items():
            send({"command": "place_wager", "spot": spot, "wager": name, "amount": f"{amount / 100:.2f}"})
    dealer.wait_for_function("() => document.querySelectorAll('#layout .wager.staked, #layout .badge').length > 0")
    look(game, dealer, "1-betting")
    assert send({"command": BettingClosed.EVENT})["ok"], round.wagers
    looked = False
    keyed = loop.table.feed if isinstance(loop.table.feed, DealerEntryFeed) else None
    tiles = list(keyed._order) if keyed is not None else []
    deadline = time.monotonic() + 120
    while round.state not in ("complete", "void"):
        assert time.monotonic() < deadline, f"round stuck in {round.state}"
        assert round.state != "hold", round.hold_reason
        if keyed is not None and round.card_target() is not None:
            send({"command": "enter_piece", "code": tiles.pop(0).code})
            continue
        pending = round.pending_decision()
        if pending is None or round.card_target() is not None:
            time.sleep(0.02)
            continue
        if not looked:
            dealer.wait_for_function("() => !document.querySelector('#decision').hidden")
            look(game, dealer, "2-decision")
            looked = True
        decision = round.game.strategy(round.hand, pending, round.wagers)
        body: dict[str, Any] = {"command": "decide", "spot": decision.spot, "action": decision.action, "hand": decision.hand,
                                "cards": [c.code for c in decision.cards], "values": list(decision.values)}
        if decision.amount is not None:
            body["amount"] = format_cents(decision.amount).replace("$", "").replace(",", "")
        answer = send(body)
        assert answer["ok"], (body, answer)
    for page in (dealer, pit):  # the settled round, as the pages show it
        page.wait_for_function("() => document.querySelector('#state').dataset.state === 'complete' || "
                               "document.querySelector('#state').dataset.state === 'void'")
    if round.state == "complete":
        dealer.wait_for_function("() => document.querySelectorAll('#layout .spot-result').length > 0")
        results = dealer.locator("#layout .spot-result").all_inner_texts()
        assert results and all(r.split()[0] in ("WIN", "LOSE", "PUSH", "RETURN") for r in results), results
    look(game, dealer, "3-settled")


@pytest.mark.parametrize("game", GAMES)
def test_no_card_reaches_either_page_before_its_game_shows_it(chromium: Any, game: str) -> None:
    with served(game, seed=SEEDS.get(game, 7)) as console:
        contexts = [chromium.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
        try:
            dealer, pit = (c.new_page() for c in contexts)
            for page in (dealer, pit):
                page.set_default_timeout(30000)
            captures = [Capture("dealer page", dealer), Capture("pit page", pit)]
            dealer.goto(console.url)
            log_in(dealer, DEALER)
            pit.goto(console.url + "/pit")
            log_in(pit, SUPERVISOR)
            dealer.wait_for_function("() => document.querySelector('#state').dataset.state !== undefined")
            play_round(game, console.loop, dealer, pit)
            time.sleep(0.3)
            check(game, console.log.records(), captures)
        finally:
            for context in contexts:
                context.close()


def check(game: str, records: list[dict[str, Any]], captures: list[Capture]) -> None:
    cards = public_from(game, records)
    face_down = [(code, at, face) for code, at, face in cards if face != "up"]
    assert cards, "no card was dealt"
    seen_seq = -1
    checked = {"http": 0, "websocket": 0}
    catalogue: set[tuple[str, ...]] = set()
    leaks = []
    for capture in captures:
        seen_seq = -1
        for where, text in capture.payloads():
            try:
                data = json.loads(text)
            except ValueError:
                data = text
            if isinstance(data, dict):
                seq = data.get("seq")
                seen_seq = seq if isinstance(seq, int) else seen_seq
                setting = ((data.get("round") or {}).get("pending") or {}).get("setting") if "round" in data else None
                if setting:
                    catalogue.add(tuple(setting["choices"]))
            at = data.get("seq", seen_seq) if isinstance(data, dict) else seen_seq
            named = codes_in(data)
            open_now = {code for code, public, _ in cards if public <= at}
            for code, public, face in face_down:
                if public > at and code in named and code not in open_now:
                    leaks.append(f"{where} at seq {at}: {code} ({face}, shown from {public if public < NEVER else 'never'})")
            checked["websocket" if "WebSocket" in where else "http"] += 1
    assert len(catalogue) <= 1, "a hand-setting screen's list of cards changed with the hand"
    COUNTS[game] = {"cards": len(cards), "face_down": len(face_down), "never_shown": sum(f != "up" and p == NEVER for _, p, f in cards),
                    **checked, "leaked": len(leaks)}
    print(f"\n{game}: {len(face_down)} of {len(cards)} cards face down; {checked['http']} HTTP answers and "
          f"{checked['websocket']} WebSocket frames checked; {len(leaks)} leaked")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "hidden-cards.json"
    known = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**known, **COUNTS}, indent=2, sort_keys=True) + "\n")
    assert not leaks, "\n".join(leaks[:20])
    assert checked["websocket"] and checked["http"]
