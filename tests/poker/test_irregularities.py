"""Dealing irregularities and their remedies (seed 003: Texas Hold-em lines 1182-1190, Omaha DEALING RULES lines 1654-1681)."""

import pytest

from controller.cards import Card
from controller.errors import CardRefused
from controller.events import IrregularityRefusal
from controller.odds import Outcome
from controller.rules.base import Irregularity
from tests.poker.tables import act, assert_conserved, check_down, deal, poker_round, post_blinds

C = Card.parse
HOLES = "AS AD KS KD QS QD"  # seats 2, 3, 1 in the deal order after button 1: 2 gets AS KD, 3 AD QS, 1 KS QD


def dealt_hand(*seats: int, game: str = "holdem"):
    round = poker_round(game, *(seats or (1, 2, 3)))
    post_blinds(round)
    return round


def test_a_wrong_card_count_caught_before_two_players_act_is_a_misdeal() -> None:  # lines 1182-1183
    round = dealt_hand()
    deal(round, HOLES)
    act(round, (1, "call"))
    assert deal(round, "9H") == ["stray"] and round.state == "hold"
    assert round.report(Irregularity("count", C("9H"), target="hole:2", count=3)) is None
    assert round.state == "void" and round.stray_cards == []
    assert all(s.outcome is Outcome.PUSH and s.returned == s.stake and s.banker == "pot" for s in round.settlements)
    assert sum(s.stake for s in round.settlements) == 100 + 300 + 300
    again = poker_round(round.game, 1, 2, 3, round_id="P-2")
    assert again.hand.button == round.hand.button  # the hand is dealt again from the same button
    assert_conserved(round.log)


def test_after_two_players_act_the_player_forfeits_his_blind() -> None:  # line 1183-1184
    round = dealt_hand()
    deal(round, HOLES)
    act(round, (1, "call"), (2, "call"))
    assert round.report(Irregularity("count", target="hole:2", count=3)) is None
    assert 2 in round.hand.folded
    check_down(round)
    for cards in ("2C 3H 7D 9C", "4C 5C", "6H TD"):
        deal(round, cards)
        check_down(round)
    assert round.state == "complete"
    assert [s.returned for s in round.settlements if s.spot == 2] == [0]
    assert_conserved(round.log)


def test_a_flop_with_too_many_cards_is_reshuffled_the_burn_stays_and_no_new_burn() -> None:  # lines 1185-1186, 1666
    round = dealt_hand()
    deal(round, HOLES)
    check_down(round)
    deal(round, "2C 3H 7D 9C")
    assert deal(round, "JH") == ["stray"] and round.state == "hold"
    assert round.report(Irregularity("count", C("JH"), target="flop", count=4)) is None
    assert round.state == "decisions" and round.hand.board == [] and round.hand.burns == [C("2C")]
    assert deal(round, "JH 7D 8S") == ["flop", "flop", "flop"]  # the returned cards may come again, no burn first
    check_down(round)
    assert round.card_target() == "burn:turn"


def test_action_on_the_flop_lets_it_stand_for_the_floor() -> None:  # line 1667-1669
    round = dealt_hand()
    deal(round, HOLES)
    check_down(round)
    deal(round, "2C 3H 7D 9C")
    act(round, (2, "check"))
    deal(round, "JH")
    with pytest.raises(ValueError, match="action on this flop"):
        round.report(Irregularity("count", C("JH"), target="flop", count=4))
    assert round.state == "hold"


def test_a_turn_exposed_early_does_not_play_and_the_river_comes_after_a_reshuffle() -> None:  # lines 1187-1189, 1674-1681
    round = dealt_hand()
    deal(round, HOLES)
    check_down(round)
    deal(round, "2C 3H 7D 9C")
    act(round, (2, "bet"))
    assert deal(round, "8C") == ["stray"]
    assert round.report(Irregularity("premature", C("8C"))) is None
    act(round, (3, "call"), (1, "call"))
    assert deal(round, "4C 5C") == ["burn:turn", "turn"]  # the next card is burned, the turn is dealt
    check_down(round)
    assert round.card_target() == "river"  # after the reshuffle with 8C, no burn before the river
    deal(round, "8C")
    check_down(round)
    assert round.state == "complete"
    assert round.hand.board == [C(c) for c in ["3H", "7D", "9C", "5C", "8C"]] and round.hand.set_aside == [C("8C")]
    assert_conserved(round.log)


def test_a_river_exposed_early_is_reshuffled_and_dealt_without_a_burn() -> None:  # line 1190, Omaha rule 7
    round = dealt_hand()
    deal(round, HOLES)
    check_down(round)
    deal(round, "2C 3H 7D 9C")
    check_down(round)
    deal(round, "4C 5C")
    act(round, (2, "check"))
    deal(round, "TD")
    round.report(Irregularity("premature", C("TD")))
    check_down(round)
    assert deal(round, "JD") == ["river"]
    assert round.hand.burns == [C("2C"), C("4C")]


