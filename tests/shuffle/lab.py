"""The test lab's own shuffles, written apart from the simulators' (``drivers/shuffles.py``): what the lab feeds the
table must not share the product's assumptions."""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def riffle(order: list[T], rng: random.Random) -> list[T]:
    """One Gilbert-Shannon-Reeds riffle."""
    cut = sum(rng.random() < 0.5 for _ in order)
    left, right, out = order[:cut], order[cut:], []
    while left or right:
        out.append((left if rng.random() * (len(left) + len(right)) < len(left) else right).pop(0))
    return out
