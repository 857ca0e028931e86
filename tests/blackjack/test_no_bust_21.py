"""No Bust 21st Century Blackjack, line by line of seed 003 ("No Bust ... Standard Rules") and rules-notes.md."""

from collections import Counter

import pytest

from controller.cards import Card
from controller.errors import DecisionRefused, WagerRefused
from controller.events import CardDealt, DecisionTaken, FeeCollected, RoundStarted, SettlementSummarized, WagerPlaced
from controller.rules.base import Decision, OptionError
from controller.rules.blackjack.play import PLAYER_DEALER, action_button
from controller.rules.blackjack.totals import Kind, Total
from controller.rules.registry import make_game
from tests.blackjack.table import new_round, order, play, returned
from tests.helpers import MemoryLog

GAME = "no-bust-21"


def test_value_of_cards_two_to_eight_decks_with_one_joker_each() -> None:
    # seed 003 No Bust "Value of cards", round of play 2: 53 cards a deck, 2 to 8 decks
    deck = make_game(GAME, {"decks": 2}).deck()
    assert len(deck) == 106 and Counter(deck)[Card.parse("JK")] == 2
    assert len(make_game(GAME).deck()) == 424
    with pytest.raises(OptionError, match="decks"):
        make_game(GAME, {"decks": 1})


def test_round_of_play_7_to_10_dealing_order_and_the_second_dealer_card_after_the_players() -> None:
    # round of play 7-8: first card to the seat left of the player-dealer, clockwise, the player-dealer's
    # first card, then second cards; round of play 10: the player-dealer's second card after all players
    log = MemoryLog()
    round = play(GAME, {(1, "base"): 1000, (3, "base"): 1000}, "TS 9H 5D 7H 9C 8S 6C",
                 [(1, "stand"), (3, "stand")], log=log)
    assert [(t, c.code) for t, c, _ in round.cards] == [
        ("1.0", "TS"), ("3.0", "9H"), (PLAYER_DEALER, "5D"), ("1.0", "7H"), ("3.0", "9C"),
        (PLAYER_DEALER, "8S"), (PLAYER_DEALER, "6C")]
    events = [r["event"] for r in log.records()]
    last_decision = max(i for i, e in enumerate(events) if e == DecisionTaken.EVENT)
    second_dealer_card = [i for i, r in enumerate(log.records())
                          if r["event"] == CardDealt.EVENT and r["target"] == PLAYER_DEALER][1]
    assert second_dealer_card > last_decision
    assert returned(round) == {(1, "base"): 0, (3, "base"): 0}  # 17 and 18 against 19 (game rule 4)


def test_cards_entered_from_the_console_are_recorded_with_their_source() -> None:
    round = play(GAME, {(1, "base"): 1000}, "TS 5D 9H 8S 6C", [(1, "stand")])
    assert {source for _, _, source in round.cards} == {"console"}


def decision_for(hand: str, up: str = "5D") -> tuple:
    round = play(GAME, {(1, "base"): 1000}, f"{hand.split(maxsplit=1)[0]} {up} {hand.split()[1]}", stop_at_decision=True)
    return round, round.pending_decision()


@pytest.mark.parametrize("hand", ["2S 3H", "4S 7H", "5S 6H", "2S 2H"])
def test_chart_must_hit_11_or_less_refuses_a_stand(hand) -> None:
    # round of play 9 chart (rules-notes): must hit 11 or less
    round, pending = decision_for(hand)
    assert "hit" in pending.actions and "stand" not in pending.actions
    with pytest.raises(DecisionRefused, match="must hit 11 or less"):
        round.decide(Decision(1, "stand"))


@pytest.mark.parametrize("hand", ["TS 2H", "TS 3H", "TS 4H", "TS 5H", "TS 6H", "TS 7H", "TS 8H", "TS 9H",
                                  "AS AH", "AS 2H", "AS 5H", "AS 8H"])
def test_chart_option_on_12_through_19(hand) -> None:
    # round of play 9 chart (rules-notes): option on 12 through 19, soft or hard
    _, pending = decision_for(hand)
    assert {"hit", "stand"} <= set(pending.actions)


@pytest.mark.parametrize("hand", ["TS QH", "AS 9H", "AS KH"])
def test_chart_must_stand_on_soft_and_hard_20_and_21_refuses_a_hit(hand) -> None:
    # round of play 9 chart: must stand on soft & hard 20, soft & hard 21
    round, pending = decision_for(hand)
    assert "hit" not in pending.actions and "double" not in pending.actions
    with pytest.raises(DecisionRefused, match="must stand on soft & hard 20 and 21"):
        round.decide(Decision(1, "hit"))


