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


#: Markers whose tests run only when the command line selects them (``pytest -m exhaustive``, ``-m "long or
#: exhaustive"``): each takes minutes, and the README's test command (CI's) must finish inside 30 minutes on
#: 2 cores. A cheaper sibling of each stays in the default run (the README's Tests section).
ON_REQUEST = {
    "exhaustive": "a long exact enumeration: run with -m exhaustive",
    "long": "minutes long: run with -m long",
    "floor_scale": "the floor's proof at scale, several minutes: run with -m floor_scale",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    asked = config.option.markexpr or ""
    for item in items:
        for name, reason in ON_REQUEST.items():
            if item.get_closest_marker(name):
                # asked for, it may run past the default run's per-test timeout (pyproject.toml): none applies
                item.add_marker(pytest.mark.timeout(0) if name in asked else pytest.mark.skip(reason=reason))
