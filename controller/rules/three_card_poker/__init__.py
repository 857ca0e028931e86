"""Three Card Poker with a player-dealer: ``game`` (the round and pay tables), ``edge`` (exact edge per wager).
The hand ranking is ``controller.rules.evaluators.three_card``."""