def test_chart_a_made_hard_21_or_a_total_over_21_takes_no_further_decision() -> None:
    # round of play 9 chart; rules-notes: a total over 21 is over (the hand is made)
    round = play(GAME, {(1, "base"): 1000, (2, "base"): 1000}, "TS 9S 5D 5H 9H 6C 7C 9D 4C",
                 [(1, "hit"), (2, "hit")])
    assert [len(h.cards) for s in round.hand.seats.values() for h in s.hands] == [3, 3]
    assert str(round.hand.seats[1].hands[0].cards[-1]) == "6C"


@pytest.mark.parametrize("hand", ["JK 5H", "9S JK", "JK AH"])
def test_game_rule_13_a_joker_with_any_card_is_a_hard_21_and_draws_no_card(hand) -> None:
    # game rule 13, and rule 2: the second best hand; no decision is asked of that seat
    first, second = hand.split()
    round = play(GAME, {(1, "base"): 1000}, f"{first} TD {second} 9C")
    assert round.decisions == []
    assert returned(round) == {(1, "base"): 2000}  # joker 21 against hard 19


def test_game_rule_1_natural_22_pays_2_to_1_and_takes_no_card() -> None:
    # object of the game, game rule 1, and "Player's Joker-Joker or Natural 22 pays 2 to 1"
    round = play(GAME, {(1, "base"): 1000}, "JK TD JK AC")
    assert round.decisions == []
    assert returned(round) == {(1, "base"): 3000}


N22 = Total(22, kind=Kind.NATURAL_22)
J21 = Total(21, kind=Kind.JOKER_21)


def t(points: int, soft: bool = False) -> Total:
    return Total(points, soft)


@pytest.mark.parametrize(("player", "dealer", "payout", "rule"), [
    (N22, N22, "push", "game rule 1"),
    (N22, J21, "2 to 1", "game rule 1"),
    (N22, t(25), "2 to 1", "game rule 1"),
    (J21, N22, "lose", "game rule 1"),
    (t(20), N22, "lose", "game rule 1"),
    (J21, t(21), "1 to 1", "game rules 2, 4"),
    (J21, J21, "push", "game rule 5"),
    (t(21), J21, "lose", "game rules 2, 4"),
    (t(18), t(24), "1 to 1", "game rules 3, 8"),
    (t(12), t(22), "1 to 1", "game rules 3, 8"),
    (t(19), t(18), "1 to 1", "game rules 2, 4"),
    (t(17), t(20), "lose", "game rules 2, 4"),
    (t(19), t(19, soft=True), "push", "game rule 5"),
    (t(25), t(23), "lose", "game rules 6a, 7"),
    (t(23), t(25), "push", "game rule 6b"),
    (t(24), t(24), "lose", "game rules 6a, 7"),
    (t(23), t(20), "lose", "game rule 8"),
])
def test_game_rules_1_to_8_compare_hands_around_the_natural_22(player, dealer, payout, rule) -> None:
    got, why = make_game(GAME).compare(player, dealer, [])
    assert (got.text, rule in why) == (payout, True)


def test_rules_notes_a_plain_22_is_over_by_default_and_under_when_configured() -> None:
    # rules-notes: default a total over 21 is "over"; the threshold is configurable and logged
    assert make_game(GAME).compare(t(22), t(21), [])[0].text == "lose"
    assert make_game(GAME, {"over_above": 22}).compare(t(22), t(21), [])[0].text == "1 to 1"
    assert make_game(GAME, {"over_above": 22}).compare(t(21), t(22), [])[0].text == "lose"
    log = MemoryLog()
    play(GAME, {(1, "base"): 1000}, "TS 5D 9H 8S 6C", [(1, "stand")], log=log, over_above=22)
    assert log.named(RoundStarted.EVENT)[0]["options"]["over_above"] == 22


@pytest.mark.parametrize(("card", "seat"), [
    ("AS", 1), ("8S", 1), ("2S", 2), ("9S", 2), ("3S", 3), ("TS", 3), ("4S", 4), ("JS", 4),
    ("5S", 5), ("QS", 5), ("6S", 6), ("KS", 6), ("7S", 7), ("JK", 7)])
def test_round_of_play_11_action_button_chart(card, seat) -> None:
    # round of play 11 chart (rules-notes): counted clockwise from the player-dealer
    assert action_button(Card.parse(card)) == seat


