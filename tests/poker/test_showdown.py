"""Full hands to the showdown: who wins, how the pot splits (seed 003: Hold-em lines 1173-1175; Omaha Hi-Low
rules 1-13 lines 783-805 and 1796-1818; Omaha with joker lines 1580-1651; Low-ball lines 1-10)."""

import pytest

from controller.cards import Card, deck_with_joker
from controller.errors import DecisionRefused
from controller.events import Revealed
from controller.odds import Outcome
from controller.rules.base import Decision
from controller.rules.registry import make_game
from tests.poker.tables import act, assert_conserved, check_down, deal, poker_round, post_blinds

C = Card.parse
NO_FEES = {"fee_schedule": "none"}


def play_out(round, *streets: str) -> None:
    check_down(round)
    for cards in streets:
        deal(round, cards)
        check_down(round)


def returned(round) -> dict[int, int]:
    out: dict[int, int] = {}
    for s in round.settlements:
        out[s.spot] = out.get(s.spot, 0) + s.returned
    return out


def test_holdem_best_high_hand_takes_the_pot() -> None:  # lines 1173-1175
    round = poker_round(make_game("holdem", NO_FEES), 1, 2, 3)
    post_blinds(round)
    deal(round, "AS AD KS KD QS QD")  # seat 2 AS KD, seat 3 AD QS, seat 1 KS QD
    play_out(round, "2C 3H 7D 9C", "4C 5C", "6H TD")
    assert returned(round) == {1: 0, 2: 900, 3: 0}
    assert round.log.named(Revealed.EVENT)[0]["hands"]["2"]["hand"] == "ace high, A K T 9 7"
    assert_conserved(round.log)


def test_holdem_playing_the_board_ties_and_the_odd_chip_goes_clockwise_from_the_button() -> None:  # line 1175
    game = make_game("holdem", {"limit": "2-4", "small_blind": 100, "big_blind": 200, "fee_schedule": "none"})
    round = poker_round(game, 1, 2, 3)
    post_blinds(round)
    deal(round, "2S 3S 4S 2D 3D 4D")
    act(round, (1, "call"), (2, "fold"), (3, "check"))
    play_out(round, "5C AH KH QH", "6C JH", "7C TH")
    assert returned(round) == {1: 200, 2: 0, 3: 300}  # 500 between seats 3 and 1: seat 3 is first after button 1
    assert_conserved(round.log)


def test_side_pot_for_an_all_in_player() -> None:  # glossary "Side Pot"
    round = poker_round(make_game("holdem", NO_FEES), 1, 2, 3)
    post_blinds(round)
    deal(round, "KS QS AS KD QD AD")  # seat 2 kings, seat 3 queens, seat 1 aces
    act(round, (1, "all_in", 100), (2, "call"), (3, "check"))
    play_out(round, "2C 3H 7D 9C", "4C 5C", "6H TD")
    assert returned(round) == {1: 300, 2: 400, 3: 0}
    assert {(s.reason, s.spot): s.returned for s in round.settlements} == {
        ("main pot", 1): 300, ("main pot", 2): 0, ("main pot", 3): 0, ("side pot 1", 2): 400, ("side pot 1", 3): 0}
    assert_conserved(round.log)


OMAHA_HOLES = "KH AS QS QH 4H JS 9S 7C TC 9C 7D TD"  # seat 2 KH QH 9S 9C, seat 3 AS 4H 7C 7D, seat 1 QS JS TC TD


def test_omaha_high_and_low_split_with_the_odd_chip_to_high() -> None:  # rules 11-12, line 1632
    round = poker_round("omaha-hi-lo", 1, 2, 3)
    post_blinds(round)
    deal(round, OMAHA_HOLES)
    play_out(round, "5S 2C 3D 8H", "5H KS", "5D KD")
    assert [f.amount for f in round.fees] == [200, 100, 100]  # 5 or fewer players $2, jackpot $1, table $1
    assert returned(round) == {1: 0, 2: 300, 3: 200}  # 900 - 400 = 500: high 300 (odd chip), low 200
    assert_conserved(round.log)