def test_a_boxed_card_is_dead_and_the_next_card_replaces_it() -> None:  # Omaha dealing rule 1, line 1654
    round = dealt_hand()
    deal(round, "AS AD")
    round.report(Irregularity("boxed", C("AD")))
    assert deal(round, "2H") == ["hole:3"]
    assert round.hand.holes[3] == [C("2H")] and round.hand.discards == [C("AD")]


def test_a_joker_in_a_52_card_game_is_a_dead_card() -> None:  # line 1655
    round = dealt_hand()
    with pytest.raises(CardRefused):
        deal(round, "JK")
    assert round.state == "hold"
    round.report(Irregularity("boxed", C("JK")))
    assert round.state == "decisions" and deal(round, "AS") == ["hole:2"]


def test_an_exposed_hole_card_is_replaced_after_the_deal_and_becomes_the_burn() -> None:  # lines 1658-1661
    round = dealt_hand()
    deal(round, "AS AD KS")
    round.report(Irregularity("exposed", C("AD")))
    assert deal(round, "KD QS QD") == ["hole:2", "hole:3", "hole:1"]
    assert deal(round, "2S") == ["hole:3"]  # the top card replaces the exposed one
    check_down(round)
    assert deal(round, "3H 7D 9C") == ["flop", "flop", "flop"]  # the exposed card was the burn
    assert round.hand.burns == [C("AD")] and round.hand.holes[3] == [C("QS"), C("2S")]


def test_a_lowball_exposed_card_is_the_burn_before_the_draw() -> None:
    round = dealt_hand(1, 2, game="lowball")
    deal(round, "AS")
    round.report(Irregularity("exposed", C("AS")))
    assert "burn:draw" not in [s.target for s in round.hand.script]


def test_an_unknown_irregularity_is_refused_and_logged() -> None:
    round = dealt_hand()
    with pytest.raises(ValueError, match="unknown irregularity 'spilled drink'"):
        round.report(Irregularity("spilled drink"))
    assert round.log.named(IrregularityRefusal.EVENT)[0]["kind"] == "spilled drink"


def test_a_report_releases_the_hold_once_every_stray_card_is_accounted_for() -> None:
    round = dealt_hand()
    deal(round, HOLES)
    act(round, (1, "call"))
    deal(round, "2C 3H")
    round.report(Irregularity("premature", C("2C")))
    assert round.state == "hold"
    round.report(Irregularity("premature", C("3H")))
    assert round.state == "decisions"


def test_an_omaha_extra_card_found_before_acting_is_the_burn() -> None:  # Omaha dealing rule 3, lines 1662-1665
    round = dealt_hand(game="omaha-hi-lo")
    deal(round, "AS AD AC AH KS KD KC KH QS QD QC QH")
    assert deal(round, "2S") == ["stray"]
    round.report(Irregularity("count", C("2S"), target="hole:1", count=5))
    assert round.state == "decisions" and round.hand.burns == [C("2S")]
    check_down(round)
    assert deal(round, "3S 4S 5S") == ["flop", "flop", "flop"]


def test_an_omaha_card_short_is_dealt_from_the_top_and_after_acting_the_hand_is_dead() -> None:  # rule 3
    round = dealt_hand(game="omaha-hi-lo")
    deal(round, "AS AD AC AH KS KD KC KH QS QD QC QH")  # QH, credited to seat 1, went under the muck
    round.report(Irregularity("count", C("QH"), target="hole:1", count=3))
    assert round.card_target() == "hole:1"
    deal(round, "2H")
    assert round.hand.holes[1] == [C("AC"), C("KD"), C("QS"), C("2H")]
    act(round, (1, "call"))
    round.report(Irregularity("count", C("2H"), target="hole:1", count=3))
    assert 1 in round.hand.folded


def test_a_flop_turned_before_the_betting_ends_is_reshuffled_the_burn_stays() -> None:  # Omaha rule 5, lines 1671-1673
    round = dealt_hand()
    deal(round, HOLES)
    act(round, (1, "call"))
    assert deal(round, "2C 3H 7D 9C") == ["stray"] * 4
    for card in ["2C", "3H", "7D", "9C"]:  # the burn first, then the flop
        round.report(Irregularity("premature", C(card)))
    assert round.hand.burns == [C("2C")] and round.stray_cards == []
    act(round, (2, "call"), (3, "check"))
    assert deal(round, "9C 7D JS") == ["flop", "flop", "flop"]
