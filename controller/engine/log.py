"""The table's event log: one structlog record per thing that happens at the table.

Every event carries the table id, the round id (``None`` for table-level
events such as a shuffle between rounds), a monotonic sequence number and a UTC
timestamp. Events are written as JSON lines for machines and, when asked, in
structlog's console format for a person watching a terminal. Sinks (the
console page) receive the same dict the log writes.

With a journal (``controller.records.journal``) an event is written there first, and
only once it is durable does it reach the sinks and the log outputs: what the
dealer sees has always been journaled. Events emitted inside ``atomic()`` (one
input to a round and all it sets off) are journaled in one transaction: all of
them or none.
Secret-looking fields are redacted before anything is written
(``controller.engine.redact``). The table's JSON stream is its audit trail
(``controller.records.audit.ChainedFile``), which numbers, chains and signs each line.

Events are the typed records of ``controller.events``: a writer constructs one
and ``emit`` stamps its envelope (table, sequence number, time); the journal,
the sinks and the log outputs all get the stamped event as it reads back from
its stored form.
"""

from __future__ import annotations

import datetime as dt
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TextIO, TypeVar

import structlog

from controller.engine.redact import redact, redact_secrets
from controller.engine.visibility import Audience, Screens
from controller.events import ClockSteppedBack, Event, from_record, stamped, to_record
from controller.records.audit import LogOutputError

Sink = Callable[[Event], None]
E = TypeVar("E", bound=Event)

CLOCK_STEP = dt.timedelta(seconds=1)
"""How far before the last record's time the clock may give a time before that is a step back (a time server's
small corrections, and two threads' stamps, stay under it)."""


