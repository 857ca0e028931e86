"""Random rounds with random legal decisions: the rules' invariants hold whatever the players do."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from controller.rules.base import Decision
from controller.rules.blackjack.totals import Rule, chart_row
from tests.blackjack.table import new_round


@pytest.mark.parametrize("game_id", ["no-bust-21", "pure-21-5"])
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bank=st.integers(100, 100000))
def test_any_legal_play_settles_every_wager_once_within_the_bank(game_id, seed, bank) -> None:
    rng = random.Random(seed)
    round = new_round(game_id)
    game = round.game
    shoe = list(game.deck())
    rng.shuffle(shoe)
    round.start()
    round.place_wager(game.player_dealer, "bank", bank)
    for spot in rng.sample(range(1, 8), rng.randint(0, 7)):
        base = rng.randrange(500, 5001, 25)
        round.place_wager(spot, "base", base)
        if rng.random() < 0.5:
            round.place_wager(spot, "bonus", rng.randrange(100, 2501, 25))
        if rng.random() < 0.5:
            round.place_wager(spot, "buster", rng.randrange(100, min(base, 10000) + 1, 25))
    round.close_betting()
    while round.state not in ("complete", "hold", "void"):
        if round.card_target() is not None:
            round.card(shoe.pop(), "shoe")
        else:
            pending = round.pending_decision()
            round.decide(Decision(pending.spot, rng.choice(pending.actions), hand=pending.hand))
    assert round.state == "complete"
    state = round.hand
    assert sum(s.stake for s in round.settlements) == sum(round.wagers.values())
    net = sum(s.stake - s.returned for s in round.settlements if s.wager != "bank")
    assert net == state.bank_result.net and abs(net) <= bank
    assert sum(s.stake - s.returned for s in round.settlements) == 0, "players + player-dealer balance"
    assert not game.dealer_draws_on(state.dealer)
    assert all(game.dealer_draws_on(state.dealer[:n]) for n in range(2, len(state.dealer)))
    stood = {(d.spot, d.hand) for d in round.decisions if d.action == "stand"}
    for seat in state.seats.values():
        for index, hand in enumerate(seat.hands):
            assert len(hand.cards) >= 2
            if (seat.spot, index) in stood:
                rule = chart_row(game.chart, game.hand_total(seat, index)).rule
                assert rule is not Rule.MUST_HIT
