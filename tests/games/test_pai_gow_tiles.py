"""Pai Gow Tiles: seed 003 "PAI GOW TILES" and the standard ranking rules-notes.md points to."""

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.engine.players import SimulatedPlayers
from controller.engine.round import Limits, Round
from controller.engine.table import Table
from controller.errors import DecisionRefused
from controller.events import FeeCollected, SettlementSummarized
from controller.rules.base import Decision
from controller.rules.pai_gow_tiles.game import PaiGowTiles
from controller.rules.pai_gow_tiles.house_way import HouseWayError, best_setting, house_way, load_house_way, settings as all_settings
from controller.rules.pai_gow_tiles.ranking import GONG, PAIR, POINTS, WONG, compare, describe, hand_value
from controller.tiles import TILE_SET, Tile, UnknownTile, parse_tiles
from tests.helpers import MemoryLog, play_round


def test_the_set_has_32_dominoes() -> None:
    # "a standard set of Chinese dominoes (32)"
    assert len(TILE_SET) == 32
    assert sum(t.pips for t in TILE_SET) == 2 * (12 + 2 + 8 + 4 + 10 + 6 + 4 + 11 + 10 + 7 + 6) + (9 + 9 + 8 + 8 + 7 + 7 + 5 + 5 + 3 + 6)
    assert Counter(t.name for t in TILE_SET)["gee joon"] == 2


def test_sixteen_pairs_and_four_wong_gong_combinations_rank_above_nine() -> None:
    # Game Rules: "twenty different combinations ... higher than 9. Sixteen of these combinations are pairs.
    # The other four ... are called Wong and Gong"
    faces = {}
    for a, b in itertools.combinations(TILE_SET, 2):
        value = hand_value((a, b))
        if value[0] > POINTS:
            faces[value] = describe(value)
    assert sum(v[0] == PAIR for v in faces) == 16
    assert sorted(faces[v] for v in faces if v[0] in (WONG, GONG)) == ["day gong", "day wong", "teen gong", "teen wong"]


def test_gee_joon_pair_is_highest_and_its_tiles_lowest_alone() -> None:
    # Please Note: Gee Jon makes the highest-ranking pair; played individually these two dominoes are the lowest
    assert hand_value(parse_tiles("1-2 2-4")) > hand_value(parse_tiles("6-6 6-6"))
    assert min(TILE_SET, key=lambda t: t.rank).is_gee_joon


def test_gee_joon_plays_as_three_or_six() -> None:
    # "The 6 can be played as a 3 and the 3 can be played as a 6"
    assert hand_value(parse_tiles("2-4 1-5"))[1] == 9  # 6 as 3: 3 + 6
    assert hand_value(parse_tiles("1-2 3-3"))[1] == 9  # 3 + 6, better than 6 + 6 = 12 -> 2
    assert hand_value(parse_tiles("1-2 1-3"))[1] == 7  # 3 + 4 = 7 or 6 + 4 = 10 -> 0


def test_points_drop_the_tens_as_in_baccarat() -> None:
    assert hand_value(parse_tiles("5-6 4-6"))[1] == 1
    assert hand_value(parse_tiles("1-6 1-5"))[1] == 3


def test_equal_points_go_to_the_higher_ranking_tile_and_copies_to_the_player_dealer() -> None:
    # Game Rules: "only the highest-ranking domino is considered"; "exact same hand, the player/dealer wins"
    assert compare(parse_tiles("1-1 3-4"), parse_tiles("1-6 1-2")) == 1  # day-9 over tit-9 (tit 7 + gee joon)
    assert compare(parse_tiles("6-6 5-5"), parse_tiles("6-6 4-4")) == -1  # teen gong (P/D) beats 4 points
    assert compare(parse_tiles("4-6 5-5"), parse_tiles("4-6 5-5")) == -1  # copy


def test_unknown_tiles_are_refused() -> None:
    for code in ("7-7", "0-0", "66", "a-b"):
        with pytest.raises(UnknownTile):
            Tile.parse(code)


