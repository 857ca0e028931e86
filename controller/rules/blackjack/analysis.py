"""The base game's exact expected value: a composition-dependent combinatorial analysis.

One seat plays the first round of a full shoe against the player-dealer, by
the game's own rules (its totals, chart, ``legal`` actions, ``finished`` hands
and ``compare``) and the decisions the game enforces (``BlackjackGame.strategy``:
the infinite-shoe advisor's choice among the legal actions, insurance
declined). Every card the round can draw is followed, with its chance given
every card already out: nothing is sampled.

How the recursion stays finite and exact
----------------------------------------
Cards are grouped into playing classes (ace, two to nine, ten-valued, joker;
in Pure 21.5 the Bonus cards are the ten-valued class): the rules and the
strategy never tell two cards of a class apart, so a hand is a multiset of
classes. The player-dealer's possible draws from each up card are
enumerated once and grouped (``dealer_kernel``).

The order in which cards come out of a well-shuffled shoe does not change
the law of who gets what, as long as whose turn it is depends only on cards
already seen (the predictable-sampling theorem for exchangeable sequences).
Three consequences are used:

* Pure 21.5's down card is dealt before the players act but read only at the
  reveal: it is drawn, equivalently, as the player-dealer's first card after
  the players. Under an ace or a Bonus card the players act only when it does
  not make a Pure 21.5 Blackjack, so those down cards are left out of the
  player-dealer's draws, and the Pure 21.5 Blackjacks are settled apart
  (the player's Pure 21.5 pushes, every other hand loses its wager).
* Split hands: each hand's result, with the player-dealer's, does not depend
  on the cards the other hands draw after their second card; so each hand is
  played alone, followed by the player-dealer. Resplits depend on how many
  of the pair's rank the earlier hands' second cards were: those cards are
  moved (again by exchangeability) after the player-dealer's, and each hand's
  draws are weighted by the chance that they fall as the resplit pattern
  says (``_resplit_patterns``). The result is the exact expected value of the
  enforced decisions, resplits included.
* Everything is for the first round off the top of a full shoe; no cut card.

Arithmetic (``arithmetic``)
---------------------------
``mode="fast"`` computes in ``float64`` (rounding error far below 1e-12):
the mode for sweeps over rule options. ``mode="exact"`` computes the same
sums again modulo a few primes below 2**50 and rebuilds the exact fraction by
the Chinese remainder theorem: every chance along a round is a ratio of
falling factorials of the shoe's size, so ``2 * falling(size, most cards a
round draws)`` is a common denominator (the 2 for half a wager). The two
values must agree to 1e-9 or the analysis fails.

``tests/blackjack/test_analysis.py`` checks the exact fraction against every
round a small shoe can deal, played through the game's own methods.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from controller.cards import Card, Rank
from controller.rules.blackjack.arithmetic import PRIME_BITS, Array, Floats, Residues
from controller.rules.blackjack.state import Hand, Seat
from controller.rules.blackjack.totals import Total, points

if TYPE_CHECKING:
    from controller.rules.blackjack.play import BlackjackGame

Advance = Callable[[int], None]
Arithmetic = Floats | Residues
Counts = tuple[int, ...]
MODES = ("fast", "exact")


# -- the shoe, the player-dealer's draws, weights ------------------------------------------------------

@dataclass(frozen=True)
class Shoe:
    """The shoe by playing class: a representative card and a count per class."""

    cards: tuple[Card, ...]
    counts: Counts

    @property
    def size(self) -> int:
        return sum(self.counts)

    def describe(self) -> str:
        return ", ".join(f"{c.code} x{n}" for c, n in zip(self.cards, self.counts))


def playing_classes(deck: Sequence[Card]) -> Shoe:
    """One class per count (ace, two to nine, ten-valued) and the joker; Bonus cards are the ten-valued class."""
    counts: Counter[tuple[int, bool]] = Counter((points(c), c.is_joker) for c in deck)
    first: dict[tuple[int, bool], Card] = {}
    for card in deck:
        first.setdefault((points(card), card.is_joker), card)
    keys = sorted(counts)
    return Shoe(tuple(first[k] for k in keys), tuple(counts[k] for k in keys))


@dataclass
class DealerDraws:
    """The player-dealer's draws from one up card, grouped (see ``dealer_kernel``)."""

    start: np.ndarray
    cls: np.ndarray
    count: np.ndarray
    length: np.ndarray
    ways_int: np.ndarray
    ways_float: np.ndarray
    outcome: np.ndarray
    outcomes: int
    finals: list[tuple[Total, tuple[Card, ...]]]
    """A final hand for each outcome, to settle player totals against."""
    excluded: list[int]
    """Classes whose card under this up card makes the player-dealer's Pure 21.5 (settled apart)."""
    longest: int
    ident: int
    """The same for equal draws from equal shoes, whatever the game's other options (``_DEALER``)."""


