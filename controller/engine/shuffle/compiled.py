"""Whether this process has the shuffle tests' kernels compiled.

``warm`` compiles them (in the background from a table's opening) and sets ``READY``; a monitor that defers its
tests until then (``ShuffleMonitor(defer=True)``, whose watch has started the warm-up) asks and waits here. A module
of its own so that the monitor does not import ``warm``, which runs the monitor's exercise.
"""

from __future__ import annotations

import threading

READY = threading.Event()


def ready() -> bool:
    """Whether every kernel is compiled (a warm-up that failed counts as done: the kernels compile on use)."""
    return READY.is_set()


def wait(timeout: float | None = None) -> bool:
    """Wait for the warm-up a watch started; whether it is done."""
    return READY.wait(timeout)
