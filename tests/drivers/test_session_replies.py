"""Which reply answers which command (docs/protocol.md 4.2, 9.2, 3.9), against a device scripted frame by frame.

The device here is a ``Link`` on the master side of a real pseudo-terminal that answers as each test says, so a
test can send what a slow device sends in the worst order: a reply that answers nothing awaited (late, or from the
host's previous connection on a serial line) that carries the number the host's next command will have (numbers
wrap at 256), or a reply of another kind carrying the number of the command awaited.
"""

from __future__ import annotations

import os
import queue
import threading
import time
import tty
from collections.abc import Callable, Iterator

import pytest

from controller.cards import Card
from drivers.errors import DeviceError
from drivers.protocol import messages as m
from drivers.protocol.frame import Frame
from drivers.protocol.link import Link
from drivers.reference.session import Session, Timing
from drivers.reference.shuffler import ReferenceShuffler
from drivers.shuffler import StackUnknown
from drivers.sim.endpoints import FdTransport
from drivers.transport.serial import SerialTransport

QUIET = Timing(heartbeat=60.0, reply_timeout=1.0)
"""No heartbeat: the host's next command carries the number after its last one."""
STACK = tuple(Card.parse(code) for code in ("AS", "KH", "2C"))

Answer = Callable[[Frame], list[m.Reply]]


def status(request: int, last_event: int = 0) -> m.Status:
    return m.Status(request, m.State.READY, m.Code.OK, 0, 52, last_event, 0)


class ScriptedDevice:
    """A shuffler that answers each command frame with what ``answer`` returns, in that order."""

    def __init__(self, answer: Answer) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self.port = os.ttyname(slave)
        self.answer = answer
        self._frames: queue.Queue[Frame | None] = queue.Queue()
        self.link = Link(FdTransport(master, slave, "scripted shuffler"), self._frames.put, name="scripted")
        self.sent: list[m.Reply] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> ScriptedDevice:
        self.link.start()
        self._thread.start()
        return self

    def _serve(self) -> None:
        while (frame := self._frames.get()) is not None:
            for reply in self.answer(frame):
                try:
                    self.link.send(reply.KIND, m.encode(reply))
                except DeviceError:
                    return  # the host closed the port before acknowledging: it had the reply (3.3)
                self.sent.append(reply)  # the host has handed it over (3.3)

    def __exit__(self, *exc: object) -> None:
        self._frames.put(None)
        self._thread.join(2)
        self.link.close()


def identity(request: int) -> m.Identity:
    return m.Identity(request, 1, m.DeviceKind.SHUFFLER, 7, "SCRIPTED", "S-1", "1.0")


def wait_for(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def session() -> Iterator[Callable[[Answer], tuple[Session, ScriptedDevice]]]:
    opened: list[tuple[ScriptedDevice, Session]] = []

    def open_on(answer: Answer) -> tuple[Session, ScriptedDevice]:
        device = ScriptedDevice(answer).__enter__()
        s = Session(lambda: SerialTransport(device.port), m.DeviceKind.SHUFFLER, timing=QUIET)
        opened.append((device, s))
        s.open()
        return s, device

    yield open_on
    for device, s in opened:
        s.close()
        device.__exit__()


def test_a_reply_that_answers_nothing_does_not_answer_the_command_that_later_carries_its_number(
    session: Callable[[Answer], tuple[Session, ScriptedDevice]],
) -> None:
    """9.2: a reply nobody awaits is dropped, not kept until a command of the same SEQ (256 frames on) takes it."""
    stray = status(-1)

    def answer(frame: Frame) -> list[m.Reply]:
        nonlocal stray
        if frame.kind == m.Hello.KIND:
            return [identity(frame.seq)]
        if frame.kind == m.GetStatus.KIND and stray.request < 0:
            stray = status((frame.seq + 1) & 0xFF, last_event=99)  # to the number the host sends next: to nothing
            return [status(frame.seq), stray]
        return [m.Stack(frame.seq, STACK)] if frame.kind == m.Dispense.KIND else [status(frame.seq, last_event=5)]

    s, device = session(answer)
    s.status()
    assert wait_for(lambda: stray in device.sent)
    reply = s.request(m.Dispense(3))
    assert isinstance(reply, m.Stack) and reply.cards == STACK
    assert s.status().last_event == 5


def test_a_reply_of_another_kind_carrying_the_commands_number_is_not_its_answer(
    session: Callable[[Answer], tuple[Session, ScriptedDevice]],
) -> None:
    """4.2: a Dispense is answered by a Stack or a Result naming Dispense; a Status with its number is not it."""

    def answer(frame: Frame) -> list[m.Reply]:
        if frame.kind == m.Hello.KIND:
            return [identity(frame.seq)]
        if frame.kind == m.Dispense.KIND:
            return [status(frame.seq), m.Stack(frame.seq, STACK)]
        return [status(frame.seq)]

    s, _ = session(answer)
    reply = s.request(m.Dispense(3))
    assert isinstance(reply, m.Stack) and reply.cards == STACK
    assert s.protocol_errors == 0


def test_a_reply_from_before_the_connections_identity_is_ignored(session: Callable[[Answer], tuple[Session, ScriptedDevice]]) -> None:
    """3.9: a device on a serial line still answering the host's previous connection; its number may be the next."""

    def answer(frame: Frame) -> list[m.Reply]:
        if frame.kind == m.Hello.KIND:
            return [status((frame.seq + 1) & 0xFF, last_event=99), identity(frame.seq)]
        return [status(frame.seq, last_event=5)]

    s, _ = session(answer)
    assert s.status().last_event == 5
    assert s.ignored_before_hello == 1


def test_a_dispense_answered_only_by_a_reply_of_another_kind_names_it() -> None:
    """The dealer's message says what came (a Status), not "0 cards"; the stack may be in the tray."""

    def answer(frame: Frame) -> list[m.Reply]:
        if frame.kind == m.Hello.KIND:
            return [identity(frame.seq)]
        return [status(frame.seq)]  # a Dispense too

    with ScriptedDevice(answer) as device:
        shuffler = ReferenceShuffler(lambda: SerialTransport(device.port), timing=Timing(heartbeat=60.0, reply_timeout=0.5))
        try:
            with pytest.raises(StackUnknown, match=r"Dispense of 3 cards was not understood \(a Status\)"):
                shuffler.dispense(3)
            assert shuffler.session.protocol_errors == 1
        finally:
            shuffler.close()
