"""Pai Gow Tiles with a player-dealer (seed 003, "PAI GOW TILES"; rules-notes.md for the ranking).

Each position receives four tiles and sets a high and a low hand of two
(How To Play 1); both must beat the player-dealer's to win, one each is a
push, both lower loses (2-4); copies go to the player-dealer (Game Rules).
The 32 tiles are entered by the dealer (no tile shuffler exists). As in the
card room's other pai gow games (Double-Hand Poker "Game Description"), the
tiles are laid in eight stacks, the player-dealer throws three dice and,
counting clockwise with the player-dealer as 1, 9 and 17, the total picks the
position that receives the first stack, which carries the action button;
stacks follow clockwise. Settlement runs from the action button clockwise
through the player-dealer's bank; collection fees are the posted pai gow ones.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.errors import DecisionRefused, WagerRefused
from controller.money import Rounding, format_cents
from controller.odds import LOSE, PUSH, parse_payout
from controller.rules.banking import (
    Claim,
    PlayerDealerPosition,
    PlayerDealerRotation,
    bank_record,
    clockwise_from,
    settle_against_bank,
)
from controller.rules.base import Decision, Face, Fee, Game, HandSetting, OptionError, PendingDecision, WagerChange, Wagers
from controller.rules.fees import SCHEDULES, FeeError
from controller.rules.pai_gow_tiles.house_way import HouseWayError, Setting, house_way, load_house_way
from controller.rules.pai_gow_tiles.ranking import describe, hand_value
from controller.settlement import Settlement
from controller.shipped import house_way_file, is_name
from controller.tiles import TILE_SET, Piece, Tile

POSITIONS = 8
TILES_PER_HAND = 4
EVEN = parse_payout("1 to 1")


@dataclass(slots=True)
class TilesHand:
    player_dealer: int
    players: tuple[int, ...]
    stacks: list[list[Tile]] = field(default_factory=lambda: [[] for _ in range(POSITIONS)])
    dice: tuple[int, ...] = ()
    hands: dict[int, list[Tile]] = field(default_factory=dict)
    settings: dict[int, Setting] = field(default_factory=dict)
    house_way: set[int] = field(default_factory=set)
    bank_result: dict[str, Any] = field(default_factory=dict)

    @property
    def action(self) -> int:
        """The position the dice picked: it receives the first stack and the action button."""
        total = sum(self.dice)
        return (self.player_dealer - 1 + (total - 1)) % POSITIONS + 1

    @property
    def setting_order(self) -> tuple[int, ...]:
        """Players set first, clockwise from the action; the player-dealer's hand is opened last."""
        return (*clockwise_from(self.action, self.players, POSITIONS), self.player_dealer)


