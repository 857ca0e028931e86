"""Pure 21.5 Blackjack, line by line of seed 003 ("Pure 21.5 Blackjack") and rules-notes.md."""

from collections import Counter

import pytest

from controller.cards import Card, parse_cards
from controller.errors import DecisionRefused
from controller.events import Revealed, RoundStarted, SettlementSummarized
from controller.rules.base import Decision, OptionError
from controller.rules.blackjack.play import PLAYER_DEALER
from controller.rules.blackjack.totals import Kind, Total
from controller.rules.registry import make_game
from tests.blackjack.table import play, returned
from tests.helpers import MemoryLog

GAME = "pure-21-5"


def test_value_of_the_cards_aces_to_nines_and_sixteen_bonus_cards() -> None:
    # "Value of the cards"; round of play 2: 52 cards a deck, one to eight decks
    deck = make_game(GAME, {"decks": 1}).deck()
    assert len(deck) == 52
    assert Counter(c.code for c in deck if c.is_bonus) == {"KB": 4, "QB": 4, "JB": 4, "TB": 4}
    assert not any(c.rank.is_face and not c.is_bonus for c in deck)


def test_round_of_play_7_the_player_dealer_second_card_is_dealt_down_with_the_players() -> None:
    # round of play 7-8, 10, 12: one card each with the player-dealer last, then a second card the same way
    log = MemoryLog()
    round = play(GAME, {(1, "base"): 1000, (2, "base"): 1000}, "TB 9H 5D 8C 9C 6S 2H TB",
                 [(1, "stand"), (2, "stand")], log=log)
    assert [(t, c.code) for t, c, _ in round.cards] == [
        ("1.0", "TB"), ("2.0", "9H"), (PLAYER_DEALER, "5D"), ("1.0", "8C"), ("2.0", "9C"), (PLAYER_DEALER, "6S"),
        (PLAYER_DEALER, "2H"), (PLAYER_DEALER, "TB")]
    assert returned(round) == {(1, "base"): 2000, (2, "base"): 2000}  # player-dealer 23 is over (game rule 4)
    assert round.hand.button == 6  # round of play 11: the down card places the action button
    assert log.named(Revealed.EVENT)[0]["player_dealer"] == ["5D", "6S"]


def decision_round(hand: str, up: str = "5D", down: str = "7C"):
    first, second = hand.split()
    return play(GAME, {(1, "base"): 1000}, f"{first} {up} {second} {down}", stop_at_decision=True)


@pytest.mark.parametrize("hand", ["5S 6H", "2S 3H", "4C 7D"])
def test_chart_1a_must_hit_on_hard_11_or_less(hand) -> None:
    round = decision_round(hand)
    with pytest.raises(DecisionRefused, match="must hit on hard 11 or less"):
        round.decide(Decision(1, "stand"))


@pytest.mark.parametrize("hand", ["TB 9H", "KB QB", "JB TB"])
def test_chart_1a_must_stand_on_hard_19_or_more(hand) -> None:
    round = decision_round(hand)
    with pytest.raises(DecisionRefused, match="must stand on hard 19 or more"):
        round.decide(Decision(1, "hit"))


def test_chart_1a_may_split_two_bonus_cards() -> None:
    # chart 1A "(may split two Bonus Cards)"; Double-down, split and surrender 2: "any pair or two BONUS cards"
    assert "split" in decision_round("KB QB").pending_decision().actions
    round = play(GAME, {(1, "base"): 1000}, "KB 5D QB 7C 9S 8H 4C TB", [(1, "split"), (1, "stand", 1)])
    assert [[c.code for c in h.cards] for h in round.hand.seats[1].hands] == [["KB", "9S"], ["QB", "8H"]]


@pytest.mark.parametrize("hand", ["TB 2H", "TB 8H", "9S 9H", "AS 8H", "AS 2H", "AS AH"])
def test_chart_1a_option_on_all_other_counts(hand) -> None:
    # chart 1A: hard 12-18 and every soft count (soft 19 included) are the player's option
    assert {"hit", "stand"} <= set(decision_round(hand).pending_decision().actions)


