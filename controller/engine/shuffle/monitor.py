"""The shuffle monitor: every card a device deals, tested as it comes, shoe by shoe and across shoes.

One monitor watches one device (a shoe, or a shuffler's decks). ``start_shoe``
opens a shoe, ``card`` takes each card in the order dealt (``None`` for one that
could not be read) and returns the alarms it raised, ``end_shoe`` closes the
shoe and returns every test's result, with the device's cumulative tests.

Shoe tests (``controller.engine.shuffle.kernels`` and ``.forward``; the first six rows of
``docs/shuffle.md``), each a test martingale with an exact false-alarm bound:

- ``pairs``: adjacent pairs kept from a factory order (forwards or backwards) or from the previous shoe's order;
- ``rising``: rising sequences against the previous order (Bayer and Diaconis);
- ``guess``: Diaconis-Fulman-Holmes card guessing (the next card still in, above or below the last in the previous order);
- ``moved``: cards found where they lay in the previous order (within 0 or 2 places);
- ``likelihood``: the chance of each card under GSR riffles and a shelf shuffler of the previous order, the copy
  of each card latent (``controller.engine.shuffle.forward``): the test that sees them through 8 copies of every card;
- ``repeat``: the shoe's first cards matching the first cards of any earlier shoe of the device.

Device tests, CUSUMs over the shoes: ``positions`` (a position bias learned
from earlier shoes), ``colour-runs``, ``suit-runs``, ``serial`` (lag-1 serial
correlation of ranks) and ``drift`` (the shoe guessers' evidence at a small leak,
for a shuffler that fails slowly). The classic lab check, chi-square of
positions over all the device's shoes, is reported beside them.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from controller.cards import Card, Rank, Suit, standard_deck
from controller.engine.shuffle import compiled, forward, kernels as k
from controller.engine.shuffle.policy import DEVICE_TESTS, LEVELS, Policy

EPS = np.array([0.9, 0.6, 0.3, 0.12, 0.05])
"""Leaks the shoe martingales mix over: a guess right with chance ``p + eps (1 - p)``."""
DRIFT_EPS = 0.02
"""The one small leak the device's ``drift`` CUSUM scores each shoe at."""
PREFIX = 16
"""Cards of each shoe kept to match later shoes' first cards against (test ``repeat``)."""
POSITION_BINS = 8
"""Bins of shoe positions for the learned position bias (test ``positions``)."""
POSITION_PRIOR = 20.0
"""Pseudo-counts pulling the learned bias towards none."""
CHI_SQUARE_LEAST_EXPECTED = 5.0
"""The lab check's p-value waits until every cell expects this many cards (Cochran's rule)."""
CUSUM_K = 0.5
SHELVES = np.array([4, 6, 8, 10, 12, 16, 20], dtype=np.int64)
"""Shelf counts the shelf-shuffler likelihood ratio averages over (machines have about 10)."""
RISING_WINDOWS = (0, 4, 16, 64)
"""How far back the rising-sequence guesser looks (cards; 0: the whole shoe so far): 2**k packets after k riffles."""
LIKELIHOOD_PACKETS = np.array([2, 4, 8, 16], dtype=np.int64)
"""The riffle models of test ``likelihood``: 1 to 4 GSR riffles (2**k packets)."""
LIKELIHOOD_SHELVES = np.array([6, 10, 16], dtype=np.int64)
"""The shelf-shuffler models of test ``likelihood`` (shelf counts)."""
LIKELIHOOD_BEAMS = (32, 16)
"""States the riffle and the shelf forwards keep per card (more: more power, more time)."""
LIKELIHOOD_SHARES = np.array([0.5, 0.2, 0.05])
"""Defensive shares ``d`` the likelihood ratios mix over: ``(1 - d) q / p0 + d`` per card."""
LIKELIHOOD_FLOOR = -10.0
"""A model whose ln evidence falls below this is given up for the shoe (what keeps random shoes cheap)."""
MAX_DECKS = 2
"""The most decks a device deals in turn (a two-deck shuffler, docs/protocol.md 6.1)."""
SHORT_SHOE = 12
"""A shoe that ends with fewer cards known than this, and than the order it was tested against, is cut short: that
order stays the one the next shoe (of its deck) is tested against."""


