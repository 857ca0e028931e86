"""Reading the console's requests into table commands; every fault in one is a ``BadRequest`` naming the field."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.engine.commands import (
    CloseBetting,
    Command,
    CorrectCard,
    CorrectPlacedCard,
    Decide,
    EnterPiece,
    OpenRound,
    PlaceWager,
    Resume,
    Sit,
    TakePosition,
    VoidRound,
)
from controller.money import parse_money

if TYPE_CHECKING:
    from controller.engine.loop import TableLoop


class BadRequest(ValueError):
    """A request the console cannot read: names the field that is wrong."""


def text_field(body: dict[str, Any], key: str, limit: int = 200) -> str:
    """``body[key]`` as text, or ``""``; never more than ``limit`` characters."""
    value = body.get(key)
    return value.strip()[:limit] if isinstance(value, str) else ""


def _int(body: dict[str, Any], key: str) -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{key} must be a whole number, not {value!r}")
    return value


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BadRequest(f"{key} is missing")
    if len(value) > 64:
        raise BadRequest(f"{key} is too long")
    return value.strip()


def parse_command(body: Any) -> Command:
    if not isinstance(body, dict):
        raise BadRequest("a command is a JSON object")
    name = body.get("command")
    if name == "open_round":
        return OpenRound()
    if name == "place_wager":
        amount = body.get("amount")
        cents = parse_money(amount if isinstance(amount, str) and amount.strip() else "0")
        return PlaceWager(_int(body, "spot"), _text(body, "wager"), cents)
    if name == "sit":
        return Sit(_int(body, "spot"))
    if name == "no_more_bets":
        return CloseBetting()
    if name == "decide":
        return parse_decision(body)
    if name == "enter_piece":
        return EnterPiece(_text(body, "code").upper())
    if name == "take_position":
        return TakePosition(_int(body, "spot"))
    raise BadRequest(f"unknown command {name!r}: expected open_round, place_wager, sit, no_more_bets, decide, "
                     "enter_piece or take_position")


def parse_decision(body: dict[str, Any]) -> Decide:
    """A decision with what it carries: ``amount`` in dollars (``"20.00"``), ``cards`` as codes, ``values`` as numbers."""
    amount = body.get("amount")
    cents = parse_money(amount) if isinstance(amount, str) and amount.strip() else None
    cards, values = body.get("cards") or [], body.get("values") or []
    if not isinstance(cards, list) or not all(isinstance(c, str) and c.strip() for c in cards):
        raise BadRequest(f"cards must be a list of card or tile codes, not {cards!r}")
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise BadRequest(f"values must be a list of whole numbers, not {values!r}")
    hand = body.get("hand", 0) or 0
    if isinstance(hand, bool) or not isinstance(hand, int):
        raise BadRequest(f"hand must be a whole number, not {hand!r}")
    return Decide(_int(body, "spot"), _text(body, "action"), hand, cents,
                  tuple(c.strip().upper() for c in cards), tuple(values))


def parse_supervisor(body: dict[str, Any], table: TableLoop, by: str) -> tuple[Command, str]:
    """The supervisor action ``body`` asks for (done by ``by``, a supervisor's name), and the question to confirm it."""
    action = body.get("action")
    reason = text_field(body, "reason")
    round = table.round
    in_play = round is not None and round.state not in ("complete", "void")
    where = f"round {round.id}" if round is not None and in_play else "the table"
    if not reason:
        raise BadRequest("say why: a reason is required for the log")
    if action == "resume":
        if not in_play:
            return Resume(reason, by), ("Resume the table? The next round may then open: every device must show "
                                        "ready on the hold screen first.")
        return Resume(reason, by), f"Resume {where} where it stopped? The fault must be fixed first."
    if action == "void":
        return VoidRound(reason, by), f"Void {where}? Every wager on it is returned in full."
    if action == "correct_card":
        card = _text(body, "card").upper()
        return CorrectCard(card, reason, by), f"Place {card} as the card really dealt in {where}, then resume?"
    if action == "correct_placed":
        if body.get("index") is None:
            raise BadRequest("pick the placed card the correction replaces")
        index, card = _int(body, "index"), _text(body, "card").upper()
        cards = (table.snapshot().get("round") or {}).get("cards") or []
        if not 0 <= index < len(cards):
            raise BadRequest(f"{where} has no card {index + 1}: pick a card on the table")
        placed = cards[index]
        shown = placed["card"] or "the face-down card"
        return CorrectPlacedCard(index, card, reason, by), (
            f"Replace {shown} ({placed.get('place') or placed['target']}) with {card} in {where}? "
            "The hand is dealt again with it.")
    raise BadRequest(f"unknown supervisor action {action!r}: expected resume, void, correct_card or correct_placed")
