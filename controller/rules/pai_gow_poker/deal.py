"""The Double-Hand Poker deal: seven piles of seven, the dice, and the misdeal rules (seed 003).

Seed 003, "Game Description": "The house dealer will deal seven hands
(piles). Each hand contains seven cards all dealt face down. The
player/banker selects one of the seven piles as the first hand to be
delivered." Then "the dice cup (containing three dice) is shaken by the
player/banker to determine which seated player (position) receives the first
action hand. The player/banker is always counted as numbers 1, 8 or 15."

Misdeals (seed 003, "A misdeal will be declared if"): (a) a joker or an ace is
boxed or exposed, (b) two or more cards are boxed or exposed, (c) the
player/banker's hand does not have the correct number of cards; and "when two
identical cards are turned up". One other boxed or exposed card "will be
replaced by the first of the remaining four cards after the deal is finished".

>>> action_seat(player_dealer=3, dice=(1, 2, 4))
2
>>> action_seat(player_dealer=3, dice=(5, 5, 5))
3
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from controller.cards import Card, Rank

SEATS = 7
PILES = 7
PILE_SIZE = 7
DICE = 3


class DiceError(ValueError):
    """Dice that three dice cannot show."""


def check_dice(dice: Sequence[int]) -> int:
    """The total of three dice, each 1 to 6; raise ``DiceError`` otherwise."""
    if len(dice) != DICE or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise DiceError(f"three dice show three numbers from 1 to 6, not {list(dice)}")
    return sum(dice)


def action_seat(player_dealer: int, dice: Sequence[int], seats: int = SEATS) -> int:
    """The seat that receives the first pile: count clockwise from the player-dealer as 1 (so also 8 and 15)."""
    total = check_dice(dice)
    return (player_dealer - 1 + total - 1) % seats + 1


def pile_order(first: int, piles: int = PILES) -> list[int]:
    """The piles in the order they are delivered, starting with the one the player-dealer chose."""
    if not 1 <= first <= piles:
        raise ValueError(f"there are piles 1 to {piles}, not {first}")
    return [(first - 1 + i) % piles + 1 for i in range(piles)]


@dataclass
class Deal:
    """The cards on the layout as they come, and what was reported about them."""

    piles: list[list[Card]] = field(default_factory=lambda: [[] for _ in range(PILES)])
    seen: list[Card] = field(default_factory=list)
    """Every card that came out of the shuffler, replacements included."""
    exposed: list[tuple[str, Card, int]] = field(default_factory=list)
    """(``boxed`` or ``exposed``, the card, its pile)."""
    short_piles: dict[int, int] = field(default_factory=dict)
    """Piles reported with the wrong number of cards: pile -> count."""
    replaced: int = 0

    @property
    def dealt(self) -> int:
        return sum(len(p) for p in self.piles)

    def next_target(self) -> str | None:
        if self.dealt < PILES * PILE_SIZE:
            return f"pile {self.dealt // PILE_SIZE + 1}"
        if self.replaced < len(self.exposed):
            return f"replace {self.exposed[self.replaced][1].code} in pile {self.exposed[self.replaced][2]}"
        return None

    def place(self, target: str, card: Card) -> None:
        if target != self.next_target():
            raise ValueError(f"the next card goes to {self.next_target()}, not {target}")
        self.seen.append(card)
        if target.startswith("pile "):
            self.piles[int(target.split()[1]) - 1].append(card)
            return
        _, old, pile = self.exposed[self.replaced]
        cards = self.piles[pile - 1]
        cards[cards.index(old)] = card
        self.replaced += 1

    def report_exposed(self, kind: str, card: Card) -> None:
        """A boxed or exposed card among those dealt so far."""
        if self.next_target() is None or self.replaced:
            raise ValueError("the deal is finished: a card can no longer be boxed or exposed")
        pile = next((i for i, p in enumerate(self.piles, 1) if card in p), None)
        if pile is None:
            raise ValueError(f"{card} has not been dealt")
        self.exposed.append((kind, card, pile))

    def report_count(self, pile: int, count: int) -> None:
        if not 1 <= pile <= PILES:
            raise ValueError(f"there are piles 1 to {PILES}, not {pile}")
        if count != PILE_SIZE:
            self.short_piles[pile] = count

    def misdeal(self) -> str | None:
        """The seed's misdeal rule that applies, or ``None``."""
        twice = [c.code for c, n in Counter(self.seen).items() if n > 1]
        if twice:
            return f"two identical cards turned up ({', '.join(twice)})"
        big = [c.code for _, c, _ in self.exposed if c.is_joker or c.rank is Rank.ACE]
        if big:
            return f"(a) a joker or an ace was boxed or exposed ({', '.join(big)})"
        if len(self.exposed) >= 2:
            return f"(b) two or more cards were boxed or exposed ({', '.join(c.code for _, c, _ in self.exposed)})"
        if self.short_piles:
            pile, count = next(iter(self.short_piles.items()))
            return f"(c) pile {pile} has {count} cards, not {PILE_SIZE}"
        return None
