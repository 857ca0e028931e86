"""A module fixture's value computed once per test run, not once per pytest-xdist worker.

The fault matrix, the conformance kits and the installed wheel take minutes. The README's ``pytest -n 3`` hands
each test file whole to one worker (``tests/conftest.py``), so each is built once; under ``--dist load`` (asked for
by name) each worker that draws one of their tests would build the same value again. pytest-xdist's ``--dist
loadgroup`` would keep such tests on one worker, but under pytest 9.2 it silently stops grouping
(pytest-dev/pytest-xdist#1386), so this is pytest-xdist's documented recipe instead: the first worker computes it
under a lock in the run's shared temporary folder, the others wait and read it back.
``one_worker_at_a_time`` is that lock alone, for work whose result lands elsewhere (numba's kernel cache).
"""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import pytest

T = TypeVar("T")


def computed_once(factory: pytest.TempPathFactory, name: str, compute: Callable[[], T]) -> T:
    """``compute()``, or the value another worker of this run already computed under ``name`` (pickled).

    Without xdist it is simply computed. A worker whose ``compute`` raised leaves nothing behind: the next one
    tries again, and fails its own tests the same way."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return compute()
    shared = factory.getbasetemp().parent / f"once-{name}.pickle"  # the run's folder, above each worker's own
    with one_worker_at_a_time(factory, name):
        if shared.exists():
            value: T = pickle.loads(shared.read_bytes())  # noqa: S301 - written by this very run's worker
            return value
        value = compute()
        shared.write_bytes(pickle.dumps(value))
        return value


@contextmanager
def one_worker_at_a_time(factory: pytest.TempPathFactory, name: str) -> Iterator[None]:
    """Hold the run's lock ``name``: under xdist the other workers wait at it (without xdist it is free)."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        yield
        return
    with (factory.getbasetemp().parent / f"once-{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
