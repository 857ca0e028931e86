"""Top 5 Poker (seed 001): five cards each, a Community Card, fold or play against the dealer.

One 52-card deck from the shuffler (rule 2). Each spot may wager Ace or Face
Community Card, 10's or Better and Ante (rule 3); spots with a 10's or Better or
an Ante wager get five cards, then the dealer gets five and the Community Card
is turned up (rules 4, 5). Each player then folds, plays his five cards, or
plays four of them with the Community Card after discarding exactly one
(rule 6); playing adds a Bet equal to the Ante. The dealer's hand is his best
five of six and qualifies with a pair (rules 9, 10). The dealer first collects
the folded hands' wagers and the Ace or Face wagers when the Community Card is
not an ace or a face card (rule 7), then settles every spot from his right to
his left (rule 11), i.e. from the highest spot number down.

Options (``[game]`` in the table config, logged with every round):
``ace_or_face`` and ``tens_or_better`` pick the pay-table columns (named by the
seed's printed house advantage); ``tie`` is what a tie with a qualified dealer
does to Ante and Bet (rules-notes default ``push``; ``dealer`` takes them);
``required`` lists the initial wagers the house requires (rule 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.cards import Card, standard_deck
from controller.errors import DecisionRefused, WagerRefused
from controller.money import Cents, Rounding, format_cents
from controller.odds import LOSE, PUSH, Payout, parse_payout
from controller.rules.base import (
    Decision,
    Face,
    Game,
    HandSetting,
    OptionError,
    PendingDecision,
    WagerChange,
    Wagers,
    dealt_card,
)
from controller.rules.evaluators import Category, best_five, category, describe, evaluate5
from controller.rules.top_5_poker.tables import ACE_OR_FACE, TENS_OR_BETTER, winning_bet
from controller.settlement import Settlement, settle
from controller.tiles import Piece

AOF, TENS, ANTE, BET = "ace_or_face", "tens_or_better", "ante", "bet"
FOLD, PLAY, COMMUNITY = "fold", "play", "community"
ACTIONS = (FOLD, PLAY, COMMUNITY)
ANTE_WINS = parse_payout("1 to 1")
TIE_RULES = ("push", "dealer")


@dataclass(frozen=True, slots=True)
class Choice:
    """A spot's decision (rule 6): fold, or the five cards it plays (and the discard, if any)."""

    action: str
    hand: tuple[Card, ...] = ()
    discard: Card | None = None


@dataclass(slots=True)
class Top5Hand:
    """One round: the dealt spots, their cards and choices, the dealer's cards and the Community Card."""

    spots: tuple[int, ...]
    dealt: tuple[int, ...]
    cards: dict[int, list[Card]] = field(default_factory=dict)
    dealer: list[Card] = field(default_factory=list)
    community: Card | None = None
    choices: dict[int, Choice] = field(default_factory=dict)

    def dealer_best(self) -> tuple[int, tuple[Card, ...]]:
        """The dealer's best five of his five and the Community Card (rule 9)."""
        if self.community is None or len(self.dealer) != 5:
            raise ValueError("the dealer's hand is not dealt yet")
        return best_five([*self.dealer, self.community])


def _rounds_right_to_left(spots: Iterable[int]) -> list[int]:
    """Rule 11: the dealer settles from his right to his left, the highest spot number first."""
    return sorted(spots, reverse=True)


