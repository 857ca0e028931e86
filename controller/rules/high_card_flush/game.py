"""High Card Flush (seed 002, 58 Pa. Code § 678a.6, the game as rules-notes describes it).

Seven cards to each spot with an Ante and seven to the dealer, from one deck
through the shuffler. A hand is worth its longest flush; equal lengths are
decided by the highest card one hand holds and the other does not
(§ 678a.6(b), (c)). Each player folds (losing the Ante) or raises: up to 1x
the Ante with a flush of four cards or fewer, 2x with five, 3x with six or
seven. The dealer qualifies with a three-card flush nine high or better: if not,
the Ante pays 1 to 1 and the Raise pushes; if so, the higher hand wins Ante and
Raise at 1 to 1 and equal hands push.

Optional wagers judged on the player's seven cards whether he wins, loses or
folds: the Flush Bonus (by flush length), the Straight Flush Bonus and the
Progressive (by straight-flush length, § 678a.6(d)). The Progressive's meter
(:class:`controller.rules.high_card_flush.progressive.ProgressiveMeter`) belongs to the table's
game object; every Progressive wager feeds it at ``[game] progressive_rate``.

Options: ``flush_bonus``, ``straight_flush_bonus`` (pay-table names), and
``progressive`` (a pay-table name, or a table of rows ``{"7" = "100%", "5" = "500 to 1"}``),
``progressive_reset`` (cents), ``progressive_rate`` (e.g. ``"0.15"``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from controller.cards import Card, Rank, standard_deck
from controller.errors import DecisionRefused, WagerRefused
from controller.money import Cents, Rounding, format_cents
from controller.odds import LOSE, PUSH, Payout, parse_payout, win
from controller.rules.base import (
    Decision,
    Face,
    Game,
    JackpotClaim,
    OptionError,
    PendingDecision,
    WagerChange,
    Wagers,
    dealt_card,
)
from controller.rules.evaluators.high_card_flush import flush_cards, flush_length, flush_value, straight_flush_length
from controller.rules.high_card_flush.progressive import LinkedMeter, ProgressiveMeter
from controller.rules.high_card_flush.strategy import most_allowed
from controller.rules.high_card_flush.tables import (
    FLUSH_BONUS,
    PROGRESSIVE_ROWS,
    STRAIGHT_FLUSH_BONUS,
    LengthTable,
    ProgressiveRow,
)
from controller.settlement import Settlement, settle
from controller.tiles import Piece

ANTE, RAISE, FLUSH, STRAIGHT_FLUSH, PROGRESSIVE = "ante", "raise", "flush_bonus", "straight_flush_bonus", "progressive"
FOLD = "fold"
EVEN = parse_payout("1 to 1")
QUALIFYING_LENGTH, QUALIFYING_TOP = 3, Rank.NINE


def qualifies(value: int) -> bool:
    """The dealer qualifies with a three-card flush, nine high or better (rules-notes)."""
    length = flush_length(value)
    top = (value >> 24) & 0xF
    return length > QUALIFYING_LENGTH or (length == QUALIFYING_LENGTH and top >= QUALIFYING_TOP)


@dataclass(slots=True)
class HighCardFlushHand:
    spots: tuple[int, ...]
    dealt: tuple[int, ...]
    cards: dict[int, list[Card]] = field(default_factory=dict)
    dealer: list[Card] = field(default_factory=list)
    raises: dict[int, Cents] = field(default_factory=dict)
    """Each dealt spot's decision: the Raise in cents, 0 for a fold."""
    antes: dict[int, Cents] = field(default_factory=dict)
    """Each dealt spot's Ante, which the Raise is a multiple of."""
    optional: frozenset[int] = frozenset()
    """Spots with an optional wager, judged on the player's seven cards even when he folds."""