@pytest.mark.parametrize(("tiles", "high", "step"), [
    ("3-3 3-3 6-6 1-2", ["3-3", "3-3"], "1. pairs stay together"),
    ("6-6 4-5 1-3 1-5", ["6-6", "4-5"], "2. Teen with a 9: Wong"),
    ("1-1 3-5 5-6 1-5", ["1-1", "3-5"], "2. Day with an 8: Gong"),
    ("1-6 2-5 1-5 2-3", ["1-6", "2-3"], "3. two small tiles that make 7, 8 or 9"),
])
def test_house_way_steps(tiles, high, step) -> None:
    setting = house_way(parse_tiles(tiles))
    assert sorted(t.code for t in setting.high) == sorted(high) or sorted(t.code for t in setting.low) == sorted(high), step


def test_house_way_biggest_with_smallest_when_nothing_else_applies() -> None:
    # Step 4: "Play the biggest domino with the smallest domino"
    tiles = parse_tiles("4-4 5-6 1-4 2-6")
    setting = house_way(tiles)
    together = [{t.code for t in h} for h in (setting.high, setting.low)]
    assert {"4-4", "1-4"} in together


@pytest.mark.parametrize(("tiles", "dominated", "chosen"), [
    # issue 45: step 3 alone sets 1-3 1-2 [7] / 6-6 5-5 [2]; 6-6 1-2 [8] / 1-3 5-5 [4] beats it in both hands
    ("6-6 1-3 5-5 1-2", ["1-3", "1-2"], ["6-6", "1-2"]),
    # step 4 alone (6-6 with 4-6) makes [2] / [0]; 6-6 1-3 [6] / 3-3 4-6 [6] beats it in both
    ("6-6 1-3 3-3 4-6", ["6-6", "4-6"], ["6-6", "1-3"]),
    ("1-3 5-5 4-6 1-5", ["1-3", "1-5"], ["5-5", "1-5"]),
])
def test_house_way_never_takes_a_setting_another_split_beats_in_both_hands(tiles, dominated, chosen) -> None:
    # seed "Object of the Game": to make two hands that both rank higher than the player/dealer's
    setting = house_way(parse_tiles(tiles))
    hands = [sorted(t.code for t in h) for h in (setting.high, setting.low)]
    assert sorted(dominated) not in hands
    assert sorted(chosen) in hands


@pytest.mark.exhaustive
def test_no_deal_is_set_worse_in_both_hands_than_another_split() -> None:
    for combo in itertools.combinations(TILE_SET, 4):
        high, low = house_way(combo).values
        assert not any(o.values[0] > high and o.values[1] > low for o in all_settings(combo)), combo


def test_a_broken_house_way_file_is_refused(tmp_path) -> None:
    bad = tmp_path / "hw.toml"
    bad.write_text('[[step]]\nrule = "always-split-teens"\n')
    with pytest.raises(HouseWayError, match="step 1: unknown rule"):
        load_house_way(bad)


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(32))))
def test_settings_are_never_foul_and_comparison_is_antisymmetric_apart_from_copies(order) -> None:
    tiles = [TILE_SET[i] for i in order[:4]]
    other = [TILE_SET[i] for i in order[4:8]]
    for s in all_settings(tiles):
        assert hand_value(s.high) >= hand_value(s.low)
    setting = house_way(tiles)
    assert hand_value(setting.high) >= hand_value(setting.low)
    a, b = other[:2], tiles[:2]
    if hand_value(a) != hand_value(b):
        assert compare(a, b) == -compare(b, a)
    else:
        assert compare(a, b) == compare(b, a) == -1


def test_best_setting_is_at_least_as_good_as_the_house_way() -> None:
    tiles = parse_tiles("6-6 4-5 1-2 3-3")
    setting, ev = best_setting(tiles)
    assert -1 <= ev <= 1
    assert hand_value(setting.high) >= hand_value(setting.low)


# -- the round -----------------------------------------------------------------------------------

LIMITS = Limits({"main": (1000, 50000), "bank": (1000, 10**7)})


def dealt_round(wagers: dict, *, log=None, seed: int = 1) -> Round:
    round = Round("PGT-R1", PaiGowTiles({"player_dealer_seat": 2}), log or MemoryLog("PGT"), spots=8, limits=LIMITS)
    round.start()
    for (seat, name), amount in wagers.items():
        round.place_wager(seat, name, amount)
    round.close_betting()
    tiles = list(TILE_SET)
    random.Random(seed).shuffle(tiles)
    for tile in tiles:
        round.card(tile, "dealer")
    return round


