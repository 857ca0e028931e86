"""A linked table whose floor cannot be reached asks for its award quietly: no library traceback on the table's screen.

Found by a regulator's auditor cutting a linked High Card Flush table off its floor mid-shift: while the round held
for its award, `tablectl run` printed every 2 s on stderr a JSON line of the NATS client's own,
`{"event": "nats: encountered error", "exc_info": [..., "<traceback object at 0x...>"], ...}`, over the table's own
one-line messages. The table's outbox says once, in words, that the floor cannot be reached; asking for an award
says nothing until the floor answers.
"""

from __future__ import annotations

import logging
import socket

import pytest

from controller.floor.jackpot_client import JackpotClient


def _refused_port() -> int:
    """A loopback port nobody listens on (bound, then closed: connecting to it is refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_asking_for_an_award_while_the_floor_is_away_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    client = JackpotClient([f"nats://127.0.0.1:{_refused_port()}"], "audit", "hcf")
    with caplog.at_level(logging.DEBUG):
        assert client.award("HCF-01.HCF-01-R1.1", timeout=1.0) is None
        assert client.meter(timeout=1.0) is None
    said = [(record.name, record.getMessage()) for record in caplog.records if record.levelno >= logging.WARNING]
    assert said == [], said
