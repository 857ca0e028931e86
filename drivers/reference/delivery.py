"""Each device event delivered once and in order, by its number (docs/protocol.md section 7).

A number at or below the last delivered is a duplicate: dropped. A number
above the next one reveals a gap: dropped, and the device is asked to replay
from the first missing number. If the replay cannot give them back (the device
no longer keeps them, 7.3), the next event after the replay's answer is taken
and the gap is reported as lost (7.5). A device whose last event number is
below what was delivered (in a Status or a Replay's answer) has restarted
(8.4), whatever its boot value says.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from drivers.protocol import messages as m
from drivers.reference.session import Session


class Delivery:
    """The event numbers of one device's session (see module doc)."""

    def __init__(self, session: Session, on_restart: Callable[[str], None]) -> None:
        self.session = session
        self.last = 0
        self.duplicates = 0
        self._on_restart = on_restart
        self._lock = threading.Lock()
        self._replaying = False
        self._replay_answered: int | None = None
        self._asked_first = 1

    def accept(self, ev: m.Event) -> tuple[bool, str | None]:
        """Whether to deliver ``ev`` now, and, when it comes after events the device no longer has, which."""
        with self._lock:
            if ev.number <= self.last:
                self.duplicates += 1
                return False, None
            lost = None
            if ev.number > self.last + 1:
                if self._replay_answered != self.last + 1:
                    self._request_replay()
                    return False, None
                lost = f"{self.last + 1} to {ev.number - 1}"
            self._replay_answered = None
            self.last = ev.number
            return True, lost

    def replay(self) -> None:
        """Ask for every event after the last delivered (on the calling thread: it waits for the answer)."""
        try:
            self._asked_first = self.last + 1
            self.session.request(m.Replay(self._asked_first))
        finally:
            self._replaying = False

    def request_replay(self) -> None:
        with self._lock:
            self._request_replay()

    def _request_replay(self) -> None:
        if not self._replaying:
            self._replaying = True
            self.session.schedule(self.replay)

    def restart_from_zero(self) -> None:
        """After a restart the device numbers its events from 1 again."""
        with self._lock:
            self.last, self._replay_answered = 0, None
        self.request_replay()

    def on_replay_result(self, result: m.Result) -> None:
        """Runs on the reader thread. Compared with what was delivered when the Replay was asked (a late answer
        may come after newer events): fewer means a restart."""
        if result.value < self._asked_first - 1:
            self._on_restart(f"its last event is {result.value}, but {self._asked_first - 1} were delivered")
            return
        with self._lock:
            if self.last + 1 == self._asked_first:  # the replayed events are still to come: a gap now means lost
                self._replay_answered = self._asked_first

    def on_status(self, status: m.Status, delivered_when_asked: int) -> None:
        """A Status answering a GetStatus asked when ``delivered_when_asked`` events were delivered (8.4)."""
        if status.last_event < delivered_when_asked:
            self._on_restart(f"its last event is {status.last_event}, but {delivered_when_asked} were delivered")
        elif status.last_event > self.last:
            self.request_replay()
