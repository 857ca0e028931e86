"""Limit betting (seed 003, Omaha BETTING rules 1-7 lines 1744-1769, Blinds rule 15 line 1740)."""

import pytest

from controller.errors import DecisionRefused
from controller.rules.poker.betting import BettingRound, Structure

THREE_SIX = Structure(small_blind=100, big_blind=300, bets=(300, 300, 600, 600))


def betting(seats: tuple[int, ...], street: int = 3, structure: Structure = THREE_SIX) -> BettingRound:
    return BettingRound(street, structure, seats, folded=set(), all_in=set())


def test_a_bet_and_three_raises_then_only_calls() -> None:  # rule 5, line 1761
    b = betting((1, 2, 3))
    assert b.act(1, "bet", None) == 600
    assert b.act(2, "raise", None) == 1200
    assert b.act(3, "raise", None) == 1800
    assert b.act(1, "raise", None) == 1800
    assert b.legal(2) == ("fold", "call", "all_in")
    assert b.level == 2400


def test_heads_up_the_raises_are_unlimited() -> None:  # rule 5, line 1762
    b = betting((1, 2))
    b.act(1, "bet", None)
    for _ in range(6):
        seat = b.next_to_act()
        assert seat is not None and "raise" in b.legal(seat)
        b.act(seat, "raise", None)
    assert b.full_bets == 7


def test_when_a_third_player_folds_the_cap_lifts() -> None:  # rule 5: "only two Players remain in the pot"
    b = betting((1, 2, 3))
    b.act(1, "bet", None)
    b.act(2, "raise", None)
    b.act(3, "fold", None)
    b.act(1, "raise", None)
    b.act(2, "raise", None)
    assert "raise" in b.legal(1)


def test_an_all_in_for_less_than_a_raise_is_action_only() -> None:  # rule 1, lines 1744-1749: the $3-$6 example
    b = betting((1, 2, 3))
    assert b.act(1, "bet", None) == 600
    assert b.act(2, "all_in", 1000) == 1000
    assert b.full_bets == 1 and b.level == 1000
    assert b.raise_range(3) == (1200, 1200)  # "raise the initial bet by placing $12 in the pot"
    assert b.act(3, "call", 1000) == 1000
    assert b.legal(1) == ("fold", "call", "all_in")  # the bettor faces no full raise: he may not re-raise
    assert b.act(1, "call", None) == 400
    assert b.next_to_act() is None


def test_the_next_player_may_raise_over_an_incomplete_all_in() -> None:  # rule 1
    b = betting((1, 2, 3))
    b.act(1, "bet", None)
    b.act(2, "all_in", 1000)
    b.act(3, "raise", 1200)
    assert b.level == 1200 and "raise" in b.legal(1)


def test_the_big_blind_is_live_and_may_raise_when_called_around() -> None:  # rule 7, line 1768
    b = BettingRound(0, THREE_SIX, (3, 1, 2), folded=set(), all_in=set())
    b.post(1, 100, 100)
    b.post(2, 300, 300)
    b.act(3, "call", None)
    b.act(1, "call", None)
    assert b.next_to_act() == 2 and b.legal(2) == ("check", "raise", "all_in")


def test_a_short_big_blind_all_in_plays_as_if_posted_in_full() -> None:  # Blinds rule 15, line 1740
    b = BettingRound(0, THREE_SIX, (3, 1, 2), folded=set(), all_in={2})
    b.post(1, 100, 100)
    b.post(2, 150, 300)
    assert b.level == 300
    assert b.act(3, "call", None) == 300


def test_check_raise_is_permitted() -> None:  # rule 3, line 1755
    b = betting((1, 2))
    b.act(1, "check", None)
    b.act(2, "bet", None)
    assert "raise" in b.legal(1)


def test_wrong_amounts_and_turns_are_refused_with_the_reason() -> None:
    b = betting((1, 2, 3))
    with pytest.raises(DecisionRefused, match="not this seat's turn"):
        b.act(2, "check", None)
    with pytest.raises(DecisionRefused, match=r"exactly \$6\.00"):
        b.act(1, "bet", 500)
    with pytest.raises(DecisionRefused, match="not allowed now"):
        b.act(1, "call", None)
    with pytest.raises(DecisionRefused, match="more than the limit"):
        b.act(1, "all_in", 700)


def test_spread_limit_bets_any_amount_in_range_and_raises_at_least_the_last() -> None:  # Low-ball "2 to 6"
    b = betting((1, 2, 3), street=1, structure=Structure(100, 200, (600, 600), spread_min=200))
    with pytest.raises(DecisionRefused, match=r"puts in \$2\.00 to \$6\.00, not \$1\.00"):
        b.act(1, "bet", 100)
    b.act(1, "bet", 400)
    assert b.raise_range(2) == (800, 1000)
    b.act(2, "raise", 900)
    assert b.level == 900


def test_a_console_is_offered_the_bet_raise_and_all_in_amounts() -> None:  # rule 1, Low-ball "2 to 6"
    fixed = betting((1, 2, 3))
    assert fixed.offered(1) == (("bet", 600), ("all_in", 600))
    fixed.act(1, "bet", None)
    assert fixed.offered(2) == (("raise", 1200), ("all_in", 1200))
    spread = betting((1, 2, 3), street=1, structure=Structure(100, 200, (600, 600), spread_min=200))
    assert spread.offered(1) == (("bet", 200), ("bet", 600), ("all_in", 600))
    for action, amount in spread.offered(1)[:2]:
        assert spread.raise_range(1)[0] <= amount <= spread.raise_range(1)[1], action


def test_the_kill_structure_doubles_the_bets() -> None:  # Kill pots lines 1200-1204
    assert THREE_SIX.doubled().bets == (600, 600, 1200, 1200)
    assert Structure(200, 400, (400, 400, 800, 800)).doubled().bets == (800, 800, 1600, 1600)
