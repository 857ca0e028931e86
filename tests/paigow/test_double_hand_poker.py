"""The Double-Hand Poker round (seed 003, "Game Description", general rules, misdeals), fed card by card."""

from __future__ import annotations

import pytest

from controller.cards import Card, parse_cards
from controller.errors import DecisionRefused, WagerRefused
from controller.events import BettingClosed, DecisionRefusal, FeeCollected, IrregularityRefusal, RoundVoided, SettlementSummarized, StateChanged
from controller.rules.base import Decision, Irregularity
from controller.rules.pai_gow_poker.deal import action_seat
from tests.helpers import MemoryLog
from tests.paigow.roundkit import deal, new_round, play_out, stacked_deck

SEAT_K_GETS_PILE_K = {"first_pile": 1, "dice": (2, 3, 3)}
"""Dice totalling 8 land on the player-dealer (seat 1), so seat k receives pile k."""


@pytest.mark.parametrize(("player_dealer", "dice", "seat"), [
    (1, (1, 1, 1), 3), (1, (2, 3, 3), 1), (1, (5, 5, 5), 1), (4, (1, 2, 3), 2), (7, (6, 6, 6), 3),
])
def test_the_dice_count_the_player_dealer_as_one_eight_and_fifteen(player_dealer: int, dice, seat: int) -> None:
    # seed 003: "The player/banker is always counted as numbers 1, 8 or 15"
    assert action_seat(player_dealer, dice) == seat


def test_the_first_pile_goes_to_the_seat_the_dice_pick_and_the_rest_follow_clockwise() -> None:
    round = new_round(wagers={(2, "bet"): 2000, (5, "bet"): 2000})
    cards = stacked_deck({})
    deal(round, cards)
    play_out(round, first_pile=4, dice=(1, 1, 1))  # total 3: seat 3 gets pile 4
    piles = [tuple(cards[i * 7:(i + 1) * 7]) for i in range(7)]
    assert round.hand.hands[3] == piles[3]
    assert round.hand.hands[4] == piles[4]
    assert round.hand.hands[2] == piles[2]  # pile 3 wraps round to seat 2
    dice = [d for d in round.decisions if d.action == "dice"]
    assert dice[0].values == (1, 1, 1)
    assert round.state == "complete"


def test_a_foul_setting_is_refused_with_the_reason_and_the_player_can_set_again() -> None:
    round = new_round()
    deal(round, stacked_deck({2: "KS KH AS QH 8D 7C 2S"}))
    round.decide(Decision(1, "first-pile", values=(1,)))
    round.decide(Decision(1, "dice", values=(2, 3, 3)))
    with pytest.raises(DecisionRefused, match=r"foul hand: the front hand \(pair of kings\) ranks above"):
        round.decide(Decision(2, "set", cards=tuple(parse_cards("KS KH"))))
    refused = round.log.named(DecisionRefusal.EVENT)
    assert refused and "pair of kings" in refused[0]["reason"]
    round.decide(Decision(2, "set", cards=tuple(parse_cards("AS QH"))))
    assert str(round.hand.set_hands[2]).startswith("AS QH /")


def test_the_pending_decisions_say_what_the_dealer_enters() -> None:
    # "Game Description": the player-dealer names one of seven piles, throws three dice, then hands are set 2 / 5
    round = new_round()
    deal(round, stacked_deck({2: "KS KH AS QH 8D 7C 2S"}))
    assert round.pending_decision().values == ((1, 7),)
    round.decide(Decision(1, "first-pile", values=(1,)))
    assert round.pending_decision().values == ((1, 6),) * 3
    round.decide(Decision(1, "dice", values=(2, 3, 3)))
    setting = round.pending_decision().setting
    assert setting is not None
    assert (setting.cards, setting.count, setting.named, setting.rest) == (tuple(parse_cards("KS KH AS QH 8D 7C 2S")), 2, "front hand", "back hand")


def test_a_seat_may_ask_for_the_house_way() -> None:
    round = new_round()
    deal(round, stacked_deck({2: "QS QH 9D 7C 3S 8H 8D"}))
    round.decide(Decision(1, "first-pile", values=(1,)))
    round.decide(Decision(1, "dice", values=(2, 3, 3)))
    round.decide(Decision(2, "house-way"))
    assert {c.code for c in round.hand.set_hands[2].front} == {"8H", "8D"}  # two pair, queens: split


