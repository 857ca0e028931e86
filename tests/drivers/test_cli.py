"""``tablectl simulate`` serves a device on a pty until killed; ``tablectl devices`` matches what is plugged in."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from controller.commands.cli import main
from drivers.discovery import Found, Wanted, usb_devices
from drivers.registry import open_shoe
from drivers.shoe import CardDrawn
from drivers.sim.process import SimulatorProcess
from drivers.sim.usb_backend import SimulatedUsbBackend, SimulatedUsbDevice

ROOT = Path(__file__).resolve().parents[2]


def test_simulate_prints_its_port_runs_a_script_and_serves_until_killed(tmp_path: Path) -> None:
    script = tmp_path / "order.txt"
    script.write_text("# the first two cards of the next shuffle\norder AS KD\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.commands.cli", "simulate", "shoe", "--decks", "2", "--seed", "1", "--script", str(script)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True, env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("PORT ")
        shoe = open_shoe("reference", port=line.split()[1])
        shoe.shuffle()
        first, second = shoe.next_event(5.0), shoe.next_event(5.0)
        shoe.close()
        assert (first, second) == (CardDrawn(first.card, 1), CardDrawn(second.card, 2))  # type: ignore[union-attr]
        assert [str(first.card), str(second.card)] == ["AS", "KD"]  # type: ignore[union-attr]
        assert proc.poll() is None, "stdin closed, but the simulator must serve until killed"
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(5) == 0
        proc.stdout.close()  # type: ignore[union-attr]


def test_a_wrong_control_command_is_answered_with_what_was_wrong() -> None:
    with SimulatorProcess("shoe") as sim:
        with pytest.raises(Exception, match="unknown control command 'jump'"):
            sim.command("jump")
        with pytest.raises(Exception, match="unknown fault 'fire'"):
            sim.command("fault fire")


def test_a_port_matches_by_path_or_by_id_link_and_usb_by_ids_and_serial() -> None:
    port = Found("serial", "/dev/ttyUSB0", "CP2102", 0x10C4, 0xEA60, "0001", ("/dev/serial/by-id/usb-shoe-if00",))
    assert Wanted("shoe", "reference", port="/dev/ttyUSB0").matches(port)
    assert Wanted("shoe", "reference", port="/dev/serial/by-id/usb-shoe-if00").matches(port)
    assert not Wanted("shoe", "reference", port="/dev/ttyUSB1").matches(port)
    assert Wanted("shoe", "reference-usb", vendor_id=0x10C4, product_id=0xEA60, serial="0001").matches(port)
    assert not Wanted("shoe", "reference-usb", vendor_id=0x10C4, product_id=0xEA60, serial="0002").matches(port)


def test_usb_devices_are_listed_with_ids_serial_and_names(shoe_sim: SimulatorProcess) -> None:
    found = usb_devices(SimulatedUsbBackend(SimulatedUsbDevice(shoe_sim.port)))
    assert [(f.ids, f.serial, f.description) for f in found] == [("1209:7ab1", "SIM-0001", "tablectl TCS-SHOE-1")]


def test_devices_says_where_each_configured_device_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = (ROOT / "config" / "top-card.toml").read_text()
    config = config.replace('driver = "reference"', 'driver = "reference"\nport = "/dev/serial/by-id/nothing-here"')
    path = tmp_path / "table.toml"
    path.write_text(config)
    assert main(["devices", "--config", str(path)]) == 1  # a configured device is missing
    out = capsys.readouterr().out
    assert "serial ports:" in out and "usb devices:" in out
    assert "shoe: reference at /dev/serial/by-id/nothing-here: NOT FOUND" in out


def _with_shoe(tmp_path: Path, port: str, serial: str) -> Path:
    config = (ROOT / "config" / "top-card.toml").read_text()
    config = config.replace('driver = "reference"', f'driver = "reference"\nport = "{port}"\nexpected_serial = "{serial}"')
    path = tmp_path / "table.toml"
    path.write_text(config)
    return path


def test_devices_asks_a_simulator_port_who_it_is_and_checks_the_serial(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SimulatorProcess("shoe", "--seed", "1") as sim:  # a pty that run would use: not in the serial port list
        assert main(["devices", "--config", str(_with_shoe(tmp_path, str(sim.port), "SIM-0001"))]) == 0
        out = capsys.readouterr().out
        assert f"shoe: reference at {sim.port}: answers shoe TCS-SHOE-1 serial SIM-0001 firmware" in out
        assert "(serial as expected)" in out and "NOT FOUND" not in out
        assert main(["devices", "--json", "--config", str(_with_shoe(tmp_path, str(sim.port), "SIM-0002"))]) == 1
        (shoe,) = json.loads(capsys.readouterr().out)["configured"]
        assert shoe["status"] == "mismatch" and shoe["identity"]["serial"] == "SIM-0001"
        assert shoe["problems"] == ["serial 'SIM-0001', the config expects 'SIM-0002'"]


def test_devices_prints_errors_to_stderr_and_findings_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("[table]\n")
    assert main(["devices", "--config", str(broken)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "table.id: is missing" in err
    assert main(["devices", "--json", "--config", str(_with_shoe(tmp_path, "/dev/serial/by-id/nothing-here", "X"))]) == 1
    found = json.loads(capsys.readouterr().out)
    assert isinstance(found["serial_ports"], list) and found["configured"][0]["status"] == "not found"


def test_simulate_says_when_its_input_ends_and_keeps_obeying_its_control_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "control"
    os.mkfifo(fifo)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.commands.cli", "simulate", "shoe", "--seed", "1", "--control", str(fifo)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline().startswith("PORT ")
        said = proc.stderr.readline()
        assert "standard input ended" in said and f"still read from {fifo}" in said
        for command, answer in (("fault jam", "ok"), ("clear", "ok"), ("fault fire", "error: unknown fault 'fire'")):
            with open(fifo, "w") as pipe:  # a writer of its own each time: the pipe is opened again after each
                pipe.write(command + "\n")
            assert proc.stdout.readline().startswith(answer)
        assert proc.poll() is None
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(5) == 0
        proc.stdout.close()  # type: ignore[union-attr]
        proc.stderr.close()  # type: ignore[union-attr]


def test_a_control_pipe_loses_no_command_when_writers_follow_each_other_at_once(tmp_path: Path) -> None:
    """Each command by a writer of its own, the next opened as soon as the last is answered: none is lost. Reopened
    after each writer, the simulator dropped a command written between its reading the last writer's end and its
    closing the pipe (the kernel frees a pipe's data with its last reader), and the harness waited for ever."""
    fifo = tmp_path / "control"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.commands.cli", "simulate", "shoe", "--seed", "1", "--control", str(fifo)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
    try:
        assert lines.get(timeout=30).startswith("PORT ")
        for n in range(1000):
            with open(fifo, "w") as pipe:
                pipe.write("clear\n")
            try:
                assert lines.get(timeout=10).startswith("ok"), n
            except queue.Empty:
                pytest.fail(f"command {n + 1} of 1000 was never answered")
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(5) == 0
        proc.stdout.close()


def test_a_control_path_that_is_no_named_pipe_is_refused_by_name(tmp_path: Path) -> None:
    plain = tmp_path / "control.txt"
    plain.write_text("clear\n")
    proc = subprocess.run(
        [sys.executable, "-m", "controller.commands.cli", "simulate", "shoe", "--seed", "1", "--control", str(plain),
         "--stop-on-eof"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert f"cannot read control commands from {plain}: it is not a named pipe (make one with mkfifo)" in proc.stderr
    assert proc.stdout.startswith("PORT ") and "ok" not in proc.stdout
