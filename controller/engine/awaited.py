"""A shoe or shuffler that was not there when the table started: the table comes up held, and goes on once it is.

``tablectl serve`` on a PC whose shoe (or shuffler) is unplugged, switched off
or not yet given its ``/dev/tablectl-*`` name used to exit 2, and systemd gave
up after five starts, leaving the table dark. Instead the table now starts with
an ``AwaitedShoe`` (``AwaitedShuffler``) in the device's place: it reports
``not-connected`` ("shoe not connected at PORT: why") as the device's first
report, so the table is held from the start, and opens the device again on a
thread of its own (``Opening``), as the driver reconnects a device lost
mid-round (docs/protocol.md 8.6), until it answers. Then every call goes to the
real device and ``not-connected`` is reported over; the feed journals both
(``shoe_fault`` and ``shoe_recovered``, or the shuffler's). A device that
answers but is not the configured one is reported (``identity-mismatch``) and
tried again, never used.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from controller.cards import Card
from drivers.errors import DeviceError, DeviceLost, DeviceTimeout, IdentityMismatch
from drivers.notices import DeviceFault, DeviceRecovered, DeviceWarning
from drivers.shoe import Shoe, ShoeEvent
from drivers.shuffler import Shuffler, ShufflerOffline

NOT_CONNECTED = "not-connected"
"""The fault code of a device the table has not yet been able to open since it started."""
RETRY_EVERY = 1.0
"""Seconds between two tries at opening the device (each try may itself wait for the device to answer)."""
ABSENT = (DeviceLost, DeviceTimeout)
"""What a device that is not there (yet) raises when opened: the table waits for it rather than stopping."""


def not_connected(device: str, where: str, exc: DeviceError) -> str:
    """What the dealer and the pit read while the device is awaited: ``shoe not connected at PORT: why``."""
    why = str(exc).removeprefix(f"cannot open {where}: ")
    return f"{device} not connected at {where}: {why}; tried again every {RETRY_EVERY:g} s until it is plugged in"


class Device(Protocol):
    def close(self) -> None: ...


D = TypeVar("D", bound=Device)
Report = DeviceFault | DeviceRecovered


class Opening(Generic[D]):
    """``open_device()`` tried every ``RETRY_EVERY`` s on a thread of its own until it gives the device; meanwhile
    and then, what to report (``reports``): ``not-connected`` at once, its end once the device is open."""

    def __init__(self, kind: str, open_device: Callable[[], D], where: str, first: DeviceError) -> None:
        self.kind, self.where = kind, where
        self._open = open_device
        self.why = not_connected(kind, where, first)
        """Why the table is held until the device is connected: ``shoe not connected at PORT: why; ...``."""
        self._device: D | None = None
        self._reports: queue.Queue[Report] = queue.Queue()
        self._reports.put(DeviceFault(NOT_CONNECTED, self.why))
        self._refused: str | None = None
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self.arrived = threading.Event()
        """Set once the device is open."""
        self._thread = threading.Thread(target=self._keep_trying, name=f"{kind}-awaited", daemon=True)
        self._thread.start()

    @property
    def device(self) -> D | None:
        """The real device once it is open, else ``None``."""
        with self._lock:
            return self._device

    def _keep_trying(self) -> None:
        while not self._closed.wait(RETRY_EVERY):
            try:
                device = self._open()
            except IdentityMismatch as exc:
                self._refuse(str(exc))
                continue
            except DeviceError:
                continue  # still not there: the fault already says so
            with self._lock:
                if self._closed.is_set():
                    device.close()
                    return
                self._device = device
            if self._refused is not None:
                self._reports.put(DeviceRecovered("identity-mismatch", f"the configured {self.kind} is connected at {self.where}"))
            self._reports.put(DeviceRecovered(NOT_CONNECTED, f"the {self.kind} is connected at {self.where}"))
            self.arrived.set()
            return

    def _refuse(self, why: str) -> None:
        """A device answered that is not the configured one: said once, never used."""
        if self._refused is None:
            self._reports.put(DeviceFault("identity-mismatch", f"{why}: connect the configured {self.kind} at {self.where}"))
        self._refused = why

    def reports(self) -> list[Report]:
        """What to report since the last call, without waiting."""
        out = []
        while True:
            try:
                out.append(self._reports.get_nowait())
            except queue.Empty:
                return out

    def next_report(self, timeout: float) -> Report | None:
        try:
            return self._reports.get(timeout=timeout)
        except queue.Empty:
            return None

    def pending(self) -> bool:
        return not self._reports.empty()

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            device, self._device = self._device, None
        if device is not None:
            device.close()
        self._thread.join(timeout=0.1)  # a try at opening may still be under way: it closes what it opens


class AwaitedShoe(Shoe):
    """The shoe ``open_shoe()`` opens once it can (see module doc); ``first`` is why it could not at start."""

    def __init__(self, open_shoe: Callable[[], Shoe], where: str, first: DeviceError) -> None:
        self.opening = Opening("shoe", open_shoe, where, first)
        self.where, self.why = where, self.opening.why

    @property
    def connected(self) -> Shoe | None:
        """The real shoe once it is open, else ``None``."""
        return self.opening.device

    # -- the shoe's interface: its own reports first, then the real shoe's -----------------------------------------

    def shuffle(self) -> None:
        self._shoe().shuffle()

    def _shoe(self) -> Shoe:
        shoe = self.connected
        if shoe is None:
            raise DeviceLost(f"the shoe is not connected at {self.where}")
        return shoe

    def next_event(self, timeout: float | None = None, *, want_card: bool = True) -> ShoeEvent:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            shoe = self.connected
            if shoe is not None and not self.opening.pending():
                return shoe.next_event(left, want_card=want_card)
            report = self.opening.next_report(0.1 if left is None else min(0.1, left))
            if report is not None:
                return report
            if left is not None and left <= 0:
                raise DeviceTimeout(f"no event from the shoe within {timeout} s: it is not connected at {self.where}")

    def waiting_events(self) -> list[ShoeEvent]:
        own: list[ShoeEvent] = list(self.opening.reports())
        shoe = self.connected
        return own + (shoe.waiting_events() if shoe is not None else [])

    def counted(self) -> int | None:
        shoe = self.connected
        return shoe.counted() if shoe is not None else None

    def close_gate(self) -> None:
        shoe = self.connected
        if shoe is not None:
            shoe.close_gate()

    def close(self) -> None:
        self.opening.close()


class ShufflerNotConnected(ShufflerOffline):
    code = NOT_CONNECTED


class AwaitedShuffler(Shuffler):
    """The shuffler ``open_shuffler()`` opens once it can (see module doc); ``first`` is why it could not at start."""

    def __init__(self, open_shuffler: Callable[[], Shuffler], where: str, first: DeviceError) -> None:
        self.opening = Opening("shuffler", open_shuffler, where, first)
        self.where, self.why = where, self.opening.why

    @property
    def connected(self) -> Shuffler | None:
        """The real shuffler once it is open, else ``None``."""
        return self.opening.device

    def _shuffler(self) -> Shuffler:
        shuffler = self.connected
        if shuffler is None:
            raise ShufflerNotConnected(self.why)
        return shuffler

    def shuffle(self) -> None:
        self._shuffler().shuffle()

    def verify_count(self) -> int:
        return self._shuffler().verify_count()

    def dispense(self, n: int) -> tuple[Card | None, ...]:
        return self._shuffler().dispense(n)

    def alternate(self) -> None:
        self._shuffler().alternate()

    def next_deck(self) -> int:
        return self._shuffler().next_deck()

    def decks_in_turn(self) -> int:
        shuffler = self.connected
        return shuffler.decks_in_turn() if shuffler is not None else 1

    def notices(self) -> list[DeviceFault | DeviceRecovered | DeviceWarning]:
        own: list[DeviceFault | DeviceRecovered | DeviceWarning] = list(self.opening.reports())
        shuffler = self.connected
        return own + (shuffler.notices() if shuffler is not None else [])

    def wait_cleared(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        if not self.opening.arrived.wait(timeout):
            return False
        return self._shuffler().wait_cleared(max(0.0, deadline - time.monotonic()))

    def reported_fault(self) -> str | None:
        shuffler = self.connected
        return shuffler.reported_fault() if shuffler is not None else f"shuffler fault ({NOT_CONNECTED}): {self.why}"

    def close(self) -> None:
        self.opening.close()