@dataclass(frozen=True)
class Weights:
    """Rows of weights on the player-dealer's draws (``dealer_kernel``): terms ``(m, k)``, ``coef[row][term]``."""

    m: np.ndarray
    k: np.ndarray
    coef: tuple[tuple[Fraction, ...], ...]
    cls: int
    key: tuple[Any, ...]

    @property
    def rows(self) -> int:
        return len(self.coef)

    @property
    def most(self) -> int:
        return int((self.m + self.k).max())



PLAIN = Weights(np.zeros(1, np.int64), np.zeros(1, np.int64), ((Fraction(1),),), 0, ())


# -- what the rules say, whatever the arithmetic ------------------------------------------------------------

class Rules:
    """The game's rules and enforced decisions over playing classes, computed once and shared by both passes."""

    def __init__(self, game: BlackjackGame) -> None:
        self.game = game
        self.shoe = playing_classes(game.deck())
        self.classes = range(len(self.shoe.cards))
        self._draws: dict[int, DealerDraws] = {}
        self._decisions: dict[tuple[Any, ...], str | None] = {}
        self._totals: dict[tuple[int, ...], Total] = {}
        self._wins: dict[tuple[int, Total], list[Fraction]] = {}
        self._pairs: dict[tuple[int, ...], bool] = {}
        self._resplits: dict[tuple[int, int], tuple[list[int], Weights]] = {}

    def total(self, hand: tuple[int, ...]) -> Total:
        found = self._totals.get(hand)
        if found is None:
            found = self._totals[hand] = self.game.total([self.shoe.cards[c] for c in hand], initial=False)
        return found

    def is_ace(self, cls: int) -> bool:
        return self.shoe.cards[cls].rank is Rank.ACE

    def draws(self, up: int) -> DealerDraws:
        if up not in self._draws:
            self._draws[up] = self._dealer_draws(up)
        return self._draws[up]

    def _dealer_draws(self, up: int) -> DealerDraws:
        """The player-dealer's final hands from ``up``, each with the number of orders it can be drawn in.

        Whether the player-dealer draws depends only on the cards held, not their order, so the draws
        are counted over multisets, level by level (``ways``: the orders that reach a hand).
        """
        game, cards = self.game, self.shoe.cards
        up_card = cards[up]
        excluded = [c for c in self.classes
                    if game.checks_down_card(up_card) and game.dealer_blackjack((up_card, cards[c]))]
        finals: dict[tuple[int, ...], int] = {}
        level: dict[tuple[int, ...], int] = {(): 1}
        while level:
            following: dict[tuple[int, ...], int] = {}
            for drawn, ways in level.items():
                if not game.dealer_draws_on((up_card, *(cards[c] for c in drawn))):
                    finals[drawn] = ways
                    continue
                for c in self.classes:
                    if drawn or c not in excluded:
                        after = tuple(sorted((*drawn, c)))
                        following[after] = following.get(after, 0) + ways
            level = following
        index: dict[tuple[Total, object], int] = {}
        rows: list[tuple[Total, tuple[Card, ...]]] = []
        start, cls, count, length, ways_list, outcome = [0], [], [], [], [], []
        for drawn, ways in sorted(finals.items()):
            hand = (up_card, *(cards[c] for c in drawn))
            total = game.total(hand, initial=len(hand) == 2)
            key = (total, game.dealer_hand_mark(hand))  # what compare() can tell apart
            if key not in index:
                index[key] = len(rows)
                rows.append((total, hand))
            for c, n in sorted(Counter(drawn).items()):
                cls.append(c)
                count.append(n)
            start.append(len(cls))
            length.append(len(drawn))
            ways_list.append(ways)
            outcome.append(index[key])
        content = (self.shoe.counts, up, tuple(start), tuple(cls), tuple(count), tuple(ways_list), tuple(outcome))
        return DealerDraws(
            start=np.array(start, np.int64), cls=np.array(cls, np.int64), count=np.array(count, np.int64),
            length=np.array(length, np.int64), ways_int=np.array(ways_list, np.int64),
            ways_float=np.array(ways_list, np.float64), outcome=np.array(outcome, np.int64), outcomes=len(rows),
            finals=rows, excluded=excluded, longest=max(length), ident=_ident(content))

    def wins(self, up: int, total: Total) -> list[Fraction]:
        """What a standing ``total`` wins per unit against each player-dealer outcome under ``up``."""
        key = (up, total)
        if key not in self._wins:
            self._wins[key] = [self.game.compare(total, d_total, d_cards)[0].odds
                               for d_total, d_cards in self.draws(up).finals]
        return self._wins[key]

    def decision(self, up: int, hand: tuple[int, ...], split: bool, split_aces: bool, splits: int) -> str | None:
        """The action the game enforces (``BlackjackGame.strategy``), or ``None`` when the hand is finished."""
        if splits and not self.is_pair(hand):
            splits = 0  # the splits made so far matter only to a pair that may be split again
        key = (up, hand, split, split_aces, splits)
        if key not in self._decisions:
            game, cards = self.game, self.shoe.cards
            seat = Seat(1, [Hand([cards[c] for c in hand], 2, split=split, split_aces=split_aces)], splits=splits)
            if game.freezes(cards[up]) or game.finished(seat, 0):
                self._decisions[key] = None
            else:
                initial = not split and len(hand) == 2
                self._decisions[key] = game.advisor.best(cards[up], seat.hands[0].cards, game.legal(seat, 0),
                                                         initial=initial)
        return self._decisions[key]

    def is_pair(self, hand: tuple[int, ...]) -> bool:
        found = self._pairs.get(hand)
        if found is None:
            cards = self.shoe.cards
            found = self._pairs[hand] = len(hand) == 2 and self.game.can_split([cards[hand[0]], cards[hand[1]]])
        return found

    def resplit_weights(self, up: int, pair: int) -> tuple[list[int], Weights]:
        """The split counts a split hand can start at, and one weight row for each (``_resplit_patterns``)."""
        if (up, pair) not in self._resplits:
            self._resplits[(up, pair)] = self._resplit_weights(up, pair)
        return self._resplits[(up, pair)]

    def _resplit_weights(self, up: int, pair: int) -> tuple[list[int], Weights]:
        resplit = [self.decision(up, (pair, pair), True, self.is_ace(pair), s) == "split"
                   for s in range(self.game.max_splits + 1)]
        patterns = _resplit_patterns(self.game.max_splits, resplit)
        starts = sorted(patterns)
        terms = sorted({t for p in patterns.values() for t in p})
        coef = tuple(tuple(Fraction(patterns[s][t]) for t in terms) for s in starts)
        # the key is a small int: the dealer and play caches hash it on every lookup
        key = _ident(("split weights", pair, tuple(starts), tuple(terms), coef))
        return starts, Weights(np.array([m for m, _ in terms], np.int64), np.array([k for _, k in terms], np.int64),
                               coef, pair, (key,))


