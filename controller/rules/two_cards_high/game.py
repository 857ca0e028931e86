"""Two Cards High (seed 004): five cards, a three-card qualifier summing to ten, the other two against the dealer.

One deck without face cards (rule 1), through the shuffler. Each spot with a
wager and the dealer get five cards (rule 3). The player names the three cards
that qualify his hand (rule 4: their count is a multiple of ten; aces count
one); the other two are his two-card hand (rule 4d), ranked with pairs above
points, tens the highest pair and aces the lowest (rule 5). A player who cannot
qualify loses (rules-notes). The dealer's hand is set by rule to its best
two-card hand.

Settlement of the main wager (rule 6): a winning pair is paid 3 to 2 (6a),
another winning hand even money (6b), a tie wins even money (6c), and a
qualified player against a dealer who does not qualify is paid even money
(6d). Whether a pair is paid 3 to 2 also on a tie and against a dealer who does
not qualify is the option ``pair_without_win``: ``"1 to 1"`` (rules-notes
default) or ``"3 to 2"``. The five-card side wager is paid on the five cards
dealt, by the seed's table (ace low only, rules-notes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.cards import Card, no_face_deck
from controller.errors import DecisionRefused, WagerRefused
from controller.money import Cents, Rounding
from controller.odds import LOSE, Payout, parse_payout
from controller.rules.base import Decision, Face, Game, HandSetting, OptionError, PendingDecision, WagerChange, Wagers, dealt_card
from controller.rules.evaluators import Category, best_split, category, describe, qualifying_sets, side_wager_value, two_card_value
from controller.rules.evaluators.five_card import unpack_ranks
from controller.rules.evaluators.two_cards_high import PAIR_BASE, describe_two_card, points
from controller.settlement import Settlement, settle
from controller.tiles import Piece

MAIN, SIDE = "main", "five_card"
SET = "set"
EVEN = parse_payout("1 to 1")
PAIR_WINS = parse_payout("3 to 2")  # rule 6a

SIDE_TABLES: dict[str, dict[str, Payout]] = {
    "standard": {  # seed 004, the five card poker side wager's pay table
        "straight flush": parse_payout("100 to 1"),
        "four of a kind": parse_payout("50 to 1"),
        "full house": parse_payout("20 to 1"),
        "flush": parse_payout("12 to 1"),
        "straight": parse_payout("5 to 1"),
        "three of a kind": parse_payout("3 to 1"),
        "two pair": parse_payout("2 to 1"),
        "pair of 7's or better": parse_payout("1 to 1"),
    },
}


def side_row(value: int) -> str | None:
    """The side wager's row for a five-card value (aces low), or ``None`` below a pair of sevens."""
    cat = category(value)
    if cat is Category.ONE_PAIR:
        return "pair of 7's or better" if unpack_ranks(value)[0] >= 7 else None
    if cat is Category.HIGH_CARD:
        return None
    return cat.label


@dataclass(slots=True)
class TwoCardsHighHand:
    spots: tuple[int, ...]
    cards: dict[int, list[Card]] = field(default_factory=dict)
    dealer: list[Card] = field(default_factory=list)
    sets: dict[int, tuple[Card, ...] | None] = field(default_factory=dict)
    """Each spot's chosen qualifying three cards (``None``: the hand cannot qualify)."""

    def two_cards(self, spot: int) -> tuple[Card, ...] | None:
        chosen = self.sets.get(spot)
        return None if chosen is None else tuple(c for c in self.cards[spot] if c not in chosen)


