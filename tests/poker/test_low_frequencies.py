"""Ace-to-five low frequencies against published counts.

Five cards from 52: 57,344 hands are eight-or-better lows (56 rank sets of
five different ranks A-8, times 4^5 suits): 1,024 wheels, 5,120 six-lows,
15,360 seven-lows, 35,840 eight-lows (the counts published for lowball and
Omaha eight-or-better, e.g. Wizard of Odds). With the joker (53 cards, Low-ball
seed 003 lines 5-6) the joker fills the lowest missing rank, so any four
different ranks A-8 with it make an eight-or-better low: 70 x 4^4 = 17,920
more hands.

The fast tests walk every multiset of ranks once, weighted by its suit count
(ace-to-five low ignores suits); the exhaustive test deals every hand on the
batch evaluator.
"""

from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb, prod

from controller.cards import JOKER, Card, Rank, Suit, deck_with_joker, standard_deck
from controller.rules.evaluators import batch, describe_low, low_value, qualifies
from controller.rules.evaluators.combos import iter_combinations
from controller.rules.evaluators.encoding import JOKER_CODE, encode
from controller.rules.evaluators.five_card import unpack_ranks
from controller.rules.evaluators.lowball import LOW_TOP

PUBLISHED_52 = {5: 1024, 6: 5120, 7: 15360, 8: 35840}
SUITS = [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS]
RANKS = [r for r in Rank if r is not Rank.JOKER]


def top_of(value: int) -> int:
    return unpack_ranks(LOW_TOP - value)[0]


def by_rank_multisets(jokers: int) -> Counter[int]:
    """Eight-or-better lows by their top card, over every hand, counted through rank multisets."""
    counts: Counter[int] = Counter()
    for ranks in combinations_with_replacement(RANKS, 5 - jokers):
        shape = Counter(ranks)
        if max(shape.values()) > 4:
            continue
        cards = [Card(rank, SUITS[i]) for rank, n in shape.items() for i in range(n)] + [JOKER] * jokers
        value = low_value(cards)
        if qualifies(value):
            counts[top_of(value)] += prod(comb(4, n) for n in shape.values())
    return counts


def test_eight_or_better_lows_from_52_cards_match_the_published_counts() -> None:
    assert dict(by_rank_multisets(jokers=0)) == PUBLISHED_52
    assert sum(PUBLISHED_52.values()) == 57344


def test_the_joker_adds_every_four_card_eight_low_draw() -> None:  # seed 003 lines 5-6
    with_joker = by_rank_multisets(jokers=1)
    assert sum(with_joker.values()) == comb(8, 4) * 4**4 == 17920
    assert with_joker[5] == 5 * 4**4  # JK with four of A-2-3-4-5: a wheel (the joker is the missing one)


def test_the_best_low_of_many_hands_is_the_wheel() -> None:
    assert describe_low(max(low_value(h) for h in combinations(standard_deck()[:20], 5))) == "5-4-3-2-A"


def test_every_five_card_hand_of_53_by_top_card_and_joker() -> None:
    """All 2,869,685 hands of the 53-card Low-ball deck, dealt exactly, on the batch evaluator."""
    codes = encode(deck_with_joker())
    tops: Counter[int] = Counter()
    with_joker = 0
    for chunk in iter_combinations(53, 5):
        hands = codes[chunk]
        values = batch.low_values(hands, check=False)
        qualified = batch.low_qualifies(values)
        joker = (hands == JOKER_CODE).any(axis=1)
        with_joker += int((qualified & joker).sum())
        for value in values[qualified & ~joker]:
            tops[top_of(int(value))] += 1
    assert dict(tops) == PUBLISHED_52 and with_joker == 17920
