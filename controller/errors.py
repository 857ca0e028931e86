"""The controller's exceptions: each says what was wrong and, where it helps, what would be right.

::

    TableError
    ├── ConfigError (ValueError)        a table config that cannot be used
    ├── GameNotAvailable (LookupError)  a game id with no module behind it
    ├── IllegalAction (RuntimeError)    a trigger the round's state does not allow
    ├── WagerRefused (ValueError)       a wager outside the limits, unknown, or after "no more bets"
    ├── DecisionRefused (ValueError)    a player decision the rules do not allow now
    └── CardRefused (ValueError)        a card the round cannot place
"""

from __future__ import annotations

from collections.abc import Sequence


class TableError(Exception):
    """Base of every error the controller raises on purpose."""


class ConfigError(TableError, ValueError):
    """A config file that cannot be used: names the file, the key and the reason, one line per problem
    (``key`` and ``reason`` are the first; ``problems`` holds every one, ``more`` the others)."""

    def __init__(self, file: str, key: str, reason: str, *, more: Sequence[tuple[str, str]] = ()) -> None:
        self.file, self.key, self.reason = file, key, reason
        self.problems: list[tuple[str, str]] = [(key, reason), *more]
        super().__init__("\n".join(f"{file}: {k}: {r}" for k, r in self.problems))


class GameNotAvailable(TableError, LookupError):
    """A game id the registry does not know, or whose module is not installed."""


class IllegalAction(TableError, RuntimeError):
    """A trigger fired in a round state that does not allow it."""


class WagerRefused(TableError, ValueError):
    """A wager the table does not accept."""

    def __init__(self, spot: int, wager: str, reason: str) -> None:
        self.spot, self.wager, self.reason = spot, wager, reason
        super().__init__(f"spot {spot} {wager}: {reason}")


class DecisionRefused(TableError, ValueError):
    """A decision the rules do not allow for this spot now."""

    def __init__(self, spot: int, decision: str, reason: str) -> None:
        self.spot, self.decision, self.reason = spot, decision, reason
        super().__init__(f"spot {spot} {decision}: {reason}")


class CardRefused(TableError, ValueError):
    """A card the round cannot place."""
