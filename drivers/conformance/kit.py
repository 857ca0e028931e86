"""The conformance kit: drives a shoe or a shuffler through docs/protocol.md, one numbered clause at a time.

Each check names the clause it tests and ends ``pass``, ``FAIL`` (with what
the device did) or ``skip`` (with why: most often that the clause needs
someone at the machine). Faults, unreadable cards and restarts need an
``Operator``: a person prompted at the terminal (``PromptOperator``), or
tablectl's simulator, which the kit then drives itself (``SimulatorOperator``).
Without one (``NoOperator``) those clauses are skipped, never passed. A line
lost during a clause fails that clause (the next starts on a new session); a
run that cannot open its first session (8.1) raises ``KitError``, saying so.

    tablectl conformance shoe /dev/serial/by-id/usb-acme_shoe-if00 --operator prompt
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar, Protocol

from drivers.conformance.probe import Probe, ProbeError, Received
from drivers.errors import DeviceError
from drivers.protocol import messages as m

WAIT = 1.0
"""How long a clause waits for something that must not happen (an extra card, a second reply)."""


class Operator(Protocol):
    """Someone (or something) at the machine: ``can(action)`` says whether it can do ``action``."""

    def can(self, action: str) -> bool: ...

    def do(self, action: str) -> None: ...


ACTIONS = {
    "door-open": "open the device's door or lid (and leave it open)",
    "jam": "jam a card in the card path (or make the device report a jam)",
    "clear": "close the door / clear the card path, so the device reports the fault cleared",
    "unreadable": "make the next card unreadable (a damaged or blank card next out)",
    "restart": "switch the device off, then on again",
    "miscount": "take one card out of the deck to be shuffled next (so the count is wrong)",
    "draw": "draw the card the shoe's gate lets out",
    "unplug": "pull the device's cable for a second, then plug it back",
}


class NoOperator:
    """Nobody at the machine: clauses that need someone are skipped."""

    def can(self, action: str) -> bool:
        return False

    def do(self, action: str) -> None:
        raise AssertionError(f"no operator to {action}")


class PromptOperator:
    """A person at the machine, asked on the terminal; ``ask`` returns when they are done."""

    def __init__(self, ask: Callable[[str], str] = input) -> None:
        self._ask = ask

    def can(self, action: str) -> bool:
        return action in ACTIONS

    def do(self, action: str) -> None:
        self._ask(f"  >>> {ACTIONS[action]}, then press Enter ")


class SimulatorOperator:
    """tablectl's simulator, driven through its control commands (``drivers.sim.device``)."""

    COMMANDS: ClassVar[dict[str, str]] = {"door-open": "fault door-open", "jam": "fault jam", "clear": "clear", "unreadable": "unreadable",
                "restart": "restart 0.3", "miscount": "miscount 51", "unplug": "unplug 0.4"}

    def __init__(self, control: Callable[[str], str]) -> None:
        self._control = control

    def can(self, action: str) -> bool:
        return action in self.COMMANDS or action == "draw"

    def do(self, action: str) -> None:
        if action == "draw":  # the simulated dealer draws what the gate allows at once
            return
        try:
            self._control(self.COMMANDS[action])
        except ValueError as exc:
            raise ProbeError(f"the simulator could not {ACTIONS[action]}: {exc}") from exc


@dataclass(frozen=True)
class Outcome:
    clause: str
    title: str
    status: str
    detail: str = ""

    def line(self) -> str:
        return f"{self.clause:>5}  {self.status:<4}  {self.title}" + (f": {self.detail}" if self.detail else "")


class Skip(Exception):
    """The clause cannot be checked here (no operator, not this kind of device)."""


class KitError(DeviceError):
    """The kit could not open the session every clause starts from (8.1): no clause was checked."""


Check = Callable[["Kit"], None]
CHECKS: dict[str, list[tuple[str, str, Check]]] = {"shoe": [], "shuffler": []}
"""Every clause checked, per device, in the document's order: filled by ``drivers.conformance.checks_link`` and
``checks_devices`` (``drivers.conformance.run`` imports them)."""


