"""Top 5 Poker, rule by rule of seed 001 and rules-notes.md."""

from __future__ import annotations

import pytest

from controller.cards import Card, parse_cards
from controller.errors import DecisionRefused, WagerRefused
from controller.events import DecisionRefusal, Revealed
from controller.rules.top_5_poker.game import Top5Poker
from controller.rules.top_5_poker.strategy import always_played, best_decision, best_hand, play_return
from tests.games.rounds import deal, decide, new_round, returned
from tests.helpers import MemoryLog

DEALER_NO_PAIR = "KS QH 8C 5D 3H"
DEALER_KINGS = "KS KH 8C 5D 3H"


def top5(wagers: dict, cards: str, options: dict | None = None, log: MemoryLog | None = None):
    return deal(new_round("top-5-poker", options, log=log), wagers, cards)


def test_rule_2_one_standard_deck_through_the_shuffler() -> None:
    game = Top5Poker()
    assert len(game.deck()) == 52 and len(set(game.deck())) == 52
    assert game.device == "shuffler"


def test_rule_4_only_spots_with_tens_or_ante_get_cards_then_dealer_then_rule_5_community() -> None:
    round = top5({(1, "ante"): 1000, (2, "ace_or_face"): 500, (3, "tens_or_better"): 500},
                 "TH TD 4C 7S 2D 9S 9D 3C 4H 6S " + DEALER_NO_PAIR + " 9C")
    targets = [t for t, _, _ in round.cards]
    assert targets == ["spot 1"] * 5 + ["spot 3"] * 5 + ["dealer"] * 5 + ["community"]
    assert round.pending_decision().spot == 1


def test_rule_6_play_adds_a_bet_equal_to_the_ante_and_dealer_not_qualifying_pays_ante_pushes_bet() -> None:
    # Ante / Bet Payout Table, row 2: dealer does not qualify (K Q 9 8 5 with the Community Card)
    round = top5({(1, "ante"): 1000, (1, "tens_or_better"): 500, (1, "ace_or_face"): 500},
                 "TH TD 4C 7S 2D " + DEALER_NO_PAIR + " 9C")
    decide(round, 1, "play")
    assert round.wagers[(1, "bet")] == 1000
    assert returned(round) == {(1, "ace_or_face"): 0, (1, "tens_or_better"): 1000, (1, "ante"): 2000, (1, "bet"): 1000}


def test_dealer_qualifying_and_beating_the_player_collects_ante_and_bet_but_tens_still_pays() -> None:
    # Ante / Bet Payout Table row 3; 10's or Better paid "regardless of whether ... the dealer's hand beats"
    round = top5({(1, "ante"): 1000, (1, "tens_or_better"): 500}, "TH TD 4C 7S 2D " + DEALER_KINGS + " 9C")
    decide(round, 1, "play")
    assert returned(round) == {(1, "tens_or_better"): 1000, (1, "ante"): 0, (1, "bet"): 0}


def test_community_card_straight_beats_qualified_dealer_ante_even_bet_three_to_one() -> None:
    # rule 6 "use the Community Card" (discard KD); Winning Bet Payouts: straight 3 to 1; 10's column 2.17%: straight 3 to 1
    round = top5({(1, "ante"): 1000, (1, "tens_or_better"): 500}, "5S 6H 7D 8C KD KS KH 2C 3D 4H 9C")
    decide(round, 1, "community", "KD")
    assert returned(round) == {(1, "tens_or_better"): 2000, (1, "ante"): 2000, (1, "bet"): 4000}


@pytest.mark.parametrize(("option", "ante", "bet"), [({}, 1000, 1000), ({"tie": "dealer"}, 0, 0)])
def test_tie_with_a_qualified_dealer_pushes_by_default_or_loses_by_option(option, ante, bet) -> None:
    # rules-notes: the seed is silent on ties; default push, configurable
    round = top5({(1, "ante"): 1000}, "AH AD 7C 5S 3D AS AC 7H 5D 3C 2H", option)
    decide(round, 1, "play")
    assert returned(round) == {(1, "ante"): ante, (1, "bet"): bet}


