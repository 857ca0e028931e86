"""The maker's device (tests/maker2/device.py) in its own process, on a real pseudo-terminal or socket."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import TracebackType

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
