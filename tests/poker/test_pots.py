"""Pots: side pots for all-ins, high/low halves, ties, odd chips (seed 003, Omaha Hi-Low rules 3, 11-13; glossary "Side Pot")."""

import pytest
from hypothesis import given, strategies as st

from controller.rules.poker.pots import award, build_pots, settlements, split_evenly, split_high_low, take_drop, uncalled_bet


def test_an_all_in_player_contests_only_the_main_pot() -> None:  # glossary "Side Pot"
    pots, back = build_pots({1: 600, 2: 200, 3: 600}, live=(1, 2, 3), order=(1, 2, 3))
    assert [(p.amount, p.eligible) for p in pots] == [(600, (1, 2, 3)), (800, (1, 3))]
    assert back is None


def test_folded_chips_stay_in_the_pots_but_the_folder_contests_none() -> None:
    pots, _ = build_pots({1: 900, 2: 300, 3: 900, 4: 600}, live=(1, 2, 3), order=(1, 2, 3, 4))
    assert [(p.amount, p.eligible) for p in pots] == [(1200, (1, 2, 3)), (1500, (1, 3))]
    assert dict(pots[1].stakes) == {1: 600, 3: 600, 4: 300}


def test_the_uncalled_part_of_a_bet_goes_back_and_is_no_part_of_the_pot() -> None:  # seed 003 line 1198
    assert uncalled_bet({1: 900, 2: 300}) == (1, 600)
    pots, back = build_pots({1: 900, 2: 300}, live=(1,), order=(1, 2))
    assert back == (1, 600) and [(p.amount, p.eligible) for p in pots] == [(600, (1,))]


def test_the_odd_chip_of_a_split_pot_goes_to_the_high_hand() -> None:  # seed 003 line 1632
    assert split_high_low(2500, chip=100) == (1300, 1200)
    assert split_high_low(2400, chip=100) == (1200, 1200)
    assert split_high_low(2550, chip=100) == (1350, 1200)


def test_tied_hands_split_equally_odd_chips_clockwise_from_the_button() -> None:  # rule 13; odd chip: house rule
    assert split_evenly(1300, (4, 7, 2), chip=100) == {4: 500, 7: 400, 2: 400}
    assert split_evenly(1250, (4, 7), chip=100) == {4: 650, 7: 600}


def test_with_no_qualifying_low_the_high_hand_scoops() -> None:  # rules 3 and 10
    pots, _ = build_pots({1: 500, 2: 500}, live=(1, 2), order=(1, 2))
    assert award(pots[0], (2,), (), chip=100) == {2: 1000}


def test_one_player_can_win_both_halves_and_quarters_happen() -> None:  # rule 11 NOTE, rule 13
    pots, _ = build_pots({1: 400, 2: 400, 3: 400}, live=(1, 2, 3), order=(1, 2, 3))
    assert award(pots[0], (1,), (1,), chip=100) == {1: 1200}
    assert award(pots[0], (1,), (2, 3), chip=100) == {1: 600, 2: 300, 3: 300}


def test_the_drop_comes_out_of_the_main_pot_first() -> None:  # seed 003 line 2229
    pots, _ = build_pots({1: 300, 2: 100, 3: 300}, live=(1, 2, 3), order=(1, 2, 3))
    assert [p.amount for p in take_drop(pots, 400)] == [0, 300]
    assert [p.amount for p in take_drop(pots, 200)] == [100, 400]


contributions = st.dictionaries(st.integers(1, 10), st.integers(0, 40).map(lambda n: n * 50), min_size=2, max_size=10)


@given(contributions, st.data())
def test_every_chip_staked_comes_back_or_is_dropped(put_in: dict[int, int], data: st.DataObject) -> None:
    order = tuple(sorted(put_in))
    top = max(order, key=put_in.__getitem__)  # the largest contributor never folded: nobody bet more after him
    live = tuple(s for s in order if s == top or data.draw(st.booleans(), label=f"live {s}"))
    pots, back = build_pots(put_in, live, order)
    drop = data.draw(st.integers(0, sum(p.amount for p in pots)), label="drop")
    pots = take_drop(pots, drop)
    awards = []
    for pot in pots:
        high = data.draw(st.lists(st.sampled_from(pot.eligible), min_size=1, unique=True), label="high") if pot.eligible else []
        low = data.draw(st.lists(st.sampled_from(pot.eligible), unique=True), label="low") if pot.eligible else []
        awards.append(award(pot, tuple(s for s in order if s in high), tuple(s for s in order if s in low), chip=100) if high else {})
    records = settlements(pots, awards, back)
    assert sum(r.stake for r in records) == sum(put_in.values())
    assert sum(r.returned for r in records) + drop == sum(put_in.values())
    for seat, amount in put_in.items():  # each seat's records add up to what it put in
        assert sum(r.stake for r in records if r.spot == seat) == amount


def test_a_pot_nobody_still_in_the_hand_contests_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot be awarded"):
        build_pots({1: 500, 2: 300, 3: 0}, live=(3,), order=(1, 2, 3))
