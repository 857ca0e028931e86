"""Meters: what the table has taken in and paid out, in total and per wager.

``paid`` counts everything returned to players (stakes with winnings), so
``wagered - paid + fees == house_win`` always, to the cent.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from controller.events import Event, FeeCollected, WagerSettled
from controller.money import Cents, format_cents


class Settled(Protocol):
    """A settled wager as the meters count it (``controller.settlement.Settlement`` or its ``WagerSettled`` record)."""

    @property
    def wager(self) -> str: ...
    @property
    def stake(self) -> int: ...
    @property
    def returned(self) -> int: ...
    @property
    def banker(self) -> str: ...


@dataclass
class Meter:
    wagered: Cents = 0
    paid: Cents = 0
    fees: Cents = 0
    count: int = 0

    @property
    def house_win(self) -> Cents:
        return self.wagered - self.paid + self.fees

    @property
    def hold(self) -> Fraction | None:
        """House win over wagered, exact."""
        return Fraction(self.house_win, self.wagered) if self.wagered else None


class Meters:
    def __init__(self) -> None:
        self.rounds = 0
        self.voided = 0
        self.total = Meter()
        self.by_wager: dict[str, Meter] = defaultdict(Meter)
        self.between_players = Meter()
        """Action between players and a player-dealer (or a pot): the house neither wins nor pays it."""

    def add_round(self, settlements: Sequence[Settled], fees: Cents = 0, *, voided: bool = False) -> None:
        self.rounds += 1
        self.voided += voided
        self.total.fees += fees
        for record in settlements:
            if record.banker != "house":
                self.between_players.wagered += record.stake
                self.between_players.paid += record.returned
                self.between_players.count += 1
                continue
            for meter in (self.total, self.by_wager[record.wager]):
                meter.wagered += record.stake
                meter.paid += record.returned
                meter.count += 1

    def add_records(self, records: Iterable[Event], *, voided: bool) -> None:
        """One ended round from its journaled records: the rule the journal meters by, and checks its meters by."""
        records = list(records)
        self.add_round([r for r in records if isinstance(r, WagerSettled)],
                       sum(r.amount for r in records if isinstance(r, FeeCollected)), voided=voided)

    def counters(self) -> dict[str, int]:
        """The journal's ``counters`` rows."""
        p = self.between_players
        return {"rounds": self.rounds, "voided": self.voided, "fees": self.total.fees,
                "between_count": p.count, "between_wagered": p.wagered, "between_paid": p.paid}

    def meter_rows(self) -> dict[str, tuple[int, int, int]]:
        """The journal's ``meters`` rows, (count, wagered, paid) by wager; the total under ``""``, once a wager settled."""
        meters = {"": self.total, **self.by_wager} if self.total.count else {}
        return {name: (m.count, m.wagered, m.paid) for name, m in meters.items()}

    def summary_lines(self) -> list[str]:
        t = self.total
        lines = [
            f"rounds      {self.rounds}" + (f" ({self.voided} void)" if self.voided else ""),
            f"wagered     {format_cents(t.wagered)}",
            f"paid        {format_cents(t.paid)}",
        ]
        if t.fees:
            lines.append(f"fees        {format_cents(t.fees)}")
        lines += [f"house win   {format_cents(t.house_win)}", f"hold        {percent(t.hold)}"]
        if self.between_players.count:
            p = self.between_players
            lines.append(f"between players (not house action): {p.count} wagers, staked {format_cents(p.wagered)}, "
                         f"returned {format_cents(p.paid)}")
        for name, meter in sorted(self.by_wager.items()):
            lines.append(
                f"  {name:<14} {meter.count:>6} wagers  wagered {format_cents(meter.wagered):>12}"
                f"  house win {format_cents(meter.house_win):>12}  hold {percent(meter.hold)}"
            )
        return lines

    def as_dict(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "voided": self.voided,
            "wagered": self.total.wagered,
            "paid": self.total.paid,
            "fees": self.total.fees,
            "house_win": self.total.house_win,
            "by_wager": {
                name: {"wagered": m.wagered, "paid": m.paid, "house_win": m.house_win, "count": m.count}
                for name, m in sorted(self.by_wager.items())
            },
        }


def percent(value: Fraction | None) -> str:
    return "n/a" if value is None else f"{float(value) * 100:.2f}%"