def test_round_of_play_12_settlement_starts_at_the_action_button_and_goes_clockwise() -> None:
    # round of play 12; Bonus Bet item 7: each seat's base wager before its side wager
    wagers = {(s, "base"): 1000 for s in (1, 2, 5, 6)} | {(5, "bonus"): 100, (5, "buster"): 100}
    round = play(GAME, wagers, "TS TH TD TC 9D 9S 9H 9C 9D QS",
                 [(1, "stand"), (2, "stand"), (5, "stand"), (6, "stand")])
    assert round.hand.button == 5
    assert order(round) == [(5, "base"), (5, "bonus"), (5, "buster"), (6, "base"), (1, "base"), (2, "base")]


def test_round_of_play_14_a_joker_first_card_freezes_every_hand() -> None:
    # round of play 14, game rules 9-10: no options; the player-dealer draws the next card; wagers settled
    round = play(GAME, {(1, "base"): 1000, (2, "base"): 1000}, "5S JK JK 6H JK 9C")
    assert round.decisions == [] and round.state == "complete"
    assert [c.code for c in round.hand.dealer] == ["JK", "9C"]
    assert returned(round) == {(1, "base"): 0, (2, "base"): 3000}  # 11 frozen loses to joker 21; Natural 22 wins


def test_game_rule_10_no_double_split_or_surrender_against_a_joker() -> None:
    game = make_game(GAME, {"player_dealer_seat": 8})
    state = game.new_hand([1, 8], {(1, "base"): 1000, (8, "bank"): 10000})
    for code in ("8S", "JK", "8H"):
        game.place(state, game.next_target(state), Card.parse(code))
    assert game.pending_decision(state) is None
    for action in ("split", "double", "surrender", "hit"):
        with pytest.raises(DecisionRefused, match="frozen"):
            game.decide(state, Decision(1, action), {(1, "base"): 1000})


def test_double_down_one_card_for_a_second_equal_wager() -> None:
    # "Double-down, split, surrender & odds": a second wager equal to the original; only one card
    log = MemoryLog()
    round = play(GAME, {(1, "base"): 1000}, "5S 6D 6H 2C 9C 8S", [(1, "double")], log=log)
    assert len(round.hand.seats[1].hands[0].cards) == 3
    assert round.wagers[(1, "base")] == 2000 and returned(round) == {(1, "base"): 4000}  # 13 v 6+9+8=23 over
    assert [r for r in log.named(WagerPlaced.EVENT) if r.get("by") == DecisionTaken.EVENT][0]["amount"] == 1000


def test_double_down_for_less_is_refused_in_no_bust() -> None:
    round = play(GAME, {(1, "base"): 1000}, "5S 6D 6H", stop_at_decision=True)
    with pytest.raises(DecisionRefused, match="exactly the original wager"):
        round.decide(Decision(1, "double", amount=500))


def test_split_aces_receive_one_card_each() -> None:
    # "can split any two Aces ... but can only receive one extra card per Ace"
    round = play(GAME, {(1, "base"): 1000}, "AS 7D AH 5C 9C TS", [(1, "split")])
    hands = round.hand.seats[1].hands
    assert [[c.code for c in h.cards] for h in hands] == [["AS", "5C"], ["AH", "9C"]]
    assert returned(round) == {(1, "base"): 2000}  # soft 16 loses, soft 20 wins against hard 17


def test_split_two_ten_valued_cards_and_play_each_hand() -> None:
    # "Players can split any pair or two cards with a value of 10 each"
    round = play(GAME, {(1, "base"): 1000}, "JS 9D QH 2C 8C TS 8S", [(1, "split"), (1, "hit", 0), (1, "stand", 1)])
    assert [[c.code for c in h.cards] for h in round.hand.seats[1].hands] == [["JS", "2C", "8C"], ["QH", "TS"]]


def test_at_most_three_splits_per_hand() -> None:
    # "Multiple splitting of cards is permitted up to a maximum of three (3) splits per hand."
    round = play(GAME, {(1, "base"): 1000}, "8S 5D 8H 8C 8D 8S", [(1, "split"), (1, "split"), (1, "split")],
                 stop_at_decision=True)
    assert len(round.hand.seats[1].hands) == 4
    assert "split" not in round.pending_decision().actions
    assert round.wagers[(1, "base")] == 4000


def test_surrender_forfeits_half_and_only_on_the_first_two_cards() -> None:
    # "If they choose to surrender, half of their wager will be forfeited."
    round = play(GAME, {(1, "base"): 1005}, "TS 9D 6H 8C", [(1, "surrender")])
    assert returned(round) == {(1, "base"): 503}  # the odd half cent goes by the table's rounding (player)
    split = play(GAME, {(1, "base"): 1000}, "8S 5D 8H 3C", [(1, "split")], stop_at_decision=True)
    with pytest.raises(DecisionRefused, match="surrender only"):
        split.decide(Decision(1, "surrender"))


