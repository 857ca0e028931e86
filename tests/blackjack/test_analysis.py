"""The base game's combinatorial analysis, against every round a small shoe can deal through the real rules."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from controller.cards import parse_cards
from controller.rules.blackjack.analysis import Rules, _resplit_patterns, analyse
from controller.rules.blackjack.arithmetic import is_prime, primes_below
from controller.rules.blackjack.edge import insurance_edges, simulate_base
from controller.rules.registry import make_game
from tests.blackjack.brute_force import exact_ev, with_deck

SMALL_SHOES = [
    # Pure 21.5: aces and Bonus cards (the down-card check), four eights (splits, resplits, 888)
    pytest.param("pure-21-5", {}, "AS AS 8S 8S 8S 8S TB TB TB TB TB 9S 9S 9S", id="pure"),
    pytest.param("pure-21-5", {"rule_888": "win", "double_after_split": True},
                 "AS AS 8S 8S 8S 8S TB TB TB TB TB 9S 9S 9S", id="pure-888-win-das"),
    pytest.param("pure-21-5", {}, "AS AS 8S 8S 8S 8S TB TB TB TB TB TB 9S 7S 7S", id="pure-larger",
                 marks=pytest.mark.exhaustive),
    # No Bust: jokers (joker 21, Natural 22, frozen rounds), tens (splits, resplits)
    pytest.param("no-bust-21", {"over_above": 22, "max_splits": 2}, "AS TS TS TS TS TS JK JK 9S 9S 6S 6S 8S",
                 id="no-bust-plain-22-under"),
    pytest.param("no-bust-21", {}, "AS TS TS TS TS TS JK JK 9S 9S 8S 8S 7S", id="no-bust",
                 marks=pytest.mark.exhaustive),
]
"""Shoes small enough to play out every round, large enough that no round runs out of cards."""


@pytest.mark.parametrize(("game_id", "options", "deck"), SMALL_SHOES)
def test_the_exact_fraction_is_what_every_round_of_a_small_shoe_averages(game_id, options, deck) -> None:
    # brute_force walks the game's own new_hand / place / strategy / decide / reveal / settle
    shoe = parse_cards(deck)
    expected = exact_ev(with_deck(make_game(game_id, options), shoe))
    result = analyse(with_deck(make_game(game_id, options), shoe), "exact")
    assert result.exact == expected
    assert abs(analyse(with_deck(make_game(game_id, options), shoe), "fast").ev - float(expected)) < 1e-12


def test_the_small_shoes_make_the_game_hit_stand_split_double_and_surrender() -> None:
    # the shoes above are only a check if the enforced decisions use every action
    actions: Counter[str | None] = Counter()
    for shoe in SMALL_SHOES:
        game_id, options, deck = shoe.values
        rules = Rules(with_deck(make_game(game_id, options), parse_cards(deck)))
        for up in rules.classes:
            for a in rules.classes:
                for b in rules.classes:
                    actions[rules.decision(up, (min(a, b), max(a, b)), False, False, 0)] += 1
    assert {"hit", "stand", "double", "split", "surrender"} <= set(actions)


def test_resplit_patterns_count_the_earlier_hands_second_cards() -> None:
    # up to three splits, resplitting whenever allowed; (m, k): m more of the pair and k other cards
    # among the second cards of the hands before; once three splits are made, second cards are free
    patterns = _resplit_patterns(3, [True, True, True, False])
    assert patterns[1] == Counter({(0, 0): 1, (0, 1): 1})  # hand 1; hand 2 after hand 1 kept another card
    assert patterns[2] == Counter({(1, 1): 1, (1, 2): 2})
    # hand 4 exists in 5 ways: pair, pair / pair, other, pair / pair, other, other, pair / other, pair, pair /
    # other, pair, other, pair; hands 2 and 3 add the rest
    assert patterns[3] == Counter({(2, 0): 3, (2, 1): 4, (2, 2): 2})
    assert _resplit_patterns(3, [False] * 4) == {1: Counter({(0, 0): 2})}  # no resplit: two hands, no weight


def test_insurance_and_even_money_are_exact_draws_of_the_down_card() -> None:
    game = make_game("pure-21-5")  # six decks: 312 cards, 96 Bonus cards
    edges = insurance_edges(game)
    assert edges["insurance"].ev == 3 * Fraction(96, 311) - 1
    assert edges["even money"].ev == 3 * Fraction(95, 309) - 1
    assert insurance_edges(make_game("no-bust-21")) == {}


@pytest.mark.exhaustive
@pytest.mark.parametrize("game_id", ["no-bust-21", "pure-21-5"])
def test_a_simulation_of_the_real_rounds_agrees_with_the_analysis(game_id) -> None:
    # every round before the reshuffle has the law of the first round off the top (predictable sampling)
    game = make_game(game_id)
    simulated = simulate_base(game, rounds=20_000, seed=45)
    assert simulated.stderr is not None
    assert abs(simulated.ev - analyse(game, "fast").ev) < 4 * simulated.stderr


def test_the_residue_lanes_are_the_largest_primes_below_2_to_the_50() -> None:
    # 2**50 - 27 is the largest prime below 2**50; Miller-Rabin agrees with trial division on small numbers
    assert primes_below(2**50, 2) == [2**50 - 27, 2**50 - 35]
    trial = [n for n in range(2, 20_000) if all(n % d for d in range(2, int(n**0.5) + 1))]
    assert [n for n in range(20_000) if is_prime(n)] == trial
