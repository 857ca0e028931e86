"""The numbers the blackjack analysis adds and multiplies: ``float64``, or exact residues modulo primes.

Both arithmetics work on numpy arrays whose first axis is the analysis's
weight rows (``analysis.Weights``): shape ``(rows,)`` for floats, ``(rows,
lanes)`` for residues, one lane per prime below 2**50. A value known modulo
enough primes, times a known common denominator, is an integer the Chinese
remainder theorem gives back exactly (:meth:`Residues.fraction`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from controller.rules.blackjack.dealer_kernel import dealer_float, dealer_mod, dealer_mod_many, payoff_mod, scale_mod

Array = npt.NDArray[Any]


class Floats:
    """``float64`` arithmetic (rounding error far below 1e-12 on these sums)."""

    name = "float64"
    ident: tuple[Any, ...] = ("float64",)

    def constant(self, value: Fraction | int) -> Array:
        return np.array(float(value))

    def ratio(self, num: int, den: int) -> Array:
        return np.array(num / den)

    def coefficients(self, coef: list[list[Fraction]]) -> Array:
        return np.array([[float(c) for c in row] for row in coef])

    def scale(self, value: Array, factor: Array) -> Array:
        return value * factor

    def add(self, a: Array, b: Array) -> Array:
        return a + b

    def zeros(self, rows: int) -> Array:
        return np.zeros(rows)

    def payoff(self, chances: Array, wins: Array) -> Array:
        """``chances[w, outcome]`` against ``wins[outcome]``: the value per row."""
        return chances @ wins

    def mass(self, chances: Array) -> Array:
        """The chance of any outcome, per row."""
        return np.asarray(chances.sum(axis=1))

    def dealer(self, avail: Array, left: int, groups: Any, weights: Any, coef: Array) -> Array:
        return dealer_float(avail, left, groups.start, groups.cls, groups.count, groups.length, groups.ways_float,
                            groups.outcome, groups.outcomes, weights.m, weights.k, coef, weights.cls)


_WITNESSES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
"""Miller-Rabin with these bases decides every n below 3.3 * 10**24 (Sorenson and Webster, 2015)."""


def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for ``n < 3.3 * 10**24`` (trial division to 2**25 took seconds per prime)."""
    if n < 2:
        return False
    for p in _WITNESSES:
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in _WITNESSES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def primes_below(limit: int, count: int) -> list[int]:
    """The ``count`` largest primes below ``limit``."""
    if limit > 3 * 10**24:
        raise ValueError("primes_below decides primes below 3 * 10**24 only")
    found: list[int] = []
    n = limit - 1
    while len(found) < count:
        if is_prime(n):
            found.append(n)
        n -= 1
    return found


PRIME_BITS = 50
"""Residues below 2**50: products are formed with a floating-point quotient (``dealer_kernel.mulmod``)."""


class Residues:
    """Arithmetic modulo ``lanes`` primes below 2**50, vectorised over the lanes."""

    name = "residues"

    def __init__(self, lanes: int, shoe_size: int) -> None:
        self.primes = np.array(primes_below(2**PRIME_BITS, lanes), np.int64)
        self.ident = ("residues", tuple(self.primes.tolist()))
        self.inverse = np.zeros((lanes, shoe_size + 1), np.int64)
        for lane, p in enumerate(self.primes.tolist()):
            for v in range(1, shoe_size + 1):
                self.inverse[lane, v] = pow(v, -1, p)

    def constant(self, value: Fraction | int) -> Array:
        value = Fraction(value)
        return np.array([value.numerator % p * pow(value.denominator, -1, p) % p for p in self.primes.tolist()],
                        np.int64)

    def ratio(self, num: int, den: int) -> Array:
        return self.scale(np.full(len(self.primes), num, np.int64), self.inverse[:, den])

    def coefficients(self, coef: list[list[Fraction]]) -> Array:
        return np.array([[self.constant(c) for c in row] for row in coef], np.int64)

    def scale(self, value: Array, factor: Array) -> Array:
        if value.ndim == 1:
            return np.asarray(scale_mod(value[None, :], factor, self.primes)[0])
        return np.asarray(scale_mod(value, factor, self.primes))

    def add(self, a: Array, b: Array) -> Array:
        return (a + b) % self.primes

    def zeros(self, rows: int) -> Array:
        return np.zeros((rows, len(self.primes)), np.int64)

    def payoff(self, chances: Array, wins: Array) -> Array:
        """``chances[w, outcome, lane]`` against ``wins[outcome, lane]``."""
        return payoff_mod(chances, wins, self.primes)

    def mass(self, chances: Array) -> Array:
        return np.asarray(chances.sum(axis=1) % self.primes)

    def dealer(self, avail: Array, left: int, groups: Any, weights: Any, coef: Array) -> Array:
        return dealer_mod(avail, left, groups.start, groups.cls, groups.count, groups.length, groups.ways_int,
                          groups.outcome, groups.outcomes, weights.m, weights.k, coef, weights.cls,
                          self.primes, self.inverse)

    def dealer_many(self, avail: Array, left: Array, groups: Any, weights: Any, coef: Array) -> Array:
        """:meth:`dealer` for many sets of cards out (rows of ``avail``), on every core."""
        return np.asarray(dealer_mod_many(avail, left, groups.start, groups.cls, groups.count, groups.length,
                                          groups.ways_int, groups.outcome, groups.outcomes, weights.m, weights.k,
                                          coef, weights.cls, self.primes, self.inverse))

    def fraction(self, residues: Array, denominator: int) -> Fraction:
        """The fraction ``x / denominator`` whose value modulo every prime is ``residues``.

        ``x`` is rebuilt by the Chinese remainder theorem from ``residues * denominator``; it must be smaller
        in size than half the product of the primes (the caller chooses enough lanes).
        """
        modulus, value = 1, 0
        for r, p in zip(residues.tolist(), self.primes.tolist()):
            r = r * denominator % p
            value += modulus * ((r - value) * pow(modulus, -1, p) % p)
            modulus *= p
        if value > modulus // 2:
            value -= modulus
        return Fraction(value, denominator)

    def bits(self) -> float:
        return float(np.log2(self.primes.astype(float)).sum())
