"""The maker's device (tests/maker2/device.py) in its own process, on a real pseudo-terminal or socket."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[2]
DEVICE = Path(__file__).with_name("device.py")


class MakerDevice:
    """``with MakerDevice("shoe", "reply_delay=1.5") as dev``: ``dev.port`` to open, ``dev.control(line)`` at the machine."""

    def __init__(self, kind: str, *options: str, socket: bool = False) -> None:
        args = [sys.executable, str(DEVICE), kind]
        for option in options:
            args += ["--opt", option]
        if socket:
            args += ["--socket", "0"]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().split()
        assert line and line[0] == "PORT", f"the device did not start: {line}"
        self.port = line[1]

    def control(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def __enter__(self) -> MakerDevice:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


def run_table(tmp: Path, kind: str, game: str, rounds: int, options: tuple[str, ...] = (),
              controls: tuple[str, ...] = ()) -> tuple[subprocess.CompletedProcess[str], str]:
    """``tablectl run`` of the shipped ``game`` config with its ``kind`` on the maker's device (control ``controls``
    given first, e.g. ``at 3 jam``): the run, and its event log's text."""
    with MakerDevice(kind, *options) as dev:
        for line in controls:
            dev.control(line)
        config = (ROOT / "config" / f"{game}.toml").read_text(encoding="utf-8")
        head, section, rest = config.partition(f"[{kind}]\n")
        rest = rest.replace('driver = "simulated"', 'driver = "reference"', 1)
        path = tmp / "table.toml"
        path.write_text(f'{head}{section}port = "{dev.port}"\n{rest}', encoding="utf-8")
        where = ["--config", str(path), "--journal", str(tmp / "journal.sqlite"), "--log", str(tmp / "events.jsonl")]
        cli = [sys.executable, "-m", "controller.commands.cli"]
        subprocess.run([*cli, "journal", "init", *where], capture_output=True, text=True, cwd=ROOT, check=True)
        run = subprocess.run([*cli, "run", *where, "--rounds", str(rounds), "--no-camera", "--seed", "7"],
                             capture_output=True, text=True, cwd=ROOT, check=False, timeout=60)
    return run, (tmp / "events.jsonl").read_text(encoding="utf-8")
