"""Three Card Poker with a player-dealer: seed 003 "Three Card Poker" and rules-notes.md, rule by rule."""

import random
from fractions import Fraction

import pytest

from controller.cards import Card, parse_cards, standard_deck
from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.round import Limits, Round
from controller.engine.table import Table
from controller.errors import DecisionRefused, WagerRefused
from controller.events import CardDealt, FeeCollected
from controller.rules.base import Decision
from controller.rules.edges import compute
from controller.rules.evaluators.three_card import Category3, category3, evaluate3
from controller.rules.three_card_poker.game import PLAY_THRESHOLD, ThreeCardPoker
from tests.helpers import MemoryLog, play_round as play_round_on

LIMITS = Limits({"ante": (500, 50000), "pair_plus": (500, 50000), "bank": (500, 10**7)})


def new_round(game=None, log=None) -> Round:
    return Round("TCP-R1", game or ThreeCardPoker({"player_dealer_seat": 4}), log or MemoryLog("TCP"),
                 spots=8, limits=LIMITS)


def play_round(wagers: dict, stacks: list[str], decisions: dict, *, log=None) -> Round:
    """Wagers {(seat, name): cents}; stacks in deal order; decisions {seat: 'play'|'fold'}."""
    round = new_round(log=log)
    round.start()
    for (seat, name), amount in wagers.items():
        round.place_wager(seat, name, amount)
    round.close_betting()
    for stack in stacks:
        for card in parse_cards(stack):
            round.card(card, "shuffler")
    while round.pending_decision():
        seat = round.pending_decision().spot
        round.decide(Decision(seat, decisions[seat]))
    assert round.state == "complete"
    return round


def by_wager(round: Round) -> dict:
    return {(s.spot, s.wager): s.returned for s in round.settlements}


def test_stacks_of_three_from_the_player_dealers_left_clockwise_player_dealer_last() -> None:
    # Dealing procedures 1 and 2a
    round = play_round({(4, "bank"): 100000, (6, "ante"): 1000, (2, "ante"): 1000, (5, "ante"): 1000},
                       ["2S 3S 4S", "5H 6H 7H", "8D 9D TD", "QC KC AC"],
                       {5: "play", 6: "play", 2: "play"})
    assert round.hand.deal_order == (5, 6, 2, 4)
    assert [c.code for c in round.hand.cards[5]] == ["2S", "3S", "4S"]
    # the player-dealer's stack is delivered face down and its bottom card turned up
    assert round.hand.up_card == Card.parse("QC")


def test_pair_plus_needs_an_ante() -> None:
    # Bonus/Pair Plus rule 1
    round = new_round()
    round.start()
    round.place_wager(4, "bank", 10000)
    round.place_wager(1, "pair_plus", 500)
    with pytest.raises(WagerRefused, match="needs an Ante"):
        round.close_betting()


def test_the_player_dealer_must_post_a_bank_and_only_the_player_dealer_may() -> None:
    round = new_round()
    round.start()
    with pytest.raises(WagerRefused, match="takes only ante, pair_plus"):
        round.place_wager(1, "bank", 10000)
    with pytest.raises(WagerRefused, match="takes only bank"):
        round.place_wager(4, "ante", 1000)
    round.place_wager(1, "ante", 1000)
    with pytest.raises(WagerRefused, match="must post a bank"):
        round.close_betting()


def test_play_must_equal_the_ante_and_decisions_go_in_order() -> None:
    # Betting scheme 3: "a Play wager ... which must be equal to the Ante wager"; Round of Play 3: in order
    round = new_round()
    round.start()
    round.place_wager(4, "bank", 100000)
    round.place_wager(5, "ante", 1000)
    round.place_wager(7, "ante", 1000)
    round.close_betting()
    for card in parse_cards("2S 3S 4S 5H 6H 7H 8D 9D TD"):
        round.card(card)
    with pytest.raises(DecisionRefused, match="spot 5 decides first"):
        round.decide(Decision(7, "play"))
    with pytest.raises(DecisionRefused, match="must equal the Ante"):
        round.decide(Decision(5, "play", amount=2000))
    with pytest.raises(DecisionRefused, match="'play' or 'fold'"):
        round.decide(Decision(5, "raise"))
    round.decide(Decision(5, "play"))
    assert round.wagers[(5, "play")] == 1000