def test_a_total_over_21_5_takes_no_further_decision() -> None:
    round = play(GAME, {(1, "base"): 1000}, "TB 9D 5H 8C TB", [(1, "hit")])
    assert round.decisions[-1].action == "hit" and returned(round) == {(1, "base"): 0}  # 25 loses (rule 5)


def test_value_of_the_cards_a_bonus_card_and_an_ace_pay_3_to_2() -> None:
    # object of the game; "A BONUS card and an Ace, on the initial deal ... pays 3 to 2"
    round = play(GAME, {(1, "base"): 1000}, "AC 9D KB 8S")
    assert round.decisions == [] and returned(round) == {(1, "base"): 2500}
    six_five = play(GAME, {(1, "base"): 1000}, "AC 9D KB 8S", blackjack_pays="6 to 5", insurance=False)
    assert returned(six_five) == {(1, "base"): 2200}


def test_insurance_may_not_be_offered_where_blackjacks_pay_6_to_5() -> None:
    with pytest.raises(OptionError, match="insurance may not be offered"):
        make_game(GAME, {"blackjack_pays": "6 to 5"})


def test_split_ace_and_bonus_card_is_21_not_a_pure_21_5_blackjack() -> None:
    # "on the initial deal": after a split an ace and a Bonus card are a soft 21
    round = play(GAME, {(1, "base"): 1000}, "AS 9D AH 9C TB 7C", [(1, "split")])
    assert returned(round) == {(1, "base"): 3000}  # soft 21 wins 1 to 1; soft 18 pushes against 18
    assert [str(round.game.hand_total(round.hand.seats[1], i)) for i in (0, 1)] == ["soft 21", "soft 18"]


T = Total
P215 = Total(21, kind=Kind.PURE_21_5)
EIGHTS = parse_cards("8S 8H 8D")


@pytest.mark.parametrize(("player", "dealer", "dealer_cards", "payout", "rule"), [
    (P215, P215, [], "push", "game rule 1"),
    (P215, T(21, True), [], "3 to 2", "object of the game"),
    (T(21), P215, [], "lose", "game rule 1"),
    (T(18), T(23), [], "1 to 1", "game rule 4"),
    (T(23), T(18), [], "lose", "game rules 5, 8b"),
    (T(19), T(19, True), [], "push", "game rule 6"),
    (T(20), T(18), [], "1 to 1", "game rule 7"),
    (T(17), T(20), [], "lose", "game rule 7"),
    (T(23), T(24), EIGHTS, "push", "game rule 8a"),
    (T(23), T(24), parse_cards("9S 7H 8D"), "lose", "game rules 5, 8b"),
    (T(19), T(24), EIGHTS, "1 to 1", "game rule 4"),
])
def test_game_rules_1_and_4_to_8(player, dealer, dealer_cards, payout, rule) -> None:
    got, why = make_game(GAME).compare(player, dealer, dealer_cards)
    assert (got.text, rule in why) == (payout, True)


def test_888_option_players_over_21_5_win_against_the_player_dealers_888() -> None:
    # "Player/Dealer 888 Option"; game rule 8a is the default (push); both logged with the round
    log = MemoryLog()
    default = play(GAME, {(1, "base"): 1000}, "TB 8S 6H 8H TB 8D", [(1, "hit")], log=log)
    option = play(GAME, {(1, "base"): 1000}, "TB 8S 6H 8H TB 8D", [(1, "hit")], rule_888="win")
    assert returned(default) == {(1, "base"): 1000} and returned(option) == {(1, "base"): 2000}
    assert log.named(RoundStarted.EVENT)[0]["options"]["rule_888"] == "push"
    assert log.named(SettlementSummarized.EVENT)[0]["promotions"] == ["player-dealer 888"]


