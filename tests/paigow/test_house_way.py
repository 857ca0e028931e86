"""The House Way chart (seed 003 "HOUSE WAY", shared/notes/house-way.md): every example, loading, never foul."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from controller.cards import JOKER, Card, Rank, deck_with_joker, parse_cards
from controller.errors import ConfigError
from controller.rules.evaluators.five_card import Category, category
from controller.rules.pai_gow_poker.hands import back_value, foul_reason, front_value
from controller.rules.pai_gow_poker.house_way import DEFAULT_FILE, load_house_way, parse_example

WAY = load_house_way()
SUITS = "SHDC"


def cards_of(ranks: list[str]) -> list[Card]:
    """Suits dealt round S H D C, never repeating a card and never making an accidental flush."""
    used: Counter[str] = Counter()
    cards = []
    for i, word in enumerate(ranks):
        if word == "JK":
            cards.append(JOKER)
            continue
        suit = SUITS[(i + used[word]) % 4]
        while Card.parse(word + suit) in cards:
            suit = SUITS[(SUITS.index(suit) + 1) % 4]
        used[word] += 1
        cards.append(Card.parse(word + suit))
    return cards


def rank_words(cards: tuple[Card, ...]) -> Counter[str]:
    return Counter("JK" if c.is_joker else c.rank.char for c in cards)


EXAMPLES = [(row.hand, example) for row in WAY.rows for example in row.examples]


@pytest.mark.parametrize(("kind", "example"), EXAMPLES, ids=[e for _, e in EXAMPLES])
def test_every_house_way_example_is_set_as_the_chart_shows(kind: str, example: str) -> None:
    # seed 003 "HOUSE WAY": the chart's own examples, front / back
    front, back = parse_example(example)
    setting = WAY.set(cards_of(front + back))
    assert setting.reset is None
    assert rank_words(setting.hand.front) == Counter(front), str(setting.hand)
    assert rank_words(setting.hand.back) == Counter(back), str(setting.hand)


def test_the_chart_has_an_example_for_every_row_and_twenty_seven_in_all() -> None:
    assert all(row.examples for row in WAY.rows)
    assert len(EXAMPLES) == 27


def test_a_flush_is_kept_over_a_pair_in_front_when_the_chart_says_complete_back() -> None:
    # "Straight or flush with one pair": the highest two cards that leave the flush complete
    hand = [Card.parse(c) for c in ("AH", "9H", "7H", "4H", "2H", "KS", "KD")]
    setting = WAY.set(hand)
    assert {c.code for c in setting.hand.front} == {"KS", "KD"}


def test_a_two_pair_with_a_joker_in_front_counts_the_joker_as_an_ace() -> None:
    # Two pair, big pair J T 9: "both pairs in back if an ace or the joker can go in front"
    hand = [Card.parse(c) for c in ("JS", "JH", "4D", "4C", "JK", "7S", "2H")]
    setting = WAY.set(hand)
    assert {c.code for c in setting.hand.front} == {"JK", "7S"}


@pytest.mark.parametrize(("hand", "back_category"), [
    ("AS AH AD 5C 3S 2H JK", Category.STRAIGHT),  # issue 45's hand: A-JK-5-3-2 stays behind
    ("AS AH AD JK 9D 7D 4D", Category.FLUSH),
    ("AS AH AD JK KC QD TH", Category.STRAIGHT),
    ("AS AH AD JK KD QD TD", Category.ROYAL_FLUSH),
])
def test_three_aces_and_the_joker_split_keep_the_joker_behind_when_it_makes_the_higher_back(
        hand: str, back_category: Category) -> None:
    # Four of a kind, A K Q, no pair for the front: split; the tie-break (the higher back hand)
    # says which two of the four go in front: two natural aces, the joker completing the back
    setting = WAY.set(parse_cards(hand))
    assert setting.reset is None
    assert [c.rank for c in setting.hand.front] == [Rank.ACE, Rank.ACE], str(setting.hand)
    assert JOKER in setting.hand.back
    assert category(back_value(setting.hand.back)) is back_category


def test_three_aces_and_the_joker_split_with_nothing_to_complete_put_a_pair_of_aces_each_side() -> None:
    setting = WAY.set(parse_cards("AS AH AD JK 9C 7D 4H"))
    assert category(back_value(setting.hand.back)) is Category.ONE_PAIR
    assert category(front_value(setting.hand.front)) is Category.ONE_PAIR


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(deck_with_joker()), min_size=7, max_size=7, unique=True))
def test_the_house_way_never_sets_a_foul_hand(cards: list[Card]) -> None:
    setting = WAY.set(cards)
    assert setting.reset is None, f"{cards}: {setting.reset}"
    assert foul_reason(setting.hand.front, setting.hand.back) is None
    assert sorted(setting.hand.cards, key=str) == sorted(cards, key=str)


def test_a_chart_missing_a_kind_of_hand_is_refused_naming_it(tmp_path: Path) -> None:
    text = DEFAULT_FILE.read_text().replace('hand = "three-pair"', 'hand = "one-pair"')
    broken = tmp_path / "way.toml"
    broken.write_text(text)
    with pytest.raises(ConfigError, match="no House Way row for three-pair"):
        load_house_way(broken)


@pytest.mark.parametrize(("old", "new", "key"), [
    ('rule = "split"', 'rule = "spilt"', "row[3].rule"),
    ('front_at_least = "K"', 'front_at_least = "X"', "row[5].front_at_least"),
    ('examples = ["K Q / A T 8 7 2"]', 'examples = ["K Q A / T 8 7 2"]', "row[1].examples"),
])
def test_a_broken_chart_names_the_row_and_key(tmp_path: Path, old: str, new: str, key: str) -> None:
    broken = tmp_path / "way.toml"
    broken.write_text(DEFAULT_FILE.read_text().replace(old, new, 1))
    with pytest.raises(ConfigError) as info:
        load_house_way(broken)
    assert info.value.key == key


def test_a_card_room_can_load_its_own_way(tmp_path: Path) -> None:
    # Two pair with kings: this room keeps them together when an ace can go in front
    text = DEFAULT_FILE.read_text().replace('ranks = ["A", "K", "Q"]\nrule = "split"\nexamples = ["8 8 / Q Q 9 7 3"]',
                                            'ranks = ["A", "K", "Q"]\nrule = "together-if-front"\nfront_at_least = "A"')
    own = tmp_path / "own.toml"
    own.write_text(text)
    hand = cards_of(["A", "5", "K", "K", "6", "6", "3"])
    assert rank_words(load_house_way(own).set(hand).hand.front) == Counter(["A", "5"])
    assert rank_words(WAY.set(hand).hand.front) == Counter(["6", "6"])