def test_the_player_dealer_is_set_last_and_may_not_set_foul() -> None:
    round = new_round()
    deal(round, stacked_deck({1: "KS KH AS QH 8D 7C 2S"}))
    round.decide(Decision(1, "first-pile", values=(1,)))
    round.decide(Decision(1, "dice", values=(2, 3, 3)))
    assert round.pending_decision().spot == 2
    round.decide(Decision(2, "house-way"))
    assert round.pending_decision().spot == 1
    with pytest.raises(DecisionRefused, match="the player-dealer: foul hand"):
        round.decide(Decision(1, "set", cards=tuple(parse_cards("KS KH"))))


def test_extra_seats_of_one_player_are_played_house_way() -> None:
    # general rule 12: "the player may only play one hand. The other hand(s) will be played House Way"
    round = new_round(options={"extra_seats": [[5, 6]]}, wagers={(5, "bet"): 2000, (6, "bet"): 2000})
    deal(round, stacked_deck({}))
    round.decide(Decision(1, "first-pile", values=(1,)))
    round.decide(Decision(1, "dice", values=(2, 3, 3)))
    assert round.pending_decision().actions == ("set", "house-way")
    round.decide(Decision(5, "house-way"))
    assert round.pending_decision().spot == 6 and round.pending_decision().actions == ("house-way",)
    with pytest.raises(DecisionRefused, match="waits for seat 6: house-way"):
        round.decide(Decision(6, "set", cards=round.hand.hands[6][:2]))


def test_the_player_dealer_seat_posts_a_bank_and_takes_no_wager() -> None:
    with pytest.raises(WagerRefused, match="spot 1 takes only bank"):
        new_round(wagers={(1, "bet"): 2000})
    with pytest.raises(WagerRefused, match="spot 2 takes only bet"):
        new_round(wagers={(2, "bank"): 2000})


def test_no_round_without_the_player_dealers_bank() -> None:
    from controller.engine.round import Limits, Round
    from controller.rules.registry import make_game

    round = Round("T1-R1", make_game("double-hand-poker"), MemoryLog(), spots=7,
                  limits=Limits({"bet": (1000, 50000), "bank": (500, 500000)}))
    round.start()
    round.place_wager(2, "bet", 2000)
    with pytest.raises(WagerRefused, match="must post a bank"):
        round.close_betting()


def test_fees_are_collected_before_the_deal() -> None:
    # general rule 2 "Collections are taken in advance"; $10-$100 pays $1, $101-$200 $2; the bank's fee too
    round = new_round(wagers={(2, "bet"): 10000, (3, "bet"): 15000}, bank=5000)
    events = [r["event"] for r in round.log.records()]
    assert events.index(FeeCollected.EVENT) < events.index(StateChanged.EVENT, events.index(BettingClosed.EVENT))
    assert [(f.spot, f.amount) for f in round.fees] == [(1, 100), (2, 100), (3, 200)]


def test_copies_go_to_the_player_dealer() -> None:
    # seed 003: "An identical hand is called a copy. The player/banker wins all copies."
    round = new_round()
    deal(round, stacked_deck({1: "AS KH 9D 8C 6S 4H 2D", 2: "AH KD 9C 8S 6H 4D 2C"}))
    play_out(round, **SEAT_K_GETS_PILE_K)
    comparison = round.hand.comparisons[2]
    assert (comparison.front, comparison.back) == ("copy", "copy")
    assert round.settlements[0].returned == 0


# -- misdeals: every wager returned ------------------------------------------------------------------

def assert_void_with_every_wager_returned(round, reason: str) -> None:
    assert round.state == "void"
    assert all(s.returned == s.stake for s in round.settlements)
    assert sum(s.stake for s in round.settlements) == sum(round.wagers.values())
    assert reason in round.log.named(RoundVoided.EVENT)[0]["reason"]


def test_two_identical_cards_are_a_misdeal() -> None:
    round = new_round()
    cards = stacked_deck({})
    deal(round, cards[:10] + [cards[3]])
    assert_void_with_every_wager_returned(round, "two identical cards")


@pytest.mark.parametrize("card", ["AS", "JK"])
def test_a_boxed_or_exposed_joker_or_ace_is_a_misdeal(card: str) -> None:
    round = new_round()
    cards = stacked_deck({1: f"{card} 2C 3C 4C 5D 6D 7D"})
    deal(round, cards[:5])
    round.report(Irregularity("exposed", Card.parse(card)))
    assert_void_with_every_wager_returned(round, "(a) a joker or an ace")


