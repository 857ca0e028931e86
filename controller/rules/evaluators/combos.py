"""All k-card hands of a deck as numpy arrays, whole or in chunks, for exhaustive counting.

Rows come in colexicographic order (ordered by their largest position), so the
subsets of ``range(m)`` are the first ``comb(m, k)`` rows of the subsets of
``range(n)``: one cached array serves every smaller deck and every chunk.

>>> combinations_array(4, 2).tolist()
[[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]]
>>> sum(len(chunk) for chunk in iter_combinations(10, 4))
210
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

__all__ = ["combinations_array", "iter_combinations"]

Indices = npt.NDArray[np.uint8]
_MAX_ROWS = 20_000_000


@cache
def _colex(n: int, k: int) -> Indices:
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    smaller = _colex(n - 1, k - 1) if n > 0 else np.zeros((0, k - 1), dtype=np.uint8)
    blocks = [np.zeros((0, k), dtype=np.uint8)]
    for top in range(k - 1, n):
        rest = smaller[: comb(top, k - 1)]
        blocks.append(np.hstack([rest, np.full((len(rest), 1), top, dtype=np.uint8)]))
    result = np.vstack(blocks)
    result.flags.writeable = False
    return result


def _check(n: int, k: int) -> None:
    if not 0 <= k <= n <= 255:
        raise ValueError(f"cannot choose {k} of {n} (n at most 255)")


def combinations_array(n: int, k: int) -> Indices:
    """Every k-subset of ``range(n)`` as rows of a ``(comb(n, k), k)`` array."""
    _check(n, k)
    if comb(n, k) > _MAX_ROWS:
        raise ValueError(f"comb({n}, {k}) rows is too many for one array: use iter_combinations")
    return _colex(n, k).copy()


def iter_combinations(n: int, k: int, prefix: int = 2) -> Iterator[Indices]:
    """Every k-subset of ``range(n)`` in chunks whose rows share their ``prefix`` highest positions."""
    _check(n, k)
    prefix = min(prefix, k)
    low = k - prefix
    tails = _colex(n, low)
    for head in _colex(n, prefix):
        tail = tails[: comb(int(head[0]) if prefix else n, low)]
        if len(tail):
            yield np.hstack([tail, np.broadcast_to(head, (len(tail), prefix))])
