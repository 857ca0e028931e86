"""Fortune Pai Gow Poker's edges: the Fortune Bonus exactly, the standard wager by simulation.

The Fortune Bonus is counted over every one of the 154,143,080 seven-card
hands of 53 cards (``controller.rules.pai_gow_poker.batch``), once per overlap rule for a
hand holding three of a kind and a straight. The Envy Bonus depends on the
other hands at the table, so it is given per other player's hand: the
expected Envy in cents one other hand brings a qualifying wager. The
standard wager is Double-Hand Poker's (``controller.rules.pai_gow_poker.double_hand_poker_edge``).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import comb
from typing import Any

from controller.rules.edges import WagerEdge
from controller.rules.pai_gow_poker.batch import exhaustive_counts
from controller.rules.pai_gow_poker.double_hand_poker_edge import bet_edge
from controller.rules.pai_gow_poker.fortune import OVERLAPS, PAYTABLES

HANDS = comb(53, 7)


def paytables() -> list[str]:
    return list(PAYTABLES)


def fortune_ev(paytable: str, overlap: str) -> Fraction:
    """The exact expected value of a unit Fortune Bonus wager."""
    table = PAYTABLES[paytable]
    counts = exhaustive_counts(paytable).rows[overlap]
    assert sum(counts.values()) == HANDS
    won = sum((n * table.rows[row].payout.odds for row, n in counts.items() if row is not None), Fraction(0))
    return (won - counts[None]) / HANDS


def envy_per_other_hand(paytable: str) -> Fraction:
    """Expected Envy, in cents, that one other player's hand brings (its best row's Envy amount)."""
    table = PAYTABLES[paytable]
    counts = exhaustive_counts(paytable).rows["best-hand"]
    return sum((Fraction(n * table.rows[row].envy) for row, n in counts.items() if row), Fraction(0)) / HANDS


ENVY_STAKE = 500
"""The least Fortune Bonus that qualifies for Envy (cents): the seed's betting scheme, the default threshold."""
OTHER_HANDS = 5
"""Seven seats with the player-dealer's: a player can envy at most five other players' hands."""


def edges(paytable: str) -> dict[str, WagerEdge]:
    envy = envy_per_other_hand(paytable)
    envy_ev = envy / ENVY_STAKE
    result = {}
    for overlap in OVERLAPS:
        name = "fortune" if overlap == "higher-payout" else f"fortune ({overlap})"
        result[name] = WagerEdge(
            ev=fortune_ev(paytable, overlap), method="exact",
            assumptions=(f"all {HANDS:,} seven-card hands of 53 cards; three of a kind with a straight paid by the "
                         f"{overlap} rule; Envy not included (see 'envy, per other hand')"))
    result["envy, per other hand"] = WagerEdge(ev=envy_ev, method="exact", assumptions=(
        f"what one other player's hand adds, through Envy, to a Fortune Bonus of {ENVY_STAKE // 100} dollars (the "
        f"least that qualifies), per unit of that wager: {float(envy):.4f} cents expected Envy (its best row's "
        f"amount, counted over all {HANDS:,} hands; by linearity the other hand's law is that of any hand, "
        "whatever the player holds) over 500 cents; Envy is a fixed amount, so a larger Fortune Bonus gets "
        "less per unit (a fifth at $25); never for the player's own or the player-dealer's hand"))
    result[f"fortune + envy, {OTHER_HANDS} other hands"] = WagerEdge(
        ev=result["fortune"].ev + OTHER_HANDS * envy_ev, method="exact", assumptions=(
            f"the Fortune Bonus of {ENVY_STAKE // 100} dollars (higher-payout overlap rule) with the Envy of a full "
            f"table's {OTHER_HANDS} other players' hands, exact by linearity"))
    result["bet"] = bet_edge()
    return result


def paytable_of(options: Mapping[str, Any]) -> str:
    """The pay table a table's game options name (``tablectl edge --config``)."""
    return str(options.get("paytable", "FPG-04"))
