"""Which of an ended round's cards the floor's pit page may show: those its game turned face up at the table.

The floor holds every card a table dealt (its journal's ``card_dealt``
records), folded hands, a Top 5 discard, the piles given to empty seats and a
card-room hand never shown down among them. A screen may show a card only once
the game's rules turn it face up (``docs/console.md``, "What the screens may
show"); at the table ``controller.engine.visibility`` decides it from
``Game.face``. The floor reads records and rules, never a running table, so it
asks the same rules here: it deals the round's hand again from the records (the
wagers at "no more bets", each card where it went, each decision, each
irregularity, a corrected card, the reveal), then asks ``Game.face`` of every card, as the
table's screens would after the round ended.

What cannot be dealt again (a record the rules refuse, a game this floor does
not know) shows no card at all: never a guess in the open direction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller import events as ev
from controller.cards import Card
from controller.rules.base import Decision, Face, Irregularity
from controller.rules.registry import make_game
from controller.tiles import Piece, Tile


def _piece(code: str) -> Piece:
    """A card (``AS``) or, in Pai Gow Tiles, a tile (``6-6``) from its code."""
    return Tile.parse(code) if "-" in code else Card.parse(code)


def shown(records: Sequence[dict[str, Any]]) -> list[bool]:
    """For each ``card_dealt`` record among a round's ``records`` (in seq order), whether a screen may show it."""
    dealt = sum(1 for r in records if r.get("event") == ev.CardDealt.EVENT)
    try:
        return _shown(records)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return [False] * dealt


def _shown(records: Sequence[dict[str, Any]]) -> list[bool]:
    started = next(r for r in records if r.get("event") == ev.RoundStarted.EVENT)
    game = make_game(str(started["game"]), started.get("options") or {})
    game.rules_version = int(started.get("rules") or 1)
    if started.get("roles"):
        game.restore_roles(started["roles"])
    wagers: dict[tuple[int, str], int] = {}
    seated: set[int] = set()
    hand: Any = None
    cards: list[tuple[str, Piece]] = []
    """The round's cards as the engine keeps them: burns among them (they count in a correction's index)."""
    revealed = False

    def deal(cards: list[tuple[str, Piece]]) -> Any:
        fresh = game.new_hand(sorted({s for s, _ in wagers} | seated), wagers)
        for target, card in cards:
            if target != "burn":
                game.place(fresh, target, card)
        return fresh

    for record in records:
        kind = record.get("event")
        if kind in (ev.WagerPlaced.EVENT, ev.WagerChanged.EVENT):
            previous, amount = int(record.get("previous") or 0), int(record["amount"])
            by_decision = kind == ev.WagerPlaced.EVENT and record.get("by") == "decision"
            wagers[(int(record["spot"]), str(record["wager"]))] = previous + amount if by_decision else amount
        elif kind == ev.PlayerSeated.EVENT:
            seated.add(int(record["spot"]))
        elif kind == ev.BettingClosed.EVENT:
            hand = deal([])
        elif kind == ev.CardBurned.EVENT and hand is not None:
            cards.append(("burn", _piece(str(record["card"]))))
        elif kind == ev.CardDealt.EVENT:
            card = _piece(str(record["card"]))
            game.place(hand, str(record["target"]), card)
            cards.append((str(record["target"]), card))
        elif kind == ev.CardCorrected.EVENT:
            index = int(record["index"])
            cards[index] = (cards[index][0], _piece(str(record["card"])))
            hand = deal(cards)
        elif kind == ev.DecisionTaken.EVENT:
            game.decide(hand, Decision(int(record["spot"]), str(record["action"]), record.get("amount"),
                                       tuple(_piece(str(c)) for c in record.get("cards") or ()), int(record.get("hand") or 0),
                                       tuple(int(v) for v in record.get("values") or ())), wagers)
        elif kind == ev.IrregularityReported.EVENT:
            game.irregularity(hand, Irregularity(str(record["kind"]), _piece(str(record["card"])) if record.get("card") else None,
                                                 record.get("target"), record.get("count")))
        elif kind == ev.Revealed.EVENT:
            game.reveal(hand)  # as the engine's reveal: a game may move on in it (blackjack's player-dealer draws next)
            revealed = True
    out: list[bool] = []
    positions: dict[str, int] = {}
    for target, card in cards:
        position = positions[target] = positions.get(target, -1) + 1
        if target == "burn":
            continue
        face = game.face(hand, target, card, position)
        out.append(face is Face.UP or (face is Face.UNTIL_REVEAL and revealed))
    return out
