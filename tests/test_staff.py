"""``tablectl staff``: the accounts who may log in at the console, kept as scrypt hashes only."""

from __future__ import annotations

import io
import json
import os
import pty
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from controller.commands.cli import main
from controller.records.staff import StaffError, StaffFile
from tests.terminal import TABLECTL


def staff(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str, stdin: str = "") -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(["staff", *args, "--file", str(tmp_path / "staff.json")])


def test_accounts_are_added_listed_checked_by_pin_or_card_and_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert staff(tmp_path, monkeypatch, "add", "pat", "--role", "supervisor", "--pin-stdin", stdin="482913\n") == 0
    assert staff(tmp_path, monkeypatch, "add", "dana", "--role", "dealer", "--card", "--pin-stdin",
                 stdin="2468\nCARD-00417\n") == 0
    assert staff(tmp_path, monkeypatch, "add", "lee", "--role", "dealer", "--card", "--no-pin", "--pin-stdin",
                 stdin="CARD-99\n") == 0
    capsys.readouterr()
    assert staff(tmp_path, monkeypatch, "list") == 0
    assert capsys.readouterr().out.split("\n")[:3] == [
        "dana                 dealer      PIN and card", "lee                  dealer      card", "pat                  supervisor  PIN"]
    path = tmp_path / "staff.json"
    text = path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not any(secret in text for secret in ("482913", "2468", "CARD-00417", "CARD-99"))
    assert all(v["pin"] is None or v["pin"].startswith("scrypt$32768$8$1$") for v in json.loads(text)["accounts"].values())
    store = StaffFile(path)
    assert store.verify("dana", "2468") == store.verify("dana", "CARD-00417") != None  # noqa: E711
    assert store.verify("dana", "CARD-99") is None and store.verify("nobody", "2468") is None
    assert store.has_supervisor()
    assert staff(tmp_path, monkeypatch, "remove", "pat") == 0 and not StaffFile(path).has_supervisor()


@pytest.mark.parametrize(("args", "stdin", "error"), [
    (("add", "9lives", "--role", "dealer", "--pin-stdin"), "1234\n", "'9lives' is not a usable name"),
    (("add", "dana", "--role", "dealer", "--pin-stdin"), "12\n", "dana: a PIN is 4 to 12 digits"),
    (("add", "dana", "--role", "dealer", "--pin-stdin"), "", "standard input ended before the PIN"),
    (("add", "dana", "--role", "dealer", "--no-pin", "--pin-stdin"), "", "--no-pin needs --card"),
    (("remove", "ghost"), "", "no account named 'ghost'"),
])
def test_a_bad_account_is_refused_in_one_line_and_nothing_is_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], stdin: str,
    error: str,
) -> None:
    assert staff(tmp_path, monkeypatch, *args, stdin=stdin) == 2
    err = capsys.readouterr().err
    assert error in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "staff.json").exists()


def test_a_damaged_staff_file_is_named_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "staff.json"
    path.write_text('{"format": 1, "accounts": {"pat": {"role": "owner"}}}')
    with pytest.raises(StaffError, match="account 'pat' has no valid role"):
        StaffFile(path).has_supervisor()
    path.write_text("not json")
    with pytest.raises(StaffError, match="not a staff file"):
        StaffFile(path).verify("pat", "1234")


def test_without_a_terminal_the_pin_is_not_asked_and_the_error_says_how_to_give_it(tmp_path: Path) -> None:
    done = subprocess.run([TABLECTL, "staff", "add", "carol", "--role", "dealer", "--file", str(tmp_path / "staff.json")],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, start_new_session=True, timeout=60)
    assert (done.returncode, done.stderr) == (
        2, "tablectl: no terminal to ask for the PIN on: nothing saved; give it on standard input with --pin-stdin\n")
    assert not (tmp_path / "staff.json").exists()


@pytest.mark.parametrize(("key", "code", "said"), [
    (b"\x03", 130, "tablectl: interrupted: nothing saved"),  # Ctrl-C
    (b"\x04", 2, "tablectl: no PIN given for carol (the input ended): nothing saved; type it at a terminal, "
                 "or give it with --pin-stdin"),  # Ctrl-D
])
def test_ctrl_c_or_ctrl_d_at_the_pin_prompt_says_so_and_saves_nothing(tmp_path: Path, key: bytes, code: int, said: str) -> None:
    master, slave = pty.openpty()
    # its own session, the pty its terminal; Ctrl-C's SIGINT at its default (a worker that ran other tests may ignore
    # it, and an ignored signal stays ignored across exec: the fresh-clone CI saw this test wait out its minute)
    on_terminal = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.login_tty(0); "
                   "os.execv(sys.argv[1], sys.argv[1:])")
    asking = subprocess.Popen([sys.executable, "-c", on_terminal, TABLECTL, "staff", "add", "carol", "--role", "dealer",
                               "--file", str(tmp_path / "staff.json")], stdin=slave)
    os.close(slave)
    try:
        shown = b""
        while b"PIN for carol" not in shown:
            shown += os.read(master, 1024)
        os.write(master, key)
        assert asking.wait(timeout=60) == code
        while True:
            try:
                shown += os.read(master, 1024)
            except OSError:  # the terminal's other end is closed: all it said has been read
                break
    finally:
        asking.kill()
        os.close(master)
    assert shown.decode().replace("\r\n", "\n").rstrip().endswith(said) and b"Traceback" not in shown
    assert not (tmp_path / "staff.json").exists()
