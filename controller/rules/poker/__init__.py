"""Card-room poker (seed 003: Texas Hold'em, Omaha Hi-Low, Low-ball, Kill pots, the collection fees).

The house deals but does not bank: players play for a pot, and the house takes
only its posted fee. One idea per module:

=====================  ==========================================================
``betting``            the limit structure: blinds, a bet and three raises, all-in
``pots``               main and side pots, high/low halves, ties and odd chips
``fees``               the posted collection, jackpot, table and time fees
``kill``               the kill button and the kill round at double limits
``irregularities``     the seed's remedies for misdeals and exposed cards
``hand``               the state of one hand and its deal script
``game``               the shared ``Game`` for the three poker games
``strategy``           a simple, legal betting policy for simulated players
``equity``             exact all-in equities by enumerating the board
=====================  ==========================================================
"""
