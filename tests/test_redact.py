"""Secrets never reach the logs: the redaction processor, in the event log, the journal and any structlog chain."""

from __future__ import annotations

import io
import json
from pathlib import Path

import structlog
from hypothesis import given, strategies as st

from controller.engine.log import EventLog
from controller.engine.redact import REDACTED, redact, redact_secrets
from controller.events import PositionPassed, to_record
from tests.helpers import new_journal


def test_an_event_with_a_secret_is_redacted_in_the_log_the_journal_and_the_sinks(tmp_path: Path) -> None:
    stream = io.StringIO()
    seen = []
    with new_journal(tmp_path / "j.sqlite") as journal:
        log = EventLog("T1", json_stream=stream, journal=journal)
        log.subscribe(seen.append)
        log.emit(PositionPassed(details={"user": "pit-boss", "token": "s3cr3t-token", "settings": {"db_password": "hunter2"}}))
        stored = journal.stored()[0]
    text = stream.getvalue() + json.dumps(stored) + json.dumps([to_record(e) for e in seen])
    assert "s3cr3t-token" not in text and "hunter2" not in text
    assert json.loads(stream.getvalue())["token"] == REDACTED and stored["settings"]["db_password"] == REDACTED
    assert stored["user"] == "pit-boss"


def test_the_processor_redacts_any_structlog_chain() -> None:
    out = io.StringIO()
    logger = structlog.wrap_logger(structlog.WriteLogger(out), processors=[redact_secrets, structlog.processors.JSONRenderer()])
    logger.info("connect", api_key="abc", Authorization="Bearer xyz", port="/dev/tablectl-shoe")
    record = json.loads(out.getvalue())
    assert record == {"api_key": REDACTED, "Authorization": REDACTED, "port": "/dev/tablectl-shoe", "event": "connect"}


@given(st.dictionaries(st.sampled_from(["token", "x_secret", "PassWord", "card", "spot", "amount"]), st.text(min_size=1), max_size=6))
def test_no_secret_value_survives_and_nothing_else_changes(fields: dict[str, str]) -> None:
    cleaned = redact({"nested": [fields], **fields})
    for key, value in fields.items():
        secret = key.lower() in ("token", "x_secret", "password")
        assert (cleaned[key] == REDACTED) if secret else (cleaned[key] == value)
        assert cleaned["nested"][0][key] == cleaned[key]