def test_bank_exhausted_mid_settlement_returns_the_uncovered_wagers() -> None:
    # round of play 13 and 17: the player-dealer covers only the bank; no refund to the players not covered
    log = MemoryLog()
    wagers = {(1, "base"): 1000, (1, "bonus"): 500, (2, "base"): 1000, (3, "base"): 1000}
    round = play(GAME, wagers, "TS TH TD 6D 9S 9H 9C 9D 8S", [(1, "stand"), (2, "stand"), (3, "stand")],
                 bank=1500, log=log)
    # player-dealer 6 9 9 = hard 24, over: every player wins; button from the 9: seat 2
    assert order(round) == [(2, "base"), (3, "base"), (1, "base"), (1, "bonus")]
    assert returned(round) == {(2, "base"): 2000, (3, "base"): 1500, (1, "base"): 1000, (1, "bonus"): 500}
    summary = log.named(SettlementSummarized.EVENT)[0]
    assert summary["exhausted"] is True and summary["net"] == -1500 and summary["action_button"] == 2
    assert "bank exhausted" in round.settlements[1].reason


def test_collection_fee_of_the_player_dealer_by_the_posted_schedule() -> None:
    # California collection fees: players $0; the player-dealer by the action on the table
    log = MemoryLog()
    play(GAME, {(1, "base"): 20000, (2, "base"): 5000}, "TS TH 5D 9C 9D 8S 6C", [(1, "stand"), (2, "stand")],
         log=log)
    assert [(f["spot"], f["amount"]) for f in log.named(FeeCollected.EVENT)] == [(8, 300)]


def test_side_wagers_need_a_base_wager_and_buster_at_most_the_base() -> None:
    # Buster: "must participate in the base game ... cannot exceed the original base game wager"
    round = new_round(GAME)
    round.start()
    round.place_wager(1, "buster", 500)
    with pytest.raises(WagerRefused, match="needs a base"):
        round.close_betting()
    with pytest.raises(WagerRefused, match="cannot exceed"):
        make_game(GAME).check_spot(1, {"base": 500, "buster": 1000})


def test_round_of_play_18_19_the_position_passes_clockwise_after_two_banks_or_the_game_stops() -> None:
    game = make_game(GAME, {"player_dealer_seat": 4})
    assert game.seat_wagers(4) == ("bank",) and "bank" not in game.seat_wagers(5)
    assert game.pass_position(lambda seat: True) == {"player_dealer": 4, "bank_button": "2nd bank", "changed": False}
    assert game.pass_position(lambda seat: seat == 6) == {"player_dealer": 6, "bank_button": "1st bank",
                                                         "changed": True}
    game.pass_position(lambda seat: False)
    assert "stopped" in game.pass_position(lambda seat: False)


def test_round_of_play_4_the_player_dealer_must_post_a_bank_and_bets_nothing_else() -> None:
    round = new_round(GAME)
    round.start()
    with pytest.raises(WagerRefused, match="takes only bank"):
        round.place_wager(8, "base", 1000)
    round.place_wager(1, "base", 1000)
    with pytest.raises(WagerRefused, match="must post a bank"):
        round.close_betting()


def test_the_action_button_counts_seats_clockwise_from_the_player_dealer() -> None:
    # round of play 11: with the player-dealer at seat 3, a 2 puts the button two seats on, at seat 5
    round = play(GAME, {(1, "base"): 1000, (5, "base"): 1000, (7, "base"): 1000}, "TS 9S 8S 5D 9H 9C 7C 2D TC",
                 [(5, "stand"), (7, "stand"), (1, "stand")], player_dealer_seat=3)
    assert [t for t, _, _ in round.cards][:3] == ["5.0", "7.0", "1.0"]
    assert round.hand.button == 5 and order(round) == [(5, "base"), (7, "base"), (1, "base")]


def test_a_card_not_of_the_no_bust_deck_is_refused_and_holds_the_round() -> None:
    round = new_round(GAME)
    round.start()
    round.place_wager(8, "bank", 10000)
    round.place_wager(1, "base", 1000)
    round.close_betting()
    with pytest.raises(ValueError, match="not a card of"):
        round.card(Card.parse("KB"), "camera")
    assert round.state == "hold"


def test_a_proposition_player_takes_the_position_when_nobody_else_does() -> None:
    # game rules 16-17: third-party providers of proposition player services may play
    game = make_game(GAME, {"player_dealer_seat": 2, "proposition_player_seats": [6]})
    game.pass_position(lambda seat: False)
    assert game.pass_position(lambda seat: False)["player_dealer"] == 6
    with pytest.raises(OptionError, match="proposition_player_seats"):
        make_game(GAME, {"proposition_player_seats": [9]})