def _resplit_patterns(max_splits: int, resplit: list[bool]) -> dict[int, Counter[tuple[int, int]]]:
    """For every split hand: the splits made before it starts, and the second cards of the hands before it.

    Hands are played in order. Hand ``i`` exists when the splits made before it (the first
    counts one) number at least ``i - 1``. Each earlier hand's second card is either another
    card of the pair, split again while ``max_splits`` allows and the strategy chooses it
    (``resplit[splits]``), or the card the hand keeps. Moving those cards after the
    player-dealer's (exchangeability), hand ``i`` is played as if they were still in the shoe,
    and its draws are weighted by the chance that they fall in the pattern: ``m`` cards of the
    pair and ``k`` others out of what is left. The cards a hand keeps once no split is allowed
    are not constrained and weigh nothing. Returns ``{splits: Counter({(m, k): patterns})}``.
    """
    out: dict[int, Counter[tuple[int, int]]] = {}

    def hands_before(i: int, done: int, splits: int, m: int, k: int) -> None:
        if splits + 1 < done + 1:
            return  # the next hand was never made: hand i does not exist
        if done == i - 1:
            out.setdefault(splits, Counter())[(m, k)] += 1
            return
        second_card(i, done, splits, m, k)

    def second_card(i: int, done: int, splits: int, m: int, k: int) -> None:
        if splits < max_splits and resplit[splits]:
            second_card(i, done, splits + 1, m + 1, k)  # another of the pair: split again
            hands_before(i, done + 1, splits, m, k + 1)  # another card: the hand keeps it
        else:
            hands_before(i, done + 1, splits, m, k)  # no split possible: any card, unconstrained

    for i in range(1, max_splits + 2):
        hands_before(i, 0, 1, 0, 0)
    return out


