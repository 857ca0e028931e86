"""Fixtures of the floor's tests: a real three-node JetStream cluster and a real PostgreSQL, on loopback.

Both come from Debian (``nats-server``, ``postgresql``); without them the
floor's tests skip and say so. Each test gets its own cluster (cheap: well
under a second) and its own database in one PostgreSQL server per session.
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.floor.localservers import (
    LocalPostgres,
    NatsCluster,
    ServerError,
    _pg_bin,
)

_databases = itertools.count(1)


def _need(program: str, package: str) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed (Debian: apt-get install {package})")


@pytest.fixture(scope="session")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalPostgres]:
    try:
        _pg_bin("initdb")
    except ServerError as exc:
        pytest.skip(str(exc))
    server = LocalPostgres(tmp_path_factory.mktemp("postgres"))
    try:
        server.start()  # a start that fails stops what it started; remove() deletes the files either way
        yield server
    finally:
        server.remove()


@pytest.fixture
def database(postgres: LocalPostgres) -> str:
    """A fresh, empty database's DSN."""
    return postgres.new_database(f"floor_test_{next(_databases)}")


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[NatsCluster]:
    _need("nats-server", "nats-server")
    nats = NatsCluster(tmp_path / "nats", size=3)
    try:
        nats.start()  # a start that fails stops every node it started before it raises
        yield nats
    finally:
        nats.stop()

