"""Top Card (58 Pa. Code § 651b.1): a Casino War variation with Home, Away and Tie wagers.

Eight decks (§ 651b.1(c)); the first non-discarded card goes to Home and the
second to Away (§ (e)(2)); wagers settle from the dealer's right going
counter-clockwise (§ (f)), at the odds of § (g). Burn cards after a shuffle are
the table's business (the round engine deals them before the game's cards).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.cards import Card, shoe
from controller.money import Rounding
from controller.odds import LOSE, Payout, parse_payout
from controller.rules.base import Face, Game, OptionError, Wagers, dealt_card
from controller.settlement import Settlement, settle
from controller.tiles import Piece


@dataclass(frozen=True, slots=True)
class TopCardPaytable:
    """Payouts of § 651b.1(g): Home and Away win, Tie wins, and Home/Away on a tie."""

    name: str
    home: Payout
    away: Payout
    tie: Payout
    home_away_on_tie: Payout


PAYTABLES: dict[str, TopCardPaytable] = {
    "standard": TopCardPaytable(
        name="standard",
        home=parse_payout("1 to 1"),  # § (g)(1)
        away=parse_payout("1 to 1"),  # § (g)(2)
        tie=parse_payout("11 to 1"),  # § (g)(3)
        home_away_on_tie=parse_payout("half returned"),  # § (g)(4)
    ),
}

DECKS = 8  # § (c)


@dataclass(slots=True)
class TopCardHand:
    spots: tuple[int, ...]
    home: Card | None = None
    away: Card | None = None

    @property
    def result(self) -> str:
        """``home``, ``away`` or ``tie`` (§ (d)): aces high, suits equal."""
        if self.home is None or self.away is None:
            raise ValueError("the hand is not dealt yet")
        if self.home.rank == self.away.rank:
            return "tie"
        return "home" if self.home.rank > self.away.rank else "away"


class TopCard(Game[TopCardHand]):
    id = "top-card"
    title = "Top Card"
    wagers = ("home", "away", "tie")
    max_spots = 7

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        name = self.options.get("paytable", "standard")
        if name not in PAYTABLES:
            raise OptionError("paytable", f"unknown pay table {name!r}: expected one of {', '.join(PAYTABLES)}")
        self.paytable = PAYTABLES[name]

    def deck(self) -> tuple[Card, ...]:
        return shoe(DECKS)

    def new_hand(self, spots: Sequence[int], wagers: Wagers) -> TopCardHand:
        return TopCardHand(tuple(spots))

    def card_targets(self, spots: int) -> tuple[str, ...]:
        """Where cards are dealt (the camera's zones): the Home and the Away card."""
        return ("home", "away")

    def next_target(self, state: TopCardHand) -> str | None:
        if state.home is None:
            return "home"  # § (e)(2)(ii)
        if state.away is None:
            return "away"  # § (e)(2)(iii)
        return None

    def face(self, state: TopCardHand, target: str, card: Any, position: int) -> Face:
        """Casino War deals face up (§ 651a.8): both cards show as soon as they are dealt."""
        return Face.UP

    def place(self, state: TopCardHand, target: str, card: Piece) -> None:
        card = dealt_card(card)
        if target == "home" and state.home is None:
            state.home = card
        elif target == "away" and state.away is None:
            state.away = card
        else:
            raise ValueError(f"Top Card has no open position {target!r}")

    def reveal(self, state: TopCardHand) -> dict[str, Any]:
        return {"home": state.home.code if state.home else None,
                "away": state.away.code if state.away else None,
                "result": state.result}

    def payout(self, wager: str, result: str) -> Payout:
        """The payout of one wager for a hand's result (§ (d) and (g))."""
        table = self.paytable
        if wager == "tie":
            return table.tie if result == "tie" else LOSE
        if result == "tie":
            return table.home_away_on_tie
        if wager == result:
            return table.home if wager == "home" else table.away
        return LOSE

    def settle(self, state: TopCardHand, wagers: Wagers, rounding: Rounding) -> list[Settlement]:
        result = state.result
        records = []
        for spot in sorted({s for s, _ in wagers}, reverse=True):  # § (f): dealer's right, counter-clockwise
            for name in self.wagers:
                stake = wagers.get((spot, name))
                if stake:
                    records.append(settle(spot, name, stake, self.payout(name, result), rounding, reason=result))
        return records

    def describe(self, state: TopCardHand) -> str:
        return f"home {state.home} away {state.away} -> {state.result.upper()}"


GAME = TopCard