# -- one pass in one arithmetic -------------------------------------------------------------------------------

_IDENTS: dict[tuple[Any, ...], int] = {}
_DEALER: dict[tuple[Any, ...], Array] = {}
"""The player-dealer's outcomes by draws, arithmetic, cards out and weights: shared by the variants of a game
(the rule options that change only how hands compare leave the draws alone). It holds one shoe's
(``_DEALER_SHOE``) and at most ``_DEALER_MOST`` entries."""
_DEALER_MOST = 400_000
_DEALER_SHOE: list[Counts] = []


def _ident(content: tuple[Any, ...]) -> int:
    """A small int for a large hashable key, the same for equal contents."""
    return _IDENTS.setdefault(content, len(_IDENTS) + 1)


class Pass:
    """The round's value in one arithmetic (``arithmetic.Floats`` or ``arithmetic.Residues``)."""

    def __init__(self, rules: Rules, arithmetic: Arithmetic) -> None:
        self.rules = rules
        self.f = arithmetic
        self.counts = np.array(rules.shoe.counts, np.int64)
        if [rules.shoe.counts] != _DEALER_SHOE:
            _DEALER.clear()
            _DEALER_SHOE[:] = [rules.shoe.counts]
        self._wins: dict[tuple[int, Total], Array] = {}
        self._play: dict[tuple[Any, ...], Array] = {}
        self._chances: dict[Counts, list[tuple[int, Array]]] = {}
        self._coef: dict[tuple[Any, ...], Array] = {}
        self.requests: dict[tuple[Any, ...], tuple[int, Counts, Weights]] = {}
        """Every player-dealer evaluation the pass asked for: another pass of the same rules asks the same."""
        self.most_cards = 0

    # -- the player-dealer --------------------------------------------------------------------------

    def dealer(self, up: int, removed: Counts, weights: Weights) -> Array:
        draws = self.rules.draws(up)
        key = (draws.ident, self.f.ident, removed, weights.key)
        self.requests.setdefault((up, removed, weights.key), (up, removed, weights))
        found = _DEALER.get(key)
        if found is None:
            if len(_DEALER) > _DEALER_MOST:
                _DEALER.clear()
            avail = self.counts - np.array(removed, np.int64)
            coef = self._coef.get(weights.key)
            if coef is None:
                coef = self._coef[weights.key] = self.f.coefficients([list(row) for row in weights.coef])
            found = _DEALER[key] = self.f.dealer(avail, self.rules.shoe.size - sum(removed), draws, weights, coef)
        self.most_cards = max(self.most_cards, sum(removed) + draws.longest + weights.most)
        return found

    def prepare(self, requests: dict[tuple[Any, ...], tuple[int, Counts, Weights]]) -> None:
        """Evaluate the player-dealer for all ``requests`` at once, on every core (exact pass only)."""
        if not isinstance(self.f, Residues):
            return
        batches: dict[tuple[int, tuple[Any, ...]], list[tuple[int, Counts, Weights]]] = {}
        for up, removed, weights in requests.values():
            draws = self.rules.draws(up)
            if (draws.ident, self.f.ident, removed, weights.key) not in _DEALER:
                batches.setdefault((up, weights.key), []).append((up, removed, weights))
        for (up, _), batch in batches.items():
            draws, weights = self.rules.draws(up), batch[0][2]
            coef = self._coef.get(weights.key)
            if coef is None:
                coef = self._coef[weights.key] = self.f.coefficients([list(row) for row in weights.coef])
            out_cards = np.array([r for _, r, _ in batch], np.int64)
            left = self.rules.shoe.size - out_cards.sum(axis=1)
            out = self.f.dealer_many(self.counts[None, :] - out_cards, left, draws, weights, coef)
            for i, (_, r, w) in enumerate(batch):
                _DEALER[(draws.ident, self.f.ident, r, w.key)] = out[i]

    def stand(self, up: int, total: Total, removed: Counts, weights: Weights) -> Array:
        key = (up, total)
        wins = self._wins.get(key)
        if wins is None:
            wins = self._wins[key] = np.array([self.f.constant(w) for w in self.rules.wins(up, total)])
        return self.f.payoff(self.dealer(up, removed, weights), wins)

    # -- the player's hands -------------------------------------------------------------------------

    def chances(self, removed: Counts) -> list[tuple[int, Array]]:
        """Each class the shoe still holds, with its chance of coming next."""
        found = self._chances.get(removed)
        if found is None:
            left = self.rules.shoe.size - sum(removed)
            counts = self.rules.shoe.counts
            found = self._chances[removed] = [(c, self.f.ratio(counts[c] - removed[c], left))
                                              for c in self.rules.classes if counts[c] > removed[c]]
        return found

    @staticmethod
    def _removed(up: int, hand: tuple[int, ...], extra: Counts) -> Counts:
        out = list(extra)
        out[up] += 1
        for c in hand:
            out[c] += 1
        return tuple(out)

    def play(self, up: int, hand: tuple[int, ...], extra: Counts, weights: Weights,
             split: bool, split_aces: bool, splits: int) -> Array:
        """A hand's value from here, per unit of its stake and per weight row, the decisions the game's."""
        if splits and not self.rules.is_pair(hand):
            splits = 0
        key = (up, hand, extra, weights.key, split, split_aces, splits)
        found = self._play.get(key)
        if found is not None:
            return found
        f, rules = self.f, self.rules
        removed = self._removed(up, hand, extra)
        action = rules.decision(up, hand, split, split_aces, splits)
        if action is None or action == "stand":
            value = self.stand(up, rules.total(hand), removed, weights)
        elif action == "hit":
            value = f.zeros(weights.rows)
            for c, chance in self.chances(removed):
                after = tuple(sorted((*hand, c)))
                value = f.add(value, f.scale(self.play(up, after, extra, weights, split, split_aces, splits), chance))
        elif action == "double":
            value = f.zeros(weights.rows)
            for c, chance in self.chances(removed):
                after = tuple(sorted((*hand, c)))
                stood = self.stand(up, rules.total(after), self._removed(up, after, extra), weights)
                value = f.add(value, f.scale(stood, chance))
            value = f.scale(value, f.constant(2))
        elif action == "surrender":
            # half the wager, when the player-dealer has no Pure 21.5 Blackjack (the draws leave those out)
            value = f.scale(f.mass(self.dealer(up, removed, weights)), f.constant(Fraction(-1, 2)))
        elif action == "split":
            if weights.key:
                raise ValueError("a split hand is split again only through its resplit pattern")
            value = self.split(up, hand[0], extra)
        else:
            raise ValueError(f"the analysis does not know the action {action!r}")
        self._play[key] = value
        return value

    def split(self, up: int, pair: int, extra: Counts) -> Array:
        """Splitting a pair of class ``pair``: every hand the split can make, resplits included (one row)."""
        starts, weights = self.rules.resplit_weights(up, pair)
        value = self.f.zeros(1)
        for row, splits in enumerate(starts):
            value = self.f.add(value, self._split_hand(up, pair, splits, weights, extra, 1)[row:row + 1])
        return value

    def _split_hand(self, up: int, pair: int, splits: int, weights: Weights, extra: Counts, pairs_out: int) -> Array:
        """A split hand holding ``pair``: its second card, splitting again on another ``pair`` while allowed."""
        f, rules = self.f, self.rules
        out = list(extra)
        out[pair] += pairs_out
        kept = tuple(out)
        aces = rules.is_ace(pair)
        value = f.zeros(weights.rows)
        for c, chance in self.chances(self._removed(up, (pair,), kept)):
            hand = (pair, c) if pair <= c else (c, pair)
            if c == pair and rules.decision(up, hand, True, aces, splits) == "split":
                sub = self._split_hand(up, pair, splits + 1, weights, extra, pairs_out + 1)
            else:
                sub = self.play(up, hand, kept, weights, True, aces, splits)
            value = f.add(value, f.scale(sub, chance))
        return value

    # -- the round --------------------------------------------------------------------------------

    def round_value(self, advance: Advance | None = None) -> tuple[Array, Array]:
        """The base wager's value per unit of the initial wager, and the part settled by a Pure 21.5 apart."""
        f, rules = self.f, self.rules
        shoe = rules.shoe
        zero = tuple(0 for _ in rules.classes)
        total = f.zeros(1)
        apart_total = f.zeros(1)
        for up in rules.classes:
            for c1 in rules.classes:
                for c2 in rules.classes:
                    start = list(zero)
                    chance = f.constant(1)
                    for dealt, c in enumerate((c1, up, c2)):
                        if start[c] >= shoe.counts[c]:
                            break
                        chance = f.scale(chance, f.ratio(shoe.counts[c] - start[c], shoe.size - dealt))
                        start[c] += 1
                    else:
                        hand = (c1, c2) if c1 <= c2 else (c2, c1)
                        apart = self._dealer_pure_apart(up, hand, tuple(start))
                        value = f.add(self._initial(up, hand, zero), apart)
                        total = f.add(total, f.scale(value, chance))
                        apart_total = f.add(apart_total, f.scale(apart, chance))
            if advance is not None:
                advance(1)
        return total[0], apart_total[0]

    def _initial(self, up: int, hand: tuple[int, ...], zero: Counts) -> Array:
        if self.rules.decision(up, hand, False, False, 0) is None:
            total = self.rules.game.total([self.rules.shoe.cards[c] for c in hand], initial=True)
            return self.stand(up, total, self._removed(up, hand, zero), PLAIN)
        return self.play(up, hand, zero, PLAIN, False, False, 0)

    def _dealer_pure_apart(self, up: int, hand: tuple[int, ...], removed: Counts) -> Array:
        """Under an ace or a Bonus card: the player-dealer's Pure 21.5 Blackjack, settled before anyone acts."""
        f, rules = self.f, self.rules
        game, cards = rules.game, rules.shoe.cards
        value = f.zeros(1)
        left = rules.shoe.size - sum(removed)
        player = game.total([cards[c] for c in hand], initial=True)
        for c in rules.draws(up).excluded:
            dealer_cards = (cards[up], cards[c])
            win = game.compare(player, game.total(dealer_cards, initial=True), dealer_cards)[0].odds
            chance = f.ratio(rules.shoe.counts[c] - removed[c], left)
            value = f.add(value, f.scale(f.constant(win), chance))
        return value