def test_rule_9_dealer_plays_his_best_five_of_six_discarding_the_least_favorable() -> None:
    log = MemoryLog()
    round = top5({(1, "ante"): 1000}, "2S 3S 4D 6C 8H AS KS QD 7C 5D KC", log=log)
    assert round.state == "decisions" and not log.named(Revealed.EVENT)  # rule 9 follows the decisions
    decide(round, 1, "fold")
    reveal = log.named(Revealed.EVENT)[0]
    assert reveal["dealer_value"].startswith("pair of kings") and reveal["dealer_qualifies"] is True
    assert reveal["dealer_discard"] == ["5D"]


@pytest.mark.parametrize(("column", "community", "paid"), [
    ("1.54%", "AH", 2500), ("1.54%", "KH", 1500), ("1.54%", "QH", 1300), ("1.54%", "JH", 1100), ("1.54%", "TH", 0),
    ("3.08%", "QH", 1300), ("3.08%", "JH", 1000), ("3.85%", "QH", 1250), ("3.85%", "JH", 1000), ("3.85%", "AH", 2500),
])
def test_ace_or_face_payouts_by_column_paid_even_when_the_player_folds(column, community, paid) -> None:
    # "Ace or Face Payouts": A 4 to 1, K 2 to 1, Q 8 to 5 | 8 to 5 | 3 to 2, J 6 to 5 | 1 to 1 | 1 to 1
    round = top5({(1, "ace_or_face"): 500, (1, "ante"): 500, (2, "ace_or_face"): 500},
                 "2S 3S 4D 6C 8H " + DEALER_NO_PAIR.replace("QH", "QC").replace("KS", "KC") + " " + community,
                 {"ace_or_face": column})
    decide(round, 1, "fold")
    result = returned(round)
    assert result[(1, "ace_or_face")] == paid and result[(2, "ace_or_face")] == paid
    assert result[(1, "ante")] == 0


@pytest.mark.parametrize(("column", "hand", "community", "paid"), [
    ("2.17%", "9H 9D 4C 7S 2D", "3C", 0),            # a pair of nines is below 10's or Better
    ("2.17%", "JH JD 4C 7S 2D", "3C", 1000),         # pair 10's or better 1 to 1
    ("2.17%", "2H 5H 9H JH 4D", "KH", 3000),         # flush with the Community Card: 5 to 1
    ("3.18%", "2H 5H 9H JH 4D", "KH", 2500),         # flush 4 to 1 in column 3.18%
    ("4.47%", "6H 6D 6C 9S 9D", "3C", 5500),         # full house 10 to 1 in column 4.47%
    ("2.17%", "6H 6D 6C 9S 9D", "3C", 8000),         # full house 15 to 1
])
def test_tens_or_better_pays_the_hand_the_player_plays_by_column(column, hand, community, paid) -> None:
    round = top5({(1, "tens_or_better"): 500}, f"{hand} {DEALER_KINGS.replace('KH', 'KC')} {community}",
                 {"tens_or_better": column})
    choice = best_hand(round.hand.cards[1], round.hand.community)[1]
    decide(round, 1, "community" if choice else "play", str(choice) if choice else "")
    assert returned(round) == {(1, "tens_or_better"): paid}


def test_folding_loses_tens_or_better_even_with_a_paying_hand() -> None:
    # "If the player folds, the 10's or Better wager is lost."
    round = top5({(1, "tens_or_better"): 500}, "AH AD 4C 7S 2D " + DEALER_KINGS + " 9C")
    decide(round, 1, "fold")
    assert returned(round) == {(1, "tens_or_better"): 0}
    assert (1, "bet") not in round.wagers


def test_rule_11_settles_right_to_left_after_rule_7_collects_folds_and_losing_ace_or_face() -> None:
    wagers = {(1, "ante"): 500, (4, "ante"): 500, (7, "ante"): 500, (7, "ace_or_face"): 100}
    round = top5(wagers, "2S 3S 4D 6C 8H  9H 9D 4C 7S 2D  AH AD 7C 5S 3D " + DEALER_NO_PAIR + " TC")
    decide(round, 1, "play")
    decide(round, 4, "fold")
    decide(round, 7, "play")
    order = [(s.spot, s.wager) for s in round.settlements]
    assert order == [(7, "ace_or_face"), (4, "ante"), (7, "ante"), (7, "bet"), (1, "ante"), (1, "bet")]


