"""High Card Flush: ``game`` (the round), ``tables`` (pay tables), ``strategy`` (the player's best play),
``progressive`` (the progressive meter), ``edge`` (exact edge per wager) and ``flush_kernel`` (the numba
counts the strategy and the edge use). The hand ranking is ``controller.rules.evaluators.high_card_flush``."""
