"""The posted poker fees, row by row (seed 003, Poker Collection Rates lines 2118-2232, Per Hand Collection 2016-2050,
Low-ball lines 15-17 and 2699-2714)."""

import pytest

from controller.rules.poker.fees import HOLDEM, LIMITS, OMAHA, PER_HAND, TIME_RATES, TimeCollection
from controller.rules.registry import make_game
from tests.poker.tables import act, assert_conserved, check_down, deal, poker_round, post_blinds


@pytest.mark.parametrize("limit", LIMITS)  # schedule options 1-5: $2/$4, $3/$6, $4/$8, $6/$12, $10/$20
@pytest.mark.parametrize(("players", "fee"), [(10, 300), (6, 300), (5, 200), (4, 100), (2, 100)])
def test_holdem_collection_fee_by_players(limit: str, players: int, fee: int) -> None:  # lines 2148-2164
    fees = HOLDEM.drop(limit, players=players, flop=True, river=False)
    assert [(f.amount, f.reason.split(",")[0]) for f in fees] == [(fee, "collection fee"), (100, "jackpot fee")]


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize(("players", "fee"), [(10, 400), (8, 400), (7, 300), (6, 300), (5, 200), (2, 200)])
def test_omaha_collection_fee_by_players(limit: str, players: int, fee: int) -> None:  # lines 2171-2188
    assert [f.amount for f in OMAHA.drop(limit, players=players, flop=True, river=True)] == [fee, 100, 100]


@pytest.mark.parametrize(("players", "fee"), [(9, 400), (7, 400), (6, 300), (5, 200), (3, 200)])
def test_per_hand_collection_by_players(players: int, fee: int) -> None:  # lines 2016-2050
    assert [f.amount for f in PER_HAND.drop("10-20", players=players, flop=True, river=True)] == [fee]


def test_no_flop_no_drop_and_the_table_fee_only_after_the_river() -> None:  # lines 2019, 2229, 2230
    assert HOLDEM.drop("3-6", players=9, flop=False, river=False) == ()
    assert [f.amount for f in HOLDEM.drop("3-6", players=9, flop=True, river=False)] == [300, 100]
    assert [f.amount for f in HOLDEM.drop("3-6", players=9, flop=True, river=True)] == [300, 100, 100]


def test_an_unposted_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="no '5-10' game"):
        HOLDEM.drop("5-10", players=3, flop=True, river=True)


@pytest.mark.parametrize(("limit", "rate"), [("2-6", 300), ("5-20", 600)])
def test_lowball_time_every_30_minutes_per_player_in_advance(limit: str, rate: int) -> None:  # lines 15-17, 24
    time = TimeCollection(TIME_RATES[limit])
    assert [(f.spot, f.amount) for f in time.due([1, 2, 3], now=0)] == [(1, rate), (2, rate), (3, rate)]
    assert time.due([1, 2, 3], now=29.9) == ()
    assert [f.spot for f in time.due([1, 2, 3, 4], now=12)] == [4]
    assert [f.spot for f in time.due([1, 2, 3, 4], now=30)] == [1, 2, 3]


def test_the_holdem_drop_is_taken_from_the_pot_after_the_flop() -> None:  # line 2229, through the round engine
    round = poker_round("holdem", 1, 2, 3)
    post_blinds(round)
    deal(round, "AS AD KS KD QS QD")
    check_down(round)
    deal(round, "2C 3H 7D 9C")  # burn and flop
    act(round, (2, "check"), (3, "check"), (1, "bet"), (2, "fold"), (3, "fold"))
    assert round.state == "complete"
    assert [(f.amount, f.reason) for f in round.fees] == [
        (100, "collection fee, 3 players, after the flop"), (100, "jackpot fee, after the flop")]
    assert round.totals()["house_win"] == 200
    assert sum(s.returned for s in round.settlements) == 900 + 300 - 200
    assert_conserved(round.log)


def test_a_hand_won_before_the_flop_pays_no_drop() -> None:  # "No flop, no drop", line 2019
    round = poker_round("holdem", 1, 2, 3)
    post_blinds(round)
    deal(round, "AS AD KS KD QS QD")
    act(round, (1, "raise"), (2, "fold"), (3, "fold"))
    assert round.state == "complete" and round.fees == []
    assert round.totals()["house_win"] == 0
    assert_conserved(round.log)


def test_the_fee_is_fixed_whatever_the_pot() -> None:  # line 2232: never a fraction or percentage
    drops = []
    for raises in (0, 3):
        round = poker_round("holdem", 1, 2, 3, round_id=f"P-{raises}")
        post_blinds(round)
        deal(round, "AS AD KS KD QS QD")
        for _ in range(raises):
            act(round, (round.pending_decision().spot, "raise"))
        check_down(round)
        deal(round, "2C 3H 7D 9C")
        check_down(round)
        deal(round, "4C 5C")
        check_down(round)
        deal(round, "6H TD")
        check_down(round)
        drops.append([f.amount for f in round.fees])
        assert_conserved(round.log)
    assert drops == [[100, 100, 100], [100, 100, 100]]


def test_lowball_collects_time_from_each_seated_player_before_the_deal() -> None:
    game = make_game("lowball", {"limit": "5-20", "minutes_per_hand": 10})
    paid = [[f.spot for f in poker_round(game, 1, 2, 4, round_id=f"L-{i}").fees] for i in range(4)]
    assert paid == [[1, 2, 4], [], [], [1, 2, 4]]


def test_a_restarted_lowball_table_collects_time_as_it_would_have() -> None:  # lines 15-17, with the journal's roles
    game = make_game("lowball", {"minutes_per_hand": 10})
    poker_round(game, 1, 2, round_id="L-1")
    roles = game.table_roles()
    restarted = make_game("lowball", {"minutes_per_hand": 10})
    restarted.restore_roles(roles)
    for i in range(2, 5):
        assert [f.spot for f in poker_round(game, 1, 2, 3, round_id=f"L-{i}").fees] == \
            [f.spot for f in poker_round(restarted, 1, 2, 3, round_id=f"R-{i}").fees]
