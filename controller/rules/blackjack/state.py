"""The state of a blackjack round: each seat's hands, the player-dealer's cards, the bank's result.

The rules (``controller.rules.blackjack.play``) read and change it; the round engine
keeps it in ``Round.hand`` and logs everything that happens to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.cards import Card
from controller.money import Cents
from controller.rules.banking import BankResult


@dataclass(slots=True)
class Hand:
    cards: list[Card]
    stake: Cents
    split: bool = False
    """Made by a split: no natural, no surrender."""
    split_aces: bool = False
    doubled: bool = False
    surrendered: bool = False
    stood: bool = False
    card_due: bool = False


@dataclass(slots=True)
class Seat:
    spot: int
    hands: list[Hand]
    first_two: list[Card] = field(default_factory=list)
    splits: int = 0
    insurance: Cents = 0
    insurance_decided: bool = False
    even_money: bool = False


@dataclass(slots=True)
class BlackjackRound:
    """The state of one round; the engine keeps it in ``Round.hand``."""

    seats: dict[int, Seat]
    plan: list[str]
    bank: Cents
    player_dealer_seat: int
    bank_button: str
    dealer: list[Card] = field(default_factory=list)
    dealt: int = 0
    revealed: bool = False
    button: int | None = None
    bank_result: BankResult | None = None
    announcements: list[str] = field(default_factory=list)
