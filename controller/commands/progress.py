"""Progress on long work: a bar with its ETA on a terminal, nothing anywhere else.

One helper for every long command (``edge``, ``odds``, ``vision enroll``, long
``run``\\ s) and the benchmarks::

    from controller.commands.progress import progress

    with progress("enrolling aisleriot-anglo", total=53, unit="card") as advance:
        for face in faces:
            ...
            advance()              # one step; advance(n) for n steps
        advance.print("a line")    # printed above the bar, not through it

The bar goes to standard error and only when standard error is a terminal, so
a pipe, a log file, systemd's journal or a test's capture get none of it (and
standard output stays the command's result). Set ``TABLECTL_PROGRESS=0`` to
silence it on a terminal too. ``total=None`` shows a count and a rate without
an ETA.

Code that may not import this module (the rules, ``vision``, ``drivers``:
see docs/architecture.md) takes a plain callable as a parameter, typed
``Advance`` (``Callable[[int], None]``), and calls it with the steps done; the
command passes the ``advance`` it got here.

Why tqdm: one small pure-Python package with no dependencies, ETA and rate
out of the box, thread-safe updates, and ``tqdm.write`` to print lines above
a live bar. rich does the same with a larger dependency tree, and its presence
changes how structlog renders exceptions on the console.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO, TypeVar

from tqdm import tqdm

Advance = Callable[[int], None]
"""What long work takes to report progress: called with the number of steps just done."""

T = TypeVar("T")


def on_terminal(stream: TextIO | None = None) -> bool:
    """Whether a bar may be drawn on ``stream`` (standard error by default)."""
    stream = stream or sys.stderr
    if os.environ.get("TABLECTL_PROGRESS", "1") == "0":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Progress:
    """The handle ``progress()`` yields: call it to advance, ``print`` to write a line above the bar."""

    def __init__(self, bar: tqdm[Any] | None) -> None:
        self._bar = bar

    def __call__(self, steps: int = 1) -> None:
        if self._bar is not None:
            self._bar.update(steps)

    @property
    def shown(self) -> bool:
        """Whether a bar is on the terminal."""
        return self._bar is not None

    def total(self, total: int | None) -> None:
        """Set (or correct) the number of steps once it is known."""
        if self._bar is not None:
            self._bar.total = total
            self._bar.refresh()

    def print(self, text: str, file: TextIO | None = None) -> None:
        """Print ``text`` (to standard output by default) without breaking the bar."""
        out = file or sys.stdout
        if self._bar is None:
            print(text, file=out, flush=True)
        else:
            tqdm.write(text, file=out)


@contextmanager
def progress(label: str, total: int | None = None, *, unit: str = "step", stream: TextIO | None = None,
             show: bool = True) -> Iterator[Progress]:
    """A progress bar for ``total`` steps labelled ``label``, drawn only on a terminal (see the module) and
    when ``show`` (false: the caller shows progress otherwise, e.g. every event with ``-v``)."""
    stream = stream or sys.stderr
    if not show or not on_terminal(stream):
        yield Progress(None)
        return
    bar: tqdm[Any] = tqdm(total=total, desc=label, unit=unit, file=stream, leave=False, dynamic_ncols=True,
                             mininterval=0.25, smoothing=0.1)
    stop = threading.Event()
    ticker = threading.Thread(target=_tick, args=(bar, stop), name="progress-clock", daemon=True)
    ticker.start()
    try:
        yield Progress(bar)
    finally:
        stop.set()
        ticker.join()
        bar.close()


def _tick(bar: tqdm[object], stop: threading.Event) -> None:
    """Redraw the bar every second, so its clock runs while a long step (one pay table, one fit) is under way."""
    while not stop.wait(1.0):
        bar.refresh()


def track(items: Iterable[T], label: str, total: int | None = None, *, unit: str = "step") -> Iterator[T]:
    """``items``, advancing a bar by one for each (``total`` defaults to ``len(items)`` where it has one)."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with progress(label, total, unit=unit) as advance:
        for item in items:
            yield item
            advance(1)