class PaiGowTiles(PlayerDealerPosition, Game[TilesHand]):
    id = "pai-gow-tiles"
    title = "Pai Gow Tiles (player-dealer)"
    rules_version = 2
    voids_between_players_from = 2  # 2: a void returns its stakes between the players, not as the house's
    wagers = ("main", "bank")
    max_spots = POSITIONS
    device = "dealer"

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        first = self.options.get("player_dealer_seat", 1)
        if not isinstance(first, int) or not 1 <= first <= POSITIONS:
            raise OptionError("player_dealer_seat", f"must be a seat from 1 to {POSITIONS}, not {first!r}")
        self.rotation = PlayerDealerRotation(POSITIONS, first)
        self.fee_schedules = {"main": SCHEDULES["pai-gow-player"], "bank": SCHEDULES["pai-gow-player-dealer"]}
        """The posted collection fee of each wager (``fees``; the config's limits are checked against it)."""
        name = self.options.get("house_way", "pai-gow-tiles")
        if not isinstance(name, str) or not name:
            raise OptionError("house_way", f"must name a House Way chart or give its file, not {name!r}")
        try:
            self.steps = load_house_way(house_way_file(name) if is_name(name) else Path(name))
        except HouseWayError as exc:
            raise OptionError("house_way", str(exc)) from None

    def deck(self) -> tuple[Tile, ...]:  # type: ignore[override]
        return TILE_SET

    def seat_wagers(self, spot: int) -> tuple[str, ...]:
        return ("bank",) if spot == self.player_dealer else ("main",)

    def fees(self, spots: Sequence[int], wagers: Wagers) -> tuple[Fee, ...]:
        """Collections are taken in advance (Double-Hand Poker general rule 2): per wager, and the bank's."""
        fees = []
        for (spot, wager), amount in sorted(wagers.items()):
            name = "pai-gow-player-dealer" if wager == "bank" else "pai-gow-player"
            try:
                fees.append(Fee(spot, SCHEDULES[name].fee(amount), f"{name} fee on {format_cents(amount)}"))
            except FeeError as exc:
                raise WagerRefused(spot, wager, str(exc)) from None
        return tuple(fees)

    def new_hand(self, spots: Sequence[int], wagers: Wagers) -> TilesHand:
        players = tuple(s for s in spots if (s, "main") in wagers)
        return TilesHand(self.player_dealer, players)

    def next_target(self, state: TilesHand) -> str | None:
        for n, stack in enumerate(state.stacks, 1):
            if len(stack) < TILES_PER_HAND:
                return f"stack{n}"
        return None

    def place(self, state: TilesHand, target: str, card: Piece) -> None:
        if not isinstance(card, Tile):
            raise ValueError(f"{card} is not a tile")
        if target != self.next_target(state):
            raise ValueError(f"the next tile goes to {self.next_target(state)}, not {target}")
        state.stacks[int(target.removeprefix("stack")) - 1].append(card)

    def face(self, state: TilesHand, target: str, card: Any, position: int) -> Face:
        """Tiles are laid face down in stacks; the hands of the players and the player-dealer are opened when
        compared, a stack that goes to an empty position is never opened."""
        if not state.hands:
            return Face.UNTIL_REVEAL
        opened = (*state.players, state.player_dealer)
        return Face.UNTIL_REVEAL if any(card is tile for seat in opened for tile in state.hands.get(seat, ())) else Face.DOWN

    def spot_of(self, state: TilesHand, target: str) -> int | None:
        """A stack shows on the position the dice gave it to, once they are thrown."""
        if not state.dice:
            return None
        order = clockwise_from(state.action, range(1, POSITIONS + 1), POSITIONS)  # as ``_deliver`` hands them out
        return order[int(target.removeprefix("stack")) - 1]

    def hand_label(self, state: TilesHand, target: str, cards: Sequence[Any]) -> str | None:
        seat = self.spot_of(state, target)
        setting = state.settings.get(seat) if seat is not None else None
        if setting is None or len(cards) < TILES_PER_HAND:
            return None
        high, low = setting.values
        return f"high {describe(high)} · low {describe(low)}"

    def moment_words(self, state: TilesHand | None, moment: str, pending: PendingDecision | None) -> str | None:
        """The tiles are dealt (keyed in by the dealer), the dice rolled, then each hand set."""
        if moment == "dealing":
            return "Dealing the tiles"
        if moment == "reveal":
            return "Showing the tiles"
        if moment != "decisions" or pending is None:
            return None
        return "Rolling the dice" if "dice" in pending.actions else "Setting hands"

    def pending_decision(self, state: TilesHand) -> PendingDecision | None:
        if not state.players:
            return None
        if not state.dice:
            return PendingDecision(state.player_dealer, ("dice",), values=((1, 6),) * 3)
        for seat in state.setting_order:
            if seat not in state.settings:
                setting = HandSetting(tuple(state.hands[seat]), 2, "high hand", "low hand")
                return PendingDecision(seat, ("set", "house-way"), setting=setting)
        return None

    def decide(self, state: TilesHand, decision: Decision, wagers: Wagers) -> tuple[WagerChange, ...]:
        pending = self.pending_decision(state)
        if pending is None or decision.spot != pending.spot or decision.action not in pending.actions:
            expected = f"spot {pending.spot}: {' or '.join(pending.actions)}" if pending else "nothing"
            raise DecisionRefused(decision.spot, decision.action, f"the table waits for {expected}")
        if decision.action == "dice":
            if len(decision.values) != 3 or not all(1 <= d <= 6 for d in decision.values):
                raise DecisionRefused(decision.spot, "dice", f"three dice from 1 to 6, not {list(decision.values)}")
            state.dice = tuple(decision.values)
            self._deliver(state)
            return ()
        tiles = state.hands[decision.spot]
        if decision.action == "house-way":
            state.settings[decision.spot] = house_way(tiles, self.steps)
            state.house_way.add(decision.spot)
            return ()
        state.settings[decision.spot] = self._validated_setting(decision, tiles)
        return ()

    def _deliver(self, state: TilesHand) -> None:
        order = clockwise_from(state.action, range(1, POSITIONS + 1), POSITIONS)
        for stack, seat in zip(state.stacks, order):
            state.hands[seat] = list(stack)

    @staticmethod
    def _validated_setting(decision: Decision, tiles: list[Tile]) -> Setting:
        high = list(decision.cards)
        remaining = list(tiles)
        for tile in high:
            if tile not in remaining:
                raise DecisionRefused(decision.spot, "set", f"tile {tile} is not in this hand ({' '.join(map(str, tiles))})")
            remaining.remove(tile)
        if len(high) != 2:
            raise DecisionRefused(decision.spot, "set", f"the high hand is two tiles, not {len(high)}")
        if hand_value(high) < hand_value(remaining):
            raise DecisionRefused(decision.spot, "set", "foul: the high hand must rank at least as high as the low hand")
        return Setting((high[0], high[1]), (remaining[0], remaining[1]))

    def strategy(self, state: TilesHand, pending: PendingDecision, wagers: Wagers) -> Decision:
        if pending.actions == ("dice",):
            rng = random.Random("".join(t.code for stack in state.stacks for t in stack))
            return Decision(pending.spot, "dice", values=tuple(rng.randint(1, 6) for _ in range(3)))
        return Decision(pending.spot, "house-way")

    def reveal(self, state: TilesHand) -> dict[str, Any]:
        if not state.players:
            return {"player_dealer": state.player_dealer, "hand": None}
        setting = state.settings[state.player_dealer]
        high, low = setting.values
        return {"player_dealer": state.player_dealer, "dice": list(state.dice), "action": state.action,
                "high": setting.codes()[0], "low": setting.codes()[1], "hands": [describe(high), describe(low)]}

    def claims(self, state: TilesHand, wagers: Wagers) -> list[Claim]:
        dealer = state.settings[state.player_dealer].values
        claims = []
        for seat in clockwise_from(state.action, state.players, POSITIONS):
            high, low = state.settings[seat].values
            wins = (high > dealer[0]) + (low > dealer[1])
            payout, reason = {2: (EVEN, "both hands higher"), 1: (PUSH, "one hand each: push"),
                              0: (LOSE, "both hands lower or copied")}[wins]
            claims.append(Claim(seat, "main", wagers[(seat, "main")], payout, reason))
        return claims

    def settle(self, state: TilesHand, wagers: Wagers, rounding: Rounding) -> list[Settlement]:
        bank = wagers[(state.player_dealer, "bank")]
        records, result = settle_against_bank(self.claims(state, wagers) if state.players else [], bank, rounding)
        records.append(bank_record(state.player_dealer, result))
        state.bank_result = result.as_event()
        return records

    def settlement_summary(self, state: TilesHand) -> dict[str, Any]:
        return {"player_dealer": state.player_dealer, **state.bank_result}

    def describe(self, state: TilesHand) -> str:
        if not state.players:
            return f"P/D seat {state.player_dealer}: no players"
        high, low = state.settings[state.player_dealer].values
        return f"P/D seat {state.player_dealer} dice {sum(state.dice)}: {describe(high)} / {describe(low)}"


GAME = PaiGowTiles