class Top5Poker(Game[Top5Hand]):
    id = "top-5-poker"
    title = "Top 5 Poker"
    wagers = (AOF, TENS, ANTE)
    max_spots = 7  # rule 1: 6 or 7 spots
    device = "shuffler"

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.ace_or_face = ACE_OR_FACE[self._choice("ace_or_face", ACE_OR_FACE, "1.54%")]
        self.tens_or_better = TENS_OR_BETTER[self._choice("tens_or_better", TENS_OR_BETTER, "2.17%")]
        self.tie = self._choice("tie", TIE_RULES, "push")
        required = self.options.get("required", [])
        if not isinstance(required, list) or any(w not in self.wagers for w in required):
            raise OptionError("required", f"must be a list of initial wagers ({', '.join(self.wagers)}), not {required!r}")
        self.required: tuple[str, ...] = tuple(required)

    def _choice(self, key: str, choices: Sequence[str] | Mapping[str, Any], default: str) -> str:
        value = self.options.get(key, default)
        if value not in choices:
            raise OptionError(key, f"unknown choice {value!r}: expected one of {', '.join(map(repr, choices))}")
        return str(value)

    def deck(self) -> tuple[Card, ...]:
        return standard_deck()  # rule 2

    def check_spot(self, spot: int, wagers: Mapping[str, Cents]) -> None:
        for name in self.required:  # rule 3: the house determines which initial wagers are required
            if not wagers.get(name):
                raise WagerRefused(spot, name, f"this table requires a {name} wager on every spot that plays")

    # -- dealing (rules 4, 5) --------------------------------------------

    def new_hand(self, spots: Sequence[int], wagers: Wagers) -> Top5Hand:
        dealt = tuple(s for s in sorted(spots) if wagers.get((s, TENS)) or wagers.get((s, ANTE)))
        return Top5Hand(tuple(sorted(spots)), dealt, {s: [] for s in dealt})

    def next_target(self, state: Top5Hand) -> str | None:
        for spot in state.dealt:
            if len(state.cards[spot]) < 5:
                return f"spot {spot}"
        if len(state.dealer) < 5:
            return "dealer"
        if state.community is None:
            return "community"
        return None

    def face(self, state: Top5Hand, target: str, card: Any, position: int) -> Face:
        """Rules 4-5, 9, 11: the Community Card face up; the players' and the dealer's five face down, the
        dealer's turned at the reveal and each played hand at settlement; a fold or a discard stays down."""
        if target == "community":
            return Face.UP
        if target == "dealer":
            return Face.UNTIL_REVEAL
        choice = state.choices.get(int(target.split()[1]))
        if choice is not None and (choice.action == FOLD or card is choice.discard):
            return Face.DOWN
        return Face.UNTIL_REVEAL

    def hand_label(self, state: Top5Hand, target: str, cards: Sequence[Any]) -> str | None:
        """Rule 9-11: the best five of the dealer's five and the Community Card; a player's five as played (four of
        them and the Community Card when he used it)."""
        if target == "dealer":
            return describe(state.dealer_best()[0]) if len(cards) == 5 and state.community is not None else None
        choice = state.choices.get(int(target.split()[1])) if target.startswith("spot ") else None
        if choice is None or choice.action == FOLD or len(cards) < 4:
            return None
        # the spot's badge says the Community Card was used ("community"): the label, two lines on a 1024x600 screen,
        # is the hand alone ("with the Community Card: two pair, kings and eights, ..." was cut before the hand)
        return describe(best_five(choice.hand)[0])

    def place(self, state: Top5Hand, target: str, card: Piece) -> None:
        card = dealt_card(card)
        if target != self.next_target(state):
            raise ValueError(f"Top 5 Poker expects a card for {self.next_target(state)}, not {target!r}")
        held = [c for cards in state.cards.values() for c in cards] + state.dealer
        if card in held or card is state.community:
            raise ValueError(f"{card} was already dealt this round")
        if target == "dealer":
            state.dealer.append(card)
        elif target == "community":
            state.community = card
        else:
            state.cards[int(target.split()[1])].append(card)

    # -- decisions (rule 6) ----------------------------------------------

    def moment_words(self, state: Top5Hand | None, moment: str, pending: PendingDecision | None) -> str | None:
        return "Play, fold or Community Card" if moment == "decisions" else None

    def pending_decision(self, state: Top5Hand) -> PendingDecision | None:
        if self.next_target(state) is not None:
            return None
        for spot in state.dealt:
            if spot not in state.choices:
                # using the Community Card names the one card given up: the console's hand-setting screen asks for it
                discard = HandSetting(tuple(state.cards[spot]), 1, "discard", "hand with the Community Card", COMMUNITY)
                return PendingDecision(spot, ACTIONS, setting=discard)
        return None

    def choice(self, state: Top5Hand, decision: Decision) -> Choice:
        """Validate a decision into a ``Choice``; raise ``DecisionRefused`` naming what is wrong."""
        pending = self.pending_decision(state)
        spot, action = decision.spot, decision.action
        if pending is None or pending.spot != spot:
            waiting = f"spot {pending.spot}" if pending else "nobody"
            raise DecisionRefused(spot, action, f"it is not this spot's turn to decide (waiting for {waiting})")
        if action not in ACTIONS:
            raise DecisionRefused(spot, action, f"unknown decision: expected one of {', '.join(ACTIONS)}")
        own = tuple(state.cards[spot])
        if action in (FOLD, PLAY):
            if decision.cards:
                raise DecisionRefused(spot, action, "takes no cards: only 'community' names the one discard")
            return Choice(action, own if action == PLAY else ())
        if len(decision.cards) != 1:
            raise DecisionRefused(spot, action, f"using the Community Card needs exactly one discard, not {len(decision.cards)}")
        discard = decision.cards[0]
        if discard not in own:
            raise DecisionRefused(spot, action, f"{discard} is not one of this spot's cards ({' '.join(map(str, own))})")
        assert state.community is not None
        return Choice(action, (*(c for c in own if c is not discard), state.community), discard)

    def decide(self, state: Top5Hand, decision: Decision, wagers: Wagers) -> tuple[WagerChange, ...]:
        choice = self.choice(state, decision)
        ante = wagers.get((decision.spot, ANTE), 0)
        if decision.amount is not None and choice.action != FOLD and decision.amount != ante:
            raise DecisionRefused(decision.spot, decision.action,
                                  f"the Bet must equal the Ante exactly ({format_cents(ante)}), not {format_cents(decision.amount)}")
        if decision.amount and choice.action == FOLD:
            raise DecisionRefused(decision.spot, FOLD, "a fold places no Bet")
        state.choices[decision.spot] = choice
        if choice.action != FOLD and ante:
            return (WagerChange(decision.spot, BET, ante),)
        return ()

    def strategy(self, state: Top5Hand, pending: PendingDecision, wagers: Wagers) -> Decision:
        from controller.rules.top_5_poker.strategy import best_decision

        assert state.community is not None
        return best_decision(pending.spot, state.cards[pending.spot], state.community,
                             has_ante=bool(wagers.get((pending.spot, ANTE))), tie_loses=self.tie == "dealer")

    # -- reveal and settlement (rules 7, 9, 10, 11) -----------------------

    def reveal(self, state: Top5Hand) -> dict[str, Any]:
        value, five = state.dealer_best()
        discard = [c.code for c in state.dealer if c not in five]
        return {"dealer": [c.code for c in state.dealer], "community": state.community.code if state.community else None,
                "dealer_hand": [c.code for c in five], "dealer_discard": discard[:1],
                "dealer_value": describe(value), "dealer_qualifies": category(value) >= Category.ONE_PAIR}

    def ante_bet(self, player: int, dealer: int) -> tuple[Payout, Payout, str]:
        """Ante and Bet payouts for a player's played hand against the dealer's (the Ante / Bet Payout Table)."""
        if category(dealer) < Category.ONE_PAIR:
            return ANTE_WINS, PUSH, "dealer does not qualify"
        if player > dealer:
            return ANTE_WINS, winning_bet(player), f"{describe(player)} beats {describe(dealer)}"
        if player < dealer:
            return LOSE, LOSE, f"{describe(dealer)} beats {describe(player)}"
        if self.tie == "dealer":
            return LOSE, LOSE, f"tie at {describe(player)}: the dealer takes ties (option tie = 'dealer')"
        return PUSH, PUSH, f"tie at {describe(player)}: push (rules-notes)"

    def payouts(self, state: Top5Hand, spot: int) -> dict[str, tuple[Payout, str]]:
        """Every wager's payout and reason for one spot."""
        assert state.community is not None
        dealer_value, _ = state.dealer_best()
        aof = self.ace_or_face.payout(state.community)
        result: dict[str, tuple[Payout, str]] = {AOF: (aof, f"Community Card {state.community}")}
        choice = state.choices.get(spot)
        if choice is None or choice.action == FOLD:
            result[TENS] = result[ANTE] = (LOSE, "folded")
            return result
        value = evaluate5(choice.hand)
        result[TENS] = (self.tens_or_better.payout(value), describe(value))
        ante, bet, reason = self.ante_bet(value, dealer_value)
        result[ANTE], result[BET] = (ante, reason), (bet, reason)
        return result

    def settle(self, state: Top5Hand, wagers: Wagers, rounding: Rounding) -> list[Settlement]:
        by_spot = {spot: self.payouts(state, spot) for spot in {s for s, _ in wagers}}
        first: list[Settlement] = []
        records: list[Settlement] = []
        for spot in _rounds_right_to_left(by_spot):
            for name in (AOF, TENS, ANTE, BET):
                stake = wagers.get((spot, name))
                if not stake:
                    continue
                payout, reason = by_spot[spot][name]
                record = settle(spot, name, stake, payout, rounding, reason=reason)
                collected_early = payout is LOSE and (name == AOF or reason == "folded")
                (first if collected_early else records).append(record)  # rule 7 before rule 11
        return first + records

    def describe(self, state: Top5Hand) -> str:
        value, _ = state.dealer_best()
        folds = sum(1 for c in state.choices.values() if c.action == FOLD)
        return f"community {state.community} dealer {describe(value)}; {len(state.choices)} hands, {folds} folded"


GAME = Top5Poker
