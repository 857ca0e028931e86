"""Running ``tablectl`` with its standard error on a real pseudo-terminal, as a person at a terminal would."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
from dataclasses import dataclass
from pathlib import Path

TABLECTL = str(Path(sys.executable).with_name("tablectl"))


@dataclass
class Ran:
    returncode: int
    stdout: str
    terminal: str
    """What the command wrote to the terminal (its standard error)."""


def run_on_terminal(argv: list[str], *, cwd: Path | None = None, timeout: float = 600,
                    env: dict[str, str] | None = None) -> Ran:
    """``tablectl ARGV`` with standard error on a 120-column pseudo-terminal and standard output on a pipe."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    proc = subprocess.Popen([TABLECTL, *argv], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
                            cwd=cwd, env={**os.environ, **(env or {})})
    os.close(slave)
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: every writer of the terminal has closed it
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        stdout, _ = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reader.join(timeout=10)
        os.close(master)
    return Ran(proc.returncode, stdout.decode(), b"".join(chunks).decode(errors="replace"))