def clause(number: str, title: str, *devices: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        for device in devices or ("shoe", "shuffler"):
            CHECKS[device].append((number, title, check))
        return check
    return register


class Kit:
    """One run of the kit against one device (see module doc)."""

    def __init__(self, device: str, port: str, operator: Operator | None = None, *, reply_timeout: float = 5.0) -> None:
        if device not in CHECKS:
            raise ValueError(f"the kit checks a shoe or a shuffler, not {device!r}")
        self.device = device
        self.kind = m.DeviceKind.SHOE if device == "shoe" else m.DeviceKind.SHUFFLER
        self.port = port
        self.operator: Operator = operator or NoOperator()
        self.reply_timeout = reply_timeout
        self.probe = Probe(port)
        self.identity: m.Identity | None = None
        self.deck_size = 0
        self.two_decks = False
        self.shuffle_mark = 0

    def run(self, report: Callable[[Outcome], None] = lambda outcome: None, only: set[str] | None = None) -> list[Outcome]:
        """Every clause (or those numbered in ``only``), in the document's order, each reported as it ends."""
        outcomes = []
        try:
            self.session()
        except (ProbeError, DeviceError, OSError) as exc:
            self.probe.close()
            raise KitError(f"the {self.device} at {self.port}, opening the session the clauses start from "
                           f"(8.1: SYNC, Hello, Identity): {exc}") from exc
        assert self.identity is not None
        if self.identity.device is not self.kind:
            self.probe.close()
            other = self.identity.device.name.lower()
            raise KitError(f"the device at {self.port} says it is a {other} ({self.identity.model}), not a {self.device}: "
                           f"check it with `tablectl conformance {other} {self.port}`")
        try:
            for number, title, check in sorted(CHECKS[self.device], key=lambda c: tuple(int(p) for p in c[0].split("."))):
                if only is not None and number not in only:
                    continue
                outcome = self._one(number, title, check)
                outcomes.append(outcome)
                report(outcome)
        finally:
            self.probe.close()
        return outcomes

    def _one(self, number: str, title: str, check: Check) -> Outcome:
        try:
            check(self)
        except Skip as why:
            return Outcome(number, title, "skip", str(why))
        except (ProbeError, AssertionError, DeviceError, OSError) as exc:  # DeviceLost: the port failed under a write
            outcome = Outcome(number, title, "FAIL", str(exc))
            self._settle()
            return outcome
        return Outcome(number, title, "pass")

    def _settle(self) -> None:
        """After a failure, start the next clause on a fresh session with no fault open, as far as one can."""
        try:
            if self.operator.can("clear"):
                self.operator.do("clear")
            self.session()
        except (ProbeError, AssertionError, OSError):
            pass

    # -- helpers the clauses share --------------------------------------

    def session(self, *, reconnect: bool = True) -> m.Identity:
        """A fresh connection: SYNC, Hello, the Identity (3.4, 8.1)."""
        if reconnect:
            self.probe.close()
            self.probe = Probe(self.port).connect()
        self.probe.sync()
        ident = self.probe.command(m.Hello(), self.reply_timeout)
        expect(isinstance(ident, m.Identity), f"Hello was answered with {type(ident).__name__}, not Identity")
        assert isinstance(ident, m.Identity)
        self.identity = ident
        return ident

    def ask(self, command: m.Command, timeout: float | None = None) -> m.Message:
        return self.probe.command(command, self.reply_timeout if timeout is None else timeout)

    def result(self, command: m.Command, *codes: m.Code, timeout: float | None = None) -> m.Result:
        reply = self.ask(command, timeout)
        name = type(command).__name__
        expect(isinstance(reply, m.Result), f"{name} was answered with {type(reply).__name__}, not Result")
        assert isinstance(reply, m.Result)
        expect(reply.command == command.KIND, f"the Result's command byte is 0x{reply.command:02x}, not "
                                              f"0x{command.KIND:02x} (4.2)")
        if codes:
            expect(reply.code in codes, f"{name} was answered {reply.code.name}, expected "
                                        f"{' or '.join(c.name for c in codes)}")
        return reply

    def status(self) -> m.Status:
        reply = self.ask(m.GetStatus())
        expect(isinstance(reply, m.Status), f"GetStatus was answered with {type(reply).__name__}")
        assert isinstance(reply, m.Status)
        return reply

    def need(self, action: str) -> None:
        if not self.operator.can(action):
            raise Skip(f"needs someone at the machine to {ACTIONS[action]} (--operator prompt)")

    def act(self, action: str) -> None:
        self.need(action)
        self.operator.do(action)

    def reconnected(self, timeout: float = 30.0) -> m.Identity:
        """A new session once the device is back (after a restart or an unplug)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self.session()
            except (ProbeError, OSError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def wait_ready(self, timeout: float = 30.0) -> m.Status:
        """8.5: a device still starting reports busy; wait until it does not."""
        deadline = time.monotonic() + timeout
        while True:
            status = self.status()
            if status.state is not m.State.BUSY or time.monotonic() > deadline:
                return status
            time.sleep(0.5)

    def new_shoe(self) -> m.Result:
        """A shoe shuffled (a shuffler: a deck shuffled and dealt from, 6.3), ready to deal."""
        self.wait_ready()
        self.shuffle_mark = self.probe.mark()
        if self.kind is m.DeviceKind.SHOE:
            return self.result(m.Shuffle(), m.Code.OK, timeout=30.0)
        shuffled = self.result(m.Shuffle(), m.Code.OK, timeout=60.0)
        self.deck_size = shuffled.value
        self.result(m.Verify(), m.Code.OK, m.Code.COUNT_MISMATCH)
        alternate = self.result(m.Alternate(), m.Code.OK, m.Code.UNSUPPORTED, m.Code.BAD_REQUEST)
        self.two_decks = alternate.code is m.Code.OK
        if alternate.code is m.Code.OK:
            self.result(m.Shuffle(), m.Code.OK, timeout=60.0)
        return shuffled

    def shoe_start(self) -> int:
        """The mark just after the SHUFFLED event of the shoe ``new_shoe`` started (4.7): every card of that shoe comes
        after it, also the burns a shoe whose burn slot is before its gate makes at once (5.2), whose events may come
        before the Shuffle's answer."""
        start = self.probe.mark_after(lambda e: e.type is m.EventType.SHUFFLED, 2.0, self.shuffle_mark)
        expect(start is not None, "no SHUFFLED event after the Shuffle (4.7)")
        assert start is not None
        return start

    def card_events(self, since: int, n: int, timeout: float = 5.0) -> list[m.Event]:
        """The next ``n`` events that report a card leaving a shoe (5.3: an unreadable card is one)."""
        if self.operator.can("draw"):
            for _ in range(n):
                self.operator.do("draw")
        deadline = time.monotonic() + timeout
        while True:
            cards = cards_out(self.probe.events(since))
            if len(cards) >= n:
                return cards
            if time.monotonic() > deadline and not cards and not self.operator.can("draw"):
                # a shoe whose dealer draws by hand, and nobody there
                raise Skip(f"no card came: needs someone at the shoe to {ACTIONS['draw']} (--operator prompt)")
            if time.monotonic() > deadline:
                return cards
            time.sleep(0.02)

    @contextmanager
    def faulted(self, action: str) -> Iterator[m.Event]:
        """A lasting fault made at the machine (yielding its FAULT event), cleared again afterwards."""
        self.need(action)
        self.need("clear")
        mark = self.probe.mark()
        self.act(action)
        faults = self.probe.wait_events(lambda e: e.type is m.EventType.FAULT, 10.0, mark)
        try:
            expect(bool(faults), f"no FAULT event after the operator was asked to {ACTIONS[action]} (10.1)")
            yield faults[0]
        finally:
            mark = self.probe.mark()
            self.act("clear")
            cleared = self.probe.wait_events(lambda e: e.type is m.EventType.FAULT_CLEARED, 10.0, mark)
            expect(bool(cleared), "no FAULT_CLEARED after the fault was cleared at the machine (10.1)")


def refused_during(kit: Kit, command: m.Command, fault: m.Code) -> None:
    """10.1: a command refused with the fault's code; a one-deck shuffler may answer Alternate as it always does
    (4.11: UNSUPPORTED or BAD_REQUEST), fault or not."""
    if isinstance(command, m.Alternate) and kit.kind is m.DeviceKind.SHUFFLER and not kit.two_decks:
        kit.result(command, fault, m.Code.UNSUPPORTED, m.Code.BAD_REQUEST)
    else:
        kit.result(command, fault)


def expect(condition: bool, failure: str) -> None:
    if not condition:
        raise ProbeError(failure)


def cards_out(events: list[m.Event]) -> list[m.Event]:
    """The events that report a card leaving a shoe, once each (5.3: CARD_DRAWN ``--`` and its FAULT are one)."""
    out: list[m.Event] = []
    for ev in events:
        card = ev.type in (m.EventType.CARD_DRAWN, m.EventType.CARD_BURNED)
        unread_alone = ev.type is m.EventType.FAULT and ev.code is m.Code.UNRECOGNISED_CARD
        if card or (unread_alone and not any(o.count == ev.count for o in out)):
            out.append(ev)
    return out


def allowance_used(events: list[m.Event]) -> int:
    """Cards that used a gate's allowance: every card out, but burns may or may not (5.2): the kit accepts both."""
    return len([e for e in cards_out(events) if e.type is not m.EventType.CARD_BURNED])


def drain_replies(probe: Probe, since: int) -> list[Received]:
    return [r for r in probe.since(since) if isinstance(r.message, m.Identity | m.Status | m.Result | m.Stack)]

