"""The Fortune Bonus counted over every seven-card hand of 53 cards, and the batch rows against the per-hand rows.

Published seven-card counts with the joker: Brian Alspach, "7-Card Poker Hands
with Joker" (people.math.sfu.ca/~alspach/comp40): five aces 1,128; straight
flush 210,964 of which 26,124 royal; four of a kind 307,472; full house
4,188,528; flush 6,172,088; straight 11,236,028; three of a kind 7,470,676;
two pair 35,553,816; pair 64,221,960; high card 24,780,420.

One split differs from the published table: royal flushes. Counted directly,
a natural royal is 4 suits x C(48, 2) = 4,512 hands and a joker royal (the
joker with four of a suit's five royal cards, the fifth absent) is
4 x 5 x C(47, 2) = 21,620, so 26,132 hands, not 26,124; the total of straight
flushes (royal included), 210,964, agrees.
"""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from controller.cards import deck_with_joker, parse_cards
from controller.rules.evaluators.encoding import encode
from controller.rules.evaluators.five_card import Category as C
from controller.rules.pai_gow_poker.batch import exhaustive_counts, held_rows
from controller.rules.pai_gow_poker.fortune import ROWS, ROYAL_MATCH, SEVEN_SF, SEVEN_SF_JOKER, rows_held

ROYALS = 4 * comb(48, 2) + 4 * 5 * comb(47, 2)

CRAFTED = [
    "4H 5H 6H 7H 8H 9H TH", "AH 2H 3H 4H 5H 6H 7H", "8C 9C TC JC QC KC AC", "AS KS QS JS TS KH QH",
    "JK KS QS JS TS KD QD", "4H 5H JK 7H 8H 9H TH", "JK 2D 3D 4D 5D 6D 7D", "AS AH AD AC JK 2S 7D",
    "JK AH AD AC 5S 2H 3D", "9S 9H 9D TC JS QH KD", "9S 9H 5D 5C 3S 3H KD", "JK AS 5D 5C 3S 3H KD",
    "JK KS QS JS TS 2H 3D", "JK AS AH 9D 9C 2S 2H", "JK 2S 3H 4D 9C 9S 9H",
]


def test_the_batch_rows_agree_with_the_per_hand_rows() -> None:
    rng = np.random.default_rng(2003)
    deck = encode(deck_with_joker())
    random_rows = np.array([rng.choice(deck, 7, replace=False) for _ in range(3000)], dtype=np.uint8)
    crafted = np.stack([encode(parse_cards(h)) for h in CRAFTED])
    codes = np.vstack([crafted, random_rows])
    held = held_rows(codes)
    from controller.rules.evaluators.encoding import decode
    for i, row in enumerate(codes):
        expected = rows_held(decode(row))
        assert {name for name in ROWS if held[name][i]} == expected, decode(row)


@pytest.mark.exhaustive
def test_every_fortune_row_counted_over_all_154143080_hands() -> None:
    counts = exhaustive_counts("FPG-04")
    assert counts.categories == {
        C.FIVE_ACES: 1_128, C.ROYAL_FLUSH: ROYALS, C.STRAIGHT_FLUSH: 210_964 - ROYALS,
        C.FOUR_OF_A_KIND: 307_472, C.FULL_HOUSE: 4_188_528, C.FLUSH: 6_172_088, C.STRAIGHT: 11_236_028,
        C.THREE_OF_A_KIND: 7_470_676, C.TWO_PAIR: 35_553_816, C.ONE_PAIR: 64_221_960, C.HIGH_CARD: 24_780_420,
    }
    # 8 runs of seven (A-7 to 8-A) in 4 suits
    assert counts.held[SEVEN_SF] == 32
    # six suited cards inside a run of seven: 8 runs x 7 gaps, less the 7 runs of six two windows share, x 4 suits
    assert counts.held[SEVEN_SF_JOKER] == (8 * 7 - 7) * 4
    # a natural royal (4 suits) or four royal cards and the joker (4 x 5), with K-Q of one of the 3 other suits
    assert counts.held[ROYAL_MATCH] == (4 + 4 * 5) * 3
    for overlap, rows in counts.rows.items():
        assert sum(rows.values()) == comb(53, 7), overlap
    higher, best = counts.rows["higher-payout"], counts.rows["best-hand"]
    assert higher["three of a kind"] > best["three of a kind"] and higher["straight"] < best["straight"]
    assert best["straight"] - higher["straight"] == higher["three of a kind"] - best["three of a kind"]
