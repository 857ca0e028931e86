"""A misdeal in a player-dealer game returns stakes the house never banked: the house's meters stay at $0 wagered.

Seed 003, Double-Hand Poker misdeal (a): "A Joker or an Ace is boxed or exposed"; README: "In the player-dealer
games the house banks nothing: the line shows the action between players and the house's collection fees."
"""

from controller.cards import Card
from controller.rules.base import Irregularity
from tests.blackjack.table import new_round as blackjack_round
from tests.paigow.roundkit import deal, new_round, stacked_deck


def test_a_double_hand_poker_misdeal_is_no_house_action() -> None:
    round = new_round(wagers={(2, "bet"): 2000}, bank=3000)
    deal(round, stacked_deck({1: "AS 2C 3C 4C 5D 6D 7D"})[:5])
    round.report(Irregularity("exposed", Card.parse("AS")))
    assert round.state == "void"
    assert {s.banker for s in round.settlements} == {"player-dealer"}
    assert all(s.returned == s.stake for s in round.settlements)
    # the $1 fees (bet $20, bank $30) were taken in advance; $50 went back between the players, none from the house
    assert round.totals() == {"wagered": 0, "paid": 0, "fees": 200, "house_win": 200, "between_players": 5000}


def test_a_voided_blackjack_round_is_no_house_action() -> None:
    round = blackjack_round("no-bust-21")
    round.start()
    round.place_wager(8, "bank", 10000)
    round.place_wager(1, "base", 1000)
    round.close_betting()
    round.void_round("supervisor: dealt from the wrong shoe")
    assert round.totals()["wagered"] == 0 and round.totals()["between_players"] == 11000


def test_a_misdeal_journaled_under_the_earlier_rules_replays_by_them() -> None:
    # before revision 2 a void's returns were journaled as the house's: such a round still replays to the cent
    from controller.engine.recovery import rebuild
    from controller.events import RoundStarted, from_record
    from controller.rules.registry import make_game
    from tests.helpers import MemoryLog

    for rules, banker, wagered in ((1, "house", 5000), (2, "player-dealer", 0)):
        game, log = make_game("double-hand-poker"), MemoryLog()
        game.rules_version = rules
        round = new_round(wagers={(2, "bet"): 2000}, bank=3000, game=game, log=log)
        deal(round, stacked_deck({1: "JK 2C 3C 4C 5D 6D 7D"})[:3])
        round.report(Irregularity("boxed", Card.parse("JK")))
        assert {s.banker for s in round.settlements} == {banker} and round.totals()["wagered"] == wagered
        assert log.named(RoundStarted.EVENT)[0].get("rules") == (None if rules == 1 else rules)
        replayed = rebuild([from_record(r) for r in log.records()], None)
        assert replayed.totals() == round.totals()
