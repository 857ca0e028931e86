"""When each card of a round may first reach a screen, by each game's own rules, written here apart from the engine.

The engine decides what the screens get in one place (``controller.engine.visibility``
on top of each game's ``Game.face``). This oracle reads the rules again,
independently, from the round's journal records alone: for every card dealt,
the sequence number from which a screen may name it (its deal, for a card
dealt face up; the reveal, for one turned there), or never. The browser test
checks everything both pages received against it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from controller.events import CardBurned, CardDealt, DecisionTaken, IrregularityReported, Revealed, RoundStarted, WagerChanged, WagerPlaced

CODE = re.compile(r"(?<![A-Za-z0-9-])(?:[2-9TJQKA][SHDCB]|JK|[1-6]-[1-6])(?![A-Za-z0-9-])")
NEVER = 10**12

Rule = Callable[[dict[str, Any], list[dict[str, Any]], dict[str, int]], str]
"""(the card_dealt record, the round's records, the card's position at its target) -> "up", Revealed.EVENT or "never"."""


def _decisions(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["event"] == DecisionTaken.EVENT]


def _folded(records: list[dict[str, Any]]) -> set[int]:
    return {d["spot"] for d in _decisions(records) if d["action"] == "fold"}


def _wagers(records: list[dict[str, Any]]) -> dict[tuple[int, str], int]:
    """The stakes placed while betting was open, as they stood at "no more bets"."""
    out: dict[tuple[int, str], int] = {}
    for r in records:
        if r["event"] in (WagerPlaced.EVENT, WagerChanged.EVENT) and r.get("by") != DecisionTaken.EVENT:
            out[(r["spot"], r["wager"])] = r["amount"]
    return out


def _seat(target: str) -> int:
    return int(re.findall(r"\d+", target)[0])


def top_card(card: dict[str, Any], records: list[dict[str, Any]], position: dict[str, int]) -> str:
    return "up"  # Casino War: face up


def blackjack(card: dict[str, Any], records: list[dict[str, Any]], position: dict[str, int], *, hole: bool) -> str:
    # seed 003: "cards are always dealt face up"; Pure 21.5: the player-dealer's second card face down till all acted
    if hole and card["target"] == "player-dealer" and position["n"] == 1:
        return Revealed.EVENT
    return "up"


def three_card_poker(card: dict[str, Any], records: list[dict[str, Any]], position: dict[str, int]) -> str:
    # Dealing procedures 3: stacks face down; the player-dealer's bottom card turned up; a fold is never shown
    seat = _seat(card["target"])
    if seat == _player_dealer(records) and position["n"] == 0:
        return "up"
    return "never" if seat in _folded(records) else Revealed.EVENT


def high_card_flush(card: dict[str, Any], records: list[dict[str, Any]], position: dict[str, int]) -> str:
    """rules-notes: seven cards face down each; a fold is not shown, unless an optional wager (Flush Bonus,
    Straight Flush Bonus, Progressive) is judged on the folded hand's seven cards."""
    if card["target"] == "dealer":
        return Revealed.EVENT
    spot = _seat(card["target"])
    optional = any(amount for (at, wager), amount in _wagers(records).items() if at == spot and wager != "ante")
    return "never" if spot in _folded(records) and not optional else Revealed.EVENT


def top_5_poker(card: dict[str, Any], records: list[dict[str, Any]], position: dict[str, int]) -> str:
    if card["target"] == "community":
        return "up"  # rule 5
    if card["target"] == "dealer":
        return Revealed.EVENT  # rule 9
    spot = _seat(card["target"])
    for d in _decisions(records):
        if d["spot"] == spot and (d["action"] == "fold" or card["card"] in (d.get("cards") or [])):
            return "never"  # a fold, or the one discard for the Community Card, stays face down
    return Revealed.EVENT


def two_cards_high(card: dict[str, Any], records: list[dict[str, Any]], position: dict[str, int]) -> str:
    return Revealed.EVENT  # rule 3: five cards face down to each player and the dealer


