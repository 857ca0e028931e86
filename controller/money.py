"""Money: integer cents, never floats, and the table's rule for odd cents.

>>> parse_money("12.50"), parse_money("$5"), parse_money(7)
(1250, 500, 700)
>>> format_cents(-1205)
'-$12.05'
>>> Rounding.PLAYER.to_cents(Fraction(15, 2)), Rounding.HOUSE.to_cents(Fraction(15, 2))
(8, 7)
"""

from __future__ import annotations

import enum
import re
from fractions import Fraction

Cents = int

_MONEY = re.compile(r"^\$?(?P<units>\d+)(?:\.(?P<cents>\d{1,2}))?$")


class MoneyError(ValueError):
    """An amount that is not a whole number of cents."""


def parse_money(value: str | int) -> Cents:
    """Cents from a dollar amount: ``"12.50"``, ``"$5"`` or a whole number of dollars."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise MoneyError(f"amount must be dollars as text or a whole number, not {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise MoneyError(f"amount must not be negative: {value}")
        return value * 100
    match = _MONEY.match(value.strip())
    if not match:
        raise MoneyError(f"not an amount of money: {value!r} (expected e.g. 12.50 or $5)")
    cents = (match["cents"] or "0").ljust(2, "0")
    return int(match["units"]) * 100 + int(cents)


def format_cents(cents: object) -> str:
    """Cents as dollars: the one way tablectl writes an amount for a person (terminal, refusals, screens).

    Data (the journal, the JSON log, configs) keeps whole cents. A value that is not a whole number of
    cents, such as bad input a refusal quotes, is shown as it came.

    >>> format_cents(123456), format_cents(5), format_cents(None), format_cents(2.5)
    ('$1,234.56', '$0.05', 'None', '2.5')
    """
    if isinstance(cents, bool) or not isinstance(cents, int):
        return repr(cents)
    sign = "-" if cents < 0 else ""
    units, rest = divmod(abs(cents), 100)
    return f"{sign}${units:,}.{rest:02d}"


class Rounding(enum.Enum):
    """What happens to a fraction of a cent owed to a player (a half return, 3 to 2 on an odd stake).

    ``PLAYER`` rounds the amount returned to the player up, ``HOUSE`` rounds it down.
    """

    PLAYER = "player"
    HOUSE = "house"

    def to_cents(self, amount: Fraction) -> Cents:
        whole = amount.numerator // amount.denominator
        if whole == amount or self is Rounding.HOUSE:
            return whole
        return whole + 1

    @classmethod
    def parse(cls, name: str) -> Rounding:
        try:
            return cls(name)
        except ValueError:
            raise ValueError(f"unknown rounding rule {name!r}: expected 'player' or 'house'") from None
