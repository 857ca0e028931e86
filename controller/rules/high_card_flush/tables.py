"""High Card Flush's optional pay tables (rules-notes for seed 002), as data.

The Flush Bonus is judged on the player's seven cards by flush length
(§ 678a.6(b)); the Straight Flush Bonus and the Progressive by straight-flush
length (§ 678a.6(d)). A length not in a table loses.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from controller.odds import LOSE, Payout, parse_payout


@dataclass(frozen=True, slots=True)
class LengthTable:
    """Payouts by length (of the flush or of the straight flush)."""

    name: str
    rows: dict[int, Payout]

    def payout(self, length: int) -> Payout:
        return self.rows.get(length, LOSE)


def _table(name: str, odds: dict[int, str]) -> LengthTable:
    return LengthTable(name, {length: parse_payout(text) for length, text in odds.items()})


FLUSH_BONUS: dict[str, LengthTable] = {
    "300-100-10-1": _table("300-100-10-1", {7: "300 to 1", 6: "100 to 1", 5: "10 to 1", 4: "1 to 1"}),
    "100-20-10-2": _table("100-20-10-2", {7: "100 to 1", 6: "20 to 1", 5: "10 to 1", 4: "2 to 1"}),
}

STRAIGHT_FLUSH_BONUS: dict[str, LengthTable] = {
    "500-200-100-50-9": _table("500-200-100-50-9", {7: "500 to 1", 6: "200 to 1", 5: "100 to 1", 4: "50 to 1", 3: "9 to 1"}),
    "8000-1000-100-60-7": _table("8000-1000-100-60-7",
                                 {7: "8000 to 1", 6: "1000 to 1", 5: "100 to 1", 4: "60 to 1", 3: "7 to 1"}),
}


@dataclass(frozen=True, slots=True)
class ProgressiveRow:
    """A Progressive payout: a share of the meter, or fixed odds on the wager."""

    share: Fraction | None = None
    odds: Payout | None = None

    @classmethod
    def parse(cls, text: str) -> ProgressiveRow:
        """``"100%"`` / ``"10%"`` of the meter, or odds such as ``"500 to 1"``."""
        words = str(text).strip()
        if words.endswith("%"):
            share = Fraction(words[:-1].strip()) / 100
            if not 0 < share <= 1:
                raise ValueError(f"a share of the meter must be above 0% and at most 100%, not {text!r}")
            return cls(share=share)
        return cls(odds=parse_payout(words))


PROGRESSIVE_ROWS: dict[str, dict[int, str]] = {
    "standard": {7: "100%", 6: "10%", 5: "500 to 1", 4: "50 to 1", 3: "5 to 1"},
}
"""Progressive pay tables by straight-flush length; a config may give its own rows instead."""