@pytest.mark.parametrize(("action", "cards", "reason"), [
    ("community", "", "exactly one discard"),
    ("community", "2S 3S", "exactly one discard"),
    ("community", "AC", "not one of this spot's cards"),
    ("play", "2S", "takes no cards"),
    ("raise", "", "unknown decision"),
])
def test_rule_6_refuses_anything_but_fold_play_or_exactly_one_discard(action, cards, reason) -> None:
    log = MemoryLog()
    round = top5({(1, "ante"): 1000}, "2S 3S 4D 6C 8H " + DEALER_NO_PAIR + " 9C", log=log)
    with pytest.raises(DecisionRefused, match=reason):
        decide(round, 1, action, cards)
    assert log.named(DecisionRefusal.EVENT)[0]["reason"].find(reason) >= 0
    assert round.state == "decisions" and (1, "bet") not in round.wagers


def test_the_bet_must_equal_the_ante_exactly() -> None:
    round = top5({(1, "ante"): 1000}, "2S 3S 4D 6C 8H " + DEALER_NO_PAIR + " 9C")
    with pytest.raises(DecisionRefused, match="equal the Ante"):
        decide(round, 1, "play", amount=1500)
    decide(round, 1, "play", amount=1000)
    assert round.wagers[(1, "bet")] == 1000


def test_decisions_are_taken_in_turn() -> None:
    round = top5({(1, "ante"): 1000, (2, "ante"): 1000}, "2S 3S 4D 6C 8H 9H 9D 4C 7S 2D " + DEALER_NO_PAIR + " 9C")
    with pytest.raises(DecisionRefused, match="waiting for spot 1"):
        decide(round, 2, "play")


def test_rule_3_the_house_may_require_an_ante() -> None:
    round = new_round("top-5-poker", {"required": ["ante"]})
    round.start()
    round.place_wager(1, "tens_or_better", 500)
    with pytest.raises(WagerRefused, match="requires a ante"):
        round.close_betting()


def test_a_bet_cannot_be_placed_before_the_deal() -> None:
    round = new_round("top-5-poker")
    round.start()
    with pytest.raises(WagerRefused, match="takes no 'bet' wager"):
        round.place_wager(1, "bet", 500)


def test_strategy_plays_the_best_five_of_six_discarding_the_card_the_community_card_replaces() -> None:
    cards, community = parse_cards("5S 6H 7D 8C KD"), Card.parse("9C")
    assert best_hand(cards, community)[1] == Card.parse("KD")
    decision = best_decision(1, cards, community, has_ante=True)
    assert (decision.action, decision.cards) == ("community", (Card.parse("KD"),))
    assert best_decision(1, parse_cards("AS AD 7C 5S 3D"), Card.parse("2H"), has_ante=True).action == "play"


def test_strategy_folds_exactly_when_playing_returns_less_than_the_lost_ante() -> None:
    # a no-pair hand loses to every qualified dealer: its return is 3 x unqualified - 2 x all dealer hands
    weak, community = parse_cards("2S 3H 5D 7C 8S"), Card.parse("JD")
    value, _ = best_hand(weak, community)
    assert not always_played(value)
    folds = play_return(weak, community, value, tie_loses=False) < -1_370_754
    assert best_decision(1, weak, community, has_ante=True).action == ("fold" if folds else "play")
    assert best_decision(1, weak, community, has_ante=False).action != "fold"  # no Ante: playing costs nothing


def test_options_are_validated() -> None:
    from controller.rules.base import OptionError

    with pytest.raises(OptionError, match="ace_or_face"):
        Top5Poker({"ace_or_face": "2%"})
    with pytest.raises(OptionError, match="tie"):
        Top5Poker({"tie": "player"})
