"""Top Card, line by line of seed 000 (58 Pa. Code § 651b.1) and rules-notes.md."""

from collections import Counter

import pytest

from controller.cards import Card
from controller.engine.feeds import ShoeFeed
from controller.engine.log import EventLog
from controller.events import BettingClosed, CardBurned, CardDealt, RoundStarted, WagerSettled
from controller.money import Rounding
from controller.rules.top_card.game import TopCard
from drivers.shoe import InProcessShoe
from tests.helpers import MemoryLog, top_card_round


def play(home: str, away: str, wagers: dict, *, burns: int = 0, rounding=Rounding.PLAYER, log=None):
    round = top_card_round(log, burns=burns, rounding=rounding)
    round.start()
    for (spot, name), amount in wagers.items():
        round.place_wager(spot, name, amount)
    round.close_betting()
    for code in ["2S"] * burns + [home, away]:
        round.card(Card.parse(code))
    return round


def returned(round) -> dict:
    return {(s.spot, s.wager): s.returned for s in round.settlements}


def test_c_eight_decks_of_cards() -> None:
    # § 651b.1(c): eight decks identical in appearance
    deck = TopCard().deck()
    assert len(deck) == 416
    assert set(Counter(deck).values()) == {8}


def test_d1_home_wins_when_its_card_ranks_higher() -> None:
    # § (d)(1) and (g)(1): Home wins at 1 to 1; aces high (rules-notes)
    round = play("AS", "KS", {(1, "home"): 1000, (2, "away"): 1000})
    assert returned(round) == {(1, "home"): 2000, (2, "away"): 0}


def test_d2_away_wins_when_its_card_ranks_higher() -> None:
    # § (d)(2) and (g)(2): Away wins at 1 to 1
    round = play("2H", "3C", {(1, "home"): 1000, (2, "away"): 1000})
    assert returned(round) == {(1, "home"): 0, (2, "away"): 2000}


def test_d3_tie_wins_on_equal_rank_whatever_the_suits() -> None:
    # § (d)(3) and (g)(3): tie pays 11 to 1
    round = play("7H", "7C", {(1, "tie"): 500})
    assert returned(round) == {(1, "tie"): 6000}


def test_tie_wager_loses_when_ranks_differ() -> None:
    round = play("7H", "8H", {(1, "tie"): 500})
    assert returned(round) == {(1, "tie"): 0}


def test_g4_half_of_home_and_away_returned_on_a_tie() -> None:
    # § (g)(4): half of the Home or Away wager returned on a tie
    round = play("QD", "QS", {(1, "home"): 1000, (2, "away"): 2000})
    assert returned(round) == {(1, "home"): 500, (2, "away"): 1000}


@pytest.mark.parametrize(("rounding", "expected"), [(Rounding.PLAYER, 263), (Rounding.HOUSE, 262)])
def test_g4_an_odd_cent_goes_by_the_tables_rounding_rule(rounding, expected) -> None:
    # rules-notes: odd cent by the table's rounding rule (default: the player's favour), logged
    log = MemoryLog()
    round = play("QD", "QS", {(1, "home"): 525}, rounding=rounding, log=log)
    assert returned(round) == {(1, "home"): expected}
    settled = log.named(WagerSettled.EVENT)[0]
    assert settled["exact_returned"] == "525/2" and settled["rounded"] is True
    assert log.named(RoundStarted.EVENT)[0]["rounding"] == rounding.value


def test_e2ii_iii_first_non_discarded_card_to_home_second_to_away() -> None:
    # § (e)(2)(ii)-(iii), with the burn card after a shuffle (rules-notes)
    log = MemoryLog()
    round = play("9C", "4D", {(1, "home"): 1000}, burns=1, log=log)
    assert [(t, c.code) for t, c, _ in round.cards] == [("burn", "2S"), ("home", "9C"), ("away", "4D")]
    assert returned(round) == {(1, "home"): 2000}
    assert log.named(CardBurned.EVENT)[0]["card"] == "2S"


def test_e2i_no_more_bets_is_announced_before_any_card() -> None:
    # § (e)(2)(i)
    log = MemoryLog()
    play("9C", "4D", {(1, "home"): 1000}, log=log)
    events = [r["event"] for r in log.records()]
    assert events.index(BettingClosed.EVENT) < events.index(CardDealt.EVENT)


def test_f_settlement_starts_at_the_dealers_right_going_counter_clockwise() -> None:
    # § (f): spot 7 is at the dealer's right; counter-clockwise runs 7, 6, ..., 1
    wagers = {(s, "home"): 1000 for s in (1, 4, 7)} | {(4, "tie"): 100, (2, "away"): 500}
    round = play("KH", "2D", wagers)
    assert [(s.spot, s.wager) for s in round.settlements] == [(7, "home"), (4, "home"), (4, "tie"), (2, "away"), (1, "home")]


def test_cut_card_finishes_the_round_then_the_shoe_is_reshuffled_and_burned() -> None:
    # rules-notes: when the cut card comes out the round in progress is finished, then the shoe is reshuffled
    log = EventLog("T1")
    shoe = InProcessShoe(8, seed=3, cut_from_end=410)
    feed = ShoeFeed(shoe, log, burn_after_shuffle=1)
    assert feed.prepare_round("R1") == 1
    drawn = [feed.next_card("R1") for _ in range(7)]
    assert len(drawn) == 7 and feed.shuffle_due
    assert feed.prepare_round("R2") == 1
    assert feed.shuffles == 2

