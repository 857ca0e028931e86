"""The best setting against a House Way player-dealer, to compare with the House Way."""

from __future__ import annotations

import random

from controller.cards import parse_cards
from controller.rules.pai_gow_poker.best_play import best_setting, rank_settings
from controller.rules.pai_gow_poker.hands import foul_reason
from controller.rules.pai_gow_poker.house_way import load_house_way

WAY = load_house_way()


def test_aces_and_kings_are_best_split_as_the_house_way_splits_them() -> None:
    # House Way "Two pair, big pair A, K or Q: split, small pair in front"
    cards = parse_cards("AS AH KD KC 7S 4H 2D")
    ranked = rank_settings(cards, WAY, samples=300, rng=random.Random(5))
    assert {c.code for c in ranked[0].setting.front} == {"KD", "KC"}
    assert ranked[0].ev - ranked[1].ev > 3 * ranked[1].stderr
    assert ranked[0].setting.same_as(WAY.set(cards).hand)


def test_only_legal_settings_are_ranked() -> None:
    cards = parse_cards("JK 2C 5D 8H TS QC 3S")
    ranked = rank_settings(cards, WAY, samples=50, rng=random.Random(1))
    assert 0 < len(ranked) <= 21
    assert all(foul_reason(s.setting.front, s.setting.back) is None for s in ranked)
    assert [s.ev for s in ranked] == sorted((s.ev for s in ranked), reverse=True)


def test_the_best_setting_can_differ_from_the_house_way() -> None:
    # no pair, A-high with the joker: the House Way keeps Q T in front; best play keeps the ten behind the joker
    cards = parse_cards("JK 2C 5D 8H TS QC 3S")
    best = best_setting(cards, WAY, samples=400, rng=random.Random(2))
    house = next(s for s in rank_settings(cards, WAY, samples=400, rng=random.Random(2))
                 if s.setting.same_as(WAY.set(cards).hand))
    assert best.ev > house.ev
