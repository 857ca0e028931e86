"""Blackjack strategy and edges: side wagers exact (checked against independent counts), the base game exact."""

import json
from fractions import Fraction
from functools import cache

import pytest

from controller.cards import Card, parse_cards
from controller.commands.cli import main
from controller.rules.base import PendingDecision
from controller.rules.blackjack.edge import bonus_bet_edge, buster_edge, simulate_base
from controller.rules.edges import EDGES
from controller.rules.registry import make_game


def test_bonus_bet_edge_no_bust_eight_decks_matches_a_count_by_hand() -> None:
    # Blackjack Bonus Bet pay scale; 424 cards: 128 ten-valued (16 kinds x 8), 96 pictures, 32 aces
    n = 424
    pairs = n * (n - 1)
    blackjack = Fraction(2 * 32 * 126, 422 * 421)  # after the two kings of spades are gone
    kings, identical, suited, twenty, picture = 56, 15 * 56, 4 * 12 * 64 + 2 * 4 * 64, 16 * 12 * 64 + 2 * 12 * 64, 96 * 296
    losing = pairs - kings - identical - suited - twenty - picture
    ev = (kings * (blackjack * 500 + (1 - blackjack) * 50) + identical * 8 + suited * 6 + twenty * 4 + picture
          - losing) / Fraction(pairs)
    assert bonus_bet_edge(make_game("no-bust-21")).ev == ev


def test_bonus_bet_edge_pure_six_decks_matches_a_count_by_hand() -> None:
    # Bonus cards are marked, not suited: two of them are "any two card 20"; no kings of spades
    n = 312
    pairs = n * (n - 1)
    twenty, suited, picture = 96 * 95 + 2 * 12 * 36, 2 * 4 * 36, 72 * (311 - 95)
    ev = (twenty * 4 + suited * 6 + picture - (pairs - twenty - suited - picture)) / Fraction(pairs)
    assert bonus_bet_edge(make_game("pure-21-5")).ev == ev


def independent_buster(counts: dict[int, int], jokers: int, pays: dict[int, int]) -> Fraction:
    """The player-dealer's draws by value (11 for a joker), hitting soft 17, counted by hand."""
    values = sorted(counts) + ([11] if jokers else [])
    start = tuple(counts[v] for v in sorted(counts)) + ((jokers,) if jokers else ())

    @cache
    def go(left: tuple[int, ...], hard: int, ace: bool, joker: bool, cards: int) -> Fraction:
        if cards >= 2:
            if joker:
                return Fraction(-1)
            total = hard + 10 if ace and hard + 10 <= 21 else hard
            soft = ace and hard + 10 <= 21
            if total > 21:
                return Fraction(pays[min(cards, max(pays))] if min(cards, max(pays)) in pays else -1)
            if total >= 18 or (total == 17 and not soft):
                return Fraction(-1)
        size = sum(left)
        result = Fraction(0)
        for i, v in enumerate(values):
            if left[i]:
                rest = left[:i] + (left[i] - 1,) + left[i + 1:]
                result += Fraction(left[i], size) * go(rest, hard + (0 if v == 11 else v), ace or v == 1,
                                                       joker or v == 11, cards + 1)
        return result

    return go(start, 0, False, False, 0)


SEED_BUSTER = {3: 1, 4: 2, 5: 4, 6: 10, 7: 40, 8: 100}


def test_buster_edge_pure_one_deck_matches_an_independent_enumeration() -> None:
    counts = dict.fromkeys(range(1, 10), 4) | {10: 16}
    assert buster_edge(make_game("pure-21-5", {"decks": 1})).ev == independent_buster(counts, 0, SEED_BUSTER)


def test_buster_edge_no_bust_two_decks_matches_an_independent_enumeration() -> None:
    counts = dict.fromkeys(range(1, 10), 8) | {10: 32}
    assert buster_edge(make_game("no-bust-21", {"decks": 2})).ev == independent_buster(counts, 2, SEED_BUSTER)