def test_two_boxed_cards_are_a_misdeal() -> None:
    round = new_round()
    cards = stacked_deck({})
    deal(round, cards[:12])
    round.report(Irregularity("boxed", cards[2]))
    assert round.state == "dealing"
    round.report(Irregularity("exposed", cards[9]))
    assert_void_with_every_wager_returned(round, "(b) two or more cards")


def test_a_wrong_count_is_a_misdeal() -> None:
    round = new_round()
    deal(round, stacked_deck({})[:49])
    round.report(Irregularity("count", target="pile 1", count=6))
    assert_void_with_every_wager_returned(round, "(c) pile 1 has 6 cards")


def test_one_exposed_card_is_replaced_by_the_first_of_the_remaining_four() -> None:
    # seed 003: "A boxed or exposed card on the deal will be replaced by the first of the remaining four cards"
    round = new_round()
    cards = stacked_deck({2: "KS QH 9D 7C 5S 4H 3D"})
    deal(round, cards[:9])
    round.report(Irregularity("exposed", Card.parse("QH")))
    deal(round, cards[9:])
    assert round.card_target() == "replace QH in pile 2"
    round.card(Card.parse("2S"), "test")
    assert round.hand.deal.piles[1] == parse_cards("KS 2S 9D 7C 5S 4H 3D")
    play_out(round, **SEAT_K_GETS_PILE_K)
    assert round.state == "complete"


def test_an_unknown_report_is_refused_and_logged() -> None:
    round = new_round()
    deal(round, stacked_deck({})[:3])
    with pytest.raises(ValueError, match="has not been dealt"):
        round.report(Irregularity("exposed", Card.parse("9S") if Card.parse("9S") not in round.hand.deal.seen
                                  else Card.parse("8S")))
    assert round.log.named(IrregularityRefusal.EVENT)


# -- banking and rotation ----------------------------------------------------------------------------

def test_settlement_starts_at_the_action_button_and_stops_when_the_bank_is_exhausted() -> None:
    # dice total 4 from the player-dealer at seat 1: seat 4 gets pile 3, then 5 <- 4, ..., 1 <- 7, 2 <- 1, 3 <- 2
    hands = {7: "KS 7H 5D 4C 3S 2H 9C", 3: "AS AH KD KC QS QH 2C", 4: "JS JH TD TC 9D 9H 4D",
             1: "AD AC KH QD QC 6S 6H", 2: "JD JC TS TH 8S 8C 6D"}
    round = new_round(wagers={(2, "bet"): 2000, (3, "bet"): 2000, (4, "bet"): 2000, (5, "bet"): 2000}, bank=3000)
    deal(round, stacked_deck(hands))
    play_out(round, first_pile=3, dice=(1, 2, 1))
    order = [(s.spot, s.wager) for s in round.settlements]
    assert order == [(4, "bet"), (5, "bet"), (2, "bet"), (3, "bet"), (1, "bank")]
    returned = [s.returned for s in round.settlements]
    assert returned == [4000, 3000, 2000, 2000, 0]
    assert "bank exhausted" in round.settlements[1].reason
    summary = round.log.named(SettlementSummarized.EVENT)[0]
    assert summary["net"] == -3000 and summary["exhausted"] is True and summary["returned_to_player_dealer"] == 0


def test_the_player_dealer_position_passes_clockwise_after_two_banks() -> None:
    # general rule 5: "must pass clockwise to a different player after every two banks"
    first = new_round()
    game, seats = first.game, []
    for n in range(5):
        round = first if n == 0 else new_round(game=game, wagers={(4 if game.player_dealer != 4 else 5, "bet"): 2000},
                                               round_id=f"T1-R{n + 1}")
        seats.append(round.hand.player_dealer)
        deal(round, stacked_deck({}))
        play_out(round)
        game.pass_position(lambda seat: True)
    assert seats == [1, 1, 2, 2, 3]


def test_a_misdeal_is_not_a_bank() -> None:
    round = new_round()
    game = round.game
    cards = stacked_deck({})
    deal(round, cards[:5] + [cards[0]])
    assert round.state == "void"
    assert game.pass_position(lambda seat: True)["changed"] is False
    assert game.rotation.bank_button == "1st bank"


def test_the_game_stops_when_nobody_takes_the_bank() -> None:
    # No Bust rule 19 / DHP rule 5: the position must pass to a different player; nobody taking it stops the game
    round = new_round()
    game = round.game
    for n in range(2):
        round = round if n == 0 else new_round(game=game, round_id="T1-R2")
        deal(round, stacked_deck({}))
        play_out(round)
        facts = game.pass_position(lambda seat: False)
    assert "stopped" in facts and game.table_roles()["player_dealer"] is None