class TwoCardsHigh(Game[TwoCardsHighHand]):
    id = "two-cards-high"
    title = "Two Cards High"
    wagers = (MAIN, SIDE)
    max_spots = 7
    device = "shuffler"

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        pair = self.options.get("pair_without_win", "1 to 1")
        if pair not in ("1 to 1", "3 to 2"):
            raise OptionError("pair_without_win", f'must be "1 to 1" (rules-notes default) or "3 to 2", not {pair!r}')
        self.pair_without_win = parse_payout(pair)
        name = self.options.get("side_paytable", "standard")
        if name not in SIDE_TABLES:
            raise OptionError("side_paytable", f"unknown pay table {name!r}: expected one of {', '.join(SIDE_TABLES)}")
        self.side_table = SIDE_TABLES[name]

    def deck(self) -> tuple[Card, ...]:
        return no_face_deck()  # rule 1

    def check_spot(self, spot: int, wagers: Mapping[str, Cents]) -> None:
        if wagers.get(SIDE) and not wagers.get(MAIN):
            raise WagerRefused(spot, SIDE, "the five-card side wager is taken only with the main wager")

    def new_hand(self, spots: Sequence[int], wagers: Wagers) -> TwoCardsHighHand:
        dealt = tuple(sorted(spots))
        return TwoCardsHighHand(dealt, {s: [] for s in dealt})

    def next_target(self, state: TwoCardsHighHand) -> str | None:
        for spot in state.spots:
            if len(state.cards[spot]) < 5:
                return f"spot {spot}"
        return "dealer" if len(state.dealer) < 5 else None

    def face(self, state: TwoCardsHighHand, target: str, card: Any, position: int) -> Face:
        """Rule 3: five cards face down to each player and the dealer; all are shown when hands are compared."""
        return Face.UNTIL_REVEAL

    def hand_label(self, state: TwoCardsHighHand, target: str, cards: Sequence[Any]) -> str | None:
        """Rule 4-5: the two-card hand left beside the qualifying three, or no qualifier."""
        if len(cards) != 5:
            return None
        if target == "dealer":
            best = best_split(list(cards))
            return "no qualifier" if best is None else describe_two_card(best[0])
        two = state.two_cards(int(target.split()[1]))
        return "no qualifier" if two is None else describe_two_card(two_card_value(two))

    def place(self, state: TwoCardsHighHand, target: str, card: Piece) -> None:
        card = dealt_card(card)
        if target != self.next_target(state):
            raise ValueError(f"Two Cards High expects a card for {self.next_target(state)}, not {target!r}")
        if card in state.dealer or any(card in cards for cards in state.cards.values()):
            raise ValueError(f"{card} was already dealt this round")
        if target == "dealer":
            state.dealer.append(card)
            return
        spot = int(target.split()[1])
        state.cards[spot].append(card)
        if len(state.cards[spot]) == 5 and not qualifying_sets(state.cards[spot]):
            state.sets[spot] = None  # nothing to choose: the hand cannot qualify

    def moment_words(self, state: TwoCardsHighHand | None, moment: str, pending: PendingDecision | None) -> str | None:
        return "Players setting hands" if moment == "decisions" else None

    def pending_decision(self, state: TwoCardsHighHand) -> PendingDecision | None:
        if self.next_target(state) is not None:
            return None
        for spot in state.spots:
            if spot not in state.sets:
                return PendingDecision(spot, (SET,), setting=HandSetting(tuple(state.cards[spot]), 3, "qualifier", "two-card hand"))
        return None

    def decide(self, state: TwoCardsHighHand, decision: Decision, wagers: Wagers) -> tuple[WagerChange, ...]:
        spot, action = decision.spot, decision.action
        pending = self.pending_decision(state)
        if pending is None or pending.spot != spot:
            raise DecisionRefused(spot, action, f"it is not this spot's turn (waiting for {pending.spot if pending else 'nobody'})")
        if action != SET:
            raise DecisionRefused(spot, action, f"the only decision is {SET!r}: name the three qualifying cards")
        chosen = decision.cards
        held = state.cards[spot]
        strangers = [c for c in chosen if c not in held]
        if strangers:
            raise DecisionRefused(spot, action, f"{' '.join(map(str, strangers))} not in this hand ({' '.join(map(str, held))})")
        # the hand lies face down: a screen shows its cards as "??", so the reason says what is wrong without them
        if len(chosen) != 3 or len(set(chosen)) != 3:
            named = f"{len(set(chosen))} different" if len(set(chosen)) != len(chosen) else str(len(chosen))
            raise DecisionRefused(spot, action, f"the qualifier is three different cards, not {named}")
        total = sum(points(c) for c in chosen)
        if total % 10:
            raise DecisionRefused(spot, action, f"the three cards named count {total}, not a multiple of 10 (rule 4a): "
                                                "name three that count 10, 20 or 30")
        state.sets[spot] = tuple(chosen)
        return ()

    def strategy(self, state: TwoCardsHighHand, pending: PendingDecision, wagers: Wagers) -> Decision:
        best = best_split(state.cards[pending.spot])
        assert best is not None, "a pending decision always has a qualifying set"
        return Decision(pending.spot, SET, cards=best[1])

    def dealer_value(self, state: TwoCardsHighHand) -> int | None:
        """The dealer's best two-card hand, or ``None`` when no three of his cards qualify."""
        best = best_split(state.dealer)
        return None if best is None else best[0]

    def reveal(self, state: TwoCardsHighHand) -> dict[str, Any]:
        best = best_split(state.dealer)
        return {"dealer": [c.code for c in state.dealer], "dealer_qualifies": best is not None,
                "dealer_set": [c.code for c in best[1]] if best else [],
                "dealer_hand": describe_two_card(best[0]) if best else None}

    def main_payout(self, player: int | None, dealer: int | None) -> tuple[Payout, str]:
        """Rule 6 for a player's two-card value (``None``: not qualified) against the dealer's."""
        if player is None:
            return LOSE, "player does not qualify"
        pair = player > PAIR_BASE
        if dealer is None:
            return (self.pair_without_win if pair else EVEN), "dealer does not qualify (rule 6d)"
        if player > dealer:
            return (PAIR_WINS if pair else EVEN), f"{describe_two_card(player)} beats {describe_two_card(dealer)} (rule 6{'a' if pair else 'b'})"
        if player == dealer:
            return (self.pair_without_win if pair else EVEN), f"tie at {describe_two_card(player)} wins (rule 6c)"
        return LOSE, f"{describe_two_card(dealer)} beats {describe_two_card(player)}"

    def side_payout(self, cards: Sequence[Card]) -> tuple[Payout, str]:
        value = side_wager_value(cards)
        row = side_row(value)
        return (LOSE if row is None else self.side_table[row]), describe(value)

    def settle(self, state: TwoCardsHighHand, wagers: Wagers, rounding: Rounding) -> list[Settlement]:
        dealer = self.dealer_value(state)
        records = []
        for spot in sorted({s for s, _ in wagers}, reverse=True):
            two = state.two_cards(spot)
            main = self.main_payout(None if two is None else two_card_value(two), dealer)
            for name, (payout, reason) in ((MAIN, main), (SIDE, self.side_payout(state.cards[spot]))):
                stake = wagers.get((spot, name))
                if stake:
                    records.append(settle(spot, name, stake, payout, rounding, reason=reason))
        return records

    def describe(self, state: TwoCardsHighHand) -> str:
        dealer = self.dealer_value(state)
        return f"dealer {' '.join(map(str, state.dealer))}: {'no qualifier' if dealer is None else describe_two_card(dealer)}"


GAME = TwoCardsHigh
