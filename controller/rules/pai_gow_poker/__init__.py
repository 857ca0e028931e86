"""Pai gow poker (seed 003, Double-Hand Poker and Fortune Pai Gow Poker), the parts that are not a round.

=================  ==============================================================
``hands``          two-card front and five-card back hands, foul hands, comparison
``house_way``      the House Way chart as data, and the setter that applies it
``best_play``      the setting that maximises the player's expected result
``fortune``        the Fortune Bonus and Envy pay tables, one hand at a time
``batch``          the seven-card categories over numpy arrays, for exact counts
``deal``           piles, dice and the misdeal rules
=================  ==============================================================
"""
