"""Options shared by the whole test suite."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hardware", "hardware-in-the-loop (with -m hardware)")
    group.addoption("--shoe-port", metavar="PORT", help="run the shoe contract tests against the shoe at PORT")
    group.addoption("--shuffler-port", metavar="PORT", help="run the shuffler contract tests against the shuffler at PORT")
    group.addoption("--camera-device", metavar="SOURCE", help="run the camera test against SOURCE (0, /dev/video0, rtsp://...)")