def test_game_rule_2_the_down_card_is_checked_under_a_bonus_card_and_nobody_acts() -> None:
    round = play(GAME, {(1, "base"): 1000, (2, "base"): 1000}, "TB AC KB 9H QB AH")
    assert round.decisions == []
    assert returned(round) == {(1, "base"): 0, (2, "base"): 1000}  # 19 loses; the other Pure 21.5 pushes
    state = round.hand
    with pytest.raises(DecisionRefused, match="Pure 21.5 Blackjack"):
        round.game.decide(state, Decision(1, "hit"), round.wagers)


def test_insurance_under_an_ace_pays_2_to_1_when_the_down_card_is_a_bonus_card() -> None:
    # "Winning Insurance wagers pay 2 to 1"; "equal to no more than 1/2 of a Player's original wager"
    won = play(GAME, {(1, "base"): 1000}, "TB AS 9H KB", [(1, "insurance")])
    assert returned(won) == {(1, "base"): 0, (1, "insurance"): 1500}
    lost = play(GAME, {(1, "base"): 1000}, "TB AS 9H 7C", [(1, "insurance"), (1, "stand")])
    assert returned(lost) == {(1, "base"): 2000, (1, "insurance"): 0}  # 19 against soft 18


def test_insurance_above_half_the_original_wager_is_refused() -> None:
    round = play(GAME, {(1, "base"): 1000}, "TB AS 9H 7C", stop_at_decision=True)
    with pytest.raises(DecisionRefused, match="at most half"):
        round.decide(Decision(1, "insurance", amount=600))
    assert round.pending_decision().amounts == (("insurance", 500),)  # the most a console offers
    round.decide(Decision(1, "insurance", amount=300))
    assert round.wagers[(1, "insurance")] == 300


@pytest.mark.parametrize("down", ["KB", "7C"])
def test_even_money_the_player_wins_the_original_wager_either_way(down) -> None:
    # "Even Money": "The result in each case is the same as the Player wins an amount equal to the original wager"
    round = play(GAME, {(1, "base"): 1000}, f"AH AS KB {down}",
                 [(1, "even-money")])
    assert returned(round)[(1, "base")] + returned(round)[(1, "insurance")] - 1500 == 1000


def test_even_money_is_offered_only_with_a_pure_21_5_blackjack() -> None:
    round = play(GAME, {(1, "base"): 1000}, "TB AS 9H 7C", stop_at_decision=True)
    assert round.pending_decision().actions == ("insurance", "no-insurance")
    with pytest.raises(DecisionRefused, match="insurance is decided first"):
        round.decide(Decision(1, "hit"))


def test_doubling_down_for_less_is_allowed() -> None:
    # Double-down, split and surrender 1: "Doubling down for less is allowed."
    offered = play(GAME, {(1, "base"): 1000}, "5S 9D 6H 7C", stop_at_decision=True).pending_decision()
    assert "double" in offered.actions and offered.amounts == (("double", 1000),)  # up to the original wager
    round = play(GAME, {(1, "base"): 1000}, "5S 9D 6H 7C TB 2C", [Decision(1, "double", 500)])
    assert round.wagers[(1, "base")] == 1500 and returned(round) == {(1, "base"): 3000}


def test_a_card_from_another_deck_is_refused() -> None:
    game = make_game(GAME, {"player_dealer_seat": 8})
    state = game.new_hand([1, 8], {(1, "base"): 1000, (8, "bank"): 10000})
    with pytest.raises(ValueError, match="not a card of the Pure 21.5 Blackjack deck"):
        game.place(state, game.next_target(state), Card.parse("KS"))


def test_player_bonus_hands_are_announced_for_the_card_rooms_promotions() -> None:
    # "Suited 777, Suited 678, and Unsuited 777"; "Same color 777 and same color 678"; "Seven Card Charlies"
    log = MemoryLog()
    play(GAME, {(1, "base"): 1000, (2, "base"): 1000}, "7S 2C 2D 7S AC 9C 7S AD AH 2H 3S TB 8D",
         [(1, "hit"), (2, "hit"), (2, "hit"), (2, "hit"), (2, "hit"), (2, "hit")], log=log)
    assert log.named(SettlementSummarized.EVENT)[0]["promotions"] == [
        "spot 1 hand 1: 777 (suited)", "spot 2 hand 1: seven card charlie"]
