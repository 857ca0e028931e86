"""Kill pots (seed 003, "KILL POTS", lines 1192-1207).

- A "kill button" marks the player who won the previous pot (line 1194); the
  winner keeps it until the present hand is over (line 1195).
- A pot is a "leg" when it holds at least $20, uncalled bets not counted
  (lines 1197-1199). Two consecutive legs won by one player: that player must
  kill the next pot (line 1196).
- The kill pot is played at double limits: a 3-6 game becomes 6-12, blinds and
  bets doubled (lines 1200-1204). The killer posts the kill blind, twice the big
  blind (the "bet has to double the blind").
- Kill pots are played only when all the players agree (line 1205): the
  ``kill`` option of the game, off by default.

The seed does not say what a split pot does; here only a pot won whole by one
player is a leg, and any other result (a split pot, a pot under $20) takes the
button away. A killer who wins the kill pot (a leg) kills again.

>>> button = KillButton()
>>> button.hand_won(3, 2500); button.killer, button.holder
(None, 3)
>>> button.hand_won(3, 2000); button.killer
3
>>> button.hand_won(5, 1999); button.killer, button.holder
(None, None)
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.money import Cents

__all__ = ["KillButton", "LEG"]

LEG: Cents = 2000
"""The $20 pot-size requirement for each leg (lines 1197-1198)."""


@dataclass(slots=True)
class KillButton:
    """Who holds the kill button, and who must kill the coming hand."""

    leg: Cents = LEG
    holder: int | None = None
    killer: int | None = None

    def hand_won(self, winner: int | None, pot: Cents) -> None:
        """Record a finished hand: ``winner`` took the whole ``pot`` (uncalled bets excluded), or ``None`` if split."""
        if winner is None or pot < self.leg:
            self.holder = self.killer = None
            return
        self.killer = winner if self.holder == winner else None
        self.holder = winner

    def as_event(self) -> dict[str, int | None]:
        return {"kill_button": self.holder, "killer": self.killer}
