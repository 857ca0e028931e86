"""What the shuffle monitor decides on: each test's false-alarm rate for a hold and for a pit warning.

Read from a table config's ``[shuffle]`` section::

    [shuffle]
    enabled = true          # test every shoe (default)
    hold_rate = 1e-4        # false holds per shoe allowed, all shoe tests together, split evenly
    warn_rate = 1e-2        # false pit warnings per shoe, the same way
    device_hold_rate = 1e-4 # the same for the device tests that hold (positions, drift: false alarms per shoe in the long run)
    device_warn_rate = 1e-2
    history = 10000         # earlier shoes a device's orders are checked against (test "repeat")

    [shuffle.hold]          # optional, per test: its own rate (0 turns that level off)
    moved = 0               # e.g. positions moved only warns

Rates are upper bounds: the shoe tests are martingales (Ville's inequality),
the device tests CUSUMs whose run length to a false alarm is at least
``1 / rate`` shoes (``docs/shuffle.md``, with the rates measured by simulation).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SHOE_TESTS = ("pairs", "rising", "guess", "moved", "likelihood", "repeat")
"""Tests of one shoe, card by card: each raises its alarm at the card where its evidence crosses the line."""
DEVICE_TESTS = ("positions", "colour-runs", "suit-runs", "serial", "drift")
"""Tests of a device over its shoes (CUSUMs), decided at the end of each shoe."""
DEVICE_HOLD_TESTS = ("positions", "drift")
"""The device tests that hold by default: their CUSUMs add up exact e-values, so their bound is exact. Runs and
serial correlation add up z-scores whose tails are only nearly normal (Siegmund's run length is a few times too
long at 1 in 10,000, docs/shuffle.md): by default they only warn."""
LEVELS = ("hold", "warn")


class PolicyError(ValueError):
    """A ``[shuffle]`` key with a wrong value; the message names the key."""


def normal_cusum_limit(rate: float, k: float = 0.5) -> float:
    """The limit ``h`` of a one-sided CUSUM of standard normal scores with reference ``k`` whose
    run length to a false alarm is ``1 / rate`` shoes (Siegmund's approximation, checked in docs/shuffle.md).

    >>> round(normal_cusum_limit(1e-4), 2)
    7.35
    """
    target = 1.0 / rate
    lo, hi = 0.0, 200.0
    for _ in range(200):
        h = (lo + hi) / 2
        b = h + 1.166
        arl = (math.exp(2 * k * b) - 2 * k * b - 1) / (2 * k * k)
        lo, hi = (h, hi) if arl < target else (lo, h)
    return (lo + hi) / 2


@dataclass(frozen=True)
class Policy:
    """Alarm rates per test and level (``0``: that level is off for that test)."""

    hold: Mapping[str, float] = field(default_factory=lambda: _hold_rates(1e-4, 1e-4))
    warn: Mapping[str, float] = field(default_factory=lambda: _split(1e-2, SHOE_TESTS) | _split(1e-2, DEVICE_TESTS))
    enabled: bool = True
    history: int = 10_000

    def rate(self, test: str, level: str) -> float:
        return (self.hold if level == "hold" else self.warn).get(test, 0.0)

    def limit(self, test: str, level: str) -> float:
        """The line a test's score must reach for this level's alarm (``inf``: never).

        Shoe tests and the e-value CUSUMs (positions, drift) score in ln of an
        e-value: the line is ``ln(1 / rate)``. Runs and serial correlation score
        a two-sided normal CUSUM: the line gives each side half the rate.
        """
        rate = self.rate(test, level)
        if rate <= 0:
            return math.inf
        if test in ("colour-runs", "suit-runs", "serial"):
            return normal_cusum_limit(rate / 2)
        return math.log(1.0 / rate)

    @classmethod
    def from_config(cls, section: Mapping[str, Any], where: str = "shuffle") -> Policy:
        known = {"enabled", "hold_rate", "warn_rate", "device_hold_rate", "device_warn_rate", "history", "hold", "warn"}
        for key in section:
            if key not in known:
                raise PolicyError(f"{where}.{key}: unknown key; expected one of {', '.join(sorted(known))}")
        enabled = section.get("enabled", True)
        if not isinstance(enabled, bool):
            raise PolicyError(f"{where}.enabled: must be true or false, not {enabled!r}")
        history = section.get("history", 10_000)
        if not isinstance(history, int) or isinstance(history, bool) or history < 0:
            raise PolicyError(f"{where}.history: must be a whole number of shoes, 0 or more, not {history!r}")
        levels = {}
        for level, default in (("hold", 1e-4), ("warn", 1e-2)):
            shoe = _rate(section, f"{level}_rate", default, where)
            device = _rate(section, f"device_{level}_rate", default, where)
            rates = _hold_rates(shoe, device) if level == "hold" else _split(shoe, SHOE_TESTS) | _split(device, DEVICE_TESTS)
            own = section.get(level, {})
            if not isinstance(own, Mapping):
                raise PolicyError(f"{where}.{level}: must be a table of test = rate")
            for test in own:
                if test not in rates:
                    raise PolicyError(f"{where}.{level}.{test}: unknown test; expected one of "
                                      f"{', '.join(SHOE_TESTS + DEVICE_TESTS)}")
                rates[test] = _rate(own, test, 0.0, f"{where}.{level}")
            levels[level] = rates
        return cls(hold=levels["hold"], warn=levels["warn"], enabled=enabled, history=history)


def _hold_rates(shoe: float, device: float) -> dict[str, float]:
    return _split(shoe, SHOE_TESTS) | dict.fromkeys(DEVICE_TESTS, 0.0) | _split(device, DEVICE_HOLD_TESTS)


def _split(total: float, tests: tuple[str, ...]) -> dict[str, float]:
    return {test: total / len(tests) for test in tests}


def _rate(section: Mapping[str, Any], key: str, default: float, where: str) -> float:
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1:
        raise PolicyError(f"{where}.{key}: must be a rate from 0 to below 1 (false alarms per shoe), not {value!r}")
    return float(value)
