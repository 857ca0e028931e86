"""The command line imports only the module of the command it is given, and every module registers the commands
``controller.commands.COMMANDS`` says it does."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

import pytest

from controller.commands import COMMANDS
from controller.commands.cli import build_parser


@pytest.mark.parametrize("module", list(COMMANDS))
def test_each_command_module_registers_the_commands_the_table_of_commands_names(module: str) -> None:
    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers(dest="command")
    importlib.import_module(module).register(subparsers)
    assert tuple(subparsers.choices) == COMMANDS[module]


@pytest.mark.parametrize(("argv", "built"), [(["round", "r1"], {"rounds", "round"}), (["rounds", "--last", "3"], {"rounds", "round"}),
                                             (["hold", "list"], {"hold"}), (["--version", "meters"], {"meters"})])
def test_a_named_command_builds_only_its_modules_parsers(argv: list[str], built: set[str]) -> None:
    assert set(_commands(build_parser(argv))) == built


@pytest.mark.parametrize("argv", [[], ["--help"], ["no-such-command"]])
def test_help_or_an_unknown_command_builds_every_parser(argv: list[str]) -> None:
    assert set(_commands(build_parser(argv))) == {name for names in COMMANDS.values() for name in names}


def test_a_command_that_reads_the_journal_does_not_load_the_camera_the_console_or_numba() -> None:
    """`tablectl hold list` and `tablectl journal verify` start in well under a second: they import neither the shuffle
    kernels (numba), nor OpenCV, nor the console's web server."""
    probe = ("import sys; from controller.commands.cli import build_parser\n"
             "for argv in (['hold', 'list'], ['journal', 'verify'], ['rounds'], ['meters']): build_parser(argv)\n"
             "print(sorted(m for m in ('numba', 'cv2', 'uvicorn', 'starlette') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return next(a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction))
