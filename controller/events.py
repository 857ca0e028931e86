"""The table's event log: one structlog record per thing that happens at the table.

Every event carries the table id, the round id (``None`` for table-level
events such as a shuffle between rounds), a monotonic sequence number and a UTC
timestamp. Events are written as JSON lines for machines and, when asked, in
structlog's console format for a person watching a terminal. Sinks (the
journal, the console page) receive the same dict the log writes.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from typing import Any, TextIO

import structlog

Sink = Callable[[dict[str, Any]], None]


def _json_logger(stream: TextIO) -> Any:
    return structlog.wrap_logger(
        structlog.WriteLogger(stream),
        processors=[
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.dict_tracebacks,
            structlog.processors.JSONRenderer(sort_keys=False),
        ],
    )


def _console_logger(stream: TextIO) -> Any:
    return structlog.wrap_logger(
        structlog.WriteLogger(stream),
        processors=[
            structlog.processors.TimeStamper(fmt="%H:%M:%S", utc=True),
            structlog.dev.ConsoleRenderer(colors=stream.isatty()),
        ],
    )


class EventLog:
    """Numbers, stamps and writes table events. ``emit`` returns the record it wrote."""

    def __init__(
        self,
        table_id: str,
        *,
        json_stream: TextIO | None = None,
        console_stream: TextIO | None = None,
        first_seq: int = 1,
    ) -> None:
        self.table_id = table_id
        self._seq = itertools.count(first_seq)
        self._loggers = [
            *([_json_logger(json_stream)] if json_stream else []),
            *([_console_logger(console_stream)] if console_stream else []),
        ]
        self._sinks: list[Sink] = []
        self.last_seq = first_seq - 1

    def subscribe(self, sink: Sink) -> None:
        self._sinks.append(sink)

    def emit(self, event: str, round_id: str | None, **fields: Any) -> dict[str, Any]:
        seq = next(self._seq)
        self.last_seq = seq
        record: dict[str, Any] = {"table": self.table_id, "round": round_id, "seq": seq, **fields}
        for sink in self._sinks:
            sink({"event": event, **record})
        for logger in self._loggers:
            logger.info(event, **record)
        return {"event": event, **record}


def stderr_console() -> TextIO | None:
    """The terminal to show events on, if stderr is one."""
    return sys.stderr if sys.stderr.isatty() else None
