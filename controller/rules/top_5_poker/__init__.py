"""Top 5 Poker: ``game`` (the round), ``tables`` (pay tables), ``strategy`` (the player's best play),
``edge`` (exact edge per wager) and ``poker_kernel`` (the numba counts both of them use)."""
