"""Ctrl-C at the command line: a clean end rather than a Python traceback.

``cli.main`` turns an interrupt into one line and exit 130 (``EXIT_INTERRUPTED``, the shell's 128 + SIGINT).
A command in the middle of writing the records does better with ``StopAfter``: the first Ctrl-C asks it to
stop at the next safe point (``run``: after the round in play), the second stops it at once.
"""

from __future__ import annotations

import signal
import sys
import threading
from types import FrameType, TracebackType

EXIT_INTERRUPTED = 130


class StopAfter:
    """While entered, SIGINT sets ``requested`` (saying ``what`` it waits for) instead of raising
    ``KeyboardInterrupt``; a second SIGINT raises it as usual. The previous handler is put back on exit."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.requested = threading.Event()
        self._previous: object = None

    def __enter__(self) -> StopAfter:
        # Only the main thread may set a signal handler (a command run from a test's or a service's thread keeps
        # Python's: an interrupt there is the main thread's business).
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._interrupted)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)  # type: ignore[arg-type]

    def _interrupted(self, signum: int, frame: FrameType | None) -> None:
        if self.requested.is_set():
            raise KeyboardInterrupt
        self.requested.set()
        print(f"\ntablectl: interrupted: stopping {self.what} (Ctrl-C again to stop at once)", file=sys.stderr, flush=True)