def test_folding_forfeits_ante_and_pair_plus() -> None:
    # Round of Play 3 and 3a; Bonus rule 8 (even holding a pair)
    round = play_round({(4, "bank"): 100000, (5, "ante"): 1000, (5, "pair_plus"): 500},
                       ["2S 2H 4S", "QC KC 9D"], {5: "fold"})
    assert by_wager(round)[(5, "ante")] == 0 and by_wager(round)[(5, "pair_plus")] == 0


@pytest.mark.parametrize(("player", "dealer", "ante", "play", "rule"), [
    ("AS KD 3C", "JH 9C 5D", 2000, 1000, "5a-b: not qualified, player higher: Ante even money, Play no action"),
    ("7S 5D 3C", "JH 9C 5S", 1000, 1000, "5b: not qualified, player-dealer higher: Ante pushes"),
    ("AS KD 3C", "QH 9C 5D", 2000, 2000, "5c-i: qualified, player wins Ante and Play"),
    ("KS KD 3C", "AH AC 5D", 0, 0, "5c-ii: qualified player-dealer wins both"),
    ("QS 9D 5C", "QH 9C 5D", 1000, 1000, "5d: equal hands push"),
])
def test_ante_and_play_against_the_player_dealer(player, dealer, ante, play, rule) -> None:
    round = play_round({(4, "bank"): 100000, (5, "ante"): 1000}, [player, dealer], {5: "play"})
    assert by_wager(round)[(5, "ante")] == ante, rule
    assert by_wager(round)[(5, "play")] == play, rule


@pytest.mark.parametrize(("hand", "returned"), [
    ("AH KH QH", 500 * 201), ("9S 8S 7S", 500 * 41), ("6D 6C 6H", 500 * 31),
    ("4S 5H 6C", 500 * 7), ("2C 9C JC", 500 * 4), ("JS JD 3C", 500 * 2), ("AS KD 9C", 0),
])
def test_pair_plus_pay_table_rows(hand, returned) -> None:
    # Bonus/Pair Plus rule 10: 200, 40, 30, 6, 3 and 1 to 1; rule 8: wins or loses whatever the base game does
    round = play_round({(4, "bank"): 10**7, (5, "ante"): 1000, (5, "pair_plus"): 500}, [hand, "2D 3H 5S"], {5: "play"})
    assert by_wager(round)[(5, "pair_plus")] == returned


def test_settlement_order_and_bank_exhaustion_mid_settlement() -> None:
    # General 8-10: from the player-dealer's left clockwise, Ante, Play, Pair Plus; uncovered wagers returned
    round = play_round(
        {(4, "bank"): 2500, (5, "ante"): 1000, (5, "pair_plus"): 500, (6, "ante"): 1000, (1, "ante"): 1000},
        ["AS AD 3C", "KS KD 4H", "QS QD 5D", "QH 9C 6D"],
        {5: "play", 6: "play", 1: "play"},
    )
    order = [(s.spot, s.wager) for s in round.settlements]
    assert order == [(5, "ante"), (5, "play"), (5, "pair_plus"), (6, "ante"), (6, "play"), (1, "ante"), (1, "play"),
                     (4, "bank")]
    returned = by_wager(round)
    assert returned[(5, "ante")] == 2000 and returned[(5, "play")] == 2000 and returned[(5, "pair_plus")] == 1000
    assert returned[(6, "ante")] == 1000  # covered 0 of 1000: the bank is exhausted
    assert returned[(1, "play")] == 1000
    assert returned[(4, "bank")] == 0
    staked = sum(s.stake for s in round.settlements)
    assert staked == sum(s.returned for s in round.settlements)


