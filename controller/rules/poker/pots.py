"""The pot: main and side pots, the drop, and how each pot is split at showdown.

Every chip a player puts in is a stake of that seat. At the end of a hand:

1. The part of the largest contribution that nobody called is returned to its
   owner (seed 003, Kill pots: "Uncalled bets are not considered part of the pot").
2. The rest is cut into a main pot and side pots at each all-in player's
   contribution (glossary "Side Pot"); a pot is contested only by the players
   who have not folded and put in at least its level.
3. The house's drop comes out of the main pot first (a fixed fee, never a
   percentage: seed 003, Collection Fees), then out of side pots in order.
4. Each pot is split: high and low halves when a low qualifies, the odd chip to
   the high half (Omaha Hi-Low rule 11); tied hands split a half equally (rule 13);
   with no qualifying low the high hand scoops (rule 3).

Odd chips between tied players: the seed is silent, so the odd chip goes to the
first tied seat clockwise from the button (the usual card-room rule). Amounts
are split in whole chips of the table's smallest denomination; a remainder
smaller than a chip goes with the first odd chip.

>>> pots, back = build_pots({1: 1000, 2: 400, 3: 1000, 4: 200}, live=(1, 2, 3), order=(1, 2, 3, 4))
>>> [(p.name, p.amount, p.eligible) for p in pots], back
([('main pot', 1400, (1, 2, 3)), ('side pot 1', 1200, (1, 3))], None)
>>> split_high_low(2500, chip=100)
(1300, 1200)
>>> split_evenly(1000, (3, 5, 1), chip=100)
{3: 400, 5: 300, 1: 300}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from controller.money import Cents, format_cents
from controller.odds import Outcome
from controller.settlement import Settlement

__all__ = ["Pot", "build_pots", "uncalled_bet", "take_drop", "split_evenly", "split_high_low", "award", "settlements"]


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: what is in it, who contests it, and what each seat put into it."""

    name: str
    amount: Cents
    eligible: tuple[int, ...]
    stakes: tuple[tuple[int, Cents], ...]
    """Each contributing seat's chips in this pot (folded seats included)."""


def uncalled_bet(contributions: Mapping[int, Cents]) -> tuple[int, Cents] | None:
    """The seat whose last bet nobody matched, and the unmatched amount."""
    ranked = sorted(contributions.items(), key=lambda sc: sc[1], reverse=True)
    if not ranked:
        return None
    top_seat, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0
    return (top_seat, top - second) if top > second else None


def build_pots(
    contributions: Mapping[int, Cents], live: Sequence[int], order: Sequence[int]
) -> tuple[list[Pot], tuple[int, Cents] | None]:
    """The main pot and side pots (smallest level first), and the uncalled bet returned.

    ``live`` are the seats that have not folded; ``order`` lists seats clockwise
    from the button's left, which fixes the order of ``eligible``.
    """
    back = uncalled_bet(contributions)
    called = dict(contributions)
    if back:
        called[back[0]] -= back[1]
    levels = sorted({called[s] for s in live if called.get(s, 0) > 0} | {max(called.values(), default=0)})
    pots: list[Pot] = []
    floor = 0
    for level in levels:
        if level <= floor:
            continue
        stakes = tuple((s, min(c, level) - min(c, floor)) for s in order if (c := called.get(s, 0)) > floor)
        eligible = tuple(s for s in order if s in live and called.get(s, 0) >= level)
        amount = sum(a for _, a in stakes)
        if not eligible:
            raise ValueError(f"no player still in the hand put in {format_cents(level)}: the pot cannot be awarded")
        pots.append(Pot("main pot" if not pots else f"side pot {len(pots)}", amount, eligible, stakes))
        floor = level
    return pots, back


def take_drop(pots: Sequence[Pot], drop: Cents) -> list[Pot]:
    """The pots after the house's drop, taken from the main pot first; never more than the pots hold."""
    out = []
    for pot in pots:
        taken = min(drop, pot.amount)
        drop -= taken
        out.append(replace(pot, amount=pot.amount - taken))
    return out


def split_evenly(amount: Cents, seats: Sequence[int], *, chip: Cents) -> dict[int, Cents]:
    """Equal shares in whole chips; odd chips one each to the first seats listed (clockwise from the button)."""
    if not seats:
        raise ValueError("nobody to split a pot between")
    each = amount // (len(seats) * chip) * chip
    shares = dict.fromkeys(seats, each)
    rest = amount - each * len(seats)
    for seat in seats:
        if rest <= 0:
            break
        given = min(chip, rest)
        shares[seat] += given
        rest -= given
    return shares


def split_high_low(amount: Cents, *, chip: Cents) -> tuple[Cents, Cents]:
    """The high half and the low half; the odd chip goes to the high hand (Omaha Hi-Low rule 11)."""
    low = amount // (2 * chip) * chip
    return amount - low, low


def award(pot: Pot, high: Sequence[int], low: Sequence[int], *, chip: Cents) -> dict[int, Cents]:
    """Each winning seat's share of one pot: ``high`` and ``low`` winners, in clockwise order from the button."""
    if not high:
        raise ValueError(f"{pot.name} has no high hand")
    if not low:
        return split_evenly(pot.amount, high, chip=chip)
    high_half, low_half = split_high_low(pot.amount, chip=chip)
    shares = split_evenly(high_half, high, chip=chip)
    for seat, share in split_evenly(low_half, low, chip=chip).items():
        shares[seat] = shares.get(seat, 0) + share
    return shares


def settlements(
    pots: Sequence[Pot], awards: Sequence[Mapping[int, Cents]], back: tuple[int, Cents] | None, *, wager: str = "pot"
) -> list[Settlement]:
    """One record per seat per pot (and one for an uncalled bet), with ``banker="pot"``."""
    records = []
    if back:
        seat, amount = back
        records.append(_record(seat, wager, amount, amount, "uncalled bet returned"))
    for pot, shares in zip(pots, awards, strict=True):
        for seat, stake in pot.stakes:
            if stake:
                records.append(_record(seat, wager, stake, shares.get(seat, 0), pot.name))
        for seat, share in shares.items():
            if share and seat not in dict(pot.stakes):
                raise ValueError(f"seat {seat} wins part of {pot.name} without having put chips in it")
    return records


def _record(seat: int, wager: str, stake: Cents, returned: Cents, reason: str) -> Settlement:
    outcome = (
        Outcome.WIN if returned > stake else Outcome.PUSH if returned == stake
        else Outcome.PARTIAL if returned else Outcome.LOSE
    )
    return Settlement(
        spot=seat,
        wager=wager,
        stake=stake,
        outcome=outcome,
        payout=f"{returned} of {stake}",
        returned=returned,
        exact_returned=Fraction(returned),
        reason=reason,
        banker="pot",
    )
