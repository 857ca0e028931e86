"""A shoe that was not there when the table started: the table comes up held, and goes on once it is plugged in.

``tablectl serve`` on a PC whose shoe is unplugged, switched off or not yet
given its ``/dev/tablectl-shoe`` name used to exit 2, and systemd gave up after
five starts, leaving the table dark. Instead the table now starts with an
``AwaitedShoe`` in the shoe's place: it reports ``not-connected`` ("shoe not
connected at PORT: why") as the shoe's first event, so the table is held from
the start, and opens the shoe again on a thread of its own, as the driver
reconnects a shoe lost mid-round (docs/protocol.md 8.6), until it answers.
Then every call goes to the real shoe and ``not-connected`` is reported over;
the feed journals both (``shoe_fault``, ``shoe_recovered``). A shoe that
answers but is not the configured one is reported (``identity-mismatch``) and
tried again, never used.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

from drivers.errors import DeviceError, DeviceLost, DeviceTimeout, IdentityMismatch
from drivers.shoe import DeviceFault, DeviceRecovered, Shoe, ShoeEvent

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


class AwaitedShoe(Shoe):
    """The shoe ``open_shoe()`` opens once it can (see module doc); ``first`` is why it could not at start."""

    def __init__(self, open_shoe: Callable[[], Shoe], where: str, first: DeviceError) -> None:
        self._open = open_shoe
        self.where = where
        self._shoe: Shoe | None = None
        self.why = not_connected("shoe", where, first)
        """Why the table is held until the shoe is connected: ``shoe not connected at PORT: why; ...``."""
        self._events: queue.Queue[ShoeEvent] = queue.Queue()
        self._events.put(DeviceFault(NOT_CONNECTED, self.why))
        self._refused: str | None = None
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._keep_trying, name="shoe-awaited", daemon=True)
        self._thread.start()

    @property
    def connected(self) -> Shoe | None:
        """The real shoe once it is open, else ``None``."""
        with self._lock:
            return self._shoe

    def _keep_trying(self) -> None:
        while not self._closed.wait(RETRY_EVERY):
            try:
                shoe = self._open()
            except IdentityMismatch as exc:
                self._refuse(str(exc))
                continue
            except DeviceError:
                continue  # still not there: the fault already says so
            with self._lock:
                if self._closed.is_set():
                    shoe.close()
                    return
                self._shoe = shoe
            if self._refused is not None:
                self._events.put(DeviceRecovered("identity-mismatch", f"the configured shoe is connected at {self.where}"))
            self._events.put(DeviceRecovered(NOT_CONNECTED, f"the shoe is connected at {self.where}"))
            return

    def _refuse(self, why: str) -> None:
        """A device answered at the port that is not the configured shoe: said once, never used."""
        if self._refused is None:
            self._events.put(DeviceFault("identity-mismatch", f"{why}: connect the configured shoe at {self.where}"))
        self._refused = why

    def _own(self) -> list[ShoeEvent]:
        events = []
        while True:
            try:
                events.append(self._events.get_nowait())
            except queue.Empty:
                return events

    # -- the shoe's interface: its own events first, then the real shoe's -----------------------------------------

    def shuffle(self) -> None:
        shoe = self.connected
        if shoe is None:
            raise DeviceLost(f"the shoe is not connected at {self.where}")
        shoe.shuffle()

    def next_event(self, timeout: float | None = None, *, want_card: bool = True) -> ShoeEvent:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                return self._events.get_nowait()
            except queue.Empty:
                pass
            shoe = self.connected
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if shoe is not None and self._events.empty():
                return shoe.next_event(left, want_card=want_card)
            if left is not None and left <= 0:
                raise DeviceTimeout(f"no event from the shoe within {timeout} s: it is not connected at {self.where}")
            try:
                return self._events.get(timeout=0.1 if left is None else min(0.1, left))
            except queue.Empty:
                continue

    def waiting_events(self) -> list[ShoeEvent]:
        own = self._own()
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
        self._closed.set()
        with self._lock:
            shoe, self._shoe = self._shoe, None
        if shoe is not None:
            shoe.close()
        self._thread.join(timeout=2.0)
