"""tablectl's pytest plugin: the hardware options, known before pytest reads its command line.

``pytest -m hardware --shoe-port /dev/serial/by-id/...`` runs the device
contract suite and the conformance kit (``drivers.conformance``) against a
real device. The options live here, in a plugin installed with the package
(``[project.entry-points.pytest11]``), not in a ``conftest.py``: pytest reads
its command line once before any conftest is loaded, takes an unknown option's
value for a test path, and, that path being a device under ``/dev``, looked
for its configuration there ("unrecognized arguments: --shoe-port"). A plugin
is loaded before the options are parsed for real; what pytest already decided
from the device path (the root directory, no configuration file) is decided
again without it.
"""

# ruff: noqa: SLF001 - the fix-up of pytest_load_initial_conftests sets what pytest decided too early, on its Config

from __future__ import annotations

import copy
from typing import Any

import pytest
from _pytest.config.findpaths import determine_setup

OPTIONS = {
    "--shoe-port": ("PORT", "run the shoe contract tests and conformance kit against the shoe at PORT"),
    "--shuffler-port": ("PORT", "run the shuffler contract tests and conformance kit against the shuffler at PORT"),
    "--camera-device": ("SOURCE", "run the camera test against SOURCE (0, /dev/video0, rtsp://...)"),
}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hardware", "hardware-in-the-loop (with -m hardware)")
    for name, (metavar, text) in OPTIONS.items():
        group.addoption(name, metavar=metavar, help=text)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    """Find the configuration again if a device path given to one of our options was taken for a test path."""
    ns = early_config.known_args_namespace
    values = [getattr(ns, name[2:].replace("-", "_"), None) for name in OPTIONS]
    given = [v for v in values if v]
    if early_config.inipath is not None or not given:
        return
    rootpath, inipath, inicfg, _ = determine_setup(
        inifile=None, override_ini=ns.override_ini, args=ns.file_or_dir, rootdir_cmd_arg=ns.rootdir or None,
        invocation_dir=early_config.invocation_params.dir,
    )
    if inipath is None:
        return
    config: Any = early_config
    config._rootpath, config._inipath, config._inicfg = rootpath, inipath, inicfg
    config._inicache.clear()
    args[:] = config._validate_args(early_config.getini("addopts"), "via addopts config") + args
    early_config.known_args_namespace = parser.parse_known_args(args, namespace=copy.copy(early_config.option))
    early_config.known_args_namespace.confcutdir = str(inipath.parent)
    config._consider_importhook()
    config._configure_python_path()