class HighCardFlush(Game[HighCardFlushHand]):
    id = "high-card-flush"
    title = "High Card Flush"
    wagers = (ANTE, FLUSH, STRAIGHT_FLUSH, PROGRESSIVE)
    max_spots = 6
    """Six players and the dealer take 49 of the 52 cards; a seventh hand would not fit in one deck."""
    device = "shuffler"

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.flush_bonus = self._table("flush_bonus", FLUSH_BONUS, "300-100-10-1")
        self.straight_flush_bonus = self._table("straight_flush_bonus", STRAIGHT_FLUSH_BONUS, "500-200-100-50-9")
        self.progressive_rows = self._progressive_rows(self.options.get("progressive", "standard"))
        reset = self.options.get("progressive_reset", 1_000_000)
        if isinstance(reset, bool) or not isinstance(reset, int) or reset < 0:
            raise OptionError("progressive_reset", f"must be whole cents >= 0, not {reset!r}")
        try:
            rate = Fraction(str(self.options.get("progressive_rate", "0.15")))
            self.progressive: ProgressiveMeter | LinkedMeter = ProgressiveMeter(reset, rate)
        except ValueError as exc:
            raise OptionError("progressive_rate", f'must be a fraction in [0, 1) such as "0.15": {exc}') from None
        linked = self.options.get("linked_jackpot")
        if linked is not None:
            if not isinstance(linked, str) or not linked:
                raise OptionError("linked_jackpot", f"must be the name of a jackpot on the floor, not {linked!r}")
            self.progressive = LinkedMeter(linked)

    def _table(self, key: str, tables: Mapping[str, LengthTable], default: str) -> LengthTable:
        name = self.options.get(key, default)
        if name not in tables:
            raise OptionError(key, f"unknown pay table {name!r}: expected one of {', '.join(tables)}")
        return tables[name]

    @staticmethod
    def _progressive_rows(spec: object) -> dict[int, ProgressiveRow]:
        if isinstance(spec, str):
            if spec not in PROGRESSIVE_ROWS:
                raise OptionError("progressive", f"unknown pay table {spec!r}: expected one of {', '.join(PROGRESSIVE_ROWS)} or a table of rows")
            spec = PROGRESSIVE_ROWS[spec]
        if not isinstance(spec, Mapping) or not spec:
            raise OptionError("progressive", f'must be a pay-table name or rows like {{"7" = "100%"}}, not {spec!r}')
        rows = {}
        for length, text in spec.items():
            if str(length) not in {"3", "4", "5", "6", "7"}:
                raise OptionError("progressive", f"row {length!r}: a straight-flush length is 3 to 7")
            try:
                rows[int(length)] = ProgressiveRow.parse(str(text))
            except ValueError as exc:
                raise OptionError("progressive", f"row {length}: {exc}") from None
        return rows

    def table_roles(self) -> dict[str, Any]:
        """The progressive meter is table state: logged at each round's start, put back after a restart."""
        return {"progressive": self.progressive.snapshot()}

    def restore_roles(self, roles: Mapping[str, Any]) -> None:
        saved = roles.get("progressive")
        if saved and "linked" not in saved and isinstance(self.progressive, ProgressiveMeter):
            self.progressive = ProgressiveMeter.restore(dict(saved))

    def jackpot_claims(self, state: HighCardFlushHand, wagers: Wagers) -> tuple[JackpotClaim, ...]:
        """Each Progressive wager whose straight flush is paid a share of a linked meter claims it from the floor."""
        if not isinstance(self.progressive, LinkedMeter):
            return ()
        claims = []
        for spot in sorted({s for s, name in wagers if name == PROGRESSIVE}):
            cards = state.cards[spot]
            length = straight_flush_length(cards)
            row = self.progressive_rows.get(length)
            if row is not None and row.share is not None:
                claims.append(JackpotClaim(self.progressive.jackpot, spot, f"spot {spot}", tuple(c.code for c in cards),
                                           length, row.share))
        return tuple(claims)

    def award_jackpot(self, spot: int, amount: Fraction) -> None:
        """The amount the floor awarded ``spot``'s claim, paid when the round settles."""
        if isinstance(self.progressive, LinkedMeter):
            self.progressive.awards[spot] = amount

    def deck(self) -> tuple[Card, ...]:
        return standard_deck()

    def check_spot(self, spot: int, wagers: Mapping[str, Cents]) -> None:
        if not wagers.get(ANTE):
            optional = next(name for name in wagers if wagers[name])
            raise WagerRefused(spot, optional, "the optional wagers are taken only with an Ante")

    # -- dealing ------------------------------------------------------

    def new_hand(self, spots: Sequence[int], wagers: Wagers) -> HighCardFlushHand:
        dealt = tuple(s for s in sorted(spots) if wagers.get((s, ANTE)))
        optional = frozenset(s for (s, name), amount in wagers.items() if name != ANTE and amount)
        return HighCardFlushHand(tuple(sorted(spots)), dealt, {s: [] for s in dealt},
                                 antes={s: wagers[(s, ANTE)] for s in dealt}, optional=optional)

    def next_target(self, state: HighCardFlushHand) -> str | None:
        for spot in state.dealt:
            if len(state.cards[spot]) < 7:
                return f"spot {spot}"
        return "dealer" if len(state.dealer) < 7 else None

    def face(self, state: HighCardFlushHand, target: str, card: Any, position: int) -> Face:
        """Seven cards face down to each spot and the dealer; the dealer's are turned at the reveal with the
        hands that raised. A folded hand is never shown, unless an optional wager is judged on it (win, lose or
        fold): then it is turned at settlement."""
        spot = int(target.split()[1]) if target != "dealer" else None
        if spot is not None and state.raises.get(spot) == 0 and spot not in state.optional:
            return Face.DOWN
        return Face.UNTIL_REVEAL

    def hand_label(self, state: HighCardFlushHand, target: str, cards: Sequence[Any]) -> str | None:
        if len(cards) != 7:
            return None
        value = flush_value(list(cards))
        return f"{flush_length(value)}-card flush {' '.join(map(str, flush_cards(list(cards))))}"

    def place(self, state: HighCardFlushHand, target: str, card: Piece) -> None:
        card = dealt_card(card)
        if target != self.next_target(state):
            raise ValueError(f"High Card Flush expects a card for {self.next_target(state)}, not {target!r}")
        if card in state.dealer or any(card in cards for cards in state.cards.values()):
            raise ValueError(f"{card} was already dealt this round")
        (state.dealer if target == "dealer" else state.cards[int(target.split()[1])]).append(card)

    # -- decisions ----------------------------------------------------

    def pending_decision(self, state: HighCardFlushHand) -> PendingDecision | None:
        if self.next_target(state) is not None:
            return None
        for spot in state.dealt:
            if spot not in state.raises:
                ante = state.antes[spot]
                multiples = range(1, self.max_raise(state, spot, ante) // ante + 1)
                return PendingDecision(spot, (FOLD, RAISE), amounts=tuple((RAISE, m * ante) for m in multiples))
        return None

    def moment_words(self, state: HighCardFlushHand | None, moment: str, pending: PendingDecision | None) -> str | None:
        return "Raise or fold" if moment == "decisions" else None

    def max_raise(self, state: HighCardFlushHand, spot: int, ante: Cents) -> Cents:
        return most_allowed(flush_length(flush_value(state.cards[spot]))) * ante

    def decide(self, state: HighCardFlushHand, decision: Decision, wagers: Wagers) -> tuple[WagerChange, ...]:
        spot, action = decision.spot, decision.action
        pending = self.pending_decision(state)
        if pending is None or pending.spot != spot:
            raise DecisionRefused(spot, action, f"it is not this spot's turn (waiting for {pending.spot if pending else 'nobody'})")
        if action == FOLD:
            if decision.amount:
                raise DecisionRefused(spot, action, "a fold places no Raise")
            state.raises[spot] = 0
            return ()
        if action != RAISE:
            raise DecisionRefused(spot, action, f"unknown decision: expected {FOLD} or {RAISE}")
        ante = wagers[(spot, ANTE)]
        amount = ante if decision.amount is None else decision.amount
        most = self.max_raise(state, spot, ante)
        if not ante <= amount <= most:
            length = flush_length(flush_value(state.cards[spot]))
            raise DecisionRefused(spot, action, f"a {length}-card flush may raise {format_cents(ante)} to {format_cents(most)} "
                                                f"(1x to {most // ante}x the Ante), not {format_cents(amount)}")
        state.raises[spot] = amount
        return (WagerChange(spot, RAISE, amount),)

    def strategy(self, state: HighCardFlushHand, pending: PendingDecision, wagers: Wagers) -> Decision:
        from controller.rules.high_card_flush.strategy import best_raise

        ante = wagers[(pending.spot, ANTE)]
        multiple = best_raise(state.cards[pending.spot])
        return Decision(pending.spot, RAISE, multiple * ante) if multiple else Decision(pending.spot, FOLD)

    # -- reveal and settlement -----------------------------------------

    def reveal(self, state: HighCardFlushHand) -> dict[str, Any]:
        value = flush_value(state.dealer)
        return {"dealer": [c.code for c in state.dealer], "dealer_flush": [c.code for c in flush_cards(state.dealer)],
                "dealer_qualifies": qualifies(value), "progressive_meter": self.progressive.cents}

    def main_payouts(self, player: int, dealer: int, raised: bool) -> tuple[Payout, Payout, str]:
        if not raised:
            return LOSE, LOSE, "folded"
        if not qualifies(dealer):
            return EVEN, PUSH, "dealer does not qualify"
        if player == dealer:
            return PUSH, PUSH, "tie"
        return (EVEN, EVEN, "player's flush is higher") if player > dealer else (LOSE, LOSE, "dealer's flush is higher")

    def progressive_payout(self, length: int, stake: Cents, spot: int | None = None) -> tuple[Payout, str]:
        row = self.progressive_rows.get(length)
        if row is None:
            return LOSE, f"{length}-card straight flush"
        if row.odds is not None:
            return row.odds, f"{length}-card straight flush"
        assert row.share is not None
        won = self.progressive.pay(row.share, spot)
        return win(won / stake, f"{float(row.share):.0%} of the meter"), f"{length}-card straight flush: {format_cents(round(won))} from the meter"

    def settle(self, state: HighCardFlushHand, wagers: Wagers, rounding: Rounding) -> list[Settlement]:
        dealer = flush_value(state.dealer)
        records = []
        for spot in sorted({s for s, _ in wagers}, reverse=True):
            cards = state.cards[spot]
            value = flush_value(cards)
            length, sf_length = flush_length(value), straight_flush_length(cards)
            ante, raise_, reason = self.main_payouts(value, dealer, bool(state.raises.get(spot)))
            payouts = {ANTE: (ante, reason), RAISE: (raise_, reason),
                       FLUSH: (self.flush_bonus.payout(length), f"{length}-card flush"),
                       STRAIGHT_FLUSH: (self.straight_flush_bonus.payout(sf_length), f"{sf_length}-card straight flush")}
            for name in (ANTE, RAISE, FLUSH, STRAIGHT_FLUSH, PROGRESSIVE):
                stake = wagers.get((spot, name))
                if not stake:
                    continue
                if name == PROGRESSIVE:
                    self.progressive.contribute(stake)
                    payout, why = self.progressive_payout(sf_length, stake, spot)
                else:
                    payout, why = payouts[name]
                records.append(settle(spot, name, stake, payout, rounding, reason=why))
        return records

    def describe(self, state: HighCardFlushHand) -> str:
        dealer = flush_value(state.dealer)
        folds = sum(1 for r in state.raises.values() if not r)
        return (f"dealer {flush_length(dealer)}-card flush {' '.join(map(str, flush_cards(state.dealer)))}"
                f"{'' if qualifies(dealer) else ' (no)'}; {folds} folded")


GAME = HighCardFlush
