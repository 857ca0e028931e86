"""Start a simulator as a separate process and drive its control channel::

with SimulatorProcess("shoe", "--seed", "1") as sim:
shoe = open_shoe("reference", port=sim.port)
sim.command("fault jam")
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading


class SimulatorError(RuntimeError):
    """The simulator process failed to start or refused a control command."""


class SimulatorProcess:
    """``python -m drivers.sim DEVICE ARGS...`` in a child process; ``port`` is where it listens.

    One thread reads the child's output into a queue, so a line that comes after a wait gave up is not lost to
    the next command. Starting waits for the ``PORT`` line while the child runs (a busy machine is slow to start
    Python), up to ``start_timeout`` for a child that hangs; a child that exits is reported at once.
    """

    def __init__(self, device: str, *args: str, start_timeout: float = 60.0) -> None:
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "drivers.sim", device, "--stop-on-eof", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, bufsize=1,
            # Its own process group: a Ctrl-C at the terminal is the parent's to handle (it stops at a safe point and
            # then closes the device); the child ends when the parent closes its standard input, or dies.
            process_group=0,
        )
        self._lock = threading.Lock()
        self._lines: queue.Queue[str] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        try:
            first = self._readline(start_timeout)
        except SimulatorError:
            self.close()
            raise
        if not first.startswith("PORT "):
            self.close()
            raise SimulatorError(f"simulator did not start: {first!r}")
        self.port = first.split(" ", 1)[1].strip()

    @property
    def pid(self) -> int:
        return self._proc.pid

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            self._lines.put(line)
        self._lines.put("")  # end of output: the child exited

    def _readline(self, timeout: float) -> str:
        """The child's next line; ``SimulatorError`` if it exited first, or said nothing for ``timeout`` s."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise SimulatorError(f"simulator silent for {timeout} s") from None
        if not line:
            self._lines.put("")
            raise SimulatorError(f"simulator exited (status {self._proc.wait()})")
        return line

    def command(self, line: str, timeout: float = 10.0) -> str:
        """Run one control command; returns its text, ``SimulatorError`` if refused."""
        with self._lock:
            assert self._proc.stdin is not None
            self._proc.stdin.write(line.strip() + "\n")
            self._proc.stdin.flush()
            answer = self._readline(timeout).strip()
        if answer.startswith("error:"):
            raise SimulatorError(f"{line!r}: {answer}")
        return answer[2:].strip()

    def close(self) -> None:
        if self._proc.poll() is None:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._reader.join(5)  # the child's end of output comes once it exited
        if self._proc.stdout is not None and not self._reader.is_alive():
            self._proc.stdout.close()

    def __enter__(self) -> SimulatorProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
