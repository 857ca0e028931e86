"""The blackjack core shared by the California blackjack games (seed 003).

``totals`` counts hands (soft and hard totals, the Natural 22, a joker hand,
the Pure 21.5 Blackjack) and holds the players' charts; ``play`` runs a round
of any variant (dealing order, splits, doubles, surrender, insurance, the
action button and settlement against the player-dealer's bank);
``side_wagers`` holds the Blackjack Bonus Bet and Buster Blackjack pay tables;
``strategy`` computes the simulated players' decisions.
"""
