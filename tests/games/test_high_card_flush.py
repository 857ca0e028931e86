"""High Card Flush: seed 002 (58 Pa. Code § 678a.6) and the game as rules-notes.md describes it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from controller.cards import parse_cards
from controller.errors import DecisionRefused, WagerRefused
from controller.rules.base import OptionError
from controller.rules.high_card_flush.game import HighCardFlush
from controller.rules.high_card_flush.progressive import ProgressiveMeter
from controller.rules.high_card_flush.strategy import best_raise, published_raise, returns
from tests.games.rounds import deal, decide, new_round, returned
from tests.helpers import MemoryLog

QUALIFIED = "9C 5C 2C TD 8S QD KS"      # three-card flush 9-5-2: qualifies
UNQUALIFIED = "8C 5C 2C TD 9S QD KS"    # three-card flush 8 high: does not


def hcf(wagers: dict, cards: str, options: dict | None = None, log: MemoryLog | None = None):
    return deal(new_round("high-card-flush", options, log=log), wagers, cards)


def test_seven_cards_to_each_spot_with_an_ante_and_to_the_dealer_from_one_deck() -> None:
    game = HighCardFlush()
    assert len(game.deck()) == 52 and game.device == "shuffler"
    assert game.max_spots * 7 + 7 <= 52
    round = hcf({(1, "ante"): 500, (3, "ante"): 500}, "AH KH 7H 2H 3S 5D 9C " + "AS KS 7S 2S 3D 5C 9D " + "QH JH TH 9H 8H 6H 4H")
    assert [t for t, _, _ in round.cards] == ["spot 1"] * 7 + ["spot 3"] * 7 + ["dealer"] * 7
    assert round.pending_decision().actions == ("fold", "raise")


@pytest.mark.parametrize(("hand", "allowed", "refused"), [
    ("AH KH 7H 2H 3S 5D 4C", 1, 2),   # four-card flush: up to 1x
    ("AH KH 7H 2H 4H 5D 4C", 2, 3),   # five-card flush: up to 2x
    ("AH KH 7H 2H 4H 6H 4C", 3, 4),   # six-card flush: up to 3x
    ("AH KH 7D 2S 4C 6S 9D", 1, 2),   # two-card flush: up to 1x
])
def test_raise_is_limited_by_the_flush_length(hand, allowed, refused) -> None:
    # rules-notes: 1x with a flush of four or fewer, 2x with five, 3x with six or seven
    round = hcf({(1, "ante"): 500}, f"{hand} {QUALIFIED}")
    with pytest.raises(DecisionRefused, match=f"1x to {allowed}x"):
        decide(round, 1, "raise", amount=500 * refused)
    with pytest.raises(DecisionRefused, match="may raise"):
        decide(round, 1, "raise", amount=499)
    decide(round, 1, "raise", amount=500 * allowed)
    assert round.wagers[(1, "raise")] == 500 * allowed


@pytest.mark.parametrize(("hand", "multiples"), [
    ("AH KH 7H 2H 3S 5D 4C", (1,)),        # four-card flush: 1x
    ("AH KH 7H 2H 4H 5D 4C", (1, 2)),      # five-card flush: 1x or 2x
    ("AH KH 7H 2H 4H 6H 4C", (1, 2, 3)),   # six-card flush: 1x to 3x
])
def test_the_pending_raise_offers_each_allowed_multiple_of_the_ante(hand, multiples) -> None:
    # rules-notes: the Raise is up to 1x (four or fewer), 2x (five), 3x (six or seven) the Ante
    round = hcf({(1, "ante"): 700}, f"{hand} {QUALIFIED}")
    pending = round.pending_decision()
    assert pending.amounts == tuple(("raise", 700 * m) for m in multiples)
    for _, amount in pending.amounts:
        assert round.game.max_raise(round.hand, 1, 700) >= amount >= 700
    decide(round, 1, "raise", amount=pending.amounts[-1][1])
    assert round.wagers[(1, "raise")] == 700 * multiples[-1]


def test_unknown_decisions_and_folds_with_a_raise_are_refused() -> None:
    round = hcf({(1, "ante"): 500}, f"AH KH 7H 2H 3S 5D 4C {QUALIFIED}")
    with pytest.raises(DecisionRefused, match="unknown decision"):
        decide(round, 1, "call")
    with pytest.raises(DecisionRefused, match="no Raise"):
        decide(round, 1, "fold", amount=500)


def test_dealer_without_a_nine_high_three_card_flush_pays_the_ante_and_pushes_the_raise() -> None:
    # rules-notes: "Not qualified: Ante pays 1 to 1, Raise pushes"
    round = hcf({(1, "ante"): 500}, f"7D 5D 2D 3S 4H 6C JC {UNQUALIFIED}")
    decide(round, 1, "raise")
    assert returned(round) == {(1, "ante"): 1000, (1, "raise"): 500}


def test_longer_flush_wins_ante_and_raise_at_even_money() -> None:
    # § 678a.6(b): a four-card flush outranks a three-card flush
    round = hcf({(1, "ante"): 500}, f"7D 5D 3D 2D 4H 6C JC {QUALIFIED}")
    decide(round, 1, "raise")
    assert returned(round) == {(1, "ante"): 1000, (1, "raise"): 1000}


def test_equal_length_highest_card_not_in_the_other_hand_wins() -> None:
    # § 678a.6(c): K-9-5 beats K-8-7 (the nine is the highest card the other hand lacks)
    round = hcf({(1, "ante"): 500}, "KH 9H 5H 2C 3D 4S 6C KS 8S 7S 2H 3C 4D TD")
    decide(round, 1, "raise")
    assert returned(round) == {(1, "ante"): 1000, (1, "raise"): 1000}
    round = hcf({(1, "ante"): 500}, "KH 8H 7H 2C 3D 4S 6C KS 9S 5S 2H 3C 4D TD")
    decide(round, 1, "raise")
    assert returned(round) == {(1, "ante"): 0, (1, "raise"): 0}


def test_identical_flushes_tie_and_push() -> None:
    # § 678a.6(c) last sentence; rules-notes: equal hands push
    round = hcf({(1, "ante"): 500}, "KH 9H 5H 2C 3D 4S 6C KS 9S 5S 2H 3C 4D 7H")
    decide(round, 1, "raise")
    assert returned(round) == {(1, "ante"): 500, (1, "raise"): 500}


@pytest.mark.parametrize(("table", "hand", "paid"), [
    ("300-100-10-1", "AH KH 7H 2H 3S 5D 4C", 200),       # 4-card flush 1 to 1
    ("100-20-10-2", "AH KH 7H 2H 3S 5D 4C", 300),        # 4-card flush 2 to 1
    ("300-100-10-1", "AH KH 7H 2H 4H 6H 9H", 30100),     # 7-card flush 300 to 1
    ("300-100-10-1", "AH KH 7D 2S 4C 6S 9D", 0),         # 2-card flush loses
])
def test_flush_bonus_is_paid_on_the_seven_cards_even_after_a_fold(table, hand, paid) -> None:
    round = hcf({(1, "ante"): 500, (1, "flush_bonus"): 100}, f"{hand} {QUALIFIED}", {"flush_bonus": table})
    decide(round, 1, "fold")
    assert returned(round) == {(1, "ante"): 0, (1, "flush_bonus"): paid}


@pytest.mark.parametrize(("table", "hand", "paid"), [
    ("500-200-100-50-9", "AH 2H 3H 9S 7D 5S JC", 1000),    # § (d)(5): A-2-3 counts (ace low), 9 to 1
    ("500-200-100-50-9", "QH KH AH 9S 7D 5S JC", 1000),    # Q-K-A counts (ace high)
    ("500-200-100-50-9", "KH AH 2H 9S 7D 5S JC", 0),       # no wrap-around
    ("8000-1000-100-60-7", "5H 6H 7H 8H 9S 3D JD", 6100),  # 4-card straight flush 60 to 1
])
def test_straight_flush_bonus_by_straight_flush_length(table, hand, paid) -> None:
    round = hcf({(1, "ante"): 500, (1, "straight_flush_bonus"): 100}, f"{hand} {QUALIFIED}",
                {"straight_flush_bonus": table})
    decide(round, 1, "fold")
    assert returned(round)[(1, "straight_flush_bonus")] == paid


def test_progressive_meter_is_fed_by_every_wager_and_the_whole_jackpot_resets_it() -> None:
    game_options = {"progressive_reset": 1_000_000, "progressive_rate": "0.15"}
    round = hcf({(1, "ante"): 500, (1, "progressive"): 100, (2, "ante"): 500, (2, "progressive"): 100},
                "AH 2H 3H 4H 5H 6H 7H 2S 3S 4S 5S 6S 7S 9D " + "KD QD JD 8C 9C TC 2C", game_options)
    meter = round.game.progressive
    decide(round, 1, "raise", amount=1500)
    decide(round, 2, "raise", amount=1500)
    result = returned(round)
    # spot 2 settles first (dealer's right): its 15 cents go in, then its 6-card SF takes 10% of 1,000,015
    assert result[(2, "progressive")] == 100 + 100_002  # 100,001.5 rounded in the player's favour
    # spot 1 adds 15 to the 900,013.5 left and its 7-card SF takes all 900,028.5
    assert result[(1, "progressive")] == 100 + 900_029
    assert meter.amount == 1_000_000
    assert meter.contributed == 30


def test_meter_snapshot_restores_exactly() -> None:
    meter = ProgressiveMeter(50_000, Fraction(1, 8))
    meter.contribute(100)
    assert meter.amount == Fraction(100_025, 2)
    assert ProgressiveMeter.restore(meter.snapshot()) == meter


def test_side_wagers_need_an_ante() -> None:
    round = new_round("high-card-flush")
    round.start()
    round.place_wager(1, "flush_bonus", 500)
    with pytest.raises(WagerRefused, match="only with an Ante"):
        round.close_betting()


def test_options_are_validated() -> None:
    with pytest.raises(OptionError, match="flush_bonus"):
        HighCardFlush({"flush_bonus": "1000-1"})
    with pytest.raises(OptionError, match="progressive"):
        HighCardFlush({"progressive": {"8": "100%"}})
    with pytest.raises(OptionError, match="progressive_rate"):
        HighCardFlush({"progressive_rate": "1.5"})


def test_strategy_takes_the_choice_with_the_highest_exact_return() -> None:
    five = parse_cards("AH KH 7H 2H 4H 5D 9C")
    assert best_raise(five) == 2  # a five-card flush raises the most it may
    weak = parse_cards("7H 2H 4D 3D 5S 6S 9C")  # a two-card flush folds
    assert best_raise(weak) == 0 and published_raise(weak) == 0
    options = returns(parse_cards("TH 8H 6H JS AD QD JC"))
    assert best_raise(parse_cards("TH 8H 6H JS AD QD JC")) == max(options, key=options.__getitem__)
    assert published_raise(parse_cards("TH 8H 6H JS AD QD JC")) == 1  # Mousseau: T-8-6 or better raises
