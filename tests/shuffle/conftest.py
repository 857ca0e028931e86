"""The shuffle tests' kernels compiled before any test here plays a table, so that when each alarm comes (which card)
does not depend on how far the background compile (``warm``) had got; ``test_warm`` plays a table from a cold cache."""

from __future__ import annotations

import pytest

from controller.engine.shuffle import warm


@pytest.fixture(autouse=True, scope="session")
def _kernels_compiled() -> None:
    warm.warm()
