"""A simple, legal betting policy for simulated poker players.

Not good poker, just legal and varied: post the blinds; bet or raise strong
hands, call middling ones, fold weak ones facing a bet; now and then go all-in
for a short amount (so side pots occur); in lowball, keep the unpaired cards
eight or lower and draw to them. Its "randomness" comes from a hash of the
hand, so a session replays exactly from its seed.
"""

from __future__ import annotations

import zlib
from typing import Protocol

from controller.cards import Card, Rank
from controller.money import Cents
from controller.rules.base import Decision, PendingDecision
from controller.rules.poker.hand import PokerHand


class PokerRules(Protocol):
    """What the betting policy asks of a poker game (``game.PokerGame`` answers it)."""

    chip: Cents

    def strength(self, hand: PokerHand, seat: int) -> float: ...

__all__ = ["choose", "low_discards"]

ALL_IN_RATE = 0.04


def _noise(hand: PokerHand, seat: int) -> float:
    """A number in [0, 1) fixed by the cards, the seat and the action so far."""
    text = "".join(c.code for c in hand.holes.get(seat, ())) + "".join(c.code for c in hand.board)
    text += f"|{seat}|{hand.actions}|{hand.button}"
    return zlib.crc32(text.encode()) / 2**32


def choose(game: PokerRules, hand: PokerHand, pending: PendingDecision) -> Decision:
    seat, actions = pending.spot, pending.actions
    if "post" in actions:
        return Decision(seat, "post")
    if "draw" in actions:
        return Decision(seat, "draw", cards=low_discards(hand.holes[seat])[: max(0, hand.stub - 1)])
    betting = hand.betting
    assert betting is not None
    noise, strength = _noise(hand, seat), game.strength(hand, seat)
    if noise < ALL_IN_RATE:
        amount = _short_all_in(game, hand, seat, noise / ALL_IN_RATE)
        if amount:
            return Decision(seat, "all_in", amount)
    aggressive = next((a for a in ("bet", "raise") if a in actions), None)
    if aggressive and strength > (0.7 if "check" in actions else 0.85):
        low, high = betting.raise_range(seat)
        return Decision(seat, aggressive, low + int((high - low) * noise) // game.chip * game.chip)
    if "check" in actions:
        return Decision(seat, "check")
    return Decision(seat, "call") if strength > 0.35 or noise > 0.8 else Decision(seat, "fold")


def _short_all_in(game: PokerRules, hand: PokerHand, seat: int, fraction: float) -> Cents:
    """An all-in for part of what the limit allows now, in whole chips (at least one chip, or all that is allowed)."""
    betting = hand.betting
    assert betting is not None
    most = betting.most_all_in(seat)
    if most <= 0:
        return 0
    amount = int(most * fraction) // game.chip * game.chip
    return min(most, max(amount, game.chip))


def _low_rank(card: Card) -> int:
    return 1 if card.rank is Rank.ACE else int(card.rank)


def low_discards(cards: list[Card]) -> tuple[Card, ...]:
    """Lowball draw: keep one card of each rank eight or lower (and the joker), discard the rest."""
    kept: set[int] = set()
    discards = []
    for card in sorted(cards, key=lambda c: 0 if c.is_joker else _low_rank(c)):
        if card.is_joker:
            continue
        rank = _low_rank(card)
        if rank > 8 or rank in kept:
            discards.append(card)
        else:
            kept.add(rank)
    return tuple(discards)
