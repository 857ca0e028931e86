"""The shared hand evaluators: exact, pure functions on ``controller.cards.Card``.

One ranking per module. Every value is an ``int`` where LARGER IS BETTER and
equal values tie (lowball too: a better low hand has the larger value).

=====================  ==========================================================
``five_card``          high poker: five cards, best five of five to nine, joker as the bug
``three_card``         Three Card Poker (mini royal, straight above flush)
``high_card_flush``    High Card Flush: longest flush, its tie-break, straight-flush length
``two_cards_high``     Two Cards High: qualifier, two-card hand, ace-low side wager
``lowball``            ace-to-five low, joker as the lowest missing rank, eight-or-better
``omaha``              Omaha's two-hole-plus-three-board hands, high and low
``batch``              the same rankings over numpy arrays of card codes (millions per second)
``combos``             every k-card hand of a deck as numpy arrays, for exhaustive math
``encoding``           input checks, ``InvalidHand``, and the batch card codes
``tables``             the batch lookup tables (built lazily, cached)
=====================  ==========================================================

The per-hand functions are the rules engine's: they check their input and
raise ``InvalidHand`` (a ``ValueError``) naming what is wrong. The batch
functions take ``(hands, cards)`` integer arrays and return one value per row,
identical to the per-hand value.

>>> from controller.cards import parse_cards
>>> describe(evaluate(parse_cards("AS AD KC KH 2S 7D 9C")))
'two pair, aces and kings, nine kicker'
"""

from controller.rules.evaluators.encoding import InvalidHand, decode, encode
from controller.rules.evaluators.five_card import Category, best_five, category, describe, evaluate, evaluate5
from controller.rules.evaluators.high_card_flush import (
    compare,
    flush_cards,
    flush_length,
    flush_ranks,
    flush_value,
    straight_flush_length,
)
from controller.rules.evaluators.lowball import best_low, describe_low, low_value, qualifies
from controller.rules.evaluators.omaha import omaha_high, omaha_low
from controller.rules.evaluators.three_card import Category3, category3, describe3, evaluate3
from controller.rules.evaluators.two_cards_high import (
    best_split,
    describe_two_card,
    qualifying_sets,
    side_wager_value,
    two_card_value,
)

__all__ = [
    "InvalidHand",
    "encode",
    "decode",
    "Category",
    "evaluate5",
    "evaluate",
    "best_five",
    "category",
    "describe",
    "Category3",
    "evaluate3",
    "category3",
    "describe3",
    "flush_value",
    "flush_length",
    "flush_ranks",
    "flush_cards",
    "compare",
    "straight_flush_length",
    "qualifying_sets",
    "two_card_value",
    "describe_two_card",
    "best_split",
    "side_wager_value",
    "low_value",
    "best_low",
    "describe_low",
    "qualifies",
    "omaha_high",
    "omaha_low",
]
