"""Two Cards High: ``game`` (the round and pay tables), ``edge`` (exact edge per wager).
The hand ranking is ``controller.rules.evaluators.two_cards_high``."""
