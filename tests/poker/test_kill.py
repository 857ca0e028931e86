"""Kill pots (seed 003, "KILL POTS" lines 1192-1207)."""

import pytest

from controller.rules.base import OptionError
from controller.rules.poker.kill import KillButton
from controller.rules.registry import make_game
from tests.poker.tables import act, assert_conserved, check_down, deal, poker_round, post_blinds


def test_two_consecutive_legs_of_twenty_dollars_make_a_kill() -> None:  # lines 1193-1198
    button = KillButton()
    button.hand_won(4, 2000)
    assert (button.holder, button.killer) == (4, None)
    button.hand_won(4, 3100)
    assert (button.holder, button.killer) == (4, 4)


def test_a_pot_under_twenty_dollars_is_no_leg() -> None:  # lines 1197-1198
    button = KillButton()
    button.hand_won(4, 1999)
    assert button.holder is None
    button.hand_won(4, 2000)
    button.hand_won(4, 1999)
    assert (button.holder, button.killer) == (None, None)


def test_another_winner_takes_the_button_and_a_split_pot_takes_it_away() -> None:  # line 1194
    button = KillButton()
    button.hand_won(4, 2500)
    button.hand_won(6, 2500)
    assert (button.holder, button.killer) == (6, None)
    button.hand_won(None, 5000)
    assert button.holder is None


def play_capped_hand(game, round_id: str) -> object:
    """Seats 1, 2, 3; the preflop capped at a bet and three raises, then checked down: seat 2 wins with ace-king."""
    round = poker_round(game, 1, 2, 3, round_id=round_id)
    post_blinds(round)
    deal(round, "AS AD KS KD QS QD")
    while "raise" in round.pending_decision().actions:
        act(round, (round.pending_decision().spot, "raise"))
    check_down(round)
    for cards in ("2C 3H 7D 9C", "4C 5C", "6H TD"):
        deal(round, cards)
        check_down(round)
    return round


def test_the_killer_posts_a_double_blind_and_the_limits_double() -> None:  # lines 1196, 1200-1204
    game = make_game("holdem", {"kill": True, "small_blind": 100, "big_blind": 300})
    first = play_capped_hand(game, "K-1")
    assert first.state == "complete" and game.kill.holder is not None
    game.last_button = None  # deal the second hand from the same button, so the same seat wins again
    second = play_capped_hand(game, "K-2")
    killer = game.kill.killer
    assert killer is not None
    kill = poker_round(game, 1, 2, 3, round_id="K-3")
    posts = []
    while (pending := kill.pending_decision()) is not None and pending.actions == ("post",):
        posts.append((pending.spot, kill.hand.script[0].blind, kill.hand.script[0].amount))
        act(kill, (pending.spot, "post"))
    assert killer == 2 and kill.hand.button == 2
    assert posts == [(3, "small blind", 100), (1, "big blind", 300), (2, "kill blind", 600)]  # "double the blind"
    assert kill.hand.structure.bets == (600, 600, 1200, 1200)  # 3-6 becomes 6-12
    deal(kill, "AS AD KS KD QS QD")
    assert kill.pending_decision().spot == 3  # action starts left of the kill blind, which acts last
    act(kill, (3, "raise"))
    assert kill.wagers[(3, "pot")] == 1200  # a raise at the kill limit: 600 + 600
    for r in (first, second):
        assert_conserved(r.log)


def test_kill_pots_are_off_unless_the_players_agree() -> None:  # line 1205
    game = make_game("holdem")
    assert game.kill is None
    play_capped_hand(game, "N-1")
    game.last_button = None
    play_capped_hand(game, "N-2")
    round = poker_round(game, 1, 2, 3, round_id="N-3")
    assert [s.blind for s in round.hand.script if s.kind == "post"] == ["small blind", "big blind"]
    assert round.hand.structure.bets == (300, 300, 600, 600)


@pytest.mark.parametrize("leg", [0, -1, "20"])
def test_the_leg_option_is_checked(leg: object) -> None:
    with pytest.raises(OptionError, match="kill_leg"):
        make_game("holdem", {"kill": True, "kill_leg": leg})
