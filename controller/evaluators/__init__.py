"""The shared hand evaluators: exact, pure functions on ``controller.cards.Card``.

One ranking per module; every value is an ``int`` where larger is better:

=====================  ==========================================================
``five_card``          high poker: five cards, best five of six to nine, joker as the bug
``three_card``         Three Card Poker (mini royal, straight above flush)
``high_card_flush``    High Card Flush: longest flush, its tie-break, straight-flush length
``two_cards_high``     Two Cards High: qualifier, two-card hand, ace-low side wager
``lowball``            ace-to-five low, joker as the lowest missing rank, eight-or-better
``omaha``              Omaha's two-hole-plus-three-board hands, high and low
``batch``              the same rankings over numpy arrays of card codes, for math
``encoding``           input checks and the batch card codes
=====================  ==========================================================
"""

from controller.evaluators.encoding import InvalidHand, decode, encode
from controller.evaluators.five_card import Category, best_five, category, describe, evaluate, evaluate5
from controller.evaluators.high_card_flush import compare, flush_value, straight_flush_length
from controller.evaluators.lowball import best_low, describe_low, low_value, qualifies
from controller.evaluators.omaha import omaha_high, omaha_low
from controller.evaluators.three_card import Category3, category3, describe3, evaluate3
from controller.evaluators.two_cards_high import best_split, qualifying_sets, side_wager_value, two_card_value

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
    "compare",
    "straight_flush_length",
    "qualifying_sets",
    "two_card_value",
    "best_split",
    "side_wager_value",
    "low_value",
    "best_low",
    "describe_low",
    "qualifies",
    "omaha_high",
    "omaha_low",
]