def iso(moment: dt.datetime) -> str:
    """A record's timestamp: UTC, ISO 8601, ``Z``."""
    return moment.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def span(seconds: float) -> str:
    """A duration as a person reads it: ``2 h 00 min``, ``5 min 12 s``, ``3 s``."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


class WriteAhead(Protocol):
    """Where events go before anything else: ``controller.records.journal.Journal``."""

    last_seq: int

    def append(self, events: Sequence[Event]) -> None: ...


def _json_logger(stream: TextIO) -> Any:
    return structlog.wrap_logger(
        structlog.WriteLogger(stream),
        processors=[redact_secrets, structlog.processors.JSONRenderer(sort_keys=False)],
    )


def _console_logger(stream: TextIO) -> Any:
    return structlog.wrap_logger(
        structlog.WriteLogger(stream),
        processors=[
            redact_secrets,
            structlog.processors.TimeStamper(fmt="%H:%M:%S", utc=True),
            structlog.dev.ConsoleRenderer(colors=stream.isatty()),
        ],
    )


def as_written(event: E) -> E:
    """``event`` as it reads back from its stored form, secrets redacted: what the journal, the sinks and the log get."""
    written = from_record(redact(to_record(event)))
    assert isinstance(written, type(event))
    return written


class EventLog:
    """Numbers, stamps, journals and writes table events. ``emit`` returns the record it wrote."""

    def __init__(
        self,
        table_id: str,
        *,
        json_stream: TextIO | None = None,
        console_stream: TextIO | None = None,
        first_seq: int | None = None,
        journal: WriteAhead | None = None,
    ) -> None:
        self.table_id = table_id
        self.journal = journal
        if first_seq is None:
            first_seq = journal.last_seq + 1 if journal else 1
        self.last_seq = first_seq - 1
        self._loggers = [
            *([(_json_logger(json_stream), Audience.RECORD)] if json_stream else []),
            *([(_console_logger(console_stream), Audience.TERMINAL)] if console_stream else []),
        ]
        self.screens = Screens()
        """The rounds in play, to decide what of each event a screen (the terminal, the console) may get."""
        self._sinks: list[Sink] = []
        self._batch: list[Event] | None = None
        self.clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC)
        """Where record times come from (UTC); a test may set it back."""
        self.last_time: tuple[dt.datetime, int] | None = None
        """The last record's time and sequence number (the journal's on opening): a clock giving an earlier time has
        stepped back (``clock_stepped_back``)."""

    def subscribe(self, sink: Sink) -> None:
        self._sinks.append(sink)

    def emit(self, event: E) -> E:
        """Stamp ``event`` with the table, the next sequence number and the time; journal it, then publish it.
        A time earlier than the last record's is journaled first as ``clock_stepped_back`` (``_stepped_back``)."""
        seq = self.last_seq + 1 + len(self._batch or ())
        now = self.clock()
        stamp = iso(now)
        records: list[Event] = []
        step = self._stepped_back(now, seq)
        if step is not None:
            records.append(as_written(stamped(step, table=self.table_id, seq=seq, timestamp=stamp)))
            seq += 1
        written = as_written(stamped(event, table=self.table_id, seq=seq, timestamp=stamp))
        records.append(written)
        if self._batch is not None:
            self._batch.extend(records)
            return written
        self._commit(records)
        return written

    def _stepped_back(self, now: dt.datetime, seq: int) -> ClockSteppedBack | None:
        """The warning to journal when the clock gives ``now`` more than ``CLOCK_STEP`` before the last record's time
        (once per step: the records after it are compared with the clock as it now is); ``None`` otherwise."""
        last, self.last_time = self.last_time, (now, seq)
        if last is None or last[0] - now <= CLOCK_STEP:
            return None
        seconds = (last[0] - now).total_seconds()
        message = (f"the table's clock stepped back {span(seconds)}: it now says {iso(now)}, but record {last[1]} was "
                   f"stamped {iso(last[0])}; records are stamped by the clock as it is, their order is the sequence "
                   "number's; reports by time (tablectl rounds --since) file the rounds after the step under the "
                   "earlier times: set the table's clock (timedatectl) and tell the pit")
        return ClockSteppedBack(previous=iso(last[0]), previous_seq=last[1], seconds=seconds, message=message)

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Journal the events emitted inside in one transaction; publish them only once it commits.

        Blocks nest (the outermost commits). If the block raises, the events it
        emitted before (a refusal, a fault) still describe what happened: they
        are committed, then the exception goes on.
        """
        if self._batch is not None:
            yield
            return
        self._batch = []
        try:
            yield
        finally:
            batch, self._batch = self._batch, None
            self._commit(batch)

    def _commit(self, events: list[Event]) -> None:
        if not events:
            return
        if self.journal is not None:
            self.journal.append(events)
        self.last_seq = events[-1].seq
        for event in events:
            for sink in self._sinks:
                sink(event)
            self.write_outputs(event)

    def write_outputs(self, event: Event) -> None:
        """Write an event to the log outputs only."""
        self.write_stored(to_record(event))

    def write_stored(self, record: dict[str, Any]) -> None:
        """Write a record as the journal stores it to the log outputs only: catching the log up with the journal
        writes exactly what the journal holds (a record from before the typed events included), never a re-encoding."""
        try:
            for logger, audience in self._loggers:
                seen = self.screens.event(record, audience)
                logger.info(seen["event"], **{k: v for k, v in seen.items() if k != "event"})
        except LogOutputError as exc:
            raise LogOutputError(f"{exc}; seq {record['seq']} ({record['event']}) is in the journal and is written to "
                                 "the log on restart") from None
        except OSError as exc:
            raise LogOutputError(f"event log: writing seq {record['seq']} ({record['event']}) failed: {exc}; "
                                 "it is in the journal and is written to the log on restart (exit 3)") from None


def route_stdlib_logging(stream: TextIO | None = None, level: int = logging.WARNING) -> logging.Handler:
    """Send what libraries log through the standard ``logging`` module (the drivers, pyserial, transitions)
    to ``stream`` as structlog JSON lines, so a table PC's logs have one format."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            processor=structlog.processors.JSONRenderer(),
            foreign_pre_chain=[
                structlog.stdlib.add_log_level,
                structlog.stdlib.add_logger_name,
                structlog.processors.TimeStamper(fmt="iso", utc=True),
            ],
        )
    )
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(min(root.level or level, level))
    return handler
