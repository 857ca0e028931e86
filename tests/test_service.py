"""The systemd service: the unit verifies, the udev rules name every device, and ``tablectl serve`` speaks sd_notify and listens on nothing."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from controller.commands.notify import Notifier
from controller.engine.config import DEFAULT_CONFIG
from tests.helpers import init_table
from tests.journal_checks import check_journal

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "tablectl.service"
RULES = ROOT / "systemd" / "99-tablectl.rules"
EXEC = "/opt/tablectl/venv/bin/tablectl"


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze missing (.ci/run installs systemd)")
def test_the_unit_passes_systemd_analyze_verify_without_a_warning(tmp_path: Path) -> None:
    """Verified as installed: only the ExecStart path is pointed at an executable that exists here."""
    binary = tmp_path / "tablectl"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    unit = tmp_path / "tablectl.service"
    unit.write_text(UNIT.read_text().replace(EXEC, str(binary)))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and not result.stderr.strip() and not result.stdout.strip(), result.stderr


def test_the_unit_is_notify_watchdogged_restarted_and_keeps_devices_visible() -> None:
    s = unit_settings()
    assert s["Type"] == ["notify"] and s["WatchdogSec"] and s["Restart"] == ["on-failure"]
    assert s["StartLimitBurst"] and s["StartLimitIntervalSec"]
    assert s["ExecStart"][0].startswith(f"{EXEC} serve ")
    assert "PrivateDevices" not in s
    assert {"dialout", "plugdev", "video"} <= set(s["SupplementaryGroups"][0].split())
    assert s["User"] == ["tablectl"]
    families = s["RestrictAddressFamilies"][0].split()
    assert "AF_UNIX" in families and "AF_PACKET" not in families
    # IP only for the dealer console, and only to and from loopback
    assert s["IPAddressDeny"] == ["any"] and s["IPAddressAllow"] == ["localhost"]


def test_the_udev_rules_give_each_device_a_stable_name_and_the_service_group() -> None:
    rules = [line for line in RULES.read_text().splitlines() if line.strip() and not line.startswith("#")]
    names = set()
    for rule in rules:
        pairs = re.findall(r'([A-Z]+(?:\{[^}]+\})?)(==|!=|\+=|=)"([^"]*)"', rule)
        assert ", ".join(f'{k}{op}"{v}"' for k, op, v in pairs) == rule, f"malformed rule: {rule}"
        keys = {(k, op): v for k, op, v in pairs}
        assert keys[("GROUP", "=")] == "tablectl" and keys[("MODE", "=")] == "0660"
        names.add(keys[("SYMLINK", "+=")])
        assert any(op == "==" for _, op, _ in pairs)
    assert {"tablectl-shoe", "tablectl-shuffler", "tablectl-camera"} <= names


def test_the_notifier_does_nothing_outside_systemd_and_uses_the_abstract_namespace() -> None:
    assert not Notifier({}).ready("up")
    assert Notifier({"NOTIFY_SOCKET": "@tablectl-test"}).address == "\0tablectl-test"
    assert Notifier({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}).watchdog_interval is None


def test_a_notify_socket_nobody_reads_never_stops_the_table_loop(tmp_path: Path) -> None:
    # the keep-alives go from the table loop's thread; once the socket's short queue is full a blocking send
    # stopped that thread, and the console's requests behind it (test_serve under a loaded CI)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as unread:
        unread.bind(str(tmp_path / "notify"))
        notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "2"})
        sent = []
        worker = threading.Thread(target=lambda: sent.extend(notifier.watchdog() for _ in range(200)), daemon=True)
        worker.start()
        worker.join(timeout=60)
        assert not worker.is_alive(), "a keep-alive waited for room in the notify socket's queue"
        assert sent[0] and not sent[-1]  # the first went; the last was dropped (the queue full) or held back (the interval)
        assert not notifier.send("STATUS=still up", wait=0.05)
        assert unread.recv(4096) == b"WATCHDOG=1"


def listening_sockets(pid: int) -> list[str]:
    """Sockets of ``pid`` that are IP sockets or listening unix sockets (an fd the running process
    closes while they are listed is skipped)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except FileNotFoundError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for proto in ("tcp", "tcp6", "udp", "udp6"):
        table = Path(f"/proc/net/{proto}")
        for line in table.read_text().splitlines()[1:] if table.exists() else []:
            if line.split()[9] in inodes:
                found.append(f"{proto}: {line.strip()}")
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[6] in inodes and int(fields[3], 16) & 0x10000:
            found.append(f"unix listening: {line.strip()}")
    return found