def new_deck_order() -> tuple[Card, ...]:
    """A US new deck as it leaves the factory: spades A-K, diamonds A-K, clubs K-A, hearts K-A."""
    by = {(c.suit, c.rank): c for c in standard_deck()}
    up = (Rank.ACE, *[r for r in Rank if r not in (Rank.ACE, Rank.JOKER)])
    return tuple(
        [by[(Suit.SPADES, r)] for r in up] + [by[(Suit.DIAMONDS, r)] for r in up]
        + [by[(Suit.CLUBS, r)] for r in reversed(up)] + [by[(Suit.HEARTS, r)] for r in reversed(up)]
    )


@dataclass(frozen=True)
class Alarm:
    """A test crossed its line: ``level`` is ``hold`` (stop the round) or ``warn`` (tell the pit)."""

    test: str
    level: str
    shoe: int
    card: int | None
    """The card (1 = first of the shoe) at which a shoe test crossed; ``None`` for a device test (end of shoe)."""
    score: float
    limit: float
    reason: str

    def as_fields(self) -> dict[str, Any]:
        return {"test": self.test, "level": self.level, "shoe": self.shoe, "card": self.card,
                "score": round(self.score, 3), "limit": round(self.limit, 3), "reason": self.reason}


@dataclass(frozen=True)
class TestResult:
    """One test's outcome for a shoe: its statistic beside what a random shuffle gives, and its score."""

    test: str
    statistic: float
    expected: float
    p_value: float
    """Shoe tests: the anytime-valid p-value ``1 / max e``; device tests: this shoe's own score's p-value."""
    score: float
    """Shoe tests: the peak ln e-value in the shoe; device tests: the CUSUM after this shoe."""
    hold_limit: float
    warn_limit: float
    level: str | None = None
    card: int | None = None
    detail: str = ""

    def as_fields(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return None if math.isinf(x) or math.isnan(x) else round(x, 6)
        return {"test": self.test, "statistic": num(self.statistic), "expected": num(self.expected),
                "p": num(self.p_value), "score": num(self.score), "hold_limit": num(self.hold_limit),
                "warn_limit": num(self.warn_limit), "level": self.level, "card": self.card, "detail": self.detail}


@dataclass
class DeviceState:
    """What a device's later shoes are tested against: its last order, earlier first cards, cumulative tables."""

    types: int
    bins: int
    previous: np.ndarray[Any, Any] | None = None
    previous_places: np.ndarray[Any, Any] | None = None
    """The previous order as dealt, unread cards kept in their places (``-1``): the forwards' input."""
    laid: deque[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]] | None] = field(default_factory=lambda: deque(maxlen=MAX_DECKS))
    """The last shoes' orders (``previous``, ``previous_places``), newest last (``None``: none known): a device that
    deals its decks in turn shuffles each from the order that deck was dealt in, ``decks`` shoes before."""
    shoes: int = 0
    prefixes: dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]] = field(default_factory=dict)
    order_of_prefixes: deque[tuple[tuple[int, ...], int]] = field(default_factory=deque)
    cusum: dict[str, float] = field(default_factory=dict)
    level: dict[str, str | None] = field(default_factory=dict)
    table: np.ndarray[Any, Any] = field(init=False)
    expected: np.ndarray[Any, Any] = field(init=False)
    chi_table: np.ndarray[Any, Any] = field(init=False)
    chi_expected: np.ndarray[Any, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.table = np.zeros((self.types, POSITION_BINS))
        self.expected = np.zeros((self.types, POSITION_BINS))
        self.chi_table = np.zeros((self.types, self.bins))
        self.chi_expected = np.zeros((self.types, self.bins))


class ShuffleMonitor:
    """See module doc. ``deck`` is every card of one shoe (or of one shuffler deck), in factory order."""

    def __init__(self, deck: Sequence[Card], policy: Policy | None = None, *, device: str = "shoe",
                 factory: Sequence[Sequence[Card]] | None = None, defer: bool = False, decks: int = 1) -> None:
        self.policy = policy or Policy()
        if not 1 <= decks <= MAX_DECKS:
            raise ValueError(f"a device deals 1 to {MAX_DECKS} decks in turn, not {decks}")
        self.decks = decks
        """Decks the device deals in turn (2: a two-deck shuffler, docs/protocol.md 6.1): each shoe is tested against
        the order its own deck was last dealt in, ``decks`` shoes before, not the other deck's."""
        self.defer = defer
        """Keep the cards untested while the kernels are still compiling (``warm``, which whoever defers must have
        started: ``ShuffleWatch`` does), and test them all once they are ready: a table's first card must not wait
        for numba. ``end_shoe`` waits for them."""
        self.stack: tuple[int, int] | None = None
        """The cards (first, last, from 1) of a shuffler's stack being tested, set by whoever feeds it
        (``ShuffleWatch.stack``): the whole stack is tested as it is dispensed, before its cards are placed, so an
        alarm raised by a card of it names the stack."""
        self.device = device
        self.types: list[Card] = list(dict.fromkeys(deck))
        self.index = {card: i for i, card in enumerate(self.types)}
        self.counts = np.zeros(len(self.types), dtype=np.int64)
        for card in deck:
            self.counts[self.index[card]] += 1
        self.size = len(deck)
        self.distinct = len(self.types) == len(deck)
        orders = [tuple(deck)]
        if factory is None and set(new_deck_order()) <= set(self.types):
            copies = len(deck) // 52 if len(deck) % 52 == 0 and _whole_standard_decks(deck) else 0
            if copies:
                orders.append(new_deck_order() * copies)
        for order in factory or ():
            orders.append(tuple(order))
        refs = [self.encode(o) for o in dict.fromkeys(orders)]
        self.factory = [r for ref in refs for r in (ref, ref[::-1].copy())]
        self.state = DeviceState(len(self.types), min(52, self.size))
        self.dealt: list[int] = []
        self._repeat_cache: np.ndarray[Any, Any] | None = None
        self._likelihood: tuple[np.ndarray[Any, Any], dict[tuple[int, int], np.ndarray[Any, Any]]] | None = None
        """Test ``likelihood`` so far: its trace, and the chances of each model given up (family, model)."""
        self._checked: dict[str, int] = {}
        self._likelihood_known = 0
        """Cards of the shoe whose ``likelihood`` value has been computed and looked at (``_test_dealt``)."""
        self._replaying = False
        self.shoe = 0
        self.raised: dict[str, set[str]] = {}
        self.open = False
        self.colour = np.array([_colour(c) for c in self.types], dtype=np.int64)
        self.suit = np.array([_suit(c) for c in self.types], dtype=np.int64)
        self.value = np.array([float(c.rank) for c in self.types])

    # ---- encoding --------------------------------------------------------

    def encode(self, cards: Sequence[Card | None]) -> np.ndarray[Any, Any]:
        """Card types (``-1``: unreadable or not of this deck)."""
        return np.array([self.index.get(c, -1) if c is not None else -1 for c in cards], dtype=np.int64)

    def decode(self, types: Sequence[int]) -> list[str]:
        return [self.types[t].code if t >= 0 else "--" for t in types]

    # ---- a shoe, card by card ---------------------------------------------

    def start_shoe(self) -> int:
        """Open the next shoe (ending an open one first); returns its number."""
        if self.open:
            self.end_shoe()
        self.shoe += 1
        self.dealt = []
        self.raised = {}
        laid = self.state.laid
        previous = laid[-self.decks] if len(laid) >= self.decks else None  # a deck not yet dealt: a new deck
        self.state.previous, self.state.previous_places = previous if previous is not None else (None, None)
        self.open = True
        self._repeat_cache = None
        self._likelihood = None
        self._checked = {}
        self._likelihood_known = 0
        return self.shoe

    def card(self, card: Card | None) -> list[Alarm]:
        """One card dealt (``None``: unreadable). Returns the alarms it raised (each test and level at most once a shoe)."""
        if not self.open:
            self.start_shoe()
        self.dealt.append(self.index.get(card, -1) if card is not None else -1)
        if not self.policy.enabled or (self.defer and not compiled.ready()):
            return []
        return self._test_dealt()

    def untested(self) -> int:
        """Cards of the open shoe kept untested (dealt while the kernels compiled)."""
        if not self.open or not self.policy.enabled or not self.dealt:
            return 0
        return len(self.dealt) - min(self._checked.get(test, 0) for test in ("pairs", "likelihood"))

    def catch_up(self) -> list[Alarm]:
        """Wait for the kernels and test every card kept untested; the alarms they raise."""
        if not self.untested():
            return []
        compiled.wait()
        return self._test_dealt()

    def _test_dealt(self) -> list[Alarm]:
        scores = self._shoe_scores(np.array(self.dealt, dtype=np.int64))
        alarms = []
        for test, (trace, _) in scores.items():
            # every value not looked at yet (and every card kept while the kernels compiled); the likelihood test is
            # brought up to date every few cards, and the cards in between, given its last value until then, are
            # looked at again once their own values are known: evidence that crossed a line between two runs and
            # fell back by the next is still found there
            start = self._checked.get(test, 0)
            if test == "likelihood":
                start = min(start, self._likelihood_known)
                self._likelihood_known = len(self._likelihood[0]) if self._likelihood is not None else 0
            self._checked[test] = len(trace)
            alarms += self._cross(test, float(trace[start:].max()), len(self.dealt))
        return alarms

    def _cross(self, test: str, score: float, card: int | None) -> list[Alarm]:
        out = []
        for level in LEVELS:
            limit = self.policy.limit(test, level)
            if score >= limit and level not in self.raised.setdefault(test, set()):
                self.raised[test].add(level)
                if level == "warn" and "hold" in self.raised[test]:
                    continue
                out.append(Alarm(test, level, self.shoe, card, score, limit, self._reason(test, level, card)))
        return out

    def _reason(self, test: str, level: str, card: int | None) -> str:
        words = {
            "pairs": "cards follow each other as in a factory or the previous order",
            "rising": "too few rising sequences against the previous order (a riffle too few)",
            "guess": "the next card is guessed too often from the previous order (a weak shuffle)",
            "moved": "cards lie where they lay in the previous order",
            "likelihood": "the cards come as a few riffles or a shelf shuffler of the previous order would deal them",
            "repeat": "the {unit} repeats the order of an earlier {unit}",
            "positions": "card positions are biased over the device's shoes",
            "colour-runs": "runs of colour are off over the device's shoes",
            "suit-runs": "runs of suit are off over the device's shoes",
            "serial": "neighbouring ranks are correlated over the device's shoes",
            "drift": "the device's shuffles are weakening over its shoes",
        }[test]
        at = f", by card {card}" if card is not None else ""
        if card is not None and self.stack is not None and self.stack[0] < self.stack[1] and self.stack[0] <= card <= self.stack[1]:
            at += f", in the stack of cards {self.stack[0]} to {self.stack[1]} tested as the shuffler dispensed it"
        unit = "deck" if self.device.endswith("shuffler") else "shoe"  # a shuffler deals decks (TC-01/shoe, shoe 3)
        words = words.format(unit=unit)
        return f"shuffle test {test} ({level}) on {self.device}, {unit} {self.shoe}{at}: {words}"

    # ---- the tests ---------------------------------------------------------

    def _base(self) -> np.ndarray[Any, Any]:
        """What the shuffle started from: the previous shoe's order, else (a new deck) the factory order."""
        return self.state.previous if self.state.previous is not None else self.factory[0]

    def _streams(self, dealt: np.ndarray[Any, Any]) -> dict[str, list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]]:
        base, counts = self._base(), self.counts
        pairs = [k.follow(dealt, counts, ref) for ref in self.factory]
        if self.state.previous is not None:
            pairs.append(k.follow(dealt, counts, self.state.previous))
        rising = [k.rising(dealt, counts, base, w) for w in RISING_WINDOWS]
        return {
            "pairs": pairs,
            "rising": rising,
            "guess": [k.next_card(dealt, counts, base, False), k.next_card(dealt, counts, base, True),
                      k.valley(dealt, counts, base)],
            "moved": [k.in_place(dealt, counts, base, 0), k.in_place(dealt, counts, base, 2)],
        }

    def _shoe_scores(self, dealt: np.ndarray[Any, Any], end: bool = False,
                     streams_by_test: dict[str, Any] | None = None) -> dict[str, tuple[np.ndarray[Any, Any], Any]]:
        """Per shoe test: (ln e-value after each card, what it is made of).

        For a deck of distinct cards, ``rising`` and ``guess`` also take, at the
        end of the shoe, the exact likelihood ratio of the whole order under
        riffles (Bayer-Diaconis) and under a shelf shuffler (Diaconis-Fulman-Holmes);
        each half of the test's budget goes to the card-by-card martingale and
        half to that one look (hence ``ln 2`` off both).
        """
        out: dict[str, tuple[np.ndarray[Any, Any], Any]] = {}
        for test, streams in (streams_by_test or self._streams(dealt)).items():
            hits = np.stack([h for h, _ in streams])
            ps = np.stack([p for _, p in streams])
            trace = k.mixture_log_e(hits, ps, EPS)
            if self.distinct and test in ("rising", "guess"):
                trace = trace - math.log(2)
                if end and len(trace):
                    whole = self._whole_deck(dealt)["riffles" if test == "rising" else "shelf"]
                    trace[-1] = max(trace[-1], whole - math.log(2))
            out[test] = (trace, streams)
        out["likelihood"] = (self._likelihood_trace(dealt, end), None)
        out["repeat"] = (self._repeat_trace(dealt), None)
        return out

    def _likelihood_trace(self, dealt: np.ndarray[Any, Any], end: bool) -> np.ndarray[Any, Any]:
        """ln e-value after each card: the mean over riffle and shelf models and defensive shares of each model's
        likelihood ratio against random (``forward``).

        Card by card the forwards run again after each of the first 16 cards,
        then every 4th card to the 128th, then every 8th, and at the end of the
        shoe; the cards in between are given the last value until then. A model
        given up is not run again (its later ratios are 1), so once every model
        is given up, later cards change nothing.
        """
        n = len(dealt)
        if self._replaying:
            return np.zeros(n)
        trace, given_up = self._likelihood if self._likelihood is not None else (np.zeros(0), {})
        every = 1 if n <= 16 else 4 if n <= 128 else 8
        done = len(given_up) == len(LIKELIHOOD_PACKETS) + len(LIKELIHOOD_SHELVES)
        if len(trace) and (done or not (end or n % every == 0)):
            return trace[:n] if len(trace) >= n else np.concatenate([trace, np.full(n - len(trace), trace[-1])])
        base = self.state.previous_places if self.state.previous_places is not None else self.factory[0]
        trace = likelihood_log_e(dealt, self.counts, base, self.size, given_up)
        self._likelihood = (trace, given_up)
        return trace

    def _whole_deck(self, dealt: np.ndarray[Any, Any]) -> dict[str, float]:
        """ln of the whole-order likelihood ratios against random: riffles (Bayer-Diaconis), a shelf shuffler (DFH)."""
        if not self.distinct:
            return {}
        places = k.relative_ranks(dealt, self._base(), len(self.types))
        return {"riffles": float(k.riffle_log_e(places, 7)), "shelf": float(k.shelf_log_e(places, SHELVES))}

    def _repeat_trace(self, dealt: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """ln(1/p) after each card, p the chance that a random shoe starts as one of the kept earlier shoes did
        as far as this one matched (a union bound over the shoes kept)."""
        trace = np.zeros(len(dealt))
        if len(dealt) > PREFIX + 1 and self._repeat_cache is not None:
            trace[: len(self._repeat_cache)] = self._repeat_cache
            trace[len(self._repeat_cache):] = self._repeat_cache[-1]
            return trace
        kept = len(self.state.order_of_prefixes)
        if not kept or len(dealt) < 2:
            return trace
        candidates = self.state.prefixes.get(tuple(int(t) for t in dealt[:2]), [])
        r = self.counts.astype(float).copy()
        left = r.sum()
        log_p = 0.0
        best = 0.0
        for t in range(min(len(dealt), PREFIX)):
            y = int(dealt[t])
            if y < 0 or r[y] <= 0:
                break
            log_p += math.log(r[y] / left)
            r[y] -= 1
            left -= 1
            n = t + 1
            if any(prefix[:n] == tuple(int(x) for x in dealt[:n]) for _, prefix in candidates):
                best = max(best, -log_p - math.log(kept))
            trace[t] = best
        trace[min(len(dealt), PREFIX):] = best
        self._repeat_cache = trace[: PREFIX + 1].copy() if len(dealt) > PREFIX else None
        return trace

    def restore(self, orders: Sequence[Sequence[Card | None]], *, replayed: int = 200) -> None:
        """Take back the shoes a device dealt before (from the journal), oldest first: their orders become the
        history ``repeat`` compares with, and the last ``replayed`` of them go through the device tests again
        (test ``likelihood``'s forwards, the slow part that no device test needs, are not run for them)."""
        self._replaying = True
        try:
            for i, order in enumerate(orders):
                self.start_shoe()
                self.dealt = [int(t) for t in self.encode(order)]
                if i >= len(orders) - replayed:
                    self.end_shoe()
                else:
                    self.open = False
                    self._remember(np.array(self.dealt, dtype=np.int64), True)
        finally:
            self._replaying = False

    def end_shoe(self, *, reference: bool = True) -> ShoeReport:
        """Close the shoe: every test's result over the whole shoe, the device's cumulative tests, and their alarms.

        The shoe's order becomes the previous order the next shoe is tested
        against (``reference=False`` keeps the old one: a shoe cut short).
        """
        if self.defer:
            compiled.wait()
        dealt = np.array(self.dealt, dtype=np.int64)
        self.open = False
        results: list[TestResult] = []
        alarms: list[Alarm] = []
        if self.policy.enabled and len(dealt):
            streams = self._streams(dealt)
            for test, (trace, parts) in self._shoe_scores(dealt, True, streams).items():
                result = self._shoe_result(test, trace, parts, dealt)
                results.append(result)
                if result.level is not None:
                    # a line crossed only by what the end of the shoe looks at (a single deck's whole-order ratios,
                    # ``likelihood``'s last cards) is raised now, at the last card; a crossing raised card by card is
                    # not raised again
                    alarms += self._cross(test, result.score, len(dealt))
            device_results, device_alarms = self._device_tests(dealt, streams)
            results += device_results
            alarms += device_alarms
        self._remember(dealt, reference)
        return ShoeReport(self.device, self.shoe, len(dealt), tuple(self.decode([int(t) for t in dealt])), tuple(results), tuple(alarms))

    def _shoe_result(self, test: str, trace: np.ndarray[Any, Any], streams: Any, dealt: np.ndarray[Any, Any]) -> TestResult:
        peak = float(trace.max()) if len(trace) else 0.0
        hold, warn = self.policy.limit(test, "hold"), self.policy.limit(test, "warn")
        level, card = None, None
        for name, limit in (("hold", hold), ("warn", warn)):
            crossed = np.nonzero(trace >= limit)[0]
            if len(crossed):
                level, card = name, int(crossed[0]) + 1
                break
        if test == "likelihood":
            stat, expected = (float(trace[-1]) if len(trace) else 0.0), 0.0
            detail = "ln likelihood ratio at the end of the shoe: riffles and shelf shufflers of the previous order"
        elif streams is None:
            stat, expected, detail = float(peak > 0), 0.0, "first cards match an earlier shoe" if peak > 0 else ""
        else:
            hit, p = streams[1] if test == "guess" else max(streams, key=lambda s: float(s[0].sum() - s[1].sum()))
            stat, expected = float(hit.sum()), float(p.sum())
            if test == "rising":
                known = float((dealt >= 0).sum())
                stat, expected = known - stat, known - expected
            detail = {"pairs": "kept pairs (best reference)", "rising": "rising sequences",
                      "guess": "correct guesses", "moved": "cards in place (best window)"}[test]
        return TestResult(test, stat, expected, min(1.0, math.exp(-peak)), peak, hold, warn, level, card, detail)

    def _device_tests(self, dealt: np.ndarray[Any, Any], streams: dict[str, Any]) -> tuple[list[TestResult], list[Alarm]]:
        st = self.state
        scores: dict[str, tuple[float, float, float]] = {}  # test -> (this shoe's statistic, its p, its increment)
        weight = (st.table + POSITION_PRIOR) / (st.expected + POSITION_PRIOR)
        lr = float(k.position_log_lr(dealt, self.counts, weight, POSITION_BINS, self.size))
        scores["positions"] = (lr, min(1.0, math.exp(-lr)), lr)
        for test, z in (("colour-runs", k.adjacency_z(dealt, self.colour)), ("suit-runs", k.adjacency_z(dealt, self.suit)),
                        ("serial", k.serial_z(dealt, self.value))):
            scores[test] = (float(z), math.erfc(abs(z) / math.sqrt(2)), float(z))
        drift_streams = [streams["rising"][0], streams["guess"][1], streams["guess"][2], streams["pairs"][-1]]
        # the mean of e-values is an e-value: the small-leak streams, and for distinct cards the whole-order ratios
        logs = [k.stream_log_e(h, p, DRIFT_EPS) for h, p in drift_streams]
        top = max(logs)
        parts = [top + math.log(sum(math.exp(x - top) for x in logs) / len(logs)), *self._whole_deck(dealt).values()]
        top = max(parts)
        drift = top + math.log(sum(math.exp(x - top) for x in parts) / len(parts))
        scores["drift"] = (drift, min(1.0, math.exp(-drift)), drift)
        results, alarms = [], []
        for test in DEVICE_TESTS:
            stat, p, step = scores[test]
            if test in ("colour-runs", "suit-runs", "serial"):
                up = max(0.0, st.cusum.get(test + "+", 0.0) + step - CUSUM_K)
                down = max(0.0, st.cusum.get(test + "-", 0.0) - step - CUSUM_K)
                st.cusum[test + "+"], st.cusum[test + "-"] = up, down
                value = max(up, down)
            else:
                value = max(0.0, st.cusum.get(test, 0.0) + step)
                st.cusum[test] = value
            hold, warn = self.policy.limit(test, "hold"), self.policy.limit(test, "warn")
            level = "hold" if value >= hold else "warn" if value >= warn else None
            before = st.level.get(test)
            if level is not None and (before is None or (before == "warn" and level == "hold")):
                alarms.append(Alarm(test, level, self.shoe, None, value, hold if level == "hold" else warn,
                                    self._reason(test, level, None)))
            st.level[test] = level
            if level == "hold":
                self._reset_cusum(test)
            results.append(TestResult(test, stat, 0.0, p, value, hold, warn, level, None,
                                      {"positions": "ln likelihood ratio of the learned bias", "drift": "ln e-value at a small leak"}
                                      .get(test, "z-score")))
        k.position_counts(dealt, len(self.types), POSITION_BINS, self.size, st.table, st.expected, self.counts)
        k.position_counts(dealt, len(self.types), st.bins, self.size, st.chi_table, st.chi_expected, self.counts)
        chi, df, p = self.chi_square()
        results.append(TestResult("chi-square", chi, float(df), p, chi, math.inf, math.inf, None, None,
                                  f"lab check: positions over {st.shoes + 1} shoes, {df} degrees of freedom" if df else
                                  f"lab check: positions over {st.shoes + 1} shoes, too few yet for a p-value (a cell "
                                  f"expects under {CHI_SQUARE_LEAST_EXPECTED:g} cards; after about "
                                  f"{self._shoes_for_chi_square(st.shoes + 1)} shoes like these)"))
        return results, alarms

    def _reset_cusum(self, test: str) -> None:
        for key in (test, test + "+", test + "-"):
            self.state.cusum.pop(key, None)
        self.state.level.pop(test, None)

    def _shoes_for_chi_square(self, shoes: int) -> int:
        """How many shoes like those so far make every cell of the lab check expect enough cards for its p-value."""
        expected = self.state.chi_expected
        least = float(expected[expected > 0].min()) if (expected > 0).any() else 0.0
        return shoes if least <= 0 else math.ceil(CHI_SQUARE_LEAST_EXPECTED * shoes / least - 1e-9)

    def chi_square(self) -> tuple[float, int, float]:
        """The classic lab check over every shoe of the device so far: chi-square of card positions (types x bins)."""
        return chi_square(self.state.chi_table, self.state.chi_expected)

    def _remember(self, dealt: np.ndarray[Any, Any], reference: bool) -> None:
        st = self.state
        st.shoes += 1
        known = dealt[dealt >= 0]
        # a shoe cut short after a few cards (a hold at card 4: the table reshuffles) knows too little of the order
        # the next shuffle starts from to test it against (one riffle of it: 3 of 20 8-deck shoes held against 4
        # cards known, 20 of 20 against 12); the order before it stays the reference: the next shoe is the weak
        # shuffle's second pass of that one, and a fixed reference keeps every test's false-alarm bound
        cut_short = len(known) < SHORT_SHOE and st.previous is not None and len(known) < len(st.previous)
        if reference and len(known) > 1 and not cut_short:
            st.laid.append((known.copy(), dealt.copy()))
        else:  # its deck's order stays what it was
            st.laid.append(None if st.previous is None or st.previous_places is None else (st.previous, st.previous_places))
        if len(known) >= 2 and self.policy.history:
            prefix = tuple(int(t) for t in known[:PREFIX])
            st.prefixes.setdefault(prefix[:2], []).append((self.shoe, prefix))
            st.order_of_prefixes.append((prefix[:2], self.shoe))
            while len(st.order_of_prefixes) > self.policy.history:
                key, shoe = st.order_of_prefixes.popleft()
                st.prefixes[key] = [e for e in st.prefixes[key] if e[0] != shoe]


@dataclass(frozen=True)
class ShoeReport:
    """A shoe's tests, as journaled (event ``shuffle_tested``)."""

    device: str
    shoe: int
    cards: int
    order: tuple[str, ...]
    results: tuple[TestResult, ...]
    alarms: tuple[Alarm, ...]

    def result(self, test: str) -> TestResult:
        return next(r for r in self.results if r.test == test)

    def as_fields(self) -> dict[str, Any]:
        return {"device": self.device, "shoe": self.shoe, "cards": self.cards, "order": list(self.order),
                "results": [r.as_fields() for r in self.results]}


def likelihood_log_e(dealt: np.ndarray[Any, Any], counts: np.ndarray[Any, Any], previous: np.ndarray[Any, Any], size: int,
                     given_up: dict[tuple[int, int], np.ndarray[Any, Any]] | None = None) -> np.ndarray[Any, Any]:
    """Test ``likelihood``'s ln e-value after each card of ``dealt`` (card types), the deck ``counts``, against the
    ``previous`` order (``-1``: unknown places; ``size`` places in all, those past its end unknown too).

    ``given_up`` (family 0 riffles / 1 shelves, model) -> that model's chances, filled in as models are given up,
    lets a caller run the same shoe again on more cards without running those models again.
    """
    given_up = {} if given_up is None else given_up
    p0 = forward.null_chances(dealt, counts)
    rows = []
    for family, (kernel, models, beam) in enumerate(((forward.riffle_forward, LIKELIHOOD_PACKETS, LIKELIHOOD_BEAMS[0]),
                                                     (forward.shelf_forward, LIKELIHOOD_SHELVES, LIKELIHOOD_BEAMS[1]))):
        live = np.array([m for m in models if (family, int(m)) not in given_up], dtype=np.int64)
        q: dict[int, np.ndarray[Any, Any]] = {}
        if len(live):
            chances, running = kernel(dealt, counts, previous, size, live, beam, LIKELIHOOD_SHARES, LIKELIHOOD_FLOOR)
            for i, m in enumerate(live):
                q[int(m)] = chances[i]
                if not running[i]:
                    given_up[(family, int(m))] = chances[i]
        for m in models:
            row = given_up.get((family, int(m)), q.get(int(m)))
            assert row is not None
            rows.append(row if len(row) == len(dealt) else np.concatenate([row, p0[len(row):]]))
    return np.asarray(forward.mixture_log_e(np.vstack(rows), p0, LIKELIHOOD_SHARES))


def chi_square(table: np.ndarray[Any, Any], expected: np.ndarray[Any, Any]) -> tuple[float, int, float]:
    """Pearson's chi-square of observed against expected counts, its degrees of freedom and p (Wilson-Hilferty).

    No p-value (NaN, journaled as none; 0 degrees of freedom) while a cell expects fewer than
    ``CHI_SQUARE_LEAST_EXPECTED`` cards: below that the chi-square law does not hold (Cochran's rule), and a
    device's first shoes would print p = 0 for a fair shuffle."""
    cells = expected > 0
    if cells.sum() < 2:
        return 0.0, 0, math.nan
    if expected[cells].min() < CHI_SQUARE_LEAST_EXPECTED - 1e-9:  # sums of fractions: 5 may add up to 4.999...
        return float((((table - expected) ** 2)[cells] / expected[cells]).sum()), 0, math.nan
    chi = float((((table - expected) ** 2)[cells] / expected[cells]).sum())
    rows = int((expected.sum(axis=1) > 0).sum())
    cols = int((expected.sum(axis=0) > 0).sum())
    df = max(1, (rows - 1) * (cols - 1))
    z = ((chi / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return chi, df, 0.5 * math.erfc(z / math.sqrt(2))


def _whole_standard_decks(deck: Sequence[Card]) -> bool:
    """Whether ``deck`` is whole standard decks (so the new-deck order is one of its factory orders)."""
    copies = len(deck) // 52
    want = dict.fromkeys(standard_deck(), copies)
    got: dict[Card, int] = {}
    for c in deck:
        got[c] = got.get(c, 0) + 1
    return got == want


def _colour(card: Card) -> int:
    return {Suit.HEARTS: 0, Suit.DIAMONDS: 0, Suit.SPADES: 1, Suit.CLUBS: 1}.get(card.suit, 2)


def _suit(card: Card) -> int:
    return {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}.get(card.suit, 4)


def exercise() -> None:
    """Call every kernel the monitor calls, with the types it calls them with (compiling or loading each)."""
    from controller.cards import shoe

    rng = random.Random(0)
    for decks in (1, 2):  # distinct cards (the whole-deck ratios) and copies of each card
        deck = shoe(decks)
        monitor = ShuffleMonitor(deck, device="warm-up")
        for _shoe in range(2):  # from the factory order, then from the previous shoe's order
            order = list(deck)
            rng.shuffle(order)
            monitor.start_shoe()
            for card in order[:-3]:
                monitor.card(card)
            monitor.card(None)
            monitor.end_shoe()
        monitor.restore([list(deck)])
        monitor.chi_square()