@pytest.mark.parametrize(("hand", "up", "actions", "play"), [
    ("TB 6H", "TB", ("hit", "stand", "double", "surrender"), "surrender"),
    ("TB 6H", "7S", ("hit", "stand", "double", "surrender"), "hit"),
    ("TB 6H", "6S", ("hit", "stand", "double", "surrender"), "stand"),
    ("5S 6H", "AS", ("hit", "double", "surrender"), "double"),
    ("TB 2H", "2S", ("hit", "stand", "double", "surrender"), "hit"),
    ("TB 2H", "4S", ("hit", "stand", "double", "surrender"), "stand"),
    ("AS 7H", "2S", ("hit", "stand", "double", "surrender"), "double"),
    ("AS 7H", "9S", ("hit", "stand", "double", "surrender"), "hit"),
    ("8S 8H", "TB", ("hit", "stand", "double", "split", "surrender"), "split"),
    ("AS AH", "TB", ("hit", "stand", "double", "split", "surrender"), "split"),
])
def test_pure_21_5_strategy_is_textbook_hit_soft_17_strategy(hand, up, actions, play) -> None:
    # the Pure deck is a standard deck with Bonus cards for the ten-valued: basic strategy (H17, late surrender)
    advisor = make_game("pure-21-5").advisor
    assert advisor.best(Card.parse(up), parse_cards(hand), actions, initial=True) == play


def test_strategy_offers_only_legal_actions_and_declines_insurance() -> None:
    game = make_game("no-bust-21", {"player_dealer_seat": 8})
    state = game.new_hand([1, 8], {(1, "base"): 1000, (8, "bank"): 10000})
    for code in ("5S", "9D", "6H"):
        game.place(state, game.next_target(state), Card.parse(code))
    assert game.strategy(state, PendingDecision(1, ("hit",)), {}).action == "hit"
    assert game.strategy(state, PendingDecision(1, ("insurance", "no-insurance")), {}).action == "no-insurance"


@pytest.mark.parametrize("game_id", ["no-bust-21", "pure-21-5"])
def test_simulated_base_edge_agrees_with_the_infinite_shoe_value(game_id) -> None:
    game = make_game(game_id)
    simulated = simulate_base(game, rounds=3000, seed=5)
    assert simulated.method == "simulation" and simulated.stderr
    assert abs(simulated.ev - game.advisor.game_value()) < 4 * simulated.stderr


def test_edges_are_registered() -> None:
    assert EDGES["no-bust-21"] == "controller.rules.blackjack.no_bust_21_edge" and EDGES["pure-21-5"] == "controller.rules.blackjack.pure_21_5_edge"


@pytest.mark.exhaustive
@pytest.mark.parametrize(("game_id", "fast"), [("pure-21-5", False), ("no-bust-21", True)])
def test_tablectl_edge_json(game_id, fast, capsys) -> None:
    # the exact fraction on the smaller shoe; No Bust's eight decks with --fast (the sweep mode), to keep CI short
    assert main(["edge", game_id, "--paytable", "seed", "--json", *(["--fast"] if fast else [])]) == 0
    tables = json.loads(capsys.readouterr().out)
    assert len(tables) == 1
    for table in tables:
        wagers = table["wagers"]
        base = wagers["base"]
        assert base["stderr"] is None and -0.02 < base["ev"] < 0
        if fast:
            assert base["method"] == "exact recursion, float64" and base["exact"] is None
        else:
            assert base["method"] == "exact" and float(Fraction(base["exact"])) == pytest.approx(base["ev"], abs=1e-15)
        assert wagers["bonus"]["method"] == wagers["buster"]["method"] == "exact"
        assert "same rank and suit" in wagers["bonus"]["assumptions"]
        assert "any identical pair" in wagers["bonus (seed-any-identical-pair)"]["assumptions"]
        assert 0 < wagers["bonus"]["house_edge"] < 0.2 and 0.2 < wagers["buster"]["house_edge"] < 0.35
