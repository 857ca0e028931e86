"""Options shared by the whole test suite."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _no_system_config(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The machine's own /etc/tablectl must not decide which config a test reads: an empty folder stands in
    (``controller.shipped.system_dir``; subprocesses inherit it)."""
    os.environ["TABLECTL_CONFIG_DIR"] = str(tmp_path_factory.mktemp("etc-tablectl"))


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hardware", "hardware-in-the-loop (with -m hardware)")
    group.addoption("--shoe-port", metavar="PORT", help="run the shoe contract tests against the shoe at PORT")
    group.addoption("--shuffler-port", metavar="PORT", help="run the shuffler contract tests against the shuffler at PORT")
    group.addoption("--camera-device", metavar="SOURCE", help="run the camera test against SOURCE (0, /dev/video0, rtsp://...)")