def _opened_seats(records: list[dict[str, Any]]) -> set[int]:
    bettors = {spot for (spot, _), amount in _wagers(records).items() if amount}
    return bettors | {_player_dealer(records)}


def pai_gow(card: dict[str, Any], records: list[dict[str, Any]], position: dict[str, int], *, positions: int, pile_size: int) -> str:
    """Piles (or stacks) face down; those the dice give to a seat in play are opened at the comparison, the rest never.
    The first pile goes to the seat the dice count to, the player-dealer counting as 1; the others follow clockwise."""
    if any(r["event"] == IrregularityReported.EVENT and r.get("card") == card["card"] for r in records):
        return "up"  # boxed or exposed
    first = next((d["values"][0] for d in _decisions(records) if d["action"] == "first-pile"), 1)
    dice = next((d["values"] for d in _decisions(records) if d["action"] == "dice"), None)
    if dice is None:
        return "never"
    player_dealer = _player_dealer(records)
    first_seat = (player_dealer - 1 + sum(dice) - 1) % positions + 1
    pile = _seat(card["target"].split(" in ")[-1])
    if card["target"].startswith("stack"):
        pile = _seat(card["target"])
    seat = (first_seat - 1 + (pile - first) % positions) % positions + 1
    return Revealed.EVENT if seat in _opened_seats(records) else "never"


def poker(card: dict[str, Any], records: list[dict[str, Any]], position: dict[str, int]) -> str:
    kind, _, seat = card["target"].partition(":")
    if kind == "burn":
        return "never"
    if kind not in ("hole", "draw"):
        return "up"  # the flop, turn and river are turned face up
    discarded = any(card["card"] in (d.get("cards") or []) for d in _decisions(records) if d["action"] == "draw")
    reveal = next((r for r in records if r["event"] == Revealed.EVENT), None)
    shown = reveal is not None and seat in reveal.get("hands", {})
    return Revealed.EVENT if shown and not discarded else "never"


def _player_dealer(records: list[dict[str, Any]]) -> int:
    return int(next(r for r in records if r["event"] == RoundStarted.EVENT)["roles"]["player_dealer"])


RULES: dict[str, Rule] = {
    "top-card": top_card,
    "no-bust-21": lambda c, r, p: blackjack(c, r, p, hole=False),
    "pure-21-5": lambda c, r, p: blackjack(c, r, p, hole=True),
    "three-card-poker": three_card_poker,
    "high-card-flush": high_card_flush,
    "top-5-poker": top_5_poker,
    "two-cards-high": two_cards_high,
    "double-hand-poker": lambda c, r, p: pai_gow(c, r, p, positions=7, pile_size=7),
    "fortune-pai-gow": lambda c, r, p: pai_gow(c, r, p, positions=7, pile_size=7),
    "pai-gow-tiles": lambda c, r, p: pai_gow(c, r, p, positions=8, pile_size=4),
    "holdem": poker,
    "omaha-hi-lo": poker,
    "lowball": poker,
}


def public_from(game: str, records: list[dict[str, Any]]) -> list[tuple[str, int, str]]:
    """Every card dealt in the round: (code, the seq from which a screen may name it, or ``NEVER``; the rule)."""
    rule = RULES[game]
    reveal = next((r["seq"] for r in records if r["event"] == Revealed.EVENT), NEVER)
    dealt: dict[str, int] = {}
    out = []
    for record in records:
        if record["event"] == CardBurned.EVENT:
            out.append((record["card"], NEVER, "burn"))
        if record["event"] != CardDealt.EVENT:
            continue
        target = record["target"]
        n = dealt[target] = dealt.get(target, -1) + 1
        face = rule(record, records, {"n": n})
        out.append((record["card"], {"up": record["seq"], Revealed.EVENT: reveal, "never": NEVER}[face], face))
    return out
