"""The shuffle tests' kernels compiled before any test here plays a table, so that when each alarm comes (which card)
does not depend on how far the background compile (``warm``) had got; ``test_warm`` plays a table from a cold cache."""

from __future__ import annotations

import pytest

from controller.engine.shuffle import warm
from tests.once import one_worker_at_a_time


@pytest.fixture(autouse=True, scope="session")
def _kernels_compiled(tmp_path_factory: pytest.TempPathFactory) -> None:
    with one_worker_at_a_time(tmp_path_factory, "numba-kernels"):  # one compiles, the others load its cache
        warm.warm()