def test_forfeited_wagers_are_collected_before_a_short_bank_pays_anyone() -> None:
    # Round of Play 4: "the house dealer shall collect all forfeited wagers" before the player-dealer's hand is
    # revealed (5) and the payouts from the player-dealer's left (8). Seat 6 folded after seat 5 played: its Ante
    # and Pair Plus take the bank's action first, and seat 5's Play, last in line, is returned uncovered.
    round = play_round(
        {(4, "bank"): 2500, (5, "ante"): 1000, (6, "ante"): 1000, (6, "pair_plus"): 500},
        ["AS AD 3C", "2C 4H 7S", "QS JD 5D"],
        {5: "play", 6: "fold"},
    )
    order = [(s.spot, s.wager) for s in round.settlements]
    assert order == [(6, "ante"), (6, "pair_plus"), (5, "ante"), (5, "play"), (4, "bank")]
    returned = by_wager(round)
    assert returned[(6, "ante")] == 0 and returned[(6, "pair_plus")] == 0
    assert returned[(5, "ante")] == 2000 and returned[(5, "play")] == 1000
    assert returned[(4, "bank")] == 2500 + 1500 - 1000


def test_player_dealer_fee_by_total_table_action_collected_before_the_deal() -> None:
    # Wagering Limits and Collection Fees: player $0 per bet; player-dealer $0.50 ... $5.00 by total table action
    log = MemoryLog("TCP")
    play_round({(4, "bank"): 100000, (5, "ante"): 6000, (6, "ante"): 5000}, ["AS AD 3C", "KS KD 4H", "JH 9C 6D"],
               {5: "play", 6: "play"}, log=log)
    [fee] = log.named(FeeCollected.EVENT)
    assert fee["spot"] == 4 and fee["amount"] == 200
    events = [r["event"] for r in log.records()]
    assert events.index(FeeCollected.EVENT) < events.index(CardDealt.EVENT)


def test_the_position_rotates_every_two_hands_and_the_game_stops_when_nobody_intervenes() -> None:
    # Standards of play: the player-dealer banks two consecutive times, then it is offered clockwise
    game = ThreeCardPoker({"player_dealer_seat": 7})
    assert game.pass_position(lambda seat: True) == {"player_dealer": 7, "bank_button": "2nd bank", "changed": False}
    assert game.pass_position(lambda seat: True)["player_dealer"] == 8
    game.pass_position(lambda seat: False)
    assert "stopped" in game.pass_position(lambda seat: False)


def test_pair_plus_edge_matches_an_independent_count() -> None:
    import itertools
    payouts = {Category3.MINI_ROYAL_FLUSH: 200, Category3.STRAIGHT_FLUSH: 40, Category3.THREE_OF_A_KIND: 30,
               Category3.STRAIGHT: 6, Category3.FLUSH: 3, Category3.ONE_PAIR: 1}
    total = sum(payouts.get(category3(evaluate3(h)), -1) for h in itertools.combinations(standard_deck(), 3))
    [table] = compute("three-card-poker")
    assert Fraction(table["wagers"]["pair_plus"]["exact"]) == Fraction(total, 22100) == Fraction(-242, 5525)


def test_simulated_players_play_the_optimal_threshold() -> None:
    from controller.rules.three_card_poker.edge import optimal_play_threshold
    assert optimal_play_threshold() == PLAY_THRESHOLD  # Q-6-4


def test_a_session_conserves_every_cent_between_players_player_dealer_and_house() -> None:
    config = load_config("config/three-card-poker.toml")
    log = MemoryLog(config.table_id)
    table = Table(config, open_feed(config, log, seed=5), log, session="S")
    players = SimulatedPlayers(random.Random(5))
    exhausted = 0
    for _ in range(300):
        round = play_round_on(table, players)
        if table.stopped:
            break
        assert round.state == "complete"
        assert sum(s.stake for s in round.settlements) == sum(s.returned for s in round.settlements)
        exhausted += any("bank exhausted" in s.reason for s in round.settlements)
    assert exhausted > 0
    fees = sum(r["amount"] for r in log.named(FeeCollected.EVENT))
    assert table.meters.total.house_win == fees > 0