def test_omaha_with_no_qualifying_low_the_high_hand_scoops() -> None:  # rules 3 and 10
    round = poker_round(make_game("omaha-hi-lo", NO_FEES), 1, 2, 3)
    post_blinds(round)
    deal(round, OMAHA_HOLES)
    play_out(round, "5S 2C 9D TH", "5H KS", "5D KD")
    assert returned(round) == {1: 0, 2: 900, 3: 0}
    assert_conserved(round.log)


def test_omaha_must_use_exactly_two_hole_cards() -> None:  # rule 6; Showdown rule 5: cannot play the board
    round = poker_round(make_game("omaha-hi-lo", NO_FEES), 1, 2)
    post_blinds(round)
    deal(round, "2S 3S 4D 5D 9C 9D TC TD")  # seat 2 2S 4D 9C TC, seat 1 3S 5D 9D TD
    play_out(round, "2C AH KH QH", "2H JH", "2D TH")  # a royal flush on board plays for nobody
    game = round.game
    assert game.describe_value(round.hand, 1) == game.describe_value(round.hand, 2) == "high straight, king high; low none"
    assert returned(round) == {1: 300, 2: 300}


def test_omaha_with_the_joker_as_ace_and_as_the_lowest_missing_card() -> None:  # lines 1580-1651, rules notes
    game = make_game("omaha-hi-lo", {"joker": True, "fee_schedule": "none"})
    assert len(game.deck()) == 53
    round = poker_round(game, 1, 2, 3)
    post_blinds(round)
    deal(round, "KH JK QS QH 4H JS 9S 7C TC 9C 7D TD")  # seat 3 holds JK 4H 7C 7D
    play_out(round, "5S 2C 3D 8H", "5H KS", "5D KD")
    assert returned(round) == {1: 0, 2: 500, 3: 400}  # JK-4 with 2-3-8: 8-4-3-2-A low
    assert "8-4-3-2-A" in game.describe_value(round.hand, 3)


def test_lowball_joker_is_the_lowest_card_not_in_the_hand() -> None:  # lines 1-10
    round = poker_round("lowball", 1, 2)
    post_blinds(round)
    deal(round, "JK AS 2H 2S 3H 3S 4H 4S 5H 6S")  # heads-up: seat 2 first
    check_down(round)
    deal(round, "9D")  # the burn before the draw
    act(round, (2, "draw"), (1, "draw"))  # both stand pat
    check_down(round)
    assert round.state == "complete"
    assert returned(round) == {1: 0, 2: 400}  # JK 2 3 4 5 is a wheel, beats 6-4-3-2-A
    assert [s.outcome for s in round.settlements if s.spot == 2] == [Outcome.WIN]


def test_lowball_draw_replaces_the_discards_one_at_a_time() -> None:  # lines 7-9
    round = poker_round("lowball", 1, 2, 3)
    post_blinds(round)
    deal(round, "KS AS 2H QS 3H 3S 4H 4S 5H 6S 7S 7H 8S 8H 9S")
    check_down(round)
    deal(round, "9D")
    round.decide(Decision(2, "draw", cards=(C("KS"), C("QS"))))
    assert round.card_target() == "draw:2"
    assert deal(round, "TD JD") == ["draw:2", "draw:2"]
    assert round.pending_decision().spot == 3


def test_lowball_refuses_a_draw_the_stub_cannot_cover() -> None:  # 53 cards, six players; the last card is not dealt
    cards = list(deck_with_joker())
    round = poker_round("lowball", 1, 2, 3, 4, 5, 6)
    post_blinds(round)
    for _ in range(30):
        round.card(cards.pop(), "test")
    check_down(round)
    round.card(cards.pop(), "test")  # the burn
    for _ in range(4):
        seat = round.pending_decision().spot
        round.decide(Decision(seat, "draw", cards=tuple(round.hand.holes[seat])))
        for _ in range(5):
            round.card(cards.pop(), "test")
    seat = round.pending_decision().spot
    with pytest.raises(DecisionRefused, match="the stub has 1 cards to deal"):
        round.decide(Decision(seat, "draw", cards=tuple(round.hand.holes[seat][:2])))
    round.decide(Decision(seat, "draw", cards=tuple(round.hand.holes[seat][:1])))
    assert round.card_target() == f"draw:{seat}"
