"""Money in cents and payouts read from the seeds' wording."""

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from controller.money import MoneyError, Rounding, format_cents, parse_money
from controller.odds import OddsError, Outcome, parse_odds, parse_payout
from controller.settlement import settle


@pytest.mark.parametrize(
    ("text", "odds"),
    [("11 to 1", Fraction(11)), ("8 to 5", Fraction(8, 5)), ("3 to 2", Fraction(3, 2)), ("6 to 5", Fraction(6, 5)),
     ("250 to 1", Fraction(250)), ("even money", Fraction(1)), ("1 to 1", Fraction(1)), ("4 for 1", Fraction(3))],
)
def test_payout_wordings_of_the_seeds(text: str, odds: Fraction) -> None:
    assert parse_odds(text) == odds
    assert parse_payout(text).multiplier == odds + 1


def test_half_returned_push_and_lose() -> None:
    assert parse_payout("half returned").multiplier == Fraction(1, 2)
    assert parse_payout("half returned").outcome is Outcome.PARTIAL
    assert parse_payout("push").multiplier == 1
    assert parse_payout("lose").multiplier == 0


@pytest.mark.parametrize("text", ["", "eleven to one", "1 to 0", "0 to 1", "to 1", "2 for 1x"])
def test_unknown_wordings_are_refused(text: str) -> None:
    with pytest.raises(OddsError):
        parse_payout(text)


def test_money_parsing_and_formatting() -> None:
    assert parse_money("12.5") == 1250
    assert parse_money("$0.05") == 5
    assert format_cents(123456) == "$1,234.56"
    for bad in ("12.345", "-5", "abc", 1.5):
        with pytest.raises(MoneyError):
            parse_money(bad)  # type: ignore[arg-type]


def test_rounding_rule_decides_the_odd_cent() -> None:
    half = parse_payout("half returned")
    assert settle(1, "home", 525, half, Rounding.PLAYER).returned == 263
    assert settle(1, "home", 525, half, Rounding.HOUSE).returned == 262
    record = settle(1, "home", 525, half, Rounding.PLAYER)
    assert record.rounded and record.exact_returned == Fraction(525, 2)


@given(st.integers(0, 10**9), st.sampled_from(["1 to 1", "3 to 2", "8 to 5", "6 to 5", "half returned", "lose"]),
       st.sampled_from(list(Rounding)))
def test_rounding_never_moves_more_than_one_cent(stake: int, wording: str, rounding: Rounding) -> None:
    record = settle(1, "w", stake, parse_payout(wording), rounding)
    assert abs(record.returned - record.exact_returned) < 1
    assert record.stake - record.returned == record.house_win
