"""Running the witness device (``tests/witness/device.py``) in its own process, and a person at the machine.

``Witness`` starts the device as a separate Python process (it shares no code
with tablectl), reads the ``PORT`` it prints and every card it lets out, and
sends it control lines. ``conformance`` runs ``tablectl conformance ... --operator
prompt`` as a user would and answers each of the kit's prompts by doing what it
asks at the witness (opening its door, jamming it, switching it off and on),
the way the technician of a device maker would.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from controller.cards import Card

DEVICE = Path(__file__).with_name("device.py")
ROOT = Path(__file__).resolve().parents[2]
TABLECTL = [sys.executable, "-m", "controller.commands.cli"]

PROMPTS = {
    # the kit's words (drivers.conformance.kit.ACTIONS) -> what the person does at the witness
    "open the device's door": "door-open",
    "jam a card": "jam",
    "close the door / clear": "clear",
    "make the next card unreadable": "unreadable",
    "switch the device off": "restart 0.3",
    "take one card out": "miscount 51",
    "draw the card": "",  # the witness's dealer draws whatever the gate lets out
    "pull the device's cable": "unplug 0.4",
}


@dataclass
class Witness:
    device: str
    reading: str
    use_socket: bool = False
    args: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def __enter__(self) -> Witness:
        command = [sys.executable, str(DEVICE), self.device, "--reading", self.reading, *self.args]
        if self.use_socket:
            command.append("--socket")
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline().split()
        assert first and first[0] == "PORT", f"the witness did not start: {first}"
        self.url = first[1]
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        return self

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._cond:
                self.lines.append(line.rstrip("\n"))
                word, _, rest = line.strip().partition(" ")
                if word == "CARD":
                    self.cards.append(rest)
                elif word == "UNREAD":
                    self.unread.append(rest)
                self._cond.notify_all()

    def control(self, line: str, timeout: float = 10.0) -> None:
        """Do ``line`` at the machine and wait until the witness has done it."""
        assert self.proc.stdin is not None
        with self._cond:
            mark = len(self.lines)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        with self._cond:
            done = self._cond.wait_for(lambda: any(x in (f"DONE {line}", f"ERROR unknown control {line!r}")
                                                   for x in self.lines[mark:]), timeout)
        assert done, f"the witness did not do {line!r}"

    def status(self) -> dict[str, int]:
        """What the witness says of itself (``status``): ``boot``, ``last_event``, ``shuffles`` since power-on."""
        with self._cond:
            mark = len(self.lines)
        self.control("status")
        with self._cond:
            line = next(x for x in self.lines[mark:] if x.startswith("STATUS "))
        return {key: int(value) for key, _, value in (word.partition("=") for word in line.split()[1:])}

    def __exit__(self, *exc: object) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
            self.proc.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        self._reader.join(2)
        assert self.proc.stdout is not None
        self.proc.stdout.close()

    def sent(self) -> Counter[str]:
        with self._cond:
            return Counter(self.cards)


def conformance(witness: Witness, timeout: float = 400.0) -> tuple[int, str]:
    """``tablectl conformance DEVICE PORT --operator prompt``, each prompt done at the witness; (exit code, output)."""
    proc = subprocess.Popen([*TABLECTL, "conformance", witness.device, witness.url, "--operator", "prompt"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdin is not None and proc.stdout is not None
    out = bytearray()
    deadline = time.monotonic() + timeout
    os.set_blocking(proc.stdout.fileno(), False)
    answered = 0
    while proc.poll() is None and time.monotonic() < deadline:
        chunk = proc.stdout.read()
        if chunk:
            out += chunk
        text = out.decode(errors="replace")
        prompts = re.findall(r">>> (.*?), then press Enter", text)
        while answered < len(prompts):
            action = next((a for words, a in PROMPTS.items() if prompts[answered].startswith(words)), None)
            assert action is not None, f"the kit asked for something the harness does not know: {prompts[answered]!r}"
            if action:
                witness.control(action)
            proc.stdin.write(b"\n")
            proc.stdin.flush()
            answered += 1
        time.sleep(0.02)
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    os.set_blocking(proc.stdout.fileno(), True)
    out += proc.stdout.read() or b""
    proc.stdout.close()
    proc.stdin.close()
    return proc.returncode, out.decode(errors="replace")


# ---- the witness in the fault matrix (tests.drivers.fault_matrix) -----------------------------

MATRIX_WORDS = (
    # the matrix's control commands (tablectl's simulator's words) -> the witness's
    (re.compile(r"\bfault (\S+)"), r"\1"),
    (re.compile(r"\blater "), "after "),
    (re.compile(r"\bnoise drop=1$"), "silence 3600"),
)


class MatrixWitness:
    """The witness as the fault matrix drives a device (``tests.drivers.fault_matrix``): ``control`` in tablectl's
    simulator's words, and what left it as ``out`` (``(how, card)``, ``None`` for a card it could not read),
    ``garbled`` and ``unread`` (the cards the supervisor enters: ``pop`` one when entering it)."""

    def __init__(self, witness: Witness) -> None:
        self.witness = witness
        self.url = witness.url
        if witness.device == "shuffler":
            self.decks = [None] * (2 if "two-decks" in witness.reading else 1)
        self._unread: list[Card] = []
        self._seen = 0

    def control(self, line: str) -> str:
        for pattern, words in MATRIX_WORDS:
            line = pattern.sub(words, line)
        self.witness.control(line)
        return ""

    def _lines(self, *words: str) -> list[tuple[str, str]]:
        with self.witness._cond:
            lines = list(self.witness.lines)
        return [(word, code) for word, _, code in (line.partition(" ") for line in lines) if word in words]

    @property
    def out(self) -> list[tuple[str, Card | None]]:
        return [(how, None if how == "UNREAD" else Card.parse(code)) for how, code in self._lines("CARD", "UNREAD", "GARBLED")]

    @property
    def garbled(self) -> list[Card]:
        return [Card.parse(code) for _, code in self._lines("GARBLED")]

    @property
    def unread(self) -> list[Card]:
        codes = [code for _, code in self._lines("UNREAD", "GARBLED")]
        self._unread.extend(Card.parse(code) for code in codes[self._seen :])
        self._seen = len(codes)
        return self._unread