# -- the result ------------------------------------------------------------------------------------------------

@dataclass
class BaseGameResult:
    """The base wager's expected value per unit of the initial wager, and how it was found."""

    ev: float
    exact: Fraction | None
    mode: str
    shoe: str
    method: str
    assumptions: list[str]
    player_dealer_pure_apart: float
    """The part of ``ev`` from rounds the player-dealer's Pure 21.5 Blackjack settles before anyone acts."""


def analyse(game: BlackjackGame, mode: str = "exact", advance: Advance | None = None) -> BaseGameResult:
    """The base wager's expected value per unit of the initial wager (see the module doc).

    ``mode="fast"``: float64. ``mode="exact"``: the exact fraction too (a second pass in residues).
    ``advance`` is called once per up-card class done in each pass.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    rules = Rules(game)
    floats = Pass(rules, Floats())
    value, apart = (float(v) for v in floats.round_value(advance))
    exact: Fraction | None = None
    if mode == "exact":
        denominator = 2 * math.perm(rules.shoe.size, min(floats.most_cards, rules.shoe.size))
        lanes = math.ceil((denominator.bit_length() + 6) / (PRIME_BITS - 0.1)) + 1
        residues = Residues(lanes, rules.shoe.size)
        exact_pass = Pass(rules, residues)
        exact_pass.prepare(floats.requests)
        value_mod, _ = exact_pass.round_value(advance)
        if exact_pass.most_cards != floats.most_cards:
            raise ArithmeticError("the exact pass drew a different number of cards than the float pass")
        exact = residues.fraction(value_mod, denominator)
        if abs(float(exact) - value) > 1e-9:
            raise ArithmeticError(f"the exact value {float(exact)} and the float value {value} disagree")
    arithmetic = ("the exact fraction from arithmetic modulo primes (Chinese remainder theorem), checked against "
                  "float64" if exact is not None else "float64 arithmetic")
    return BaseGameResult(
        ev=float(exact) if exact is not None else value, exact=exact, mode=mode,
        shoe=f"{rules.shoe.size} cards ({rules.shoe.describe()})",
        method=("composition-dependent combinatorial analysis: every card the round can draw followed with its "
                f"exact chance given every card out; {arithmetic}"),
        assumptions=[
            "one seat, the first round off the top of a full shoe",
            ("decisions as the game enforces them (BlackjackGame.strategy: the infinite-shoe advisor's best "
             "legal action; insurance and even money declined)"),
            (f"up to {game.max_splits} splits per seat; every split hand and resplit valued exactly "
             "(exchangeability of the shoe)"),
        ],
        player_dealer_pure_apart=apart,
    )
