"""Player-dealer banking (seed 003: Double-Hand Poker general rules 5-6, Three Card Poker rules 8-10)."""

import pytest
from hypothesis import given, strategies as st

from controller.money import Rounding
from controller.odds import LOSE, PUSH, Outcome, parse_payout
from controller.rules.banking import Claim, PlayerDealerRotation, clockwise_from, settle_against_bank
from controller.rules.fees import SCHEDULES, FeeError

WIN = parse_payout("1 to 1")


def test_a_bank_that_covers_everything_settles_by_the_rules() -> None:
    claims = [Claim(1, "ante", 1000, WIN), Claim(2, "ante", 500, LOSE), Claim(3, "ante", 700, PUSH)]
    records, bank = settle_against_bank(claims, 10000, Rounding.PLAYER)
    assert [r.returned for r in records] == [2000, 0, 700]
    assert bank.net == -500 and bank.action == 1500 and not bank.exhausted


def test_once_the_bank_is_exhausted_the_rest_is_returned() -> None:
    # 3CP rule 8: "Once the player-dealer's wager has been exhausted, the wagers not covered ... returned"
    claims = [Claim(1, "ante", 1000, WIN), Claim(2, "ante", 1000, WIN), Claim(3, "ante", 1000, LOSE)]
    records, bank = settle_against_bank(claims, 1500, Rounding.PLAYER)
    assert [r.returned for r in records] == [2000, 1500, 1000]
    assert records[1].reason.startswith("bank exhausted: $5.00 of $10.00")
    assert records[2].outcome is Outcome.PUSH
    assert bank.exhausted and bank.net == -1500 and bank.returned_to_player_dealer == 0


def test_partial_action_on_a_losing_wager() -> None:
    # DHP general rule 6: "It is possible to hold a losing or winning hand and receive only partial or no action."
    records, bank = settle_against_bank([Claim(1, "main", 1000, LOSE)], 400, Rounding.PLAYER)
    assert records[0].returned == 600 and records[0].house_win == 400
    assert bank.net == 400


@given(st.lists(st.tuples(st.integers(1, 8), st.integers(1, 100000),
                          st.sampled_from(["1 to 1", "40 to 1", "3 to 2", "push", "lose"])), max_size=12),
       st.integers(0, 500000))
def test_the_player_dealer_never_wins_or_loses_more_than_the_bank(rows, bank_amount) -> None:
    claims = [Claim(s, "w", stake, parse_payout(p)) for s, stake, p in rows]
    records, bank = settle_against_bank(claims, bank_amount, Rounding.PLAYER)
    assert abs(bank.net) <= bank_amount and bank.action <= bank_amount
    assert bank.net == sum(r.stake - r.returned for r in records)
    assert all(r.banker == "player-dealer" for r in records)
    for claim, record in zip(claims, records):
        lo, hi = sorted((claim.stake, Rounding.PLAYER.to_cents(claim.payout.multiplier * claim.stake)))
        assert lo <= record.returned <= hi


def test_settlement_order_clockwise_from_the_action_button() -> None:
    assert clockwise_from(5, [1, 2, 4, 5, 7], 7) == [5, 7, 1, 2, 4]


def test_the_position_passes_clockwise_after_two_banks() -> None:
    # DHP general rule 5: "must pass clockwise to a different player after every two banks"
    rotation = PlayerDealerRotation(7, 3)
    assert rotation.bank_button == "1st bank"
    assert rotation.bank_played(lambda seat: True) == 3
    assert rotation.bank_button == "2nd bank"
    assert rotation.bank_played(lambda seat: seat == 6) == 6
    assert rotation.bank_button == "1st bank"


def test_the_game_stops_when_nobody_intervenes() -> None:
    # No Bust rule 19: "If there is no person that intervenes ... the game will be broken or stopped"
    rotation = PlayerDealerRotation(7, 3)
    rotation.bank_played(lambda seat: False)
    assert rotation.bank_played(lambda seat: seat == 3) is None
    with pytest.raises(RuntimeError, match="stopped"):
        rotation.bank_played(lambda seat: True)


@pytest.mark.parametrize(("schedule", "amount", "fee"), [
    ("pai-gow-player", 1000, 100), ("pai-gow-player", 10000, 100), ("pai-gow-player", 10001, 200),
    ("pai-gow-player", 50000, 500), ("blackjack-player-dealer", 5000, 50), ("blackjack-player-dealer", 60100, 500),
    ("three-card-poker-player-dealer", 10000, 100), ("three-card-poker-player-dealer", 90000, 500),
    ("three-card-poker-player", 2500, 0),
])
def test_posted_collection_fees(schedule, amount, fee) -> None:
    assert SCHEDULES[schedule].fee(amount) == fee


def test_amounts_outside_the_posted_schedule_are_refused() -> None:
    with pytest.raises(FeeError, match="below the posted minimum"):
        SCHEDULES["pai-gow-player"].fee(500)
    with pytest.raises(FeeError, match="above the highest posted bracket"):
        SCHEDULES["pai-gow-player"].fee(50100)
