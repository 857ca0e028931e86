"""Fixtures shared by the whole test suite. (The hardware options, ``--shoe-port`` and the others, come from
tablectl's pytest plugin, ``drivers.conformance.pytest_plugin``, so pytest knows them before it reads its command
line.)"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _no_system_config(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The machine's own /etc/tablectl must not decide which config a test reads: an empty folder stands in
    (``controller.shipped.system_dir``; subprocesses inherit it)."""
    os.environ["TABLECTL_CONFIG_DIR"] = str(tmp_path_factory.mktemp("etc-tablectl"))
