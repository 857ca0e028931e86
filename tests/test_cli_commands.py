"""The command line imports only the module of the command it is given, and every module registers the commands
``controller.commands.COMMANDS`` says it does."""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.commands import COMMANDS
from controller.commands.cli import build_parser
from tests.terminal import TABLECTL

ROOT = Path(__file__).resolve().parents[1]


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


def test_every_command_reads_the_tables_own_config_by_default(tmp_path: Path) -> None:
    """With ``/etc/tablectl/table.toml`` (here ``TABLECTL_CONFIG_DIR``), `journal`, `audit` and `staff` work on that
    table, as `run` does, and not on the shipped Top Card table."""
    etc, own = tmp_path / "etc", tmp_path / "TC-07"
    etc.mkdir()
    (etc / "table.toml").write_text(
        (ROOT / "config" / "top-card.toml").read_text().replace('id = "TC-01"', 'id = "TC-07"')
        .replace('events = "var/log/TC-01.events.jsonl"', f'events = "{own}/TC-07.events.jsonl"')
        + f'\n[journal]\npath = "{own}/TC-07.sqlite"\n\n[console]\nstaff = "{own}/staff.json"\n')
    env = {**os.environ, "TABLECTL_CONFIG_DIR": str(etc)}

    def tablectl(*argv: str, stdin: str = "") -> str:
        done = subprocess.run([TABLECTL, *argv], cwd=tmp_path, env=env, input=stdin, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "TC-07" in tablectl("journal", "init")
    assert "intact" in tablectl("journal", "verify")
    assert "ed25519:" in tablectl("audit", "checkpoint") + tablectl("journal", "verify")
    refused = subprocess.run([TABLECTL, "serve"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and f"no supervisor account in {own}/staff.json" in refused.stderr
    assert "tablectl staff add NAME --role supervisor\n" in refused.stderr  # the default config: no `--config None`
    tablectl("staff", "add", "pat", "--role", "supervisor", "--pin-stdin", stdin="482913\n")
    assert "pat" in tablectl("staff", "list")
    assert {p.name for p in own.iterdir()} >= {"TC-07.sqlite", "TC-07.anchor", "staff.json"}
    assert not (tmp_path / "var").exists()


@pytest.mark.parametrize(("argv", "code", "said"), [
    (["simulate", "shoe", "--script", "no such.txt"], 2, "simulate: cannot read the script no such.txt: No such file or directory"),
    (["simulate", "shoe", "--socket", "99999"], 2, "argument --socket: a port is a number from 0 to 65535, not 99999"),
    (["run", "--console", "--port", "99999"], 2, "argument --port: a port is a number from 0 to 65535, not 99999"),
    (["serve", "--port", "-1"], 2, "argument --port: a port is a number from 0 to 65535, not -1"),
    (["rounds", "--last", "99999999999999999999"], 0, ""),
])
def test_an_out_of_range_number_or_a_missing_file_is_named_not_a_traceback(tmp_path: Path, argv: list[str], code: int,
                                                                           said: str) -> None:
    subprocess.run([TABLECTL, "journal", "init"], cwd=tmp_path, capture_output=True, check=True, timeout=120)
    done = subprocess.run([TABLECTL, *argv], cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert done.returncode == code and "Traceback" not in done.stderr, done.stderr
    assert said in done.stderr and (not said or done.stderr.rstrip().endswith(said))
