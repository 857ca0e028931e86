"""The rules: every game's wagers, pay tables, hand rankings and edge math. Pure.

Nothing here touches a device, a clock, a log or a file but the game's own
data (House Ways in ``config/house-way``): rules import only the vocabulary
(``controller.cards``, ``tiles``, ``money``, ``odds``, ``settlement``,
``errors``) and each other. The room's own modules are shared by every game:

=====================  ==========================================================
``base``               the ``Game`` contract the engine plays
``registry``           game id -> the module that plays it (imported lazily)
``edges``              game id -> its edge math, ``WagerEdge``, the JSON shape
``banking``            player-dealer banking (California games)
``fees``               collection fee schedules (California games)
``evaluators/``        the hand rankings, per hand and in numpy batches
=====================  ==========================================================

One folder per game family holds its rules, pay tables, strategy and edge math:
``top_card``, ``top_5_poker``, ``high_card_flush``, ``three_card_poker``,
``two_cards_high``, ``pai_gow_poker`` (Double-Hand Poker, Fortune Pai Gow),
``pai_gow_tiles``, ``blackjack`` (No Bust 21, Pure 21.5) and ``poker``
(Hold'em, Omaha Hi-Lo, Low-ball).
"""
