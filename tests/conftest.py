"""Fixtures shared by the whole test suite. (The hardware options, ``--shoe-port`` and the others, come from
tablectl's pytest plugin, ``drivers.conformance.pytest_plugin``, so pytest knows them before it reads its command
line.)"""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.once import one_worker_at_a_time


@pytest.fixture(autouse=True, scope="session")
def _no_system_config(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The machine's own /etc/tablectl must not decide which config a test reads: an empty folder stands in
    (``controller.shipped.system_dir``; subprocesses inherit it)."""
    os.environ["TABLECTL_CONFIG_DIR"] = str(tmp_path_factory.mktemp("etc-tablectl"))


@pytest.fixture(autouse=True, scope="session")
def _kernels_compiled(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The shuffle tests' kernels compiled before any test plays a table. On a fresh clone their first compile takes
    a minute or two: each ``tablectl`` the tests start at once would compile them again until one has cached them,
    a console's page step would wait for them past its 30 s, and when each of the shuffle tests' alarms comes
    would depend on how far the background compile had got. A service runs
    ``tablectl shuffle warm`` before the table (docs/shuffle.md); the cold start itself is
    tests/shuffle/test_warm.py's."""
    from controller.engine.shuffle import warm

    with one_worker_at_a_time(tmp_path_factory, "numba-kernels"):  # one compiles, the others load its cache
        warm.warm()


#: The default run's longest files (one to eight minutes each on 2 cores, as CI runs them), longest first. Under
#: ``pytest -n 3`` each file goes whole to one worker (``pytest_xdist_make_scheduler`` below) and the workers take
#: files in collection order as they run out of tests, so these start first, each on the next free worker, and
#: the short files fill in around them. Several mostly wait on devices (the witness, the fault matrix, the
#: conformance kits): the other workers have the cores meanwhile.
LONGEST_FIRST = (
    "tests/drivers/test_witness.py",
    "tests/test_crash_every_game.py",
    "tests/test_crash_recovery.py",
    "tests/console/test_front_ends.py",
    "tests/drivers/test_fault_matrix.py",
    "tests/floor/test_floor_scale.py",
    "tests/test_install.py",
    "tests/console/test_browser_holds.py",
    "tests/drivers/test_conformance.py",
    "tests/console/test_browser_hidden.py",
    "tests/paigow/test_sessions.py",
    "tests/console/test_device_poll.py",
    "tests/floor/test_proof_full_table.py",
    "tests/poker/test_sessions.py",
    "tests/blackjack/test_blackjack_sessions.py",
    "tests/shuffle/test_warm.py",
    "tests/console/test_app.py",
)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:  # pytest-xdist ships no types
    """Whole files to a worker, in collection order (``--dist loadfile`` without its reordering by test count).

    pytest-xdist's default (``--dist load``) first hands each worker a quarter of its share of the tests as one
    consecutive batch (238 tests here), so the first worker's batch held every long file above and it ran them one
    after another: the tests took 28 minutes from a fresh clone, 22.5 with whole files. A whole file to one worker
    also builds a module's costly fixture once (``tests/once.py`` stays for ``--dist load`` asked for by name). Any
    other ``--dist`` given on the command line is kept."""
    if config.option.dist != "load" or "--dist" in " ".join(config.invocation_params.args):
        return None
    from xdist.scheduler import LoadFileScheduling

    config.option.loadscopereorder = False
    return LoadFileScheduling(config, log)


#: Markers whose tests run only when the command line selects them (``pytest -m exhaustive``, ``-m "long or
#: exhaustive"``): each takes minutes, and the README's test command (CI's) must finish inside 30 minutes on
#: 2 cores. A cheaper sibling of each stays in the default run (the README's Tests section).
ON_REQUEST = {
    "exhaustive": "a long exact enumeration: run with -m exhaustive",
    "long": "minutes long: run with -m long",
    "floor_scale": "the floor's proof at scale, several minutes: run with -m floor_scale",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    first = {path: rank for rank, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: first.get(item.nodeid.split("::")[0], len(first)))  # stable: the rest keep their order
    asked = config.option.markexpr or ""
    for item in items:
        for name, reason in ON_REQUEST.items():
            if item.get_closest_marker(name):
                # asked for, it may run past the default run's per-test timeout (pyproject.toml): none applies
                item.add_marker(pytest.mark.timeout(0) if name in asked else pytest.mark.skip(reason=reason))
