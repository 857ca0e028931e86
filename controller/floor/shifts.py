"""Gaming days and shifts: which shift a moment belongs to, in the casino's own time zone.

A gaming day starts at the first shift's start (e.g. 06:00) and runs 24
hours, so 02:00 on the 2nd belongs to the gaming day of the 1st.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo


@dataclass(frozen=True, slots=True)
class Shift:
    name: str
    start: dt.time


class Shifts:
    """Shifts in order of their start; the first one's start begins the gaming day."""

    def __init__(self, shifts: Sequence[Shift], zone: str = "UTC") -> None:
        if not shifts:
            raise ValueError("at least one shift is needed")
        self.shifts = sorted(shifts, key=lambda shift: shift.start)
        self.zone = ZoneInfo(zone)

    @classmethod
    def default(cls) -> Shifts:
        return cls([Shift("day", dt.time(6)), Shift("swing", dt.time(14)), Shift("grave", dt.time(22))])

    def of(self, moment: dt.datetime | None) -> tuple[dt.date, str]:
        """(gaming day, shift name) of ``moment`` (now when None)."""
        local = (moment or dt.datetime.now(dt.UTC)).astimezone(self.zone)
        first = self.shifts[0].start
        day = local.date() if local.time() >= first else local.date() - dt.timedelta(days=1)
        name = self.shifts[-1].name
        for shift in self.shifts:
            if local.time() >= shift.start:
                name = shift.name
        if local.time() < first:
            name = self.shifts[-1].name
        return day, name
