"""The shuffle tests' kernels compiled ahead of the cards, so that no card waits for numba.

numba compiles each kernel on its first call (about a minute of CPU for all of
them at a fresh install, well over on a busy table PC) and keeps the result
in its cache (``__pycache__`` beside the modules, or ``NUMBA_CACHE_DIR``); a
later process loads them from there in under a second. ``start`` runs every
kernel once, on small shoes and with the argument types the monitor gives
them, in a background thread begun when the table opens; until it is done a
table's monitor keeps the cards it is fed and tests them all at once when the
kernels are ready (tested late, none untested), and a round that would settle
before then waits for them (``ShuffleWatch.doubt(settling=True)``).
``tablectl shuffle warm`` (run at install, or as the service's
``ExecStartPre``) fills the cache so that even the first table never waits.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from controller.engine.shuffle import compiled


class _WarmUp:
    """The one background compile of a process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            exercise()
        except BaseException as exc:  # noqa: BLE001 - kept for ``warm``; the monitor then compiles on use as before
            self.failure = exc
        finally:
            compiled.READY.set()


_WARM_UP = _WarmUp()


def exercise() -> None:
    """Call every kernel the monitor calls, with the types it calls them with (compiling or loading each)."""
    from controller.engine.shuffle.monitor import exercise as monitor_exercise  # here: the monitor imports this module

    monitor_exercise()


def kernels_ready() -> int:
    """How many of the shuffle tests' kernels have their code in this process (compiled, or loaded from the cache);
    the ``_`` helpers are compiled into their callers and not counted."""
    from controller.engine.shuffle import forward, kernels

    return sum(1 for module in (kernels, forward) for name, kernel in vars(module).items()
               if not name.startswith("_") and getattr(kernel, "signatures", None))


def start() -> None:
    """Begin compiling in the background (once a process; later calls do nothing)."""
    with _WARM_UP.lock:
        if _WARM_UP.thread is None:
            _WARM_UP.thread = threading.Thread(target=_WARM_UP.run, name="shuffle-kernels-warm-up", daemon=True)
            _WARM_UP.thread.start()


def ready() -> bool:
    """Whether every kernel is compiled (a warm-up that failed counts as done: the kernels compile on use)."""
    return compiled.ready()


def wait(timeout: float | None = None) -> bool:
    """Start the warm-up if need be and wait for it; whether it is done."""
    start()
    return compiled.wait(timeout)


def warm() -> float:
    """Compile (or load) every kernel now, in this thread; the seconds it took. Raises what the compile raised."""
    began = time.monotonic()
    start()
    compiled.wait()
    if _WARM_UP.failure is not None:
        raise _WARM_UP.failure
    return time.monotonic() - began


def cache_dir() -> str:
    """Where numba keeps the compiled kernels."""
    from numba.core import config

    return str(getattr(config, "CACHE_DIR", "") or Path(__file__).parent / "__pycache__")
