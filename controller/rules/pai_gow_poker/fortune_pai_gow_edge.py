"""Fortune Pai Gow Poker's edges: the Fortune Bonus exactly, the standard wager by simulation.

The Fortune Bonus is counted over every one of the 154,143,080 seven-card
hands of 53 cards (``controller.rules.pai_gow_poker.batch``), once per overlap rule for a
hand holding three of a kind and a straight. The Envy Bonus depends on the
other hands at the table, so it is given per other player's hand: the
expected Envy in cents one other hand brings a qualifying wager. The
standard wager is Double-Hand Poker's (``controller.rules.pai_gow_poker.double_hand_poker_edge``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import comb
from typing import Any

from controller.money import Cents, format_cents
from controller.rules.edges import WagerEdge, with_collection_fee
from controller.rules.pai_gow_poker.batch import exhaustive_counts
from controller.rules.pai_gow_poker.double_hand_poker_edge import bet_edge
from controller.rules.pai_gow_poker.fortune import OVERLAPS, PAYTABLES
from controller.rules.pai_gow_poker.fortune_pai_gow import FortunePaiGow

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
    return _wagers(paytable, OVERLAPS, ENVY_STAKE, bet_edge())


def _wagers(paytable: str, overlaps: Sequence[str], stake: Cents | None, bet: WagerEdge,
            why_no_envy: str = "", envied: Sequence[tuple[int, str]] = ()) -> dict[str, WagerEdge]:
    """The Fortune Bonus under each of ``overlaps`` (the first is the one the combined figures use), the Envy per
    unit of a ``stake`` Fortune Bonus (``None``: no stake the table takes wins Envy, ``why_no_envy`` says why), the
    Fortune Bonus with the Envy of ``OTHER_HANDS`` other hands and of each of ``envied`` (number, whose), and ``bet``."""
    result = {}
    for overlap in overlaps:
        name = "fortune" if overlap == overlaps[0] else f"fortune ({overlap})"
        result[name] = WagerEdge(
            ev=fortune_ev(paytable, overlap), method="exact",
            assumptions=(f"all {HANDS:,} seven-card hands of 53 cards; three of a kind with a straight paid by the "
                         f"{overlap} rule; Envy not included (see 'envy, per other hand')"))
    if stake is None:
        envy_ev = Fraction(0)
        result["envy, per other hand"] = WagerEdge(ev=envy_ev, method="exact", assumptions=(
            f"no Envy: {why_no_envy}"))
    else:
        envy = envy_per_other_hand(paytable)
        envy_ev = envy / stake
        result["envy, per other hand"] = WagerEdge(ev=envy_ev, method="exact", assumptions=(
            f"what one other player's hand adds, through Envy, to a Fortune Bonus of {stake // 100} dollars (the "
            f"least that qualifies), per unit of that wager: {float(envy):.4f} cents expected Envy (its best row's "
            f"amount, counted over all {HANDS:,} hands; by linearity the other hand's law is that of any hand, "
            f"whatever the player holds) over {stake} cents; Envy is a fixed amount, so a larger Fortune Bonus gets "
            f"less per unit (a fifth at ${stake * 5 // 100}); never for the player's own or the "
            "player-dealer's hand"))
    dollars = f"{stake // 100} dollars" if stake is not None else "any size"
    for count, whose in ((OTHER_HANDS, ""), *envied):
        hands = f"{count} other players' hands{whose}" if whose else f"a full table's {count} other players' hands"
        result[f"fortune + envy, {count} other hands{whose}"] = WagerEdge(
            ev=result["fortune"].ev + count * envy_ev, method="exact", assumptions=(
                f"the Fortune Bonus of {dollars} ({overlaps[0]} overlap rule) with the Envy of {hands}, exact by "
                "linearity"))
    result["bet"] = bet
    return result


def least_envy_stake(threshold: Cents, limits: tuple[Cents, Cents] | None = None) -> Cents | None:
    """The least Fortune Bonus the table takes that wins Envy under ``threshold``: whole dollars within the seed's
    $1 to $20 and the table's posted ``limits``; ``None`` when no Fortune Bonus the table takes reaches it."""
    bound = FortunePaiGow.rule_limits["fortune"]
    least, most, unit = bound.least or 100, bound.most or 2000, bound.unit or 100
    if limits is not None:
        least, most = max(least, limits[0]), min(most, limits[1])
    stake = max(least, -(-threshold // unit) * unit)
    return stake if stake <= most else None


def edges_of(game: FortunePaiGow, limits: Mapping[str, tuple[Cents, Cents]] | None = None) -> dict[str, WagerEdge]:
    """Every wager under a table's own options (``tablectl edge --config``): its pay table, its overlap rule, its Envy
    threshold (the Envy per unit of the least Fortune Bonus the table takes that reaches it), its wheel and House Way
    chart for the bet, its collection fee on the bet, and the other hands a player on each ``extra_seats`` group
    envies."""
    paytable = paytable_of(game.options)
    posted = (limits or {}).get("fortune")
    stake = least_envy_stake(game.envy_threshold, posted)
    highest = min(2000, posted[1]) if posted is not None else 2000
    why = (f"the table's Envy threshold ({format_cents(game.envy_threshold)} on the Fortune Bonus) is above the "
           f"largest Fortune Bonus it takes ({format_cents(highest)})")
    envied = [(OTHER_HANDS + 1 - len(group), f" (seats {', '.join(map(str, group))})")
              for group in game.extra_seats]
    bet = bet_edge(game.wheel, game.house_way)
    result = _wagers(paytable, [game.overlap], stake, bet, why, envied)
    schedule = game.fee_schedules.get("bet")
    if schedule is not None:
        posted_bet = (limits or {}).get("bet")
        amounts = sorted({posted_bet[0], posted_bet[1]}) if posted_bet else [schedule.minimum, 10000]
        for wager in amounts:
            result[f"bet with fee, ${wager // 100} wager"] = with_collection_fee(bet, schedule, wager)
    return result


def not_reflected(game: FortunePaiGow) -> list[str]:
    """The table's settings these figures leave out, in a manager's words."""
    notes = []
    if game.fee_schedules.get("bank") is not None:
        notes.append("bank_fee_schedule: the player-dealer's bank is not a wager against the house; its collection "
                     "fee is not in these figures")
    return notes


def paytable_of(options: Mapping[str, Any]) -> str:
    """The pay table a table's game options name (``tablectl edge --config``)."""
    return str(options.get("paytable", "FPG-04"))
