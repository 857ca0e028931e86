"""Three Card Poker's Ante edge with the player-dealer's up card: the test lab's independent count.

The seed (003, Dealing procedures 2a) turns the player-dealer's bottom card up before the players decide,
and the table deals it so; the optimal decision therefore sees that card. The lab's own count, over every
player hand, every up card and the 1,128 player-dealer hands holding it, gives -4373389/101792600 per unit
Ante (4.2964 %); ignoring the up card (Q-6-4 or better) gives -8813253/101792600 (8.6580 %).
"""

import itertools
from fractions import Fraction

from controller.cards import standard_deck
from controller.rules.edges import compute
from controller.rules.evaluators.three_card import evaluate3
from controller.rules.three_card_poker.game import QUEEN_HIGH
from tests.games.test_three_card_poker import play_round


def test_the_player_dealers_up_card_is_seen_before_the_players_decide() -> None:
    round = play_round({(4, "bank"): 100000, (5, "ante"): 1000},
                       ["2S 3S 4S", "QC KC AC"], {5: "play"})
    assert round.hand.up_card is not None


def test_the_ante_edge_is_for_the_decision_that_sees_the_up_card() -> None:
    [table] = compute("three-card-poker")
    ante = table["wagers"]["ante"]
    assert Fraction(ante["exact"]) == Fraction(-4373389, 101792600)
    assert "up card" in ante["assumptions"] and "8.6580%" in ante["assumptions"]


def test_one_hand_against_each_up_card_by_brute_force() -> None:
    # J-9-7 offsuit folds blind, but plays against a low up card: the dealer qualifies less often, and an
    # unqualified dealer's Play pushes while his higher hand only pushes the Ante
    deck = standard_deck()
    hand = [c for c in deck if c.code in ("JS", "9H", "7D")]
    mine = evaluate3(hand)
    rest = [c for c in deck if c not in hand]
    best = Fraction(0)
    blind = Fraction(0)
    for up in rest:
        others = [c for c in rest if c != up]
        total = 0
        for pair in itertools.combinations(others, 2):
            theirs = evaluate3([up, *pair])
            if theirs >= QUEEN_HIGH:
                total += 2 if mine > theirs else -2 if mine < theirs else 0
            else:
                total += 1 if mine > theirs else 0
        blind += total
        best += max(Fraction(total, 1128), Fraction(-1))
    assert Fraction(blind, 49 * 1128) < -1 < best / 49