def test_dice_pick_the_first_stack_counting_the_player_dealer_as_1_9_and_17() -> None:
    round = dealt_round({(2, "bank"): 100000, (5, "main"): 1000})
    with pytest.raises(DecisionRefused, match="three dice"):
        round.decide(Decision(2, "dice", values=(1, 2)))
    round.decide(Decision(2, "dice", values=(3, 3, 3)))  # 9: the player-dealer again
    assert round.hand.action == 2
    assert round.hand.hands[2] == round.hand.stacks[0]
    assert round.hand.hands[3] == round.hand.stacks[1]


def test_settings_are_validated() -> None:
    round = dealt_round({(2, "bank"): 100000, (5, "main"): 1000})
    round.decide(Decision(2, "dice", values=(1, 1, 2)))  # 4: seat 5 gets the first stack
    mine = round.hand.hands[5]
    stranger = next(t for t in TILE_SET if t not in mine)
    with pytest.raises(DecisionRefused, match="not in this hand"):
        round.decide(Decision(5, "set", cards=(mine[0], stranger)))
    with pytest.raises(DecisionRefused, match="spot 5"):
        round.decide(Decision(3, "house-way"))
    low_first = min(all_settings(mine), key=lambda s: hand_value(s.low))
    if hand_value(low_first.high) > hand_value(low_first.low):
        with pytest.raises(DecisionRefused, match="foul"):
            round.decide(Decision(5, "set", cards=low_first.low))
    round.decide(Decision(5, "set", cards=low_first.high))
    round.decide(Decision(2, "house-way"))
    assert round.state == "complete"


def test_the_pending_decisions_say_what_the_dealer_enters() -> None:
    # How To Play 1: four tiles set as a high and a low hand of two; the dice are three, 1 to 6
    round = dealt_round({(2, "bank"): 100000, (5, "main"): 1000})
    assert round.pending_decision().values == ((1, 6), (1, 6), (1, 6))
    round.decide(Decision(2, "dice", values=(1, 1, 2)))
    setting = round.pending_decision().setting
    assert setting is not None and (setting.count, setting.named, setting.rest) == (2, "high hand", "low hand")
    assert setting.cards == tuple(round.hand.hands[5])
    round.decide(Decision(5, "set", cards=house_way(setting.cards, round.game.steps).high))
    assert round.pending_decision().setting.cards == tuple(round.hand.hands[2])


def test_win_both_to_win_one_each_pushes_and_the_bank_limits_the_action() -> None:
    log = MemoryLog("PGT")
    round = dealt_round({(2, "bank"): 1000, **{(s, "main"): 5000 for s in (1, 3, 4, 5, 6, 7, 8)}}, log=log, seed=4)
    while round.pending_decision():
        pending = round.pending_decision()
        round.decide(round.game.strategy(round.hand, pending, round.wagers))
    records = {s.spot: s for s in round.settlements if s.wager == "main"}
    dealer = round.hand.settings[2].values
    for seat, record in records.items():
        high, low = round.hand.settings[seat].values
        wins = (high > dealer[0]) + (low > dealer[1])
        assert record.returned in ({2: (5000, 6000), 1: (5000,), 0: (4000, 5000)}[wins])
    assert sum(s.stake for s in round.settlements) == sum(s.returned for s in round.settlements)
    summary = log.named(SettlementSummarized.EVENT)[0]
    assert abs(summary["net"]) <= 1000


def test_a_session_balances_to_the_cent(tmp_path) -> None:
    config = load_config("config/pai-gow-tiles.toml")
    log = MemoryLog(config.table_id)
    table = Table(config, open_feed(config, log, seed=9), log, session="S")
    players = SimulatedPlayers(random.Random(9))
    for _ in range(40):
        round = play_round(table, players)
        if table.stopped:
            break
        assert sum(s.stake for s in round.settlements) == sum(s.returned for s in round.settlements)
    assert table.meters.total.house_win == sum(r["amount"] for r in log.named(FeeCollected.EVENT))
