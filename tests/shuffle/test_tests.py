"""The shuffle tests' arithmetic (controller.engine.shuffle.kernels, .forward): exact under a random shuffle, sharp against weak ones."""

import math

import numpy as np
import pytest

from controller.cards import shoe
from controller.engine.shuffle import forward, kernels as k
from controller.engine.shuffle.monitor import ShuffleMonitor

RNG = np.random.default_rng(2024)


@pytest.fixture(autouse=True)
def _draws_of_its_own() -> None:
    """Each test draws the same shoes whichever tests of this module ran before it in its process: pytest-xdist
    hands them to its workers in any order, and a shared stream made a test's draws depend on that order."""
    RNG.bit_generator.state = np.random.default_rng(2024).bit_generator.state


def _random_shoes(decks: int, count: int, dealt: int) -> tuple[ShuffleMonitor, list[np.ndarray]]:
    monitor = ShuffleMonitor(shoe(decks))
    full = monitor.encode(shoe(decks))
    return monitor, [RNG.permutation(full)[:dealt] for _ in range(count)]


@pytest.mark.parametrize("decks, dealt", [(1, 52), (8, 364)])
def test_every_guesser_hits_exactly_as_often_as_its_chances_say_under_a_random_shuffle(decks: int, dealt: int) -> None:
    """The martingales' false-alarm bound rests on this: E[hit - p] = 0 card by card (4 standard errors)."""
    monitor, shoes = _random_shoes(decks, 300 if decks == 8 else 2000, dealt)
    previous = shoes[-1]
    for name, guess in {
        "follow": lambda d: k.follow(d, monitor.counts, previous),
        "rising": lambda d: k.rising(d, monitor.counts, previous, 16),
        "rising-all": lambda d: k.rising(d, monitor.counts, previous, 0),
        "next": lambda d: k.next_card(d, monitor.counts, previous, True),
        "valley": lambda d: k.valley(d, monitor.counts, previous),
        "in-place": lambda d: k.in_place(d, monitor.counts, previous, 2),
    }.items():
        excess = variance = 0.0
        for dealt_types in shoes[:-1]:
            hit, p = guess(dealt_types)
            excess += float((hit - p)[p > 0].sum())
            variance += float((p * (1 - p)).sum())
        assert abs(excess) < 4 * math.sqrt(variance), name


def test_an_unreadable_card_keeps_the_chances_exact() -> None:
    monitor, shoes = _random_shoes(1, 2000, 52)
    excess = variance = 0.0
    for dealt_types in shoes:
        dealt_types = dealt_types.copy()
        dealt_types[RNG.integers(0, 52, 3)] = -1
        hit, p = k.follow(dealt_types, monitor.counts, monitor.factory[0])
        excess += float((hit - p).sum())
        variance += float((p * (1 - p)).sum())
    assert abs(excess) < 4 * math.sqrt(variance)


@pytest.mark.parametrize("decks", [1, 8])
def test_runs_and_serial_z_scores_are_standard_under_a_random_shuffle(decks: int) -> None:
    monitor, shoes = _random_shoes(decks, 3000 if decks == 1 else 1000, 52 if decks == 1 else 364)
    for name, stat in {
        "colour": lambda d: k.adjacency_z(d, monitor.colour),
        "suit": lambda d: k.adjacency_z(d, monitor.suit),
        "serial": lambda d: k.serial_z(d, monitor.value),
    }.items():
        z = np.array([stat(d) for d in shoes])
        assert abs(z.mean()) < 4 / math.sqrt(len(z)), name
        assert abs(z.var() - 1) < 4 * math.sqrt(2 / len(z)), name  # a sample variance's spread is sqrt(2 / n)


def test_the_whole_deck_likelihood_ratios_are_e_values_under_a_random_shuffle() -> None:
    """E[e] <= 1: their means over random decks stay near or below 1 (they are heavy-tailed, so only a loose check)."""
    places = [RNG.permutation(52) for _ in range(3000)]
    shelves = np.array([4, 10], dtype=np.int64)
    assert np.mean([math.exp(k.riffle_log_e(p, 7)) for p in places]) < 1.5
    assert np.mean([math.exp(k.shelf_log_e(p, shelves)) for p in places]) < 1.5


def test_bayer_diaconis_ratio_for_the_identity_is_the_chance_of_one_rising_sequence() -> None:
    """The identity has one rising sequence: after k riffles its chance is C(2**k + n - 1, n) / 2**(k n)."""
    n = 10
    expected = math.log(sum(math.comb(2**kk + n - 1, n) / 2 ** (kk * n) for kk in range(1, 4)) / 3 * math.factorial(n))
    assert k.riffle_log_e(np.arange(n), 3) == pytest.approx(expected)


def test_shelf_ratio_counts_each_valley_cut() -> None:
    """One shelf makes one valley: 2 0 1 can come out (the lowest card on top or under: 2 ways in 2**3), 0 2 1 cannot."""
    one_shelf = k.shelf_log_e(np.array([2, 0, 1]), np.array([1], dtype=np.int64))
    assert one_shelf == pytest.approx(math.log(2 / 8 * 6))
    assert k.shelf_log_e(np.array([0, 2, 1]), np.array([1], dtype=np.int64)) == -math.inf


@pytest.mark.parametrize("decks", [1, 8])
@pytest.mark.parametrize("cards", [0, 7, 40])
def test_each_forward_gives_the_next_card_chances_that_sum_to_at_most_one(decks: int, cards: int) -> None:
    """The likelihood test's false-alarm bound rests on this: whatever the beam kept, the model's chances of the
    next card, summed over every card it could be, are at most 1 (so prod q / p0 is a martingale under random).
    The previous order of 8 decks lacks its last 52 cards (behind the cut card); the prefix has an unread card."""
    monitor, (previous, prefix) = _random_shoes(decks, 2, 364 if decks == 8 else 52)
    prefix = prefix[:cards].copy()
    if cards > 3:
        prefix[3] = -1
    left = monitor.counts.copy()
    for y in prefix[prefix >= 0]:
        left[y] -= 1
    for kernel, models in ((forward.riffle_forward, np.array([2, 4, 8, 16])), (forward.shelf_forward, np.array([6, 10, 16]))):
        total = np.zeros(len(models))
        for y in np.nonzero(left)[0]:
            q, _ = kernel(np.append(prefix, y), monitor.counts, previous, monitor.size, models, 16, np.array([0.5]), -1e9)
            total += q[:, cards]
        assert (total <= 1 + 1e-9).all() and (total > 0).all(), (kernel, total)