def test_serve_without_its_console_says_ready_feeds_the_watchdog_listens_on_nothing_and_stops_on_sigterm(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(DEFAULT_CONFIG.read_text().replace('driver = "reference"', 'driver = "simulated"').replace(
        '[log]\nevents = "var/log/TC-01.events.jsonl"',
        f'[log]\nevents = "{tmp_path}/events.jsonl"\n\n[journal]\npath = "{tmp_path}/journal.sqlite"'))
    init_table(tmp_path / "journal.sqlite", config=config)
    address = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(20)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "200000"}
    proc = subprocess.Popen([sys.executable, "-m", "controller.commands.cli", "serve", "--config", str(config), "--interval", "0.05",
                             "--seed", "3", "--no-console", "--simulated-players"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        messages = [listener.recv(4096).decode()]
        assert "READY=1" in messages[0].split("\n")
        while sum("WATCHDOG=1" in m for m in messages) < 2:
            messages.append(listener.recv(4096).decode())
        assert listening_sockets(proc.pid) == []
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)
        while "STOPPING=1" not in messages[-1]:
            messages.append(listener.recv(4096).decode())
        _, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
        listener.close()
    assert proc.returncode == 0, err
    counts = check_journal(tmp_path / "journal.sqlite")
    assert counts["rounds"] >= 1 and counts["open"] == 0


def test_run_refuses_a_journal_serve_has_dealt_rather_than_play_simulated_players_into_it(tmp_path: Path) -> None:
    # A deployment walk: `tablectl run` on the table PC (the docs' install check, or any run without --config once
    # /etc/tablectl/table.toml exists) played five rounds of simulated players' wagers into the live table's journal
    # and its never-reset meters. A journal `serve` has dealt is now refused by `run`, before it is opened.
    config = tmp_path / "table.toml"
    config.write_text(DEFAULT_CONFIG.read_text().replace('driver = "reference"', 'driver = "simulated"').replace(
        '[log]\nevents = "var/log/TC-01.events.jsonl"',
        f'[log]\nevents = "{tmp_path}/events.jsonl"\n\n[journal]\npath = "{tmp_path}/journal.sqlite"'))
    init_table(tmp_path / "journal.sqlite", config=config)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NOTIFY_SOCKET", None)
    trial = subprocess.run([sys.executable, "-m", "controller.commands.cli", "run", "--config", str(config), "--rounds", "2",
                            "--seed", "3", "--no-camera"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert trial.returncode == 0, trial.stderr  # before the table is served, a trial may use its journal
    demo = subprocess.run([sys.executable, "-m", "controller.commands.cli", "serve", "--config", str(config), "--interval",
                           "0.02", "--seed", "3", "--no-console", "--simulated-players", "--rounds", "1"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert demo.returncode == 0, demo.stderr  # a demonstration table's journal stays a trial's
    again = subprocess.run([sys.executable, "-m", "controller.commands.cli", "run", "--config", str(config), "--rounds", "1",
                            "--seed", "4", "--no-camera"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    address = str(tmp_path / "notify")  # the live table: no simulated players, up until it is stopped
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(20)
    live = subprocess.Popen([sys.executable, "-m", "controller.commands.cli", "serve", "--config", str(config), "--seed", "3",
                             "--no-console"], cwd=ROOT, env={**env, "NOTIFY_SOCKET": address}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        while "READY=1" not in listener.recv(4096).decode().split("\n"):
            pass
        live.send_signal(signal.SIGTERM)
        _, err = live.communicate(timeout=20)
    finally:
        live.kill()
        listener.close()
    assert live.returncode == 0, err
    before = check_journal(tmp_path / "journal.sqlite")
    refused = subprocess.run([sys.executable, "-m", "controller.commands.cli", "run", "--config", str(config), "--rounds", "2",
                              "--seed", "3", "--no-camera"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2, refused.stderr
    assert f"journal {tmp_path}/journal.sqlite is table TC-01's own: `tablectl serve` has dealt its rounds" in refused.stderr
    assert "--config top-card" in refused.stderr and "Traceback" not in refused.stderr
    assert check_journal(tmp_path / "journal.sqlite") == before  # not a record written
